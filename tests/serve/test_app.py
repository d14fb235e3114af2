"""The preview server's pages, images and safety, through Starlette's test client (no browser).

Its safety and usage errors are checked on the fixture game ``mini``; the pages of real cards (slow: they
render faces) on a copy of the shipped Fallera database and the example pack."""

from __future__ import annotations

import io
import re

import pytest
from PIL import Image
from starlette.testclient import TestClient

from cardworks.serve import Preview, ServeOptions, create_app
from conftest import GameDir, run_cli, snapshot

from serve_fixtures import REPO, Workspace, pack_preview, workspace  # noqa: F401  (fixtures)

LOCAL = "http://127.0.0.1"


def faces_in(html: str) -> list[str]:
    return re.findall(r'src="/faces/([0-9a-f]{64})\.png"', html)


@pytest.fixture
def mini_preview(game: GameDir) -> Preview:
    """A preview of the small fixture game: the server's safety does not depend on the deck it shows."""
    game.write()
    return Preview(ServeOptions(game.cards_root, game="mini"))


def test_only_pages_and_rendered_faces_are_served(mini_preview: Preview) -> None:
    client = TestClient(create_app(mini_preview, watching=False), base_url=LOCAL)
    secret = (REPO / "pyproject.toml").read_text(encoding="utf-8")
    for path in ["/faces/../../pyproject.toml", "/faces/%2e%2e%2f%2e%2e%2fpyproject.toml.png",
                 "/faces/..%2F..%2Fpyproject.toml.png", "/card/..%2f..%2f..%2fpyproject.toml",
                 "/templates/serve/live.js", "/cards/mini/game.json", "/pyproject.toml", "/static/x.png",
                 "/faces/" + "0" * 64 + ".png", "/faces/" + "A" * 64 + ".png"]:
        response = client.get(path)
        assert response.status_code == 404, path
        assert "[project]" not in response.text and secret[:200] not in response.text
    assert client.get("/card/not-a-card").status_code == 404


def test_requests_for_other_hosts_are_refused(mini_preview: Preview) -> None:
    """A page of another site resolving its name to 127.0.0.1 (DNS rebinding) cannot read the preview."""
    client = TestClient(create_app(mini_preview, watching=False), base_url="http://evil.example")
    assert client.get("/card/capita").status_code == 400


def test_the_host_check_covers_every_loopback_address() -> None:
    """127.0.0.2 (or ::1) is as reachable by DNS rebinding as 127.0.0.1: only its own name is answered."""
    from cardworks.serve import allowed_hosts

    assert allowed_hosts("127.0.0.1") == ["127.0.0.1", "localhost"]
    assert allowed_hosts("127.0.0.2") == ["127.0.0.2", "localhost"]
    assert allowed_hosts("::1") == ["::1", "localhost"]
    assert allowed_hosts("0.0.0.0") == ["*"] and allowed_hosts("192.168.1.5") == ["*"]


def test_usage_errors_exit_2(game: GameDir, tmp_path) -> None:
    game.write()
    root = str(game.cards_root)
    result = run_cli("--cards", root, "serve", "--game", "nonesuch")
    assert result.exit_code == 2 and "unknown game 'nonesuch'" in result.output
    empty = tmp_path / "not-a-pack"
    empty.mkdir()
    result = run_cli("--cards", root, "serve", str(empty))
    assert result.exit_code == 2 and "pack.json" in result.output
    result = run_cli("--cards", root, "serve", "--game", "mini", "--locale", "xx")
    assert result.exit_code == 2 and "no locale 'xx'" in result.output


@pytest.mark.slow
def test_deck_page_shows_every_card_as_its_face_with_facts_and_filters(pack_preview: Preview) -> None:
    client = TestClient(create_app(pack_preview, watching=False), base_url=LOCAL)
    for locale in ("en", "es"):  # the page does not wait for faces (see test_preview_sizes.py): draw them first
        pack_preview.ensure(locale)
    html = client.get("/deck").text
    assert 'id="tile-example-orxata"' in html and 'id="tile-example-cavaller"' in html
    assert "cavaller d&#39;exemple" in html and "example-set" in html
    keys = faces_in(html)
    assert len(keys) == len(pack_preview.tiles("en"))  # one face per card of the pack
    for key in keys:
        response = client.get(f"/faces/{key}.png")
        assert response.headers["content-type"] == "image/png"
        image = Image.open(io.BytesIO(response.content))
        assert image.size == (407, 555)  # 69 x 94 mm (trim + bleed) at 150 dpi
        assert len(set(image.convert("L").getdata())) > 20  # a drawn face, not a blank page
    battle = client.get("/deck?type=battle").text
    assert 'id="tile-example-cavaller"' in battle and 'id="tile-example-orxata"' not in battle
    assert 'id="tile-' not in client.get("/deck?set=base").text  # the pack's deck holds only its own set
    spanish = client.get("/deck?locale=es").text
    assert len(faces_in(spanish)) == len(keys) and not set(faces_in(spanish)) & set(keys)  # each locale has its own faces
    assert 'id="tile-example-orxata"' in spanish and "horchata" not in html


@pytest.mark.slow
def test_card_problems_are_shown_with_file_and_line(workspace: Workspace) -> None:
    data = workspace.read(workspace.pack_set)
    data["cards"][1]["rules"] = "Attack with {nonsense}."
    workspace.write(workspace.pack_set, data)
    text = workspace.pack_set.read_text(encoding="utf-8").splitlines()
    line = next(i for i, row in enumerate(text, 1) if "{nonsense}" in row)
    client = TestClient(create_app(Preview(ServeOptions(workspace.cards_root, (workspace.pack,))), watching=False),
                        base_url=LOCAL)
    html = client.get("/deck?problems=1").text
    tile = html[html.index('id="tile-example-cavaller"'):]
    assert f"sets/example.json:{line} (/cards/1/rules)" in tile
    assert 'id="tile-example-orxata"' not in html  # the filter keeps only cards with problems


@pytest.mark.slow
def test_card_page_shows_every_locale_rulings_and_scenarios(workspace: Workspace) -> None:
    preview = Preview(ServeOptions(workspace.cards_root, (workspace.pack,), selection="base+example-set"))
    client = TestClient(create_app(preview, watching=False), base_url=LOCAL)
    html = client.get("/card/el-capita-moro?locale=ca").text
    for locale in ("en", "ca", "es"):
        assert f'id="locale-{locale}"' in html
    assert len(faces_in(html)) == 2 + 3  # front and back large, then the front in each locale
    assert 'alt="back"' in html
    assert 'id="ruling-example-cavaller-ties"' in html and 'id="ruling-base-situation-i"' in html
    passed = re.findall(r'<tr id="scenario-([^"]+)">.*?class="status-(\w+)"', html, re.S)
    assert passed and all(status == "passed" for _, status in passed)


@pytest.mark.slow
def test_an_edit_renders_only_the_changed_face_and_a_broken_file_shows_its_error(
        workspace: Workspace, pack_preview: Preview, monkeypatch) -> None:
    pack_preview.ensure("en")
    before = {t.card.id: t for t in pack_preview.tiles("en")}
    rendered: list[set[str]] = []
    real = pack_preview._worker.render  # faces are rendered in the worker process: count what is sent there
    monkeypatch.setattr(pack_preview._worker, "render", lambda faces, ids: rendered.append(set(ids)) or real(faces, ids))
    data = workspace.read(workspace.pack_set)
    data["cards"][1]["name"] = "cavaller renovat"
    workspace.write(workspace.pack_set, data)
    pack_preview.refresh()
    after = {t.card.id: t for t in pack_preview.tiles("en")}
    assert rendered == [{"example-cavaller"}]
    assert after["example-cavaller"].name == "cavaller renovat" and after["example-cavaller"].face != before["example-cavaller"].face
    assert after["example-orxata"].face == before["example-orxata"].face

    workspace.write(workspace.pack_set, workspace.pack_set.read_text(encoding="utf-8").replace('"quantity": 2,', '"quantity": 2'))
    pack_preview.refresh()
    broken = {t.card.id: t for t in pack_preview.tiles("en")}
    assert set(broken) == set(before)  # every card of the broken file
    for tile in broken.values():
        assert tile.card.broken and tile.face is None
        assert any(re.search(r"sets/example\.json:\d+:\d+: \[json-syntax\]", p.text) for p in tile.card.problems), tile.card.problems


@pytest.mark.slow
def test_the_server_never_writes_into_the_database(workspace: Workspace) -> None:
    folders = [workspace.cards_root, workspace.pack]
    before = [snapshot(folder) for folder in folders]
    preview = Preview(ServeOptions(workspace.cards_root, (workspace.pack,)))
    with TestClient(create_app(preview), base_url=LOCAL) as client:
        preview.ensure(preview.snapshot.default_locale)
        html = client.get("/deck").text
        assert faces_in(html)
        for key in faces_in(html):
            assert client.get(f"/faces/{key}.png").status_code == 200
        assert client.get("/card/example-orxata?locale=es").status_code == 200
        preview.refresh()
    assert [snapshot(folder) for folder in folders] == before


@pytest.mark.slow
def test_overflow_and_low_resolution_art_are_warned_next_to_the_card(workspace: Workspace) -> None:
    (workspace.pack / "art").mkdir()
    Image.new("RGB", (400, 240), "#c04020").save(workspace.pack / "art" / "small.png")  # 190 dpi: under 150 validation refuses it
    data = workspace.read(workspace.pack_set)
    data["cards"][0]["art"] = "art/small.png"
    # Under the schema's 1,200-character cap on rules text, yet more than the rules box holds.
    data["cards"][1]["rules"] = " ".join(["Attack twice, then attack again and again."] * 27)
    workspace.write(workspace.pack_set, data)
    preview = Preview(ServeOptions(workspace.cards_root, (workspace.pack,)))
    preview.ensure(preview.snapshot.default_locale)  # warnings come with the drawn face
    html = TestClient(create_app(preview, watching=False), base_url=LOCAL).get("/deck?problems=1").text
    orxata = html[html.index('id="tile-example-orxata"'):html.index('id="tile-example-cavaller"')]
    dpi = re.search(r"art small\.png is 400×240 px: (\d+) dpi at its printed size, 300 needed", orxata)
    assert dpi and 20 < int(dpi.group(1)) < 300
    cavaller = html[html.index('id="tile-example-cavaller"'):]
    assert "rules text overflows its box even at the smallest size" in cavaller
    assert "overflows" not in orxata and "small.png" not in cavaller
