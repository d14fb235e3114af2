"""Broken designer's sheets given to ``cardworks new``: each refused with its problem at its cell, and nothing
written (no game folder, no staging folder beside it)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from openpyxl import Workbook

from conftest import run_cli
from own_sheets import HEADER, ROWS, art_folder, write_csv


def refused(tmp_path: Path, sheet: Path, *more: str) -> str:
    """The output of a refused ``new``, once it is known that nothing was written."""
    before = sorted(p.name for p in tmp_path.iterdir())
    run = run_cli("new", str(tmp_path / "game"), "--from", str(sheet), "--art", str(tmp_path / "art"), *more)
    assert run.exit_code == 1, run.output
    assert "nothing written" in run.output
    assert sorted(p.name for p in tmp_path.iterdir()) == before  # no game folder, no staging folder left
    return run.output


@pytest.fixture
def art(tmp_path: Path) -> Path:
    return art_folder(tmp_path / "art")


def test_a_sheet_without_a_header_row(tmp_path: Path, art: Path) -> None:
    sheet = tmp_path / "cards.csv"
    sheet.write_text("", encoding="utf-8")
    assert "cards.csv!A1: [sheet-header] row 1 is empty" in refused(tmp_path, sheet)


def test_a_sheet_without_a_name_column(tmp_path: Path, art: Path) -> None:
    sheet = write_csv(tmp_path / "cards.csv", ["type", "text"], [["Spell", "Deal 1."]])
    assert "cards.csv!A1: [sheet-header] row 1: no 'name' column" in refused(tmp_path, sheet)


def test_an_unknown_field_is_an_error_at_its_header_cell(tmp_path: Path, art: Path) -> None:
    sheet = write_csv(tmp_path / "cards.csv", [*HEADER[:3], "colour", "cost:number"], [row[:3] + ["red", "1"] for row in ROWS])
    output = refused(tmp_path, sheet)
    assert "cards.csv!D1: [sheet-header] row 1: unknown field 'colour'" in output
    assert "cards.csv!E1: [sheet-header] row 1: field 'cost' again (first in column C)" in output


def test_wrong_types_are_errors_at_their_cells(tmp_path: Path, art: Path) -> None:
    rows = [list(row) for row in ROWS]
    rows[0][2] = "three"   # cost
    rows[1][3] = "12"      # power, declared 0-9
    rows[2][6] = "0"       # quantity
    rows[2][4] = "x" * 1201  # text
    output = refused(tmp_path, write_csv(tmp_path / "cards.csv", HEADER, rows))
    assert "cards.csv!C2: [sheet-type] row 2, column 'cost': expected a whole number, found 'three'" in output
    assert "cards.csv!D3: [sheet-type] row 3, column 'power': 12 is outside 0-9" in output
    assert "cards.csv!G4: [sheet-type] row 4, column 'quantity': a quantity is 1 to 99, found 0" in output
    assert "cards.csv!E4: [sheet-too-long] row 4, column 'text': 1,201 characters; a card's text holds at most 1,200" \
        in output


def test_two_rows_minting_one_id_are_refused_not_numbered(tmp_path: Path, art: Path) -> None:
    rows = [list(row) for row in ROWS]
    rows[2][0] = "Fire  drake!"
    output = refused(tmp_path, write_csv(tmp_path / "cards.csv", HEADER, rows))
    assert "cards.csv!A4: [sheet-duplicate] row 4: id 'fire-drake' again (first in row 2)" in output


def test_a_card_named_as_its_set_or_game_is_refused_at_its_cell(tmp_path: Path, art: Path) -> None:
    rows = [list(row) for row in ROWS]
    rows[0][0] = "Cards"
    rows[1][0] = "Game"
    output = refused(tmp_path, write_csv(tmp_path / "cards.csv", HEADER, rows))
    assert "cards.csv!A2: [sheet-duplicate] row 2: id 'cards' is a set's id too" in output
    assert "cards.csv!A3: [sheet-duplicate] row 3: id 'game' is the game's id too" in output


def test_art_missing_or_outside_the_art_folder(tmp_path: Path, art: Path) -> None:
    (tmp_path / "secret.png").write_bytes((art / "drake.png").read_bytes())
    os.symlink(tmp_path / "secret.png", art / "link.png")
    rows = [list(row) for row in ROWS]
    rows[0][5] = "../secret.png"
    rows[1][5] = "nowhere.png"
    rows[2][5] = "link.png"
    output = refused(tmp_path, write_csv(tmp_path / "cards.csv", HEADER, rows))
    assert "cards.csv!F2: [sheet-art] row 2: '../secret.png' climbs out with '..'" in output
    assert "cards.csv!F3: [sheet-art] row 3: no file 'nowhere.png' in the art folder" in output
    assert "cards.csv!F4: [sheet-art] row 4: 'link.png' leads outside the folder (through a symbolic link)" in output


def test_two_backs_for_one_card_type(tmp_path: Path, art: Path) -> None:
    rows = [[*row, back] for row, back in zip(ROWS, ("drake.png", "drake.png", "spark.png"))]
    output = refused(tmp_path, write_csv(tmp_path / "cards.csv", [*HEADER, "back"], rows))
    assert "cards.csv!K4: [sheet-back] row 4: a spell card's back is drake.png in row 3; every card of a type has one back" \
        in output


def test_formulas_in_an_xlsx_are_errors_at_their_cells(tmp_path: Path, art: Path) -> None:
    book = Workbook()
    sheet = book.active
    sheet.title = "cards"
    sheet.append(HEADER)
    for row in ROWS:
        sheet.append(row)
    sheet["C3"] = "=1+1"
    path = tmp_path / "cards.xlsx"
    book.save(path)
    assert "cards!C3: [sheet-formula] row 3: a formula (=1+1); type the value instead" in refused(tmp_path, path)


def test_a_hundred_thousand_rows_with_one_bad_cell_at_the_end(tmp_path: Path, art: Path) -> None:
    rows = [[f"Card {number}", "Spell", "1", "", "", "", "1", "Fire", "", ""] for number in range(100_000)]
    rows[-1][2] = "x"
    output = refused(tmp_path, write_csv(tmp_path / "cards.csv", HEADER, rows))
    assert "cards.csv!C100001: [sheet-type] row 100001, column 'cost': expected a whole number, found 'x'" in output


def test_more_rows_than_a_sheet_may_have(tmp_path: Path, art: Path) -> None:
    rows = [[f"Card {number}", "Spell"] for number in range(100_001)]
    output = refused(tmp_path, write_csv(tmp_path / "cards.csv", ["name", "type"], rows))
    assert "[sheet-too-large] more than 100,001 rows" in output


def test_an_existing_folder_is_never_written_over(tmp_path: Path, art: Path) -> None:
    (tmp_path / "game").mkdir()
    (tmp_path / "game" / "notes.txt").write_text("mine", encoding="utf-8")
    run = run_cli("new", str(tmp_path / "game"), "--from", str(write_csv(tmp_path / "c.csv", HEADER, ROWS)))
    assert run.exit_code == 2 and "exists and is not empty" in run.output
    assert [p.name for p in (tmp_path / "game").iterdir()] == ["notes.txt"]
