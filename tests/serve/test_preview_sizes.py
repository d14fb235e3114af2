"""The preview shows the card that is printed (issue 44): each card's own back and size (as the PDFs have
them), every set while one file is broken, the pack's name, a page before its faces, a taken port refused.

On the multi-size pack of ``tests/multisize.py`` (poker, mini and square cards; a set back, a type back and
the common back), through Starlette's test client."""

from __future__ import annotations

import io
import json
import re
import socket
from pathlib import Path

import pytest
from PIL import Image
from starlette.testclient import TestClient

from cardworks.serve import Preview, ServeOptions, create_app
from conftest import REPO, run_cli
from multisize import NAVY, TEAL, expected_back, multisize_pack, size_of

LOCAL = "http://127.0.0.1"
DPI = 150


def _near(pixel: tuple[int, ...], colour: tuple[int, int, int]) -> bool:
    return all(abs(a - b) <= 12 for a, b in zip(pixel, colour))


def _kinds(pack: Path) -> dict[str, str]:
    return {c["id"]: c["types"][0] for path in (pack / "sets").glob("*.json")
            for c in json.loads(path.read_text(encoding="utf-8"))["cards"]}


@pytest.fixture
def pack(tmp_path: Path) -> Path:
    return multisize_pack(tmp_path / "pack")


def _preview(pack: Path, **more) -> Preview:
    return Preview(ServeOptions(REPO / "cards", (pack,), locale="en", **more))


def _png(client: TestClient, key: str) -> Image.Image:
    response = client.get(f"/faces/{key}.png")
    assert response.status_code == 200
    return Image.open(io.BytesIO(response.content)).convert("RGB")


@pytest.mark.slow
def test_each_card_page_shows_its_own_back_at_its_own_size(pack: Path) -> None:
    preview = _preview(pack)
    client = TestClient(create_app(preview, watching=False), base_url=LOCAL)
    kinds = _kinds(pack)
    checked = 0
    for card_id in ("example-orxata", "example-cavaller", "mini-a", "mini-b", "square-a", "square-b"):
        html = client.get(f"/card/{card_id}?locale=en").text
        front = re.search(r'src="/faces/([0-9a-f]{64})\.png" alt="[^"]*\(front\)" width="(\d+)" height="(\d+)"', html)
        back = re.search(r'class="face back" src="/faces/([0-9a-f]{64})\.png" alt="back" width="(\d+)" height="(\d+)"', html)
        assert front and back, card_id
        assert back.group(1) == preview._face_sets["en"].keys[expected_back(card_id, kinds[card_id])], card_id
        width, height = size_of(card_id)
        for match in (front, back):  # the image drawn at 150 dpi, trim and 3 mm bleed, and shown at one scale
            image = _png(client, match.group(1))
            assert image.size == (round((width + 6) / 25.4 * DPI), round((height + 6) / 25.4 * DPI)), card_id
            assert int(match.group(2)) / int(match.group(3)) == pytest.approx((width + 6) / (height + 6), abs=0.01)
            assert int(match.group(2)) == pytest.approx((width + 6) * 407 / 69, abs=1)
        centre = _png(client, back.group(1)).getpixel((10, 10))  # the back's art covers trim and bleed
        colour = TEAL if card_id.startswith("mini") else NAVY if kinds[card_id] == "battle" else None
        assert (colour is None and not _near(centre, NAVY) and not _near(centre, TEAL)) or _near(centre, colour), card_id
        checked += 1
    assert checked == 6


@pytest.mark.slow
def test_the_deck_page_comes_before_its_faces_and_fills_in(pack: Path) -> None:
    preview = _preview(pack)
    client = TestClient(create_app(preview, watching=False), base_url=LOCAL)
    first = client.get("/deck").text  # nothing drawn yet: the page does not wait for the renderer
    assert "drawing faces: 0 of 18 drawn" in first and first.count("drawing…") == 18
    assert "<title>An example expansion pack (en) · cardworks preview</title>" in first
    preview.ensure("en")
    html = client.get("/deck").text
    assert 'data-waiting="0"' in html and "18 face(s) drawn" in html
    shown = dict(re.findall(r'id="tile-([a-z-]+)".*?<img class="face" src="[^"]+" alt="[^"]*" width="(\d+)"', html, re.S))
    assert len(shown) == 18
    for card_id, width in shown.items():  # every tile at one scale: sizes compare as printed
        assert int(width) == round((size_of(card_id)[0] + 6) * 204 / 69), card_id


@pytest.mark.slow
def test_a_broken_set_file_leaves_the_other_sets_and_is_marked(pack: Path) -> None:
    square = pack / "sets" / "square-set.json"
    good = square.read_text(encoding="utf-8")
    square.write_text(good[:-3], encoding="utf-8")
    preview = _preview(pack)  # broken from the start: its cards were never read
    ids = {c.id for c in preview.snapshot.cards}
    assert len(ids) == 16 and not any(i.startswith("square") for i in ids)
    assert [u.file for u in preview.snapshot.unreadable] == ["pack/sets/square-set.json"]
    html = TestClient(create_app(preview, watching=False), base_url=LOCAL).get("/deck").text
    assert "16 of 16 designs shown" in html and "pack/sets/square-set.json cannot be read" in html
    assert "[json-syntax]" in html
    square.write_text(good, encoding="utf-8")
    preview.refresh()
    assert len(preview.snapshot.cards) == 18 and not preview.snapshot.unreadable  # fixed: the set comes back
    square.write_text(good[:-3], encoding="utf-8")
    preview.refresh()
    cards = {c.id: c for c in preview.snapshot.cards}
    assert len(cards) == 18 and {i for i, c in cards.items() if c.broken} == {"square-a", "square-b"}
    named = _preview(pack, selection="example-set+square-set")  # --set names the broken set: the rest stays
    assert len(named.snapshot.cards) == 14 and not named.snapshot.blocking
    assert [u.file for u in named.snapshot.unreadable] == ["pack/sets/square-set.json"]


def test_the_title_is_the_packs_name(pack: Path) -> None:
    assert _preview(pack).snapshot.title == "An example expansion pack"


def test_a_taken_port_is_refused_before_anything_is_printed(pack: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        result = run_cli("--cards", str(REPO / "cards"), "serve", str(pack), "--port", str(port))
    assert result.exit_code == 2, result.output
    assert f"port {port} on 127.0.0.1 is already in use" in result.output and "http://" not in result.output


@pytest.mark.slow
def test_the_first_page_comes_before_the_data_is_checked(pack: Path) -> None:
    preview = Preview(ServeOptions(REPO / "cards", (pack,), locale="en"), defer=True)  # as `cardworks serve` does
    try:
        client = TestClient(create_app(preview, watching=False), base_url=LOCAL)
        html = client.get("/deck").text
        assert not preview.ready.is_set()
        assert 'data-loading="1"' in html and "reading and checking the data…" in html
        assert "<title>An example expansion pack (en) · cardworks preview</title>" in html
        preview.start()  # what the server's start-up does: check the data, then draw the faces
        assert preview.ready.wait(120)
        html = client.get("/deck").text
        assert "18 of 18 designs shown" in html and 'data-loading' not in html
    finally:
        preview.close()
