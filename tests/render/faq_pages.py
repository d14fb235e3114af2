"""Reading an FAQ back from its PDF: lines with their place, size and weight; the numbered entries; the index
entries; the headings left at the foot of a column. Shared by the Fallera and Diables FAQ tests."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from pypdf import PdfReader

#: The running header and the page number sit in the page margins (16 to 20 mm): lines there are not text.
MARGIN_PT = 14 * 72 / 25.4

_NUMBERS = r"\d+(?:\u2013\d+)?(?:, \d+(?:\u2013\d+)?)*"


@dataclass(frozen=True)
class Line:
    page: int
    """From 1."""
    x: float
    top: float
    """Points from the top of the page."""
    size: float
    bold: bool
    text: str
    right: bool = False
    """In the right half of the page (the second column)."""


@lru_cache(maxsize=8)  # several tests read the same built FAQ; they only read what this returns
def pdf_lines(path: Path) -> list[list[Line]]:
    """Each page's text lines in drawing order, outside the margins (header and page number) left out."""
    pages = []
    for number, page in enumerate(PdfReader(path).pages, start=1):
        height, half = float(page.mediabox.height), float(page.mediabox.width) / 2
        found: list[Line] = []

        def visit(text, cm, tm, font, size, number=number, height=height, half=half, found=found):
            if not text.strip():
                return
            scale = abs(cm[3]) or 1.0
            top = height - (cm[5] + cm[3] * tm[5])
            if top < MARGIN_PT or top > height - MARGIN_PT:
                return
            bold = "bold" in str((font or {}).get("/BaseFont", "")).lower()
            for part in text.strip("\n").split("\n"):
                if part.strip():
                    x = cm[4] + cm[0] * tm[4]
                    found.append(Line(number, x, top, round(size * scale, 1), bold, part.strip(), x >= half))

        page.extract_text(visitor_text=visit)
        pages.append(found)
    return pages


def body_size(pages: list[list[Line]]) -> float:
    """The size most lines are set in."""
    return Counter(line.size for page in pages for line in page).most_common(1)[0][0]


def entry_numbers(pages: list[list[Line]]) -> list[int]:
    """The numbers that begin an entry, in reading order: a bold line of body size starting ``12.`` whose line
    before it in the same column is not bold body text (a question that wraps at "… for 3. What …" goes on)."""
    size = body_size(pages)
    found = []
    for page in pages:
        before: dict[bool, Line] = {}
        for line in page:
            previous = before.get(line.right)
            before[line.right] = line
            if not (line.bold and line.size == size) or (match := re.match(r"^(\d+)\.\s", line.text)) is None:
                continue
            if previous is not None and previous.bold and previous.size == size and previous.top < line.top:
                continue
            found.append(int(match.group(1)))
    return found


def index_entries(pages: list[list[Line]], heading: str, next_heading: str | None) -> list[tuple[str, str]]:
    """(name, numbers) of each entry printed between the heading ``heading`` and ``next_heading`` (or the end).

    An entry may wrap: a line that does not end in its numbers goes on in the next line, and a line that
    starts with a digit finishes the entry before it."""
    size = body_size(pages)
    lines = [line.text for page in pages for line in page]
    start = heading_at(lines, heading)[1]
    end = heading_at(lines, next_heading, start)[0] if next_heading else len(lines)
    texts = [line for page in pages for line in page][start:end]
    entries: list[str] = []
    open_entry = False
    for line in texts:
        if line.size != size:
            continue  # the note under a heading
        if entries and (open_entry or re.match(r"^\d", line.text)):
            entries[-1] += " " + line.text
        else:
            entries.append(line.text)
        open_entry = not re.search(rf"\s{_NUMBERS}$", entries[-1])
    parsed = []
    for entry in entries:
        match = re.match(rf"^(.*?)\s+({_NUMBERS})$", entry)
        assert match, f"index entry without ruling numbers: {entry!r}"
        parsed.append((match.group(1), match.group(2)))
    return parsed


def heading_at(lines: list[str], heading: str, start: int = 0) -> tuple[int, int]:
    """(first, after last) index of ``heading`` in ``lines`` from ``start``: a heading may wrap in a column,
    over up to three lines (the FAQ's headings stand in its columns)."""
    for first in range(start, len(lines)):
        for count in (1, 2, 3):
            if " ".join(lines[first:first + count]) == heading:
                return first, first + count
            if not heading.startswith(" ".join(lines[first:first + count])):
                break
    raise ValueError(f"heading {heading!r} not found from line {start}")


def expand(numbers: str) -> set[int]:
    """``"1–3, 7"`` → ``{1, 2, 3, 7}``."""
    found: set[int] = set()
    for part in numbers.split(", "):
        low, _, high = part.partition("\u2013")
        found.update(range(int(low), int(high or low) + 1))
    return found


def stranded_headings(pages: list[list[Line]], first_page: int = 2) -> list[tuple[int, str]]:
    """(page, text) of every heading that is the last line of a column: a heading must have text after it.

    A heading is a line set larger than the body text, longer than the one or two letters an inline icon
    draws as SVG text (its place reads wrongly through the icon's own transformation); the columns are the
    page's left and right halves."""
    size = body_size(pages)
    stranded = []
    for page in pages[first_page - 1:]:
        if not page:
            continue
        page = [line for line in page if len(line.text) > 2]
        for column in ([ln for ln in page if not ln.right], [ln for ln in page if ln.right]):
            if column:
                last = max(column, key=lambda ln: ln.top)
                if last.size > size * 1.1:
                    stranded.append((last.page, last.text))
    return stranded
