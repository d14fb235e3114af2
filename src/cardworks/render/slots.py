"""Imposition on a layout's slots: faces placed as Form XObjects, turned as the slot says, with the
layout's registration marks, glue marks, fold line and crop ticks.

Used for every layout but the grid (which :mod:`.impose` draws, as it always has). Each face is copied
into the output once and drawn wherever a slot shows it, so the cost follows placements; the faces come
from the print-shop PDF page by page and are never held as images.
"""

from __future__ import annotations

import pikepdf

from ..models.layout import Slot
from ..models.sheets import Sheet
from .impose import MM, _marks_stream, _num
from .pdfjoin import new_with_copies

ROTATIONS = {0: (1, 0, 0, 1), 90: (0, 1, -1, 0), 180: (-1, 0, 0, -1), 270: (0, -1, 1, 0)}
"""The ``a b c d`` of a ``cm`` matrix that turns a face anticlockwise by each angle."""


def placement(slot: Slot, sheet: Sheet, face_bleed: float) -> tuple[float, ...]:
    """The ``cm`` matrix (a, b, c, d, e, f; e and f in points) that draws a face page (trim plus
    ``face_bleed`` all round, origin at its bottom-left corner) into ``slot``."""
    a, b, c, d = ROTATIONS[slot.rotation]
    x0, y0, x1, y1 = sheet.footprint(slot)
    left, bottom = x0 - face_bleed, y0 - face_bleed
    right, top = x1 + face_bleed, y1 + face_bleed
    # where the face's origin lands: the corner of the bleed box that the turn brings to the origin's place
    ex, ey = {0: (left, bottom), 90: (right, bottom), 180: (right, top), 270: (left, top)}[slot.rotation]
    return a, b, c, d, ex * MM, ey * MM


def _place(name: str, slot: Slot, sheet: Sheet, face_bleed: float) -> str:
    x0, y0, x1, y1 = sheet.footprint(slot)
    show = sheet.bleed
    clip = f"{_num((x0 - show) * MM)} {_num((y0 - show) * MM)} {_num((x1 - x0 + 2 * show) * MM)} {_num((y1 - y0 + 2 * show) * MM)} re W n"
    matrix = " ".join(_num(v) for v in placement(slot, sheet, face_bleed))
    return f"q {clip} {matrix} cm /{name} Do Q"


def _decorations(sheet: Sheet) -> str:
    """Marks (filled), then fold lines (dashed) and crop ticks, in black."""
    parts = []
    if sheet.marks:
        rects = " ".join(f"{_num(m.x * MM)} {_num(m.y * MM)} {_num(m.width * MM)} {_num(m.height * MM)} re" for m in sheet.marks)
        parts.append(f"q 0 g {rects} f Q")
    folds = [(l.x1, l.y1, l.x2, l.y2) for l in sheet.lines if l.dashed]
    if folds:
        parts.append("q [2 2] 0 d " + _marks_stream(folds)[2:])
    ticks = [(l.x1, l.y1, l.x2, l.y2) for l in sheet.lines if not l.dashed]
    if ticks:
        parts.append(_marks_stream(ticks))
    return "\n".join(parts)


def mirrored(sheet: Sheet, duplex: str, offset: tuple[float, float]) -> Sheet:
    """The back page of a duplex sheet, with no marks, shifted by the back offset (mm).

    On a portrait page, as on the grid's, a back is mirrored across the vertical centre line for long-edge
    flipping and across the horizontal one for short-edge flipping. On a landscape page flipped on the
    paper's long edge, the back goes where silhouette-card-maker puts it (``utilities.draw_card_layout``
    with ``flip``): rows in reverse order and each back turned 180°; flipped on the short edge, it is
    mirrored across the vertical centre line.
    """
    from dataclasses import replace

    landscape = sheet.width > sheet.height
    slots = []
    for slot in sheet.slots:
        x0, y0, x1, y1 = sheet.footprint(slot)
        across = (duplex == "short") != landscape  # mirrored across the horizontal centre line
        x, y = (x0, sheet.height - y1) if across else (sheet.width - x1, y0)
        turn = 180 if landscape and duplex == "long" else 0
        slots.append(slot.model_copy(update={"x": x + offset[0], "y": y + offset[1], "rotation": (slot.rotation + turn) % 360}))
    return replace(sheet, slots=tuple(slots), marks=(), lines=())


def _page(out: pikepdf.Pdf, sheet: Sheet, placements: list[tuple[str, Slot]], forms: dict[str, pikepdf.Object],
          face_bleed: float, decorate: bool) -> None:
    content = "\n".join([*(_place(name, slot, sheet, face_bleed) for name, slot in placements),
                         _decorations(sheet) if decorate else ""])
    used = sorted({name for name, _ in placements})
    page = pikepdf.Dictionary(
        Type=pikepdf.Name.Page,
        MediaBox=[0, 0, round(sheet.width * MM, 4), round(sheet.height * MM, 4)],
        Resources=pikepdf.Dictionary(XObject=pikepdf.Dictionary({f"/{n}": forms[n] for n in used})),
        Contents=out.make_stream(content.encode("ascii")),
    )
    out.pages.append(pikepdf.Page(page))


def impose_slots(faces: pikepdf.Pdf, copies: list[int], backs: list[int], sheet: Sheet, face_bleed: float,
                 duplex: str = "none", offset: tuple[float, float] = (0.0, 0.0)) -> pikepdf.Pdf:
    """Pages for the face pages in ``copies`` (one entry per physical card; ``backs`` gives each one's back).

    A sheet with back slots (gutterfold) prints each card's back beside its front on one page; otherwise the
    fronts fill the slots and, unless ``duplex`` is ``none``, a back page follows each front page, mirrored
    for long- or short-edge flipping and shifted by ``offset`` (mm).
    """
    pages = list(faces.pages)  # one walk of the page tree: pages[i] on the Pdf walks it on every call
    needed = sorted(set(copies) | set(backs))
    out, copied = new_with_copies([pages[i].as_form_xobject() for i in needed])  # images stay on disk
    forms = {f"F{i}": form for i, form in zip(needed, copied)}
    fronts = [slot for slot in sheet.slots if slot.side == "front"]
    paired = len(fronts) != len(sheet.slots)
    for start in range(0, len(copies), len(fronts)):
        chunk = list(zip(copies[start : start + len(fronts)], backs[start : start + len(fronts)]))
        front_slots = dict(zip((s.card for s in fronts), chunk))
        placements = [(f"F{front_slots[s.card][0 if s.side == 'front' else 1]}", s)
                      for s in sheet.slots if s.card in front_slots and (s.side == "front" or paired)]
        _page(out, sheet, placements, forms, face_bleed, decorate=True)
        if not paired and duplex != "none":
            behind = mirrored(sheet, duplex, offset)
            back_slots = [s for s in behind.slots if s.side == "front"]
            _page(out, behind, [(f"F{b}", s) for (_, b), s in zip(chunk, back_slots)], forms, face_bleed, decorate=False)
    return out
