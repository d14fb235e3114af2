"""Reading a designer's CSV or XLSX into a table of cells, refusing what cannot be read safely or faithfully.

Sheets come from other people and other tools, so the reader bounds its work
before doing it: the file is read through the checked reader (regular file,
size cap), an XLSX's unpacked size and its used range are checked before a
cell is visited (one stray cell at ``XFD1048576`` would otherwise make the
reader walk 17 billion positions), and a CSV must be UTF-8 (a byte order mark
for UTF-8, UTF-16 or UTF-32 is honoured; anything else is refused at the first
byte that does not decode, never guessed). Cells a spreadsheet computed
(formulas, error values such as ``#REF!``), dates and merged cells are
problems at their ``sheet!cell``, never values.
"""

from __future__ import annotations

import codecs
import csv
import io
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import DataError, UsageError
from ..fileio import MAX_ASSET_BYTES, MAX_TEXT_BYTES, UnsafeFile, read_limited
from ..problems import Problem
from .cells import restore
from .sheet import SHEET_NAME

MAX_ROWS = 100_001
"""A header and 100,000 cards: the largest pack the corpus builds."""
MAX_COLUMNS = 1_000
"""A sheet has a column per field, stat, attribute and translated field: under 100 for the shipped games."""
MAX_CELLS = 2_000_000
"""Positions in the used range the XLSX reader visits (it makes an object for each)."""
MAX_UNPACKED_BYTES = 256 * 1024 * 1024
"""An XLSX's parts unpacked: a sheet of the largest pack is well under this; a zip bomb is far over it."""
BOMS = ((codecs.BOM_UTF32_LE, "utf-32"), (codecs.BOM_UTF32_BE, "utf-32"), (codecs.BOM_UTF8, "utf-8-sig"),
        (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16"))
"""Byte order marks, longest first (the UTF-32 LE mark begins with the UTF-16 LE one)."""


@dataclass
class Table:
    file: str
    sheet: str
    header: list[Any]
    rows: list[list[Any]]
    problems: list[Problem]


def letter(index: int) -> str:
    """The spreadsheet column letters of a 0-based column index (0 → A, 26 → AA)."""
    letters = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return letters


def where(table: Table, row: int, column: int) -> str:
    """``sheet!B3`` for a 1-based row and 0-based column."""
    return f"{table.sheet}!{letter(column)}{row}"


def _refuse(path: Path, location: str, code: str, message: str) -> DataError:
    return DataError(f"{path}: not read; nothing written", [Problem(str(path), location, code, message)])


def _read(path: Path, limit: int) -> bytes:
    try:
        return read_limited(path, limit)
    except UnsafeFile as exc:
        raise _refuse(path, "", exc.code, str(exc)) from None


def decode_csv(path: Path, data: bytes) -> str:
    """The text of a CSV file's bytes: UTF-8, or the encoding its byte order mark names; DataError otherwise."""
    encoding = next((name for bom, name in BOMS if data.startswith(bom)), "utf-8")
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1 if encoding == "utf-8" else None
        named = "UTF-8" if encoding == "utf-8" else f"{encoding.upper()} (as its byte order mark says)"
        hint = ("; a spreadsheet saving 'CSV' in Latin-1 or Windows-1252 does this: save it as 'CSV UTF-8'"
                if encoding == "utf-8" else "")
        raise _refuse(path, f"line {line}" if line else "", "sheet-encoding",
                      f"byte {exc.start:,} (0x{data[exc.start]:02X}) is not {named}{hint}") from None
    if "\0" in text:
        offset = text.index("\0")
        raise _refuse(path, f"line {text.count(chr(10), 0, offset) + 1}", "sheet-encoding",
                      f"a NUL character at character {offset:,}: a UTF-16 file without a byte order mark? "
                      "save it as 'CSV UTF-8'")
    return text.removeprefix("\ufeff")


def read_csv(path: Path) -> Table:
    """A CSV sheet; cells the export neutralised (``'=…``) come back as the text they stand for."""
    text = decode_csv(path, _read(path, MAX_TEXT_BYTES))
    reader = csv.reader(io.StringIO(text, newline=""))
    lines: list[list[str]] = []
    try:
        for line in reader:
            if len(line) > MAX_COLUMNS:
                raise _refuse(path, f"line {reader.line_num}", "sheet-too-large",
                              f"{len(line):,} columns; a sheet may have at most {MAX_COLUMNS:,}")
            if len(lines) == MAX_ROWS:
                raise _refuse(path, f"line {reader.line_num}", "sheet-too-large",
                              f"more than {MAX_ROWS:,} rows; a sheet may have at most {MAX_ROWS:,}")
            lines.append(line)
    except csv.Error as exc:  # a field over the csv module's limit, a stray quote, a NUL
        message = str(exc)
        if "field larger than field limit" in message:
            message = f"a cell longer than {csv.field_size_limit():,} characters; no card text is that long"
        raise _refuse(path, f"line {reader.line_num}", "sheet-unreadable", message) from None
    header, body = (lines[0], lines[1:]) if lines else ([], [])
    rows = [[restore(value) if value != "" else None for value in line] for line in body]
    return Table(str(path), path.name, [restore(value) for value in header], rows, [])


def _check_unpacked(path: Path, data: bytes) -> None:
    """Refuse an XLSX whose parts unpack to more than :data:`MAX_UNPACKED_BYTES` (the zip's own sizes)."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            total = sum(info.file_size for info in archive.infolist())
    except (zipfile.BadZipFile, ValueError) as exc:
        raise _refuse(path, "", "sheet-unreadable", f"not a readable XLSX file: {exc}") from None
    if total > MAX_UNPACKED_BYTES:
        raise _refuse(path, "", "sheet-too-large",
                      f"its parts unpack to {total:,} bytes; at most {MAX_UNPACKED_BYTES:,} are read")


def _check_range(path: Path, sheet: Any) -> None:
    """Refuse a used range past the caps before visiting it (openpyxl computes it from the cells it holds)."""
    rows, columns = sheet.max_row, sheet.max_column
    if rows > MAX_ROWS or columns > MAX_COLUMNS or rows * columns > MAX_CELLS:
        corner = f"{letter(columns - 1)}{rows}"
        raise _refuse(path, f"{sheet.title}!{corner}", "sheet-too-large",
                      f"the sheet's cells reach {corner} ({rows:,} rows × {columns:,} columns); a sheet may have at "
                      f"most {MAX_ROWS:,} rows, {MAX_COLUMNS:,} columns and {MAX_CELLS:,} cells in all: delete the "
                      "cells (even empty formatted ones) beyond the cards")


def read_xlsx(path: Path) -> Table:
    """The ``cards`` sheet (else the first); formulas, error values, dates and merged cells are problems."""
    from openpyxl import load_workbook
    from openpyxl.cell.cell import MergedCell

    data = _read(path, MAX_ASSET_BYTES)
    _check_unpacked(path, data)
    try:
        book = load_workbook(io.BytesIO(data), data_only=False)
    except Exception as exc:  # openpyxl raises many kinds for a damaged file
        raise DataError(f"{path} is not a readable XLSX file", [Problem(str(path), "", "sheet-unreadable", str(exc))]) from None
    if not book.worksheets:
        others = ", ".join(repr(name) for name in book.sheetnames)
        raise _refuse(path, "", "sheet-no-worksheet",
                      "the workbook holds no worksheet" + (f" (only chart sheets: {others})" if others else ""))
    sheet = book[SHEET_NAME] if SHEET_NAME in book.sheetnames else book.worksheets[0]
    if not hasattr(sheet, "iter_rows"):  # a chart sheet named 'cards'
        raise _refuse(path, f"{SHEET_NAME}!", "sheet-no-worksheet", f"{SHEET_NAME!r} is a chart sheet, not a worksheet")
    _check_range(path, sheet)
    table = Table(str(path), sheet.title, [], [], [])

    def problem(cell: Any, code: str, message: str) -> None:
        table.problems.append(Problem(str(path), f"{sheet.title}!{cell.coordinate}", code, f"row {cell.row}: {message}"))

    for merged in sheet.merged_cells.ranges:
        table.problems.append(Problem(str(path), f"{sheet.title}!{merged.coord}", "sheet-merged",
                                      f"rows {merged.min_row}-{merged.max_row}, columns {letter(merged.min_col - 1)}-"
                                      f"{letter(merged.max_col - 1)}: merged cells; unmerge them"))
    for number, row in enumerate(sheet.iter_rows(), start=1):
        values = []
        for cell in row:
            value = None
            if isinstance(cell, MergedCell):  # reported once per range above
                pass
            elif cell.data_type == "f":
                problem(cell, "sheet-formula", f"a formula ({cell.value}); type the value instead")
            elif cell.data_type == "e":
                problem(cell, "sheet-error-cell", f"an error value ({cell.value}), left by a formula or a paste; "
                        "type the value instead")
            elif cell.is_date:
                problem(cell, "sheet-date", "a date; card data holds no dates")
            else:
                value = cell.value if cell.value != "" else None
            values.append(value)
        if number == 1:
            table.header = values
        else:
            table.rows.append(values)
    while table.header and table.header[-1] is None:
        table.header.pop()
    return table


def read_table(path: Path) -> Table:
    """The cells of a ``.csv`` or ``.xlsx`` file; DataError when it cannot be read, UsageError for another kind."""
    if path.suffix.lower() == ".xlsx":
        return read_xlsx(path)
    if path.suffix.lower() == ".csv":
        return read_csv(path)
    raise UsageError(f"{path}: give a .csv or .xlsx file")
