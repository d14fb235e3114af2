"""``sheet export`` / ``sheet import``: round trips byte for byte, edits reach the cards and the PDF, bad cells are refused."""

from __future__ import annotations

import csv
import datetime
import json
import shutil
import subprocess
from pathlib import Path

import pytest
from openpyxl import load_workbook

from conftest import REPO, GameDir, run_cli, snapshot


def _mini_cards(game: GameDir) -> Path:
    """The fixture game ``mini`` with a flavour text on ``conill`` and three more treasures (the bad-cells test
    spoils six rows), written to edit."""
    cards = game.data("sets/base.json")
    next(c for c in cards["cards"] if c["id"] == "conill")["flavour"] = "An empty pot, a quiet table."
    for n in range(1, 4):
        cards["cards"].append({"id": f"extra-{n}", "quantity": 1, "types": ["treasure"], "name": f"extra {n}",
                               "sources": [{"doc": "rules", "section": "Cards", "lines": "1", "facts": []}]})
    cards["totals"] = {"designs": 6, "cards": 8, "by_type": {"treasure": 5, "battle": 3}}
    game.write()
    return game.cards_root


@pytest.fixture
def cards(game: GameDir) -> Path:
    """Logic tests run on the small fixture game (a sheet of six rows, one translation)."""
    return _mini_cards(game)


@pytest.fixture
def shipped_cards(tmp_path: Path) -> Path:
    """A copy of the shipped database to edit: the end-to-end test prints a real card after the import."""
    shutil.copytree(REPO / "cards", tmp_path / "cards")
    return tmp_path / "cards"


def _export(cards: Path, out: Path, game: str = "mini", locales: tuple[str, ...] = ("es",)) -> None:
    run = run_cli("--cards", str(cards), "sheet", "export", "--game", game,
                  *[arg for locale in locales for arg in ("--locale", locale)], "--out", str(out))
    assert run.exit_code == 0, run.output


@pytest.mark.parametrize("suffix", ["csv", "xlsx"])
def test_unchanged_round_trip_changes_no_byte(cards: Path, tmp_path: Path, suffix: str) -> None:
    before = snapshot(cards)
    sheet = tmp_path / f"cards.{suffix}"
    _export(cards, sheet)
    run = run_cli("--cards", str(cards), "sheet", "import", str(sheet))
    assert run.exit_code == 0, run.output
    assert "0 file(s) written" in run.output and snapshot(cards) == before


def _edit_csv(path: Path, card: str, column: str, value: str) -> None:
    rows = list(csv.reader(path.open(encoding="utf-8")))
    header = rows[0]
    for row in rows[1:]:
        if row[1] == card:
            row[header.index(column)] = value
    with path.open("w", encoding="utf-8", newline="") as handle:
        csv.writer(handle, lineterminator="\n").writerows(rows)


def test_an_edited_cell_reaches_the_card_its_translation_and_only_those_bytes(cards: Path, tmp_path: Path) -> None:
    sheet = tmp_path / "cards.csv"
    _export(cards, sheet)
    before = snapshot(cards)
    _edit_csv(sheet, "conill", "flavour", "A full pot, a quiet table.")
    _edit_csv(sheet, "conill", "alt_names", "rabbit; coney")
    _edit_csv(sheet, "conill", "name@es", "conejo")
    run = run_cli("--cards", str(cards), "sheet", "import", str(sheet))
    assert run.exit_code == 0, run.output
    after = snapshot(cards)
    assert sorted(k for k in after if after[k] != before[k]) == ["mini/i18n/es.json", "mini/sets/base.json"]
    text = after["mini/sets/base.json"].decode()
    card = next(c for c in json.loads(text)["cards"] if c["id"] == "conill")
    assert card["flavour"] == "A full pot, a quiet table." and card["alt_names"] == ["rabbit", "coney"]
    assert list(card) == list(next(c for c in json.loads(before["mini/sets/base.json"])["cards"] if c["id"] == "conill"))
    assert text == json.dumps(json.loads(text), indent=2, ensure_ascii=False) + "\n"  # same layout as before
    assert json.loads(after["mini/i18n/es.json"])["entries"]["conill"]["name"]["text"] == "conejo"


def _xlsx(cards: Path, tmp_path: Path, game: str = "mini", locales: tuple[str, ...] = ("es",)):
    """The exported workbook, its ``cards`` sheet, and each column's number by name."""
    sheet = tmp_path / "cards.xlsx"
    _export(cards, sheet, game, locales)
    book = load_workbook(sheet)
    table = book["cards"]
    return sheet, book, table, {c.value: i + 1 for i, c in enumerate(table[1])}


@pytest.mark.slow
def test_an_edited_rules_text_is_printed_on_the_card(shipped_cards: Path, tmp_path: Path) -> None:
    """End to end on the shipped database: a real card's rules, edited in the sheet, reach its printed face."""
    cards = shipped_cards
    sheet, book, table, col = _xlsx(cards, tmp_path, "fallera", ("ca", "es"))
    row = next(r for r in table.iter_rows(min_row=2) if r[1].value == "xoric")
    row[col["rules"] - 1].value = "Nobody wins while this sausage sits on the counter."
    book.save(sheet)
    assert run_cli("--cards", str(cards), "sheet", "import", str(sheet)).exit_code == 0
    out = tmp_path / "pdf"
    run = run_cli("--cards", str(cards), "export", "print-shop", "--game", "fallera", "--set", "discordia", "--out", str(out))
    assert run.exit_code == 0, run.output
    text = subprocess.run(["pdftotext", str(out / "fallera-discordia-en.pdf"), "-"], capture_output=True, text=True).stdout
    assert "sausage sits on" in " ".join(text.split())


def test_bad_cells_are_refused_with_sheet_row_and_column(cards: Path, tmp_path: Path) -> None:
    sheet, book, table, col = _xlsx(cards, tmp_path)
    table.cell(row=2, column=col["quantity"]).value = "=1+2"
    table.cell(row=3, column=col["name"]).value = datetime.date(2026, 3, 19)
    table.cell(row=4, column=col["quantity"]).value = "three"
    table.cell(row=5, column=col["id"]).value = "no-such-card"
    table.cell(row=1, column=len(col) + 1).value = "colour"
    table.merge_cells(start_row=6, start_column=col["rules"], end_row=7, end_column=col["rules"])
    book.save(sheet)
    before = snapshot(cards)
    run = run_cli("--cards", str(cards), "sheet", "import", str(sheet))
    assert run.exit_code == 1
    letter = {name: chr(ord("A") + i - 1) for name, i in col.items() if i <= 26}
    for expected in (f"cards!{letter['quantity']}2: [sheet-formula]", f"cards!{letter['name']}3: [sheet-date]",
                     f"cards!{letter['quantity']}4: [sheet-type] row 4, column 'quantity': expected a whole number",
                     f"cards!B5: [sheet-id] row 5, column 'id': no card 'no-such-card'", "[sheet-column] row 1: unknown column 'colour'",
                     f"cards!{letter['rules']}6:{letter['rules']}7: [sheet-merged]"):
        assert expected in run.output, expected
    assert "Traceback" not in run.output and snapshot(cards) == before


def test_a_value_the_database_refuses_writes_nothing(cards: Path, tmp_path: Path) -> None:
    sheet = tmp_path / "cards.csv"
    _export(cards, sheet)
    _edit_csv(sheet, "conill", "types", "treasure, dragon")
    before = snapshot(cards)
    run = run_cli("--cards", str(cards), "sheet", "import", str(sheet))
    assert run.exit_code == 1 and "dragon" in run.output and snapshot(cards) == before
