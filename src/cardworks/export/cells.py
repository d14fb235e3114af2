"""Text cells that a spreadsheet would run as a formula, made inert on export and restored exactly on import.

A CSV cell beginning with ``=``, ``+``, ``-`` or ``@`` (or a tab or carriage
return) is read by Excel, LibreOffice and Google Sheets as a formula, so a
card text like ``=HYPERLINK(…)`` would run when a designer opens the sheet.
OWASP's advice for CSV is to prefix such a cell with a single quote, which
every spreadsheet shows as text. Rules text may really begin with ``-`` or
``=``, so the import takes the quote off again; a text that itself begins with
a quote before one of those characters (or before another quote) gets one
more quote, so that every text comes back exactly as it was exported.
"""

from __future__ import annotations

from typing import Any

FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
"""First characters that make a spreadsheet treat a cell as a formula (OWASP CSV injection)."""
QUOTE = "'"


def _quoted(text: str) -> bool:
    """A quote followed by a character the export would have quoted: the quote is the export's, not the text's."""
    return text[:1] == QUOTE and text[1:2] in (*FORMULA_START, QUOTE)


def neutralise(text: str) -> str:
    """``text`` as a CSV cell that no spreadsheet runs; :func:`restore` gives ``text`` back."""
    return QUOTE + text if text[:1] in FORMULA_START or _quoted(text) else text


def restore(cell: str) -> str:
    """The text a neutralised cell stands for (cells the export did not quote are returned unchanged)."""
    return cell[1:] if _quoted(cell) else cell


def text_workbook(title: str, header: list[str], rows: list[list[Any]]) -> tuple[Any, Any]:
    """An XLSX workbook whose first sheet ``title`` holds ``header`` (bold) and ``rows``, every text cell that a
    spreadsheet would run kept as text: Excel's quote prefix (what typing a leading ' stores) keeps it text when
    the designer edits it too, and the text itself is unchanged, so an import needs no restoring."""
    from openpyxl import Workbook
    from openpyxl.styles import Font

    book = Workbook()
    sheet = book.active
    sheet.title = title
    sheet.append(header)
    for cell in sheet[1]:
        cell.font = Font(bold=True)
    for line in rows:
        sheet.append(line)
        for cell in sheet[sheet.max_row]:
            if isinstance(cell.value, str) and cell.value[:1] in FORMULA_START:
                cell.data_type = "s"
                cell.quotePrefix = True
    return book, sheet
