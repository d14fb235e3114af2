"""A layout worked out for one paper and card size: the slots, marks and lines of one sheet, and its checks.

The rules of :mod:`.layout` are turned into a :class:`Sheet` here, and a sheet listed slot by slot
becomes one directly, so the checks (slots inside the printable area, no two overlapping, marks and fold
lines clear of every card) and the imposer see one shape whatever the layout file gave.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import CardworksError
from .layout import FixedSheet, LayoutFile, Line, Mark, Slot

PAPERS: dict[str, tuple[float, float]] = {"a4": (210.0, 297.0), "letter": (215.9, 279.4), "legal": (215.9, 355.6)}
"""Portrait paper sizes, mm (ISO 216; ANSI letter 8.5 × 11 in and legal 8.5 × 14 in)."""

EPSILON = 1e-6
MARK_CLEARANCE = 0.1
"""Room (mm) a mark or fold line keeps from every card's visible area."""


MAX_SLOTS = 1000
"""Most cards one sheet holds (a slot's card number runs from 0 to 999): a rule that works out more for a small
card on a large area (4,356 cards of 30 mm on a 2 m image area) is refused, not drawn."""


class LayoutError(CardworksError, ValueError):
    """A layout that cannot place a card of the size asked on the paper asked."""


class LayoutTooLarge(LayoutError):
    """A rule that would put more than :data:`MAX_SLOTS` cards on one sheet: an error in the layout file."""


def check_slot_count(count: int) -> None:
    """Raise :class:`LayoutTooLarge` when a rule works out ``count`` cards for one sheet, more than it may hold."""
    if count > MAX_SLOTS:
        raise LayoutTooLarge(f"the rule puts {count:,} cards on one sheet; a sheet holds at most {MAX_SLOTS:,} "
                             "(use larger cards, or a smaller area)")


@dataclass(frozen=True)
class Sheet:
    """One page of a layout, for one paper and card size; ``width`` × ``height`` is the page written."""

    paper: str
    width: float
    height: float
    card_width: float
    card_height: float
    bleed: float
    """How much of each face's bleed shows around its trim."""
    printable: tuple[float, float, float, float]
    """The area slots must stay inside: x0, y0, x1, y1."""
    slots: tuple[Slot, ...]
    marks: tuple[Mark, ...] = ()
    lines: tuple[Line, ...] = ()
    corner_radius: float | None = None
    """Radius of the cut file's corners; None for layouts cut by hand (no cut file)."""
    notes: tuple[str, ...] = field(default=())

    def footprint(self, slot: Slot) -> tuple[float, float, float, float]:
        """The trim of ``slot`` on the sheet: x0, y0, x1, y1."""
        w, h = (self.card_width, self.card_height) if slot.rotation in (0, 180) else (self.card_height, self.card_width)
        return slot.x, slot.y, slot.x + w, slot.y + h

    @property
    def fronts(self) -> int:
        return sum(1 for slot in self.slots if slot.side == "front")


def _overlap(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    return a[0] < b[2] - EPSILON and b[0] < a[2] - EPSILON and a[1] < b[3] - EPSILON and b[1] < a[3] - EPSILON


def clip_interval(segment: tuple[float, float, float, float], box: tuple[float, float, float, float],
                  edges_inside: bool = True) -> tuple[float, float] | None:
    """The part of a segment inside ``box`` as its parameters ``(low, high)`` along it (Liang–Barsky clipping:
    exact, and as quick for a long line as for a short one); ``None`` when it misses. A segment lying on an
    edge, parallel to it, is inside only when ``edges_inside``. Shared by the sheet checks and the map diagram."""
    x1, y1, x2, y2 = segment
    dx, dy = x2 - x1, y2 - y1
    low, high = 0.0, 1.0
    for p, q in ((-dx, x1 - box[0]), (dx, box[2] - x1), (-dy, y1 - box[1]), (dy, box[3] - y1)):
        if p == 0:
            if q < 0 or (q == 0 and not edges_inside):
                return None
            continue
        t = q / p
        if p < 0:
            low = max(low, t)
        else:
            high = min(high, t)
        if low > high:
            return None
    return low, high


def _segment_hits(line: Line, box: tuple[float, float, float, float]) -> bool:
    """Whether the segment passes through the inside of ``box``, not only along or across its edge."""
    clipped = clip_interval((line.x1, line.y1, line.x2, line.y2), box, edges_inside=False)
    return clipped is not None and clipped[0] < clipped[1] - EPSILON


def sheet_problems(sheet: Sheet, pointer: str = "") -> list[tuple[str, str, str]]:
    """Every geometric fault of a sheet, as (JSON pointer, code, message); pointers start at ``pointer``."""
    found = []
    x0, y0, x1, y1 = sheet.printable
    boxes = [sheet.footprint(slot) for slot in sheet.slots]
    for i, box in enumerate(boxes):
        if box[0] < x0 - EPSILON or box[1] < y0 - EPSILON or box[2] > x1 + EPSILON or box[3] > y1 + EPSILON:
            found.append((f"{pointer}/slots/{i}", "layout-slot-outside",
                          f"the card at ({_n(box[0])}, {_n(box[1])}) reaches past the printable area "
                          f"({_n(x0)}, {_n(y0)})–({_n(x1)}, {_n(y1)}) of {sheet.paper} paper"))
    for i, a in enumerate(boxes):
        for j in range(i):
            if _overlap(a, boxes[j]):
                found.append((f"{pointer}/slots/{i}", "layout-slot-overlap", f"the card overlaps slot {j}"))
    visible = [(a - sheet.bleed - MARK_CLEARANCE, b - sheet.bleed - MARK_CLEARANCE,
                c + sheet.bleed + MARK_CLEARANCE, d + sheet.bleed + MARK_CLEARANCE) for a, b, c, d in boxes]
    for i, mark in enumerate(sheet.marks):
        rect = (mark.x, mark.y, mark.x + mark.width, mark.y + mark.height)
        hit = next((j for j, box in enumerate(visible) if _overlap(rect, box)), None)
        if hit is not None:
            found.append((f"{pointer}/marks/{i}", "layout-mark-on-card",
                          f"the {mark.kind} mark lies on the card (or its bleed) in slot {hit}"))
        if rect[0] < -EPSILON or rect[1] < -EPSILON or rect[2] > sheet.width + EPSILON or rect[3] > sheet.height + EPSILON:
            found.append((f"{pointer}/marks/{i}", "layout-mark-outside", f"the {mark.kind} mark leaves the paper"))
    for i, line in enumerate(sheet.lines):
        hit = next((j for j, box in enumerate(visible) if _segment_hits(line, box)), None)
        if hit is not None:
            found.append((f"{pointer}/lines/{i}", "layout-mark-on-card",
                          f"the {line.kind} line crosses the card (or its bleed) in slot {hit}"))
    first: dict[tuple[str, int], int] = {}
    for i, slot in enumerate(sheet.slots):  # a card number twice would print one card in both slots, another none
        j = first.setdefault((slot.side, slot.card), i)
        if j != i:
            found.append((f"{pointer}/slots/{i}/card", "layout-slot-card",
                          f"the {slot.side} slot has card number {slot.card}, as slot {j} has: each card of a sheet "
                          "needs its own number (\"card\": 0, 1, 2 …); with one number for all, every slot prints "
                          "the same card and the other cards are missing"))
    fronts = {slot.card for slot in sheet.slots if slot.side == "front"}
    for i, slot in enumerate(sheet.slots):
        if slot.side == "back" and slot.card not in fronts:
            found.append((f"{pointer}/slots/{i}", "layout-back-without-front",
                          f"the back of card {slot.card} has no front on the sheet"))
    return found


def _n(value: float) -> str:
    return f"{value:.2f}".rstrip("0").rstrip(".")


def fixed_sheet(layout: LayoutFile, fixed: FixedSheet) -> Sheet:
    """A sheet listed slot by slot, as a :class:`Sheet`."""
    width, height = PAPERS[fixed.paper]
    m = layout.margin
    return Sheet(fixed.paper, width, height, fixed.card_width, fixed.card_height, fixed.bleed,
                 (m, m, width - m, height - m), tuple(fixed.slots), tuple(fixed.marks), tuple(fixed.lines))
