"""Imposition: card pages placed on paper sheets as PDF Form XObjects, with crop marks and duplex backs.

Each distinct face is copied into the sheet PDF once and drawn wherever a copy
of it goes (``cm … Do``), so a sheet-layout change (paper, gutters, offsets)
needs no re-layout of faces, and the cost follows placements, not pixels.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

import pikepdf

from ..models.card_size import DEFAULT_CARD_SIZE
from ..models.sheet_rules import grid_cells
from ..models.sheets import PAPERS, LayoutError
from .pdfjoin import new_with_copies

MM = 72 / 25.4
MARK_LENGTH = 4.0
MARK_GAP = 1.0


@dataclass(frozen=True)
class SheetLayout:
    """Where cards go on a sheet, and how backs line up with fronts."""

    paper: str = "a4"
    trim_w: float = DEFAULT_CARD_SIZE.width_mm
    trim_h: float = DEFAULT_CARD_SIZE.height_mm
    bleed: float = 3.0
    gutter: float = 0.0
    marks: Literal["cards", "page-edge", "none"] = "cards"
    duplex: Literal["long", "short", "none"] = "long"
    offset_x: float = 0.0
    """Back-page shift in mm (positive: right), for printers that drift."""
    offset_y: float = 0.0
    """Back-page shift in mm (positive: up)."""
    min_margin: float = 6.0
    mark_length: float = MARK_LENGTH
    """Length of a crop tick (the grid layout file's ``mark_length``)."""
    mark_gap: float = MARK_GAP
    """Space between a crop tick and the card it marks (the grid layout file's ``mark_gap``)."""
    name: str = "grid"
    """The sheet layout (``--layout``): ``grid`` is drawn here; the others by :mod:`.slots`."""
    mark_inset: float | None = None
    """Registration marks' distance from the paper edges (print-and-cut layouts), None for the layout's own."""

    @property
    def size(self) -> tuple[float, float]:
        return PAPERS[self.paper]

    @property
    def grid(self) -> tuple[int, int]:
        return self._grid()[:2]

    def _grid(self) -> tuple[int, int, list[tuple[float, float]]]:
        width, height = self.size
        try:
            return grid_cells(width, height, self.trim_w, self.trim_h, self.gutter, self.min_margin)
        except LayoutError:
            raise ValueError(f"a {self.trim_w}×{self.trim_h} mm card does not fit on {self.paper} paper") from None

    @property
    def per_sheet(self) -> int:
        cols, rows = self.grid
        return cols * rows

    def cells(self) -> list[tuple[float, float]]:
        """Bottom-left trim corner (mm, PDF axes) of each cell, in reading order."""
        return self._grid()[2]

    def back_cell(self, index: int) -> tuple[float, float]:
        """Where the back of the card in cell ``index`` lands on the back page."""
        cols, rows = self.grid
        row, col = divmod(index, cols)
        if self.duplex == "long":
            col = cols - 1 - col
        elif self.duplex == "short":
            row = rows - 1 - row
        x, y = self.cells()[row * cols + col]
        return x + self.offset_x, y + self.offset_y

    def fit_note(self) -> str | None:
        """A sentence for the build summary when the gutters cost cards on this paper, else None."""
        full = replace(self, gutter=0.0).per_sheet
        if self.per_sheet >= full:
            return None
        return (f"{_num(self.trim_w)} × {_num(self.trim_h)} mm cards on {self.paper} paper with {_num(self.gutter)} mm "
                f"gutters: {self.per_sheet} a sheet instead of {full} without gutters")

    @property
    def visible_bleed(self) -> float:
        """How much bleed shows around a card: all of it with wide gutters, half the gutter otherwise."""
        return min(self.bleed, self.gutter / 2)


def _num(value: float) -> str:
    return f"{value:.4f}".rstrip("0").rstrip(".")


def _place(name: str, x: float, y: float, layout: SheetLayout) -> str:
    show = layout.visible_bleed
    clip = (f"{_num((x - show) * MM)} {_num((y - show) * MM)} "
            f"{_num((layout.trim_w + 2 * show) * MM)} {_num((layout.trim_h + 2 * show) * MM)} re W n")
    move = f"1 0 0 1 {_num((x - layout.bleed) * MM)} {_num((y - layout.bleed) * MM)} cm"
    return f"q {clip} {move} /{name} Do Q"


def crop_marks(layout: SheetLayout, cells: list[tuple[float, float]]) -> list[tuple[float, float, float, float]]:
    """Mark segments (x1, y1, x2, y2 in mm) on the cut lines, never over a card."""
    if layout.marks == "none" or not cells:
        return []
    width, height = layout.size
    boxes = [(x - layout.visible_bleed, y - layout.visible_bleed,
              x + layout.trim_w + layout.visible_bleed, y + layout.trim_h + layout.visible_bleed) for x, y in cells]
    segments = []
    gap, length = layout.mark_gap, layout.mark_length
    if layout.marks == "page-edge":
        xs = sorted({round(v, 4) for x, _ in cells for v in (x, x + layout.trim_w)})
        ys = sorted({round(v, 4) for _, y in cells for v in (y, y + layout.trim_h)})
        low = min(b[1] for b in boxes)
        high = max(b[3] for b in boxes)
        left = min(b[0] for b in boxes)
        right = max(b[2] for b in boxes)
        for x in xs:
            segments += [(x, max(0.0, low - gap - length), x, low - gap),
                         (x, high + gap, x, min(height, high + gap + length))]
        for y in ys:
            segments += [(max(0.0, left - gap - length), y, left - gap, y),
                         (right + gap, y, min(width, right + gap + length), y)]
        return segments
    for x, y in cells:
        for cx in (x, x + layout.trim_w):
            for cy in (y, y + layout.trim_h):
                out_x = -1 if cx == x else 1
                out_y = -1 if cy == y else 1
                start = layout.visible_bleed + gap
                segments.append((cx, cy + out_y * start, cx, cy + out_y * (start + length)))
                segments.append((cx + out_x * start, cy, cx + out_x * (start + length), cy))
    page = (0.0, 0.0, width, height)
    trimmed = (_trim(segment, boxes, page) for segment in segments)
    return [segment for segment in trimmed if segment is not None]


MARK_CLEARANCE = 0.1
"""Room (mm) a mark keeps from every card's visible area: more than half its 0.25 pt (0.09 mm) line, so a
mark on a cut line shared by two cards (no gutter) is left out rather than drawn over their edges."""
MIN_MARK = 0.5
"""A tick shorter than this (mm) is left out."""


def _trim(segment: tuple[float, float, float, float], boxes: list[tuple[float, float, float, float]],
          page: tuple[float, float, float, float]) -> tuple[float, float, float, float] | None:
    """Shorten a tick so it stops before any card (or the page edge); None when under ``MIN_MARK`` is left."""
    x1, y1, x2, y2 = segment
    vertical = x1 == x2
    along, start, end = (x1, y1, y2) if vertical else (y1, x1, x2)
    step = 1 if end > start else -1
    limit = end
    c = MARK_CLEARANCE
    cards = [(bx0 - c, by0 - c, bx1 + c, by1 + c) for bx0, by0, bx1, by1 in boxes]
    for bx0, by0, bx1, by1 in [*cards, (-1e9, -1e9, 1e9, page[1]), (-1e9, page[3], 1e9, 1e9),
                               (-1e9, -1e9, page[0], 1e9), (page[2], -1e9, 1e9, 1e9)]:
        across_lo, across_hi, lo, hi = (bx0, bx1, by0, by1) if vertical else (by0, by1, bx0, bx1)
        if not across_lo < along < across_hi:
            continue
        if lo <= start <= hi:
            return None
        edge = lo if step > 0 else hi
        if (edge - start) * step > 0 and (edge - limit) * step < 0:
            limit = edge
    if abs(limit - start) < MIN_MARK:
        return None
    return (x1, start, x2, limit) if vertical else (start, y1, limit, y2)


def _marks_stream(segments: list[tuple[float, float, float, float]]) -> str:
    if not segments:
        return ""
    lines = " ".join(f"{_num(a * MM)} {_num(b * MM)} m {_num(c * MM)} {_num(d * MM)} l" for a, b, c, d in segments)
    return f"q 0 G 0.25 w {lines} S Q"


def _sheet(out: pikepdf.Pdf, layout: SheetLayout, placements: list[tuple[str, float, float]],
           forms: dict[str, pikepdf.Object], marks: list[tuple[float, float, float, float]]) -> None:
    width, height = layout.size
    content = "\n".join([*(_place(name, x, y, layout) for name, x, y in placements), _marks_stream(marks)])
    used = {name for name, _, _ in placements}
    page = pikepdf.Dictionary(
        Type=pikepdf.Name.Page,
        MediaBox=[0, 0, round(width * MM, 4), round(height * MM, 4)],
        Resources=pikepdf.Dictionary(XObject=pikepdf.Dictionary({f"/{n}": forms[n] for n in sorted(used)})),
        Contents=out.make_stream(content.encode("ascii")),
    )
    out.pages.append(pikepdf.Page(page))


def impose(faces: pikepdf.Pdf, copies: list[int], back_page: int | list[int] | None, layout: SheetLayout) -> pikepdf.Pdf:
    """Sheets for the face pages listed in ``copies`` (one entry per physical card), backs after each front.

    ``back_page`` is the page of the common back, or a list giving each copy's back page (backs per set or type).
    """
    backs = back_page if isinstance(back_page, list) else None if back_page is None else [back_page] * len(copies)
    needed = sorted(set(copies) | set(backs or []))
    pages = list(faces.pages)  # one walk of the page tree: pages[i] on the Pdf walks it on every call
    out, copied = new_with_copies([pages[index].as_form_xobject() for index in needed])  # images stay on disk
    forms = {f"F{index}": form for index, form in zip(needed, copied)}
    cells = layout.cells()
    per_sheet = layout.per_sheet
    for start in range(0, len(copies), per_sheet):
        chunk = copies[start : start + per_sheet]
        used = cells[: len(chunk)]
        _sheet(out, layout, [(f"F{p}", x, y) for p, (x, y) in zip(chunk, used)], forms, crop_marks(layout, used))
        if backs is not None and layout.duplex != "none":
            cells_behind = [layout.back_cell(i) for i in range(len(chunk))]
            _sheet(out, layout, [(f"F{p}", x, y) for p, (x, y) in zip(backs[start : start + per_sheet], cells_behind)],
                   forms, [])
    return out


def _text(x: float, y: float, text: str, size: float = 7.0, centre: bool = False) -> str:
    """Text at (x, y) mm in Helvetica, one of the PDF's standard fonts (no file to embed, nothing to lay out)."""
    escaped = text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
    shift = len(text) * size * 0.28 if centre else 0.0  # about half the width of Helvetica digits at this size
    return f"BT /Helv {_num(size)} Tf {_num(x * MM - shift)} {_num(y * MM)} Td ({escaped}) Tj ET"


CALIBRATION_RANGE = 15
"""The rulers read offsets from -15 to +15 mm."""


def calibration_readings(layout: SheetLayout) -> tuple[dict[int, float], dict[int, float]]:
    """The numbers printed along each ruler: front position (mm from the centre) → the ``--back-offset`` value
    to pass when the back's line crosses there.

    The back page is mirrored across the flip edge, so on that axis a drift seen one way from the front is
    corrected the other way in back-page coordinates; the printed numbers fold in the offset the sheet was
    printed with, so the user passes the number read, as it is.
    """
    sign_x = 1 if layout.duplex == "long" else -1
    sign_y = 1 if layout.duplex == "short" else -1
    span = range(-CALIBRATION_RANGE, CALIBRATION_RANGE + 1)
    return ({r: layout.offset_x + sign_x * r for r in span}, {r: layout.offset_y + sign_y * r for r in span})


def calibration(layout: SheetLayout) -> pikepdf.Pdf:
    """Two pages to print duplex: millimetre rulers with numbers and an instruction on the front, two pointer
    lines on the back.

    Hold the printed sheet against the light: the number where the back's vertical line crosses the
    horizontal ruler is X, where its horizontal line crosses the vertical ruler is Y; pass
    ``--back-offset X,Y``.
    """
    out = pikepdf.new()
    width, height = layout.size
    cx, cy = width / 2, height / 2
    along_x, along_y = calibration_readings(layout)
    ticks, labels = [], []
    for r in range(-CALIBRATION_RANGE, CALIBRATION_RANGE + 1):
        length = 6 if r == 0 else (4 if r % 5 == 0 else 2)
        ticks.append((cx + r, cy + 20, cx + r, cy + 20 + length))
        ticks.append((cx + 20, cy + r, cx + 20 + length, cy + r))
        if r % 5 == 0:
            labels.append(_text(cx + r, cy + 27.5, _num(along_x[r]), 6, centre=True))
            labels.append(_text(cx + 27.5, cy + r - 0.8, _num(along_y[r]), 6))
    instruction = [
        "Calibration of the back offset (--back-offset X,Y, millimetres)",
        f"1. Print this sheet on {layout.paper} paper, two-sided, flipping on the {layout.duplex} edge, at 100% "
        "(no 'fit to page').",
        "2. Hold it against the light. The back shows two lines, one vertical and one horizontal.",
        "3. X is the number on the horizontal ruler where the back's vertical line crosses it",
        "    (count the 1 mm ticks from the nearest number). Y is the number on the vertical ruler",
        "    where the back's horizontal line crosses it.",
        "4. Build with:  cardworks build --back-offset X,Y   (then print this sheet again to check: both lines at 0).",
        f"This sheet was printed with --back-offset {_num(layout.offset_x)},{_num(layout.offset_y)}.",
    ]
    text = [_text(20, height - 25 - 6 * i, line, 10 if i == 0 else 8) for i, line in enumerate(instruction)]
    front = "\n".join([_marks_stream(ticks), _marks_stream([(cx - 30, cy, cx + 30, cy), (cx, cy - 30, cx, cy + 30)]),
                       "0 g", *labels, *text])
    # The back prints mirrored like a card back would, at the offsets already configured.
    bx = width - cx if layout.duplex == "long" else cx
    by = height - cy if layout.duplex == "short" else cy
    bx, by = bx + layout.offset_x, by + layout.offset_y
    back = _marks_stream([(bx, by + 12, bx, by + 32), (bx + 12, by, bx + 32, by)])
    font = out.make_indirect(pikepdf.Dictionary(Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type1,
                                                BaseFont=pikepdf.Name.Helvetica, Encoding=pikepdf.Name.WinAnsiEncoding))
    for content in (front, back):
        page = pikepdf.Dictionary(Type=pikepdf.Name.Page, MediaBox=[0, 0, round(width * MM, 4), round(height * MM, 4)],
                                  Resources=pikepdf.Dictionary(Font=pikepdf.Dictionary(Helv=font)),
                                  Contents=out.make_stream(content.encode("latin-1")))
        out.pages.append(pikepdf.Page(page))
    return out
