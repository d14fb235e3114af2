"""Base hashes of a sheet: what each cell held when it was exported, so an import merges instead of overwriting.

Each row's base is a small JSON object, column name → base hash of the cell's
value (see :mod:`cardworks.i18n.merge`); cells exported empty are left out. A CSV
carries it in a last column ``cardworks-base`` (a CSV has nothing hidden; the
column moves with its row when rows are sorted). An XLSX carries it in a hidden
sheet ``cardworks-base`` (id, base) that spreadsheet programs keep when they save,
so sorting or moving columns of the ``cards`` sheet does not detach it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..i18n.merge import BASE_LABEL, check_base, value_hash
from .sheet_columns import convert

BASE_COLUMN = BASE_LABEL
BASE_SHEET = BASE_LABEL
MAX_BASE_CELL = 64 * 1024
"""Longest base cell read: a row of 200 columns takes under 6 KB."""


def normalized(column: Any, value: Any) -> Any:
    """A cell's value as an import reads it back (an empty string is an empty cell), converted for its field."""
    converted, error = convert(column, None if value == "" else value)
    return value if error else converted


def row_base(columns: list, values: list) -> str:
    """The base cell of one row: column name → base hash, for every cell not exported empty."""
    hashes = {}
    for column, value in zip(columns, values):
        found = normalized(column, value)
        if found != normalized(column, None):
            hashes[column.name] = value_hash(found)
    return json.dumps(hashes, separators=(",", ":"), sort_keys=True)


def add_base_sheet(book: Any, rows: list[tuple[str, str]]) -> None:
    """The hidden ``cardworks-base`` sheet of an XLSX workbook: one (id, base) row per card."""
    sheet = book.create_sheet(BASE_SHEET)
    sheet.append(["id", BASE_COLUMN])
    for card_id, base in rows:
        sheet.append([card_id, base])
    sheet.sheet_state = "hidden"


def read_base(path: Path, table: Any, limit_rows: int) -> dict[str, str] | None:
    """Each row's raw base cell by card id, or None when the file holds no base (exported before bases).

    A CSV's base column is taken out of ``table`` (it is no card field). An XLSX's hidden sheet is read
    row by row, at most ``limit_rows`` rows and two columns, whatever size it claims.
    """
    if path.suffix.lower() == ".xlsx":
        return _read_base_sheet(path, limit_rows)
    header = [str(h) if h is not None else "" for h in table.header]
    if BASE_COLUMN not in header:
        return None
    at = header.index(BASE_COLUMN)
    try:
        id_at = header.index("id")
    except ValueError:
        return None
    del table.header[at]
    found: dict[str, str] = {}
    for row in table.rows:
        base = row.pop(at) if at < len(row) else None
        card_id = row[id_at - (at < id_at)] if id_at - (at < id_at) < len(row) else None
        if card_id is not None and base is not None:
            found[str(card_id)] = str(base)
    return found


def _read_base_sheet(path: Path, limit_rows: int) -> dict[str, str] | None:
    from openpyxl import load_workbook

    try:
        book = load_workbook(path, read_only=True, data_only=False)
    except Exception:  # the cards sheet was read already: a damaged file was refused there
        return None
    try:
        if BASE_SHEET not in book.sheetnames:
            return None
        found: dict[str, str] = {}
        for row in book[BASE_SHEET].iter_rows(min_row=2, max_row=limit_rows + 1, max_col=2, values_only=True):
            if row and row[0] is not None and len(row) > 1 and row[1] is not None:
                found[str(row[0])] = str(row[1])
        return found
    finally:
        book.close()


def parse_row_base(raw: str | None) -> dict[str, str] | None:
    """A base cell's hashes by column name; None when it is missing or not one an export wrote."""
    if raw is None or len(raw) > MAX_BASE_CELL:
        return None
    try:
        data = json.loads(raw)
    except ValueError:
        return None
    if not isinstance(data, dict) or not all(isinstance(k, str) and isinstance(v, str) and check_base(v)
                                             for k, v in data.items()):
        return None
    return data


def cell_base(hashes: dict[str, str], column: Any) -> str:
    """The base hash of one cell: recorded, or (left out) the hash of an empty cell."""
    return hashes.get(column.name) or value_hash(normalized(column, None))
