"""What a designer's own game prints around its cards: the card sheets' contents page (no rulebook edition, the
sets named as the designer named them, in each language) and the Tabletop Simulator deck's names (the common
back not said twice). A shipped game's contents page keeps its rulebook edition: tests/render/test_kit.py."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pypdf import PdfReader

from conftest import run_cli
from own_sheets import HEADER, ROWS, designer

pytestmark = pytest.mark.slow


def first_page(pdf: Path) -> str:
    return " ".join(PdfReader(pdf).pages[0].extract_text().split())


def test_the_contents_page_of_an_own_game_speaks_of_its_sheet(tmp_path: Path) -> None:
    rows = [[*row, name] for row, name in zip(ROWS, ("Dragón de fuego", "Muro de hielo", "Chispa"))]
    sheet, art = designer(tmp_path, [*HEADER, "name@es", "type@es"],
                          [[*row, "Criatura" if row[1] == "Creature" else "Hechizo"] for row in rows])
    run = run_cli("new", str(tmp_path / "mine"), "--from", str(sheet), "--art", str(art))
    assert run.exit_code == 0, run.output
    out = tmp_path / "out"
    run = run_cli("--cards", str(tmp_path / "mine"), "build", "--out", str(out), "--no-docs", "--locale", "en",
                  "--locale", "es", "--allow-fallback")  # the game's name has no Spanish: said, not refused
    assert run.exit_code == 0, run.output
    english = first_page(out / "mine" / "en" / "cards-all-a4.pdf")
    assert "Rulebook edition" not in english and "rulebooks" not in english, english
    assert "Made from the designer's own card sheet" in english.replace("’", "'")
    assert "What the card sheet lists, and what this kit prints." in english
    assert "In the sheet" in english and "In the box" not in english
    assert "Cards of Cards" not in english and "Cards 6 6 cards-all-a4.pdf" in english, english
    spanish = first_page(out / "mine" / "es" / "cards-all-a4.pdf")
    assert "Hecho a partir de la hoja de cartas del propio diseñador" in spanish and "reglamentos" not in spanish
    assert "En la hoja" in spanish, spanish


def test_the_tabletop_deck_names_its_back_in_words(tmp_path: Path) -> None:
    sheet, art = designer(tmp_path)
    assert run_cli("new", str(tmp_path / "deck"), "--from", str(sheet), "--art", str(art)).exit_code == 0
    out = tmp_path / "tts"
    run = run_cli("--cards", str(tmp_path / "deck"), "export", "tts", "--out", str(out),
                  "--face-cache", str(tmp_path / "cache"))
    assert run.exit_code == 0, run.output
    saved = json.loads((out / "deck-all-en.json").read_text(encoding="utf-8"))
    deck = saved["ObjectStates"][0]
    assert deck["Description"] == "6 cards of 63 × 88 mm, common back"
    assert deck["Nickname"].endswith("· 63 × 88 mm") and "back" not in deck["Nickname"], deck["Nickname"]


def test_a_card_types_own_back_is_named_by_its_type(tmp_path: Path) -> None:
    from PIL import Image

    sheet, art = designer(tmp_path, [*HEADER, "back"], [[*row, "spell-back.png" if row[1] == "Spell" else "creature-back.png"]
                                                      for row in ROWS])
    for name, colour in (("spell-back", (20, 40, 160)), ("creature-back", (160, 40, 20))):
        Image.new("RGB", (830, 1120), colour).save(art / f"{name}.png")
    assert run_cli("new", str(tmp_path / "backed"), "--from", str(sheet), "--art", str(art)).exit_code == 0
    out = tmp_path / "tts"
    run = run_cli("--cards", str(tmp_path / "backed"), "export", "tts", "--out", str(out),
                  "--face-cache", str(tmp_path / "cache"))
    assert run.exit_code == 0, run.output
    objects = json.loads((out / "backed-all-en.json").read_text(encoding="utf-8"))["ObjectStates"]
    assert sorted(o["Description"] for o in objects) == ["2 cards of 63 × 88 mm, back of type creature",
                                                         "4 cards of 63 × 88 mm, back of type spell"]
    assert sorted(o["Nickname"].rsplit(" · ", 1)[1] for o in objects) == ["back of type creature", "back of type spell"]


def test_the_guide_names_every_file_build_writes_and_an_empty_number_prints_nothing(tmp_path: Path) -> None:
    from conftest import REPO
    from own_sheets import write_csv

    sheet = write_csv(tmp_path / "cards.csv", ["name", "cost:number", "text"],
                      [["Fire Drake", "3", "Hot."], ["Ghost", "", "Boo."]])
    assert run_cli("new", str(tmp_path / "my-game"), "--from", str(sheet)).exit_code == 0
    out = tmp_path / "build"
    run = run_cli("--cards", str(tmp_path / "my-game"), "build", "--out", str(out), "--no-docs", "--layout", "silhouette")
    assert run.exit_code == 0, run.output
    written = sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file() and ".cache" not in p.parts)
    guide = (REPO / "docs" / "your-own-game.md").read_text(encoding="utf-8")
    table = guide.split("`build` writes, under `build/`:", 1)[1].split("\n\n", 2)[1]
    named = [name for name in written if f"`{name}`" in table]
    assert written and named == written, (written, table)
    shop = PdfReader(out / "my-game" / "en" / "print-shop" / "cards-all.pdf")
    faces = [" ".join(page.extract_text().split()) for page in shop.pages[:2]]
    assert "3" in faces[0] and "Ghost" in faces[1] and not any(c.isdigit() for c in faces[1]), faces


def test_an_empty_quantity_cell_is_the_sheets_gap_not_the_rulebooks(tmp_path: Path) -> None:
    sheet = tmp_path / "q.csv"
    sheet.write_text("name,quantity\nAnvil,2\nBellows,\n", encoding="utf-8")
    assert run_cli("new", str(tmp_path / "mine"), "--from", str(sheet)).exit_code == 0
    out = tmp_path / "out"
    run = run_cli("--cards", str(tmp_path / "mine"), "build", "--out", str(out), "--no-docs", "--locale", "en")
    assert run.exit_code == 0, run.output
    page = first_page(out / "mine" / "en" / "cards-all-a4.pdf")
    assert "the card sheet leaves some quantities empty: each of those cards is printed once" in page, page
    assert "rulebooks" not in page and "what is printed on it" not in page
