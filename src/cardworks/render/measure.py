"""What WeasyPrint's layout says about each face: which of its texts spill out of their place, and where
placeholder art goes.

A face template marks its parts with classes (``templates/cards/face.html.j2``), inside a section whose id
is ``card-<face id>``: ``header`` (the title with its type and kind icons), ``stats``, ``rules`` and
``flavour``. What the layout drew in a part (its text and images) is compared with that part's box:

- ``name``: something in the header lies outside it (a title wider or taller than its frame, or a kind icon
  pushed out by the title), or the title takes more than two lines;
- ``stats``: an icon or value outside the stats line, or drawn over another (the shipped face sets its marks at
  the line's right end, where too long a line runs into them instead of out of the line);
- ``rules``: text below or beside the rules box (the box clips it: the text is cut off on the card);
- ``flavour``: text beside its box, or a flavour reaching up into the visible rules text (or into the stats
  line when the card has no rules text).

Parts a template does not mark are not measured. The verdict is about ink on the page, so it holds for
every game's stylesheet and every pack's override.

The same walk reads the type size of each marked part as printed (``type_sizes``: the smallest text of the
part, in points at the card's real size, the face's scale applied), adding the artist credit (``artist``)
and the legend of the marks (``unverified``, reported as ``legend``); ``render.legibility`` holds them
against the minimum sizes.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from .art import ArtBox

PARTS = ("name", "stats", "rules", "flavour")
"""The parts of a face that can overflow, in the order reports name them."""
SAYS = {"name": "the title does not fit its frame (two lines at the smallest size)",
        "stats": "the stats line is wider than the card",
        "rules": "rules text overflows its box even at the smallest size",
        "flavour": "the flavour runs into the rules text or out of its box"}
"""What each overflowing part means, for a reader."""
_MARKED = {"header", "stats", "rules", "flavour", "artist", "unverified"}
SIZED = {"header": "name", "stats": "stats", "rules": "rules", "flavour": "flavour", "artist": "artist",
         "unverified": "legend"}
"""Marked class → the name its type size is reported under."""
TOLERANCE = 0.5
"""CSS pixels: rounding in the layout, not overflow."""
PX = 0.75
"""PDF points per CSS pixel."""


@dataclass(frozen=True)
class Spill:
    """The parts of one face that overflow, and whether a smaller rules-text size could cure it."""

    parts: tuple[str, ...]
    shrink: bool


def _leaves(box: Any) -> Iterator[Any]:
    """What the layout drew inside ``box``: its text and images."""
    from weasyprint.formatting_structure.boxes import ReplacedBox, TextBox

    stack = [box]
    while stack:
        current = stack.pop()
        children = getattr(current, "children", None)
        if children:
            stack.extend(children)
        elif isinstance(current, (TextBox, ReplacedBox)):
            yield current


def _spills_out(part: Any) -> bool:
    """True when something drawn in ``part`` lies outside its padding box."""
    left, top = part.padding_box_x(), part.padding_box_y()
    right, bottom = left + part.padding_width(), top + part.padding_height()
    for leaf in _leaves(part):
        x, y = leaf.border_box_x(), leaf.border_box_y()
        if (x < left - TOLERANCE or y < top - TOLERANCE or x + leaf.border_width() > right + TOLERANCE
                or y + leaf.border_height() > bottom + TOLERANCE):
            return True
    return False


def _overlapping(part: Any) -> bool:
    """True when two things drawn in ``part`` cover each other (beyond rounding)."""
    boxes = sorted((leaf.border_box_x(), leaf.border_box_x() + leaf.border_width(),
                    leaf.border_box_y(), leaf.border_box_y() + leaf.border_height())
                   for leaf in _leaves(part) if leaf.border_width() > TOLERANCE)
    for i, (left, right, top, bottom) in enumerate(boxes):
        for other_left, _, other_top, other_bottom in boxes[i + 1:]:
            if other_left >= right - TOLERANCE:
                break
            if other_top < bottom - TOLERANCE and top < other_bottom - TOLERANCE:
                return True
    return False


def _title_lines(header: Any) -> int:
    """Lines of the title (the header's ``name`` element), 0 when the header has none."""
    from weasyprint.formatting_structure.boxes import LineBox

    stack = [header]
    while stack:
        box = stack.pop()
        element = getattr(box, "element", None)
        if element is not None and box is not header and "name" in (element.get("class") or "").split():
            return sum(1 for child in getattr(box, "children", []) if isinstance(child, LineBox))
        stack.extend(getattr(box, "children", []))
    return 0


def _ink_bottom(part: Any) -> float | None:
    """The lowest point of what is drawn in ``part``, None when nothing is."""
    return max((leaf.border_box_y() + leaf.border_height() for leaf in _leaves(part)), default=None)


def spill(parts: dict[str, Any]) -> Spill | None:
    """The overflow of one face from its marked part boxes (class → box), None when everything fits."""
    found: list[str] = []
    shrink = False
    header, stats, rules, flavour = (parts.get(name) for name in ("header", "stats", "rules", "flavour"))
    if header is not None and (_spills_out(header) or _title_lines(header) > 2):
        found.append("name")
    if stats is not None and (_spills_out(stats) or _overlapping(stats)):
        found.append("stats")
    # the lowest visible text or icon the flavour must stay under: the rules text (as far as its box shows
    # it), else the stats line
    above = stats.padding_box_y() + stats.padding_height() if stats is not None else None
    if rules is not None:
        if _spills_out(rules):
            found.append("rules")
            shrink = True
        ink = _ink_bottom(rules)
        if ink is not None:
            above = min(ink, rules.padding_box_y() + rules.padding_height())
    if flavour is not None:
        top = min((leaf.border_box_y() for leaf in _leaves(flavour)), default=None)
        reaches_up = top is not None and above is not None and top < above - TOLERANCE
        if reaches_up or _spills_out(flavour):
            found.append("flavour")
        if reaches_up and rules is not None and top > rules.padding_box_y() + TOLERANCE:
            shrink = True  # smaller rules text ends higher and may clear the flavour
    return Spill(tuple(part for part in PARTS if part in found), shrink) if found else None


def smallest_type(part: Any, scale: float) -> float | None:
    """The smallest text drawn in ``part``, in points as printed (``scale``: the card's drawing scale); None
    when it draws no text."""
    from weasyprint.formatting_structure.boxes import TextBox

    sizes = [leaf.style["font_size"] for leaf in _leaves(part) if isinstance(leaf, TextBox) and leaf.text.strip()]
    return round(min(sizes) * PX * scale, 3) if sizes else None


def _classes(box: Any) -> list[str]:
    element = getattr(box, "element", None)
    return (element.get("class") or "").split() if element is not None else []


def measure(document: Any, placeholder_colours: dict[str, str], transform: tuple[float, float] = (1.0, 0.0),
            type_sizes: dict[str, dict[str, float]] | None = None) -> tuple[dict[str, Spill], dict[str, ArtBox]]:
    """Read WeasyPrint's layout: faces whose texts spill (face id → :class:`Spill`), and the box where each
    face without art of its own (``placeholder_colours``: face id → frame colour) gets its placeholder. With
    ``type_sizes``, each face's printed type size per part is put in it (face id → part → points).

    ``transform`` is (scale, origin in CSS px) of the card drawn scaled about its top left corner (see
    ``geometry``): overflow is read in layout coordinates, where the scale changes nothing, and placeholder
    boxes are mapped to the page."""
    scale, origin = transform

    def placed(value: float) -> float:
        return origin + (value - origin) * scale

    overflow: dict[str, Spill] = {}
    arts: dict[str, ArtBox] = {}
    for page in document.pages:
        parts: dict[str, dict[str, Any]] = {}
        stack: list[tuple[Any, str | None]] = [(page._page_box, None)]
        while stack:
            box, face_id = stack.pop()
            element = getattr(box, "element", None)
            element_id = element.get("id") if element is not None else None
            if element_id and element_id.startswith("card-") and box.element_tag == "section":
                face_id = element_id.removeprefix("card-")
            marked = _MARKED.intersection(_classes(box)) if face_id is not None else set()
            if marked and box.element_tag in ("div", "span") and hasattr(box, "children"):
                found = parts.setdefault(face_id, {})
                for name in marked:
                    found.setdefault(name, box)  # the outermost box of the element
                continue
            if element_id and element_id.startswith("art-") and box.element_tag == "div" \
                    and element_id.removeprefix("art-") in placeholder_colours:
                art_id = element_id.removeprefix("art-")
                radius = max(0.0, box.border_top_left_radius[0] - box.border_left_width)
                bottom = placed(box.padding_box_y() + box.padding_height())
                arts[art_id] = ArtBox(placed(box.padding_box_x()) * PX, (page.height - bottom) * PX,
                                      box.padding_width() * scale * PX, box.padding_height() * scale * PX,
                                      radius * scale * PX, placeholder_colours[art_id])
                continue
            stack.extend((child, face_id) for child in getattr(box, "children", []))
        for face_id, found in parts.items():
            if type_sizes is not None:
                sized = {SIZED[name]: smallest_type(box, scale) for name, box in found.items()}
                type_sizes[face_id] = {part: size for part, size in sorted(sized.items()) if size is not None}
            verdict = spill(found)
            if verdict is not None:
                overflow[face_id] = verdict
    return overflow, arts


def describe(overflow: dict[str, tuple[str, ...]]) -> str:
    """Overflowing faces for a message: ``card-a (name), card-b (rules, flavour)``."""
    return ", ".join(f"{face_id} ({', '.join(parts)})" if parts else face_id for face_id, parts in overflow.items())


def unused_height(document: Any) -> dict[str, float]:
    """Face id → the tallest band of its card (as a fraction of the card's height) where nothing is drawn: no
    text, no icon, no art box. A face whose parts do not grow with the card leaves such a band at its foot."""
    found: dict[str, float] = {}
    for page in document.pages:
        stack: list[tuple[Any, str | None]] = [(page._page_box, None)]
        cards: dict[str, Any] = {}
        drawn: dict[str, list[tuple[float, float]]] = {}
        while stack:
            box, face_id = stack.pop()
            element = getattr(box, "element", None)
            element_id = element.get("id") if element is not None else None
            if element_id and element_id.startswith("card-") and box.element_tag == "section":
                face_id = element_id.removeprefix("card-")
            classes = _classes(box)
            if face_id is not None and "card" in classes and box.element_tag == "div":
                cards.setdefault(face_id, box)
                for leaf in _leaves(box):
                    drawn.setdefault(face_id, []).append((leaf.border_box_y(), leaf.border_box_y() + leaf.border_height()))
            if face_id is not None and "art" in classes and box.element_tag == "div":
                drawn.setdefault(face_id, []).append((box.border_box_y(), box.border_box_y() + box.border_height()))
            stack.extend((child, face_id) for child in getattr(box, "children", []))
        for face_id, card in cards.items():
            top, height = card.border_box_y(), card.border_height()
            edge, gap = top, 0.0
            for start, end in sorted(drawn.get(face_id, [])):
                gap = max(gap, start - edge)
                edge = max(edge, end)
            found[face_id] = max(gap, top + height - edge) / height
    return found
