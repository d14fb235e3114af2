"""Sheets carry base hashes (a CSV column, a hidden XLSX sheet) that survive a spreadsheet's save and sorting,
so ``sheet import`` applies only the cells the sheet changed."""

from __future__ import annotations

import csv
import json
from pathlib import Path

from openpyxl import load_workbook

from cardworks.export.sheet_base import BASE_COLUMN, BASE_SHEET
from conftest import GameDir, run_cli, snapshot


def _export(game: GameDir, out: Path) -> Path:
    run = run_cli("--cards", str(game.cards_root), "sheet", "export", "--locale", "es", "--out", str(out))
    assert run.exit_code == 0, run.output
    return out


def _import(game: GameDir, path: Path):
    return run_cli("--cards", str(game.cards_root), "sheet", "import", str(path))


def _card(game: GameDir, card: str) -> dict:
    return next(c for c in json.loads((game.root / "sets/base.json").read_text())["cards"] if c["id"] == card)


def _es(game: GameDir, record: str, field: str) -> str | None:
    entries = json.loads((game.root / "i18n/es.json").read_text())["entries"]
    return entries.get(record, {}).get(field, {}).get("text")


def _rows(path: Path) -> list[list[str]]:
    return list(csv.reader(path.open(encoding="utf-8")))


def _write(path: Path, rows: list[list[str]]) -> Path:
    with path.open("w", encoding="utf-8", newline="") as handle:
        csv.writer(handle, lineterminator="\n").writerows(rows)
    return path


def _set_cell(rows: list[list[str]], card: str, column: str, value: str) -> None:
    for row in rows[1:]:
        if row[1] == card:
            row[rows[0].index(column)] = value


def test_xlsx_base_sheet_is_hidden_and_survives_a_save_and_a_sort(game: GameDir, tmp_path: Path) -> None:
    game.write()
    path = _export(game, tmp_path / "cards.xlsx")
    other = tmp_path / "other.csv"
    book = load_workbook(path)
    assert book[BASE_SHEET].sheet_state == "hidden" and book.sheetnames[0] == "cards"
    assert run_cli("--cards", str(game.cards_root), "i18n", "export", "--locale", "es", "--out",
                   str(tmp_path / "es.po")).exit_code == 0
    _export(game, other)  # another designer's sheet: a translation changes meanwhile
    other_rows = _rows(other)
    _set_cell(other_rows, "capita", "name@es", "capitán")
    assert _import(game, _write(other, other_rows)).exit_code == 0
    sheet = book["cards"]
    header = [c.value for c in sheet[1]]
    rows = sorted(([c.value for c in row] for row in sheet.iter_rows(min_row=2)), key=lambda r: r[1], reverse=True)
    for number, values in enumerate(rows, start=2):  # the designer sorts the rows, then edits a cell
        for column, value in enumerate(values, start=1):
            sheet.cell(number, column).value = value  # (cell(…, value=None) would keep the old value)
    for number in range(2, len(rows) + 2):
        if sheet.cell(number, 2).value == "olla":
            sheet.cell(number, header.index("flavour") + 1, "Bubbling, always.")
    book.save(tmp_path / "saved.xlsx")  # as a spreadsheet program saves it: the hidden sheet stays
    assert BASE_SHEET in load_workbook(tmp_path / "saved.xlsx").sheetnames
    run = _import(game, tmp_path / "saved.xlsx")
    assert run.exit_code == 0 and "warning" not in run.output, run.output
    assert _card(game, "olla")["flavour"] == "Bubbling, always." and _es(game, "capita", "name") == "capitán"


def test_csv_base_column_moves_with_sorted_rows(game: GameDir, tmp_path: Path) -> None:
    game.write()
    path = _export(game, tmp_path / "cards.csv")
    rows = _rows(path)
    assert rows[0][-1] == BASE_COLUMN and all(json.loads(row[-1]) for row in rows[1:])
    rows = [rows[0], *sorted(rows[1:], key=lambda r: r[1], reverse=True)]
    _set_cell(rows, "conill", "name@es", "conejo")
    before = snapshot(game.root)
    assert _import(game, _write(tmp_path / "sorted.csv", rows)).exit_code == 0
    after = snapshot(game.root)
    assert sorted(k for k in after if after[k] != before[k]) == ["i18n/es.json"]
    assert _es(game, "conill", "name") == "conejo"


def test_csv_without_base_column_warns_once_and_overwrites_as_before(game: GameDir, tmp_path: Path) -> None:
    game.write()
    rows = [row[:-1] for row in _rows(_export(game, tmp_path / "cards.csv"))]
    _set_cell(rows, "olla", "flavour", "Bubbling, always.")
    run = _import(game, _write(tmp_path / "old.csv", rows))
    assert run.exit_code == 0 and run.output.count("cannot be merged safely") == 1, run.output
    assert _card(game, "olla")["flavour"] == "Bubbling, always."


def test_a_row_whose_base_cell_was_damaged_is_refused(game: GameDir, tmp_path: Path) -> None:
    game.write()
    rows = _rows(_export(game, tmp_path / "cards.csv"))
    _set_cell(rows, "olla", BASE_COLUMN, "{\"name\": \"edited by hand\"}")
    _set_cell(rows, "olla", "flavour", "Bubbling, always.")
    before = snapshot(game.root)
    run = _import(game, _write(tmp_path / "damaged.csv", rows))
    assert run.exit_code == 1 and "[import-base]" in run.output and "olla" in run.output, run.output
    assert snapshot(game.root) == before
