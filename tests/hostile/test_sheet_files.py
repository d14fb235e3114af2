"""Hostile spreadsheets: a cell at the grid's far corner, a workbook without worksheets, error values, zip bombs,
CSV in other encodings, overlong fields and numbers, and card texts a spreadsheet would run as formulas.

Every sheet is a few rows built here; a refused import writes nothing, an accepted one writes exactly the edit.
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
import struct
import zipfile
from pathlib import Path

import pytest
from openpyxl import Workbook, load_workbook

from corpus import cardworks, fingerprint, judge, judge_output, lost, mini  # noqa: F401  (fixtures)

FAMILY = "sheets"
HEADER = ["set", "id", "quantity", "name", "rules"]
ROWS = [["base", "conill", "1", "conill", ""], ["base", "capita", "3", "capità", "Steal one {treasure} from a rival."]]


def _csv_text(rows: list[list[str]]) -> str:
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerows([HEADER, *rows])
    return buffer.getvalue()


def _xlsx(path: Path, rows: list[list[str]] = ROWS) -> tuple[Workbook, object]:
    book = Workbook()
    sheet = book.active
    sheet.title = "cards"
    for row in [HEADER, *rows]:
        sheet.append(row)
    return book, sheet


def _import(mini, path: Path, case: str, *, code: str, names: str) -> None:
    """Import ``path`` into the mini game; it must be refused with ``code`` on a line naming ``names``, writing nothing."""
    before = fingerprint(mini.root)
    result = cardworks("--cards", str(mini.cards_root), "sheet", "import", str(path), timeout=30)
    judge(case, FAMILY, result, refuse=True, names=names, code=code, changed=lost(before, fingerprint(mini.root)))


def _card(mini, card: str) -> dict:
    data = json.loads((mini.root / "sets/base.json").read_text(encoding="utf-8"))
    return next(c for c in data["cards"] if c["id"] == card)


# XLSX


def test_one_cell_at_the_grids_far_corner_is_refused_before_the_grid_is_walked(mini, tmp_path: Path) -> None:
    path = tmp_path / "corner.xlsx"
    book, sheet = _xlsx(path)
    sheet["XFD1048576"] = "x"
    book.save(path)
    assert path.stat().st_size < 30_000
    _import(mini, path, "xlsx cell at XFD1048576", code="sheet-too-large", names="cards!XFD1048576")


def _rewrite(saved: io.BytesIO, path: Path, part: str, old: bytes, new: bytes) -> None:
    """Save the workbook in ``saved`` to ``path`` with ``old`` replaced by ``new`` in one part, as a hand edit would."""
    with zipfile.ZipFile(saved) as source, zipfile.ZipFile(path, "w") as target:
        for info in source.infolist():
            data = source.read(info.filename)
            target.writestr(info, re.sub(old, new, data) if info.filename == part else data)


@pytest.mark.parametrize("merged", ["C3:XFD1048576", "A:A", "C3:ALL5000"])
def test_a_merged_range_over_the_grid_is_refused_before_openpyxl_expands_it(mini, tmp_path: Path, merged: str) -> None:
    saved = io.BytesIO()
    book, sheet = _xlsx(tmp_path / "x.xlsx")
    sheet.merged_cells.add("C3:D4")
    book.save(saved)
    path = tmp_path / "merged.xlsx"
    _rewrite(saved, path, "xl/worksheets/sheet1.xml", rb'ref="C3:D4"', f'ref="{merged}"'.encode())
    _import(mini, path, f"xlsx merged range {merged}", code="sheet-too-large", names=f"merged.xlsx:{merged}")


def test_a_workbook_without_worksheets_is_refused(mini, tmp_path: Path) -> None:
    saved = io.BytesIO()
    _xlsx(tmp_path / "x.xlsx")[0].save(saved)
    path = tmp_path / "empty.xlsx"  # the workbook lists no sheet, as a hand-made or damaged file may
    _rewrite(saved, path, "xl/workbook.xml", rb"<sheets>.*</sheets>", b"<sheets/>")
    assert load_workbook(path).worksheets == []
    _import(mini, path, "xlsx without worksheets", code="sheet-no-worksheet", names="empty.xlsx")


def test_error_values_are_refused_at_their_cells(mini, tmp_path: Path) -> None:
    path = tmp_path / "errors.xlsx"
    book, sheet = _xlsx(path)
    sheet["D2"], sheet["E3"], sheet["C3"] = "#REF!", "#DIV/0!", "#N/A"
    assert {sheet[c].data_type for c in ("D2", "E3", "C3")} == {"e"}
    book.save(path)
    before = fingerprint(mini.root)
    result = cardworks("--cards", str(mini.cards_root), "sheet", "import", str(path), timeout=30)
    for cell, error in (("D2", "#REF!"), ("E3", "#DIV/0!"), ("C3", "#N/A")):
        judge(f"xlsx error cell {error}", FAMILY, result, refuse=True, names=f"cards!{cell}", code="sheet-error-cell",
              changed=lost(before, fingerprint(mini.root)))


def test_an_error_value_saved_into_a_csv_is_refused_at_its_cell(mini, tmp_path: Path) -> None:
    path = tmp_path / "errors.csv"
    path.write_text(_csv_text([ROWS[0], ["base", "capita", "3", "#REF!", ""]]), encoding="utf-8")
    _import(mini, path, "csv error value #REF!", code="sheet-error-cell", names="errors.csv!D3")


def test_an_xlsx_declaring_gigabytes_unpacked_is_refused_unread(mini, tmp_path: Path) -> None:
    small = io.BytesIO()
    book, _ = _xlsx(tmp_path / "x.xlsx")
    book.save(small)
    data = bytearray(small.getvalue())
    # The central directory's record of the worksheet says it unpacks to 4 GB, as a zip bomb's does.
    at = data.find(b"PK\x01\x02")
    while at != -1:
        name_length = struct.unpack_from("<H", data, at + 28)[0]
        if data[at + 46:at + 46 + name_length].startswith(b"xl/worksheets/"):
            struct.pack_into("<I", data, at + 24, 0xFFFF_FFF0)
        at = data.find(b"PK\x01\x02", at + 4)
    path = tmp_path / "bomb.xlsx"
    path.write_bytes(bytes(data))
    assert sum(i.file_size for i in zipfile.ZipFile(path).infolist()) > 4_000_000_000
    _import(mini, path, "xlsx declaring 4 GB unpacked", code="sheet-too-large", names="bomb.xlsx")


# CSV encodings and sizes


def test_latin1_csv_is_refused_at_the_line_of_the_first_bad_byte(mini, tmp_path: Path) -> None:
    path = tmp_path / "latin1.csv"
    path.write_bytes(_csv_text(ROWS).encode("latin-1"))  # 'capità' on line 3 is one byte, 0xE0
    _import(mini, path, "latin-1 csv", code="sheet-encoding", names="latin1.csv:line 3")


def test_utf16_csv_without_a_byte_order_mark_is_refused(mini, tmp_path: Path) -> None:
    path = tmp_path / "utf16le.csv"
    path.write_bytes(_csv_text(ROWS).encode("utf-16-le"))
    _import(mini, path, "utf-16 csv without BOM", code="sheet-encoding", names="utf16le.csv")


@pytest.mark.parametrize("encoding", ["utf-16", "utf-8-sig"])  # Excel's "Unicode text" and "CSV UTF-8"
def test_csv_with_a_byte_order_mark_is_decoded_and_imported(mini, tmp_path: Path, encoding: str) -> None:
    path = tmp_path / f"{encoding}.csv"
    text = _csv_text([ROWS[0], ["base", "capita", "3", "capità", "Roba un {treasure} a un rival."]])
    path.write_bytes(text.encode(encoding))
    result = cardworks("--cards", str(mini.cards_root), "sheet", "import", str(path), timeout=30)
    judge(f"{encoding} csv with BOM", FAMILY, result, refuse=False,
          check=lambda: None if _card(mini, "capita")["rules"] == "Roba un {treasure} a un rival." else
          f"rules not imported: {_card(mini, 'capita')['rules']!r}")


def test_a_200000_character_field_is_refused_naming_its_line(mini, tmp_path: Path) -> None:
    path = tmp_path / "long.csv"
    path.write_text(_csv_text([ROWS[0], ["base", "capita", "3", "capità", "Roba " * 40_000]]), encoding="utf-8")
    _import(mini, path, "200,000-character csv field", code="sheet-unreadable", names="long.csv:line 3")


def test_a_5001_digit_quantity_is_refused_at_its_cell(mini, tmp_path: Path) -> None:
    path = tmp_path / "digits.csv"
    path.write_text(_csv_text([ROWS[0], ["base", "capita", "9" * 5001, "capità", ""]]), encoding="utf-8")
    _import(mini, path, "5,001-digit quantity", code="sheet-type", names="digits.csv!C3")


def test_a_csv_wider_than_the_column_cap_is_refused(mini, tmp_path: Path) -> None:
    path = tmp_path / "wide.csv"
    path.write_text(",".join(HEADER) + "," * 5000 + "\n", encoding="utf-8")
    _import(mini, path, "csv of 5,005 columns", code="sheet-too-large", names="wide.csv:line 1")


def test_a_csv_longer_than_the_row_cap_is_refused(mini, tmp_path: Path) -> None:
    path = tmp_path / "long-sheet.csv"
    path.write_text(",".join(HEADER) + "\n" + "base,conill\n" * 100_001, encoding="utf-8")
    _import(mini, path, "csv of 100,002 rows", code="sheet-too-large", names="long-sheet.csv:line 100002")


@pytest.mark.parametrize("suffix", ["csv", "xlsx"])
def test_a_sheet_that_is_a_fifo_is_refused_unopened(mini, tmp_path: Path, suffix: str) -> None:
    path = tmp_path / f"pipe.{suffix}"
    os.mkfifo(path)  # nobody writes to it: opening it for reading in the ordinary way would wait for ever
    _import(mini, path, f"{suffix} sheet that is a FIFO", code="not-a-regular-file", names=f"pipe.{suffix}")


# Formula injection: texts that begin like a formula are exported inert and come back exactly.

TEXTS = {"conill": ("rules", '=HYPERLINK("https://example.org","click")'),
         "capita": ("rules", "-1 {treasure}: steal one from a rival."),
         "olla": ("flavour", "'=a quote then an equals sign, kept as typed")}


def _formula_texts(mini) -> None:
    data = mini.data("sets/base.json")
    for card in data["cards"]:
        if card["id"] in TEXTS:
            field, text = TEXTS[card["id"]]
            card[field] = text
    mini.write()


def test_csv_export_neutralises_formula_cells_and_import_restores_them(mini, tmp_path: Path) -> None:
    _formula_texts(mini)
    path = tmp_path / "cards.csv"
    assert cardworks("--cards", str(mini.cards_root), "sheet", "export", "--out", str(path), timeout=30).exit_code == 0
    rows = list(csv.reader(path.open(encoding="utf-8", newline="")))
    live = [cell for row in rows for cell in row if cell[:1] in ("=", "+", "-", "@", "\t", "\r")]
    judge_output("csv export of formula-leading texts", FAMILY,
                 f"cells a spreadsheet runs as formulas: {live}" if live else None)
    assert {"'" + TEXTS["conill"][1], "'" + TEXTS["capita"][1], "'" + TEXTS["olla"][1]} <= {c for r in rows for c in r}
    before = fingerprint(mini.root)
    result = cardworks("--cards", str(mini.cards_root), "sheet", "import", str(path), timeout=30)
    judge("csv round trip of formula-leading texts", FAMILY, result, refuse=False,
          check=lambda: None if "0 file(s) written" in result.stdout and fingerprint(mini.root) == before
          else f"an unchanged sheet changed the cards: {result.stdout}")
    # A designer types a new text that begins with '-', quoted the way the export quotes.
    header = rows[0]
    rows[[r[1] for r in rows].index("olla")][header.index("rules")] = "'- {treasure}: discard it."
    with path.open("w", encoding="utf-8", newline="") as handle:
        csv.writer(handle, lineterminator="\n").writerows(rows)
    result = cardworks("--cards", str(mini.cards_root), "sheet", "import", str(path), timeout=30)
    judge("csv edit to a '-' text", FAMILY, result, refuse=False,
          check=lambda: None if _card(mini, "olla").get("rules") == "- {treasure}: discard it." and
          _card(mini, "olla")["flavour"] == TEXTS["olla"][1] else f"wrong texts: {_card(mini, 'olla')}")


def test_xlsx_export_keeps_formula_leading_texts_as_quoted_text(mini, tmp_path: Path) -> None:
    _formula_texts(mini)
    path = tmp_path / "cards.xlsx"
    assert cardworks("--cards", str(mini.cards_root), "sheet", "export", "--out", str(path), timeout=30).exit_code == 0
    sheet = load_workbook(path)["cards"]
    cells = [cell for row in sheet.iter_rows() for cell in row if isinstance(cell.value, str) and cell.value[:1] in "=-'"]
    wrong = [f"{c.coordinate}={c.value!r}" for c in cells
             if c.value[:1] != "'" and (c.data_type != "s" or not c.quotePrefix)]
    judge_output("xlsx export of formula-leading texts", FAMILY, f"unquoted formula-leading cells: {wrong}" if wrong else None)
    assert {c.value for c in cells} == {text for _, text in TEXTS.values()}  # the text itself, no quote added
    before = fingerprint(mini.root)
    result = cardworks("--cards", str(mini.cards_root), "sheet", "import", str(path), timeout=30)
    judge("xlsx round trip of formula-leading texts", FAMILY, result, refuse=False,
          check=lambda: None if fingerprint(mini.root) == before else "an unchanged sheet changed the cards")
