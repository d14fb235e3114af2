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
from .sheet_columns import SHEET_NAME

MAX_ROWS = 100_001
"""A header and 100,000 cards: the largest pack the corpus builds."""
MAX_COLUMNS = 1_000
"""A sheet has a column per field, stat, attribute and translated field: under 100 for the shipped games."""
MAX_UNPACKED_BYTES = 32 * 1024 * 1024
"""An XLSX's parts unpacked, checked before openpyxl parses them (it holds every cell in memory and reads
about 10,000 a second): the largest shipped game's sheet with two locales unpacks to 0.14 MB."""
MAX_MERGED_CELLS = 100_000
"""Cells in merged ranges (openpyxl makes an object for each; a card sheet has none, and refuses any)."""
ERROR_VALUES = frozenset({"#NULL!", "#DIV/0!", "#VALUE!", "#REF!", "#NAME?", "#NUM!", "#N/A", "#SPILL!", "#CALC!",
                          "#GETTING_DATA"})
"""Error values spreadsheets show (and save into a CSV as text) for a formula that failed."""
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
    table = Table(str(path), path.name, [restore(value) for value in header], [], [])
    for number, line in enumerate(body, start=2):
        for column, value in enumerate(line):
            if value in ERROR_VALUES:  # a spreadsheet saved its error as text; no card text is only that
                table.problems.append(Problem(table.file, where(table, number, column), "sheet-error-cell",
                                              f"row {number}: an error value ({value}) saved by a spreadsheet; "
                                              "type the value instead"))
        table.rows.append([restore(value) if value != "" else None for value in line])
    return table


def _check_parts(path: Path, data: bytes) -> None:
    """Refuse an XLSX whose parts unpack past :data:`MAX_UNPACKED_BYTES` or whose merged ranges reach past the caps.

    Both before openpyxl opens it: it trusts the sizes the zip declares (so these bound what it reads), and it
    makes an object for every cell of a merged range, so ``<mergeCell ref="A1:XFD1048576"/>`` in a 5 KB file
    would make 17 billion.
    """
    from lxml import etree
    from openpyxl.utils.cell import range_boundaries

    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            total = sum(info.file_size for info in archive.infolist())
            if total > MAX_UNPACKED_BYTES:
                raise _refuse(path, "", "sheet-too-large",
                              f"its parts unpack to {total:,} bytes; at most {MAX_UNPACKED_BYTES:,} are read")
            merged = 0
            for name in archive.namelist():
                if not (name.startswith("xl/worksheets/") and name.endswith(".xml")):
                    continue
                with archive.open(name) as part:
                    for _, element in etree.iterparse(part, events=("start",), tag="{*}mergeCell",
                                                      resolve_entities=False, no_network=True):
                        ref = element.get("ref", "")
                        try:
                            low_column, low_row, high_column, high_row = range_boundaries(ref)
                        except (TypeError, ValueError):
                            raise _refuse(path, "", "sheet-unreadable", f"{name}: a merged range {ref!r} that is "
                                          "not a cell range") from None
                        merged += ((high_row or MAX_ROWS + 1) - (low_row or 1) + 1) * \
                            ((high_column or MAX_COLUMNS + 1) - (low_column or 1) + 1)
                        if (high_row or MAX_ROWS + 1) > MAX_ROWS or (high_column or MAX_COLUMNS + 1) > MAX_COLUMNS \
                                or merged > MAX_MERGED_CELLS:
                            raise _refuse(path, ref, "sheet-too-large",
                                          f"a merged range reaching past {MAX_ROWS:,} rows or {MAX_COLUMNS:,} columns, "
                                          f"or merging more than {MAX_MERGED_CELLS:,} cells in all ({name}); unmerge "
                                          "it and delete the cells beyond the cards")
    except DataError:
        raise
    except (zipfile.BadZipFile, etree.XMLSyntaxError, ValueError, KeyError, OSError) as exc:
        raise _refuse(path, "", "sheet-unreadable", f"not a readable XLSX file: {exc}") from None


def _cells_by_row(path: Path, sheet: Any) -> list[list[Any]]:
    """The cells the sheet holds, row by row (a row as long as its last cell, a missing row empty).

    Only cells present in the file are visited: openpyxl's ``iter_rows`` would make a cell for every position of
    the used range, and one stray cell at ``XFD1048576`` makes that range 17 billion positions. A cell past
    :data:`MAX_ROWS` or :data:`MAX_COLUMNS` refuses the sheet before any row is built.
    """
    present = sheet._cells  # openpyxl's store of the cells it read, keyed by (row, column)
    if present:
        rows, columns = max(row for row, _ in present), max(column for _, column in present)
        if rows > MAX_ROWS or columns > MAX_COLUMNS:
            far = max(present, key=lambda at: (at[0] > MAX_ROWS or at[1] > MAX_COLUMNS, at))
            corner = f"{letter(far[1] - 1)}{far[0]}"
            raise _refuse(path, f"{sheet.title}!{corner}", "sheet-too-large",
                          f"a cell at {corner} (the used range is {rows:,} rows × {columns:,} columns); a sheet may have "
                          f"at most {MAX_ROWS:,} rows and {MAX_COLUMNS:,} columns: delete the cells (even empty, "
                          "formatted ones) beyond the cards")
    table: list[list[Any]] = [[] for _ in range(max((row for row, _ in present), default=0))]
    for (row, column), cell in sorted(present.items()):
        line = table[row - 1]
        line.extend([None] * (column - 1 - len(line)))
        line.append(cell)
    return table


def read_xlsx(path: Path) -> Table:
    """The ``cards`` sheet (else the first); formulas, error values, dates and merged cells are problems."""
    from openpyxl import load_workbook
    from openpyxl.cell.cell import MergedCell

    data = _read(path, MAX_ASSET_BYTES)
    _check_parts(path, data)
    try:
        book = load_workbook(io.BytesIO(data), data_only=False)
    except Exception as exc:  # openpyxl raises many kinds for a damaged file
        raise DataError(f"{path} is not a readable XLSX file", [Problem(str(path), "", "sheet-unreadable", str(exc))]) from None
    if not book.worksheets:
        others = ", ".join(repr(name) for name in book.sheetnames)
        raise _refuse(path, "", "sheet-no-worksheet",
                      "the workbook holds no worksheet" + (f" (only chart sheets: {others})" if others else ""))
    sheet = book[SHEET_NAME] if SHEET_NAME in book.sheetnames else book.worksheets[0]
    if not hasattr(sheet, "_cells"):  # a chart sheet named 'cards'
        raise _refuse(path, f"{SHEET_NAME}!", "sheet-no-worksheet", f"{SHEET_NAME!r} is a chart sheet, not a worksheet")
    rows = _cells_by_row(path, sheet)
    table = Table(str(path), sheet.title, [], [], [])

    def problem(cell: Any, code: str, message: str) -> None:
        table.problems.append(Problem(str(path), f"{sheet.title}!{cell.coordinate}", code, f"row {cell.row}: {message}"))

    for merged in sheet.merged_cells.ranges:
        table.problems.append(Problem(str(path), f"{sheet.title}!{merged.coord}", "sheet-merged",
                                      f"rows {merged.min_row}-{merged.max_row}, columns {letter(merged.min_col - 1)}-"
                                      f"{letter(merged.max_col - 1)}: merged cells; unmerge them"))
    for number, row in enumerate(rows, start=1):
        values = []
        for cell in row:
            value = None
            if cell is None or isinstance(cell, MergedCell):  # no cell there; a merged one is reported above
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
