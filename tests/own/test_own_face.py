"""The default face of a game without rules: the declared fields printed at two card sizes, overflowing text an
error naming the card and its part under --strict, and a designer's own template replacing it."""

from __future__ import annotations

from pathlib import Path

import pytest
from pypdf import PdfReader

from conftest import run_cli
from own_sheets import HEADER, ROWS, designer

pytestmark = pytest.mark.slow


def text_of(pdf: Path) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(pdf).pages)


def test_the_declared_fields_are_printed_at_two_sizes(tmp_path: Path) -> None:
    rows = [[*row, "big" if number else "small"] for number, row in enumerate(ROWS)]
    sheet, art = designer(tmp_path, [*HEADER, "set"], rows)
    run = run_cli("new", str(tmp_path / "duo"), "--from", str(sheet), "--art", str(art), "--size", "big=88x126")
    assert run.exit_code == 0, run.output
    out = tmp_path / "out"
    run = run_cli("--cards", str(tmp_path / "duo"), "build", "--out", str(out), "--strict", "--no-docs")
    assert run.exit_code == 0, run.output
    small, big = out / "duo" / "en" / "cards-all-a4.pdf", out / "duo" / "en" / "cards-all-88x126-a4.pdf"
    small_text, big_text = text_of(small), text_of(big)
    for expected in ("Fire Drake", "Creature", "Fire", "Deals 2 damage.", "Hot.", "Ana"):
        assert expected in small_text, expected
    for expected in ("Ice Wall", "Spark", "Spell", "Water", "Stops one attack."):
        assert expected in big_text, expected
    assert "†" not in small_text + big_text  # the sheet states every field it gives: nothing is marked unstated
    trims = {tuple(round(float(v)) for v in page.trimbox[2:]) for page in PdfReader(big).pages[1:]}
    assert trims and all(size[1] > 300 for size in trims), trims  # A4 sheets of 88 × 126 mm cards


def test_text_that_overflows_is_an_error_naming_the_card_and_its_part(tmp_path: Path) -> None:
    rows = [list(row) for row in ROWS]
    rows[1][4] = "Stops one attack and then another and then another. " * 22  # under the 1,200 characters a text may have
    sheet, art = designer(tmp_path, HEADER, rows)
    assert run_cli("new", str(tmp_path / "wordy"), "--from", str(sheet), "--art", str(art)).exit_code == 0
    run = run_cli("--cards", str(tmp_path / "wordy"), "build", "--out", str(tmp_path / "out"), "--strict", "--no-docs")
    assert run.exit_code == 1
    assert "sets/cards.json:/cards/1/rules: [text-overflow] en: the card's rules does not fit its place" in run.output


def test_a_designers_own_template_replaces_the_default_face(tmp_path: Path) -> None:
    template = tmp_path / "face.html.j2"
    template.write_text('<section class="page face" id="card-{{ face.id }}"><div class="card"><p>MY FACE '
                        '{{ face.values.name }} costs {{ face.values.cost }}</p></div></section>\n', encoding="utf-8")
    sheet, art = designer(tmp_path)
    run = run_cli("new", str(tmp_path / "mine"), "--from", str(sheet), "--art", str(art), "--template", str(template))
    assert run.exit_code == 0, run.output
    assert (tmp_path / "mine" / "templates" / "cards" / "face.html.j2").is_file()
    out = tmp_path / "out"
    assert run_cli("--cards", str(tmp_path / "mine"), "build", "--out", str(out), "--no-docs").exit_code == 0
    assert "MY FACE Fire Drake costs 3" in text_of(out / "mine" / "en" / "cards-all-a4.pdf")


def test_the_live_preview_shows_the_default_face(tmp_path: Path) -> None:
    import io

    from PIL import Image
    from starlette.testclient import TestClient

    from cardworks.serve import Preview, ServeOptions, create_app

    sheet, art = designer(tmp_path)
    assert run_cli("new", str(tmp_path / "live"), "--from", str(sheet), "--art", str(art)).exit_code == 0
    preview = Preview(ServeOptions(tmp_path / "live"))
    client = TestClient(create_app(preview, watching=False), base_url="http://127.0.0.1")
    preview.ensure(preview.options.locale or "en")  # the page comes first; its faces are drawn after it
    html = client.get("/deck").text
    tiles = [card for card in ("fire-drake", "ice-wall", "spark") if f'id="tile-{card}"' in html]
    assert tiles == ["fire-drake", "ice-wall", "spark"]
    key = html.split('src="/faces/', 1)[1].split(".png", 1)[0]
    image = Image.open(io.BytesIO(client.get(f"/faces/{key}.png").content))
    assert image.size == (407, 555) and len(set(image.convert("L").getdata())) > 20  # a drawn poker face
