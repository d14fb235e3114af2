"""The layout rules worked out for one paper and card size: grid cells, gutterfold pairs, print-and-cut
grids with their registration marks, and print-then-cut image areas.

Each function returns a :class:`~.sheets.Sheet` (or the grid's cells) and raises
:class:`~.sheets.LayoutError` when not one card fits, never a sheet with nothing on it.
"""

from __future__ import annotations

import math

from .layout import GridRule, GutterfoldRule, ImageAreaRule, LayoutFile, Line, Mark, PrintAndCutRule, Slot
from .sheets import EPSILON, MARK_CLEARANCE, PAPERS, LayoutError, Sheet, _n, check_slot_count, fixed_sheet


def grid_cells(width: float, height: float, trim_w: float, trim_h: float, gutter: float,
               margin: float) -> tuple[int, int, list[tuple[float, float]]]:
    """Columns, rows and the bottom-left trim corner of each cell (reading order) of a grid centred on the
    sheet, ``margin`` clear of every edge; raises LayoutError when no card fits."""
    cols = int((width - 2 * margin + gutter) // (trim_w + gutter))
    rows = int((height - 2 * margin + gutter) // (trim_h + gutter))
    if cols < 1 or rows < 1:
        raise LayoutError(f"a {_n(trim_w)}×{_n(trim_h)} mm card does not fit")
    grid_w = cols * trim_w + (cols - 1) * gutter
    grid_h = rows * trim_h + (rows - 1) * gutter
    left, top = (width - grid_w) / 2, (height + grid_h) / 2
    return cols, rows, [(left + c * (trim_w + gutter), top - (r + 1) * trim_h - r * gutter)
                        for r in range(rows) for c in range(cols)]


def _fit(room: float, size: float, spacing: float) -> int:
    return max(0, int(math.floor((room + spacing + EPSILON) / (size + spacing))))


def _ticks(boxes: list[tuple[float, float, float, float]], bleed: float, length: float, paper: tuple[float, float]) -> list[Line]:
    """Crop ticks on the lines of each trim edge, outward from each corner, shortened to stop before any
    card's visible area and the paper edge (as the grid's are); a tick with less than 0.5 mm left is dropped."""
    visible = [(a - bleed - MARK_CLEARANCE, b - bleed - MARK_CLEARANCE, c + bleed + MARK_CLEARANCE, d + bleed + MARK_CLEARANCE)
               for a, b, c, d in boxes]
    start = bleed + 1.0
    ticks: list[Line] = []
    for x0, y0, x1, y1 in boxes:
        for cx, out_x in ((x0, -1), (x1, 1)):
            for cy, out_y in ((y0, -1), (y1, 1)):
                for vertical in (True, False):
                    along, origin, step, end = (cx, cy + out_y * start, out_y, paper[1]) if vertical else \
                        (cy, cx + out_x * start, out_x, paper[0])
                    room = min(length, (end - origin) if step > 0 else origin)
                    blocked = False
                    for bx0, by0, bx1, by1 in visible:
                        lo_across, hi_across, lo, hi = (bx0, bx1, by0, by1) if vertical else (by0, by1, bx0, bx1)
                        if not lo_across < along < hi_across:
                            continue
                        if lo <= origin <= hi:
                            blocked = True
                        elif step > 0 and lo > origin:
                            room = min(room, lo - origin)
                        elif step < 0 and hi < origin:
                            room = min(room, origin - hi)
                    if blocked or room < 0.5:
                        continue
                    stop = origin + step * room
                    tick = Line(kind="crop", x1=cx, y1=origin, x2=cx, y2=stop) if vertical else \
                        Line(kind="crop", x1=origin, y1=cy, x2=stop, y2=cy)
                    if tick not in ticks:
                        ticks.append(tick)
    return ticks


def gutterfold_sheet(rule: GutterfoldRule, margin: float, paper: str, card_w: float, card_h: float,
                     bleed: float) -> Sheet:
    """Fronts on one half, backs mirrored on the other: the fold down the middle of the page (tried first)
    or across it, cards upright or turned a quarter, whichever fits the most pairs.

    Folding turns the sheet over about the fold line, so a back is the front's mirror image in the fold,
    turned so that its top lies where the front's top lies: a fold down the page mirrors left and right
    (rotation r becomes -r), a fold across it mirrors up and down (r becomes 180 - r).
    """
    width, height = PAPERS[paper]
    best: tuple[int, list[Slot], str] | None = None
    for fold in ("down", "across"):
        for rotation in (0, 90):
            fw, fh = (card_w, card_h) if rotation == 0 else (card_h, card_w)
            if fold == "down":
                centre = width / 2
                across = _fit(centre - margin - rule.fold_gap, fw, rule.spacing)
                along = _fit(height - 2 * margin, fh, rule.spacing)
            else:
                centre = height / 2
                across = _fit(centre - margin - rule.fold_gap, fh, rule.spacing)
                along = _fit(width - 2 * margin, fw, rule.spacing)
            if across * along == 0 or (best is not None and across * along <= best[0]):
                continue
            check_slot_count(across * along)
            slots = []
            span = along * (fh if fold == "down" else fw) + (along - 1) * rule.spacing
            for k in range(across):
                for j in range(along):
                    card = len(slots) // 2
                    if fold == "down":
                        x = centre - rule.fold_gap - fw - k * (fw + rule.spacing)
                        y = (height + span) / 2 - fh - j * (fh + rule.spacing)
                        slots.append(Slot(x=x, y=y, rotation=rotation, side="front", card=card))
                        slots.append(Slot(x=2 * centre - x - fw, y=y, rotation=(-rotation) % 360, side="back", card=card))
                    else:
                        x = (width - span) / 2 + j * (fw + rule.spacing)
                        y = centre + rule.fold_gap + k * (fh + rule.spacing)
                        slots.append(Slot(x=x, y=y, rotation=rotation, side="front", card=card))
                        slots.append(Slot(x=x, y=2 * centre - y - fh, rotation=(180 - rotation) % 360, side="back", card=card))
            best = (across * along, slots, fold)
    if best is None:
        raise LayoutError(f"a {_n(card_w)}×{_n(card_h)} mm card and its back do not fit side by side on {paper} paper")
    count, slots, fold = best
    shown = min(bleed, rule.spacing / 2, rule.fold_gap - 2 * MARK_CLEARANCE)
    printable = (margin, margin, width - margin, height - margin)
    draft = Sheet(paper, width, height, card_w, card_h, shown, printable, tuple(slots))
    boxes = [draft.footprint(s) for s in slots]
    if fold == "down":
        centre = width / 2
        fold_line = Line(kind="fold", x1=centre, y1=margin, x2=centre, y2=height - margin, dashed=True)
        glue = [Mark(kind="glue", x=centre - rule.glue_mark / 2, y=(b[1] + b[3] - rule.glue_mark) / 2,
                     width=rule.glue_mark, height=rule.glue_mark) for s, b in zip(slots, boxes) if s.side == "front"]
    else:
        centre = height / 2
        fold_line = Line(kind="fold", x1=margin, y1=centre, x2=width - margin, y2=centre, dashed=True)
        glue = [Mark(kind="glue", x=(b[0] + b[2] - rule.glue_mark) / 2, y=centre - rule.glue_mark / 2,
                     width=rule.glue_mark, height=rule.glue_mark) for s, b in zip(slots, boxes) if s.side == "front"]
    ticks = _ticks(boxes, shown, rule.mark_length, (width, height))
    note = (f"gutterfold, {_n(card_w)} × {_n(card_h)} mm cards on {paper} paper: {count} card(s) a sheet "
            f"(fold {'down the middle' if fold == 'down' else 'across the middle'})")
    return Sheet(paper, width, height, card_w, card_h, shown, printable, tuple(slots), tuple(glue),
                 (fold_line, *ticks), None, (note,))


def _scm_margins(page_w: float, page_h: float, card_w: float, card_h: float, gap: float, inset: float,
                 corner: float) -> tuple[int, int, float, float, float, float] | None:
    """silhouette-card-maker's margin choice (``page_manager.select_best_margins``), in millimetres: the grid
    with the most cards whose whole extent (cards and the gaps around them) keeps out of the square corner
    zones of the registration marks on at least one axis."""
    best, best_count = None, 0
    for margin_x, margin_y in ((inset, inset), (inset + corner, inset), (inset, inset + corner)):
        usable_w, usable_h = page_w - 2 * margin_x, page_h - 2 * margin_y
        max_cols = _fit(usable_w, card_w, gap)
        max_rows = _fit(usable_h, card_h, gap)
        if max_cols == 0 or max_rows == 0:
            continue
        cols_clear = max(0, math.floor((usable_w - gap - 2 * (corner - margin_x + inset)) / (card_w + gap) + EPSILON))
        rows_clear = max(0, math.floor((usable_h - gap - 2 * (corner - margin_y + inset)) / (card_h + gap) + EPSILON))
        for cols, rows in ((max_cols, max_rows), (cols_clear, max_rows), (max_cols, rows_clear)):
            if cols <= 0 or rows <= 0:
                continue
            grid_w = cols * card_w + (cols + 1) * gap
            grid_h = rows * card_h + (rows + 1) * gap
            gap_x = margin_x + (usable_w - grid_w) / 2 - inset
            gap_y = margin_y + (usable_h - grid_h) / 2 - inset
            if gap_x < corner - EPSILON and gap_y < corner - EPSILON:
                continue
            if cols * rows > best_count:
                best_count = cols * rows
                best = (cols, rows, margin_x, margin_y, usable_w, usable_h)
    return best


def registration_marks(pattern: str, page_w: float, page_h: float, inset: float, thickness: float, length: float,
                       square: float) -> list[Mark]:
    """The marks silhouette-card-maker draws (``page_manager.generate_reg_mark``) as filled rectangles: each L
    arm is a line ``thickness`` wide from the corner at ``inset`` to ``length - thickness/2`` along, drawn
    with projecting caps (matplotlib's default), so it covers from ``inset - thickness/2`` to
    ``inset + length``; the square's corner is at ``inset`` from the left and top edges, its outline
    ``thickness`` wide."""
    half = thickness / 2
    corners = [(inset, inset, 1, 1), (page_w - inset, page_h - inset, -1, -1)]
    if pattern == "four":
        corners += [(inset, page_h - inset, 1, -1), (page_w - inset, inset, -1, 1)]
    marks = []
    for cx, cy, sx, sy in corners:
        x_a, x_b = sorted((cx - sx * half, cx + sx * length))
        y_a, y_b = sorted((cy - sy * half, cy + sy * length))
        marks.append(Mark(kind="registration", x=x_a, y=cy - half, width=x_b - x_a, height=thickness))
        marks.append(Mark(kind="registration", x=cx - half, y=y_a, width=thickness, height=y_b - y_a))
    if pattern == "three":
        marks.append(Mark(kind="registration", x=inset - half, y=page_h - inset - square - half,
                          width=square + thickness, height=square + thickness))
    return marks


def print_and_cut_sheet(rule: PrintAndCutRule, paper: str, card_w: float, card_h: float, bleed: float,
                        mark_inset: float | None = None) -> Sheet:
    """silhouette-card-maker's geometry: both page orientations tried (portrait first, as its layout script
    does), the one with more cards kept; the grid centred; the marks' arms lengthened to the room the cards
    leave; the corner zones the arm length plus the padding."""
    reg = rule.registration
    inset = reg.inset if mark_inset is None else mark_inset
    portrait = PAPERS[paper]
    gap = rule.spacing
    chosen = None
    for page_w, page_h in (portrait, (portrait[1], portrait[0])):
        found = _scm_margins(page_w, page_h, card_w, card_h, gap, inset, reg.length + reg.padding)
        if found is not None and (chosen is None or found[0] * found[1] > chosen[2][0] * chosen[2][1]):
            chosen = (page_w, page_h, found)
    if chosen is None:
        raise LayoutError(f"a {_n(card_w)}×{_n(card_h)} mm card does not fit between registration marks {_n(inset)} mm "
                          f"from the edges of {paper} paper")
    page_w, page_h, (cols, rows, margin_x, margin_y, usable_w, usable_h) = chosen
    check_slot_count(cols * rows)
    grid_w = cols * card_w + (cols + 1) * gap
    grid_h = rows * card_h + (rows + 1) * gap
    start_x = margin_x + (usable_w - grid_w) / 2 + gap
    start_y = margin_y + (usable_h - grid_h) / 2 + gap
    slots = [Slot(x=start_x + c * (card_w + gap), y=page_h - start_y - (r + 1) * card_h - r * gap, card=r * cols + c)
             for r in range(rows) for c in range(cols)]
    length = min(reg.max_length, max(reg.length, max(start_x - inset, start_y - inset) - gap))
    marks = registration_marks(reg.pattern, page_w, page_h, inset, reg.thickness, length, reg.square)
    shown = min(bleed, gap / 2)
    orientation = "landscape" if page_w > page_h else "portrait"
    note = (f"{_n(card_w)} × {_n(card_h)} mm cards on {paper} paper ({orientation}): {cols * rows} a sheet, "
            f"registration marks {_n(inset)} mm in, arms {_n(length)} mm")
    return Sheet(paper, page_w, page_h, card_w, card_h, shown, (inset, inset, page_w - inset, page_h - inset),
                 tuple(slots), tuple(marks), (), rule.corner_radius, (note,))


def image_area_sheet(rule: ImageAreaRule, paper: str, card_w: float, card_h: float, bleed: float) -> Sheet:
    """A page the size of the image area (upright or turned, whichever holds more cards), the cards centred
    with their bleed inside it."""
    shown = min(bleed, rule.spacing / 2)
    chosen = None
    for page_w, page_h in ((rule.width, rule.height), (rule.height, rule.width)):
        cols = _fit(page_w - 2 * shown, card_w, rule.spacing)
        rows = _fit(page_h - 2 * shown, card_h, rule.spacing)
        if cols * rows and (chosen is None or cols * rows > chosen[2] * chosen[3]):
            chosen = (page_w, page_h, cols, rows)
    if chosen is None:
        raise LayoutError(f"a {_n(card_w)}×{_n(card_h)} mm card with its bleed does not fit in a "
                          f"{_n(rule.width)} × {_n(rule.height)} mm print-then-cut image")
    page_w, page_h, cols, rows = chosen
    check_slot_count(cols * rows)
    grid_w = cols * card_w + (cols - 1) * rule.spacing
    grid_h = rows * card_h + (rows - 1) * rule.spacing
    left, top = (page_w - grid_w) / 2, (page_h + grid_h) / 2
    slots = [Slot(x=left + c * (card_w + rule.spacing), y=top - (r + 1) * card_h - r * rule.spacing, card=r * cols + c)
             for r in range(rows) for c in range(cols)]
    note = (f"print then cut, {_n(card_w)} × {_n(card_h)} mm cards: {cols * rows} an image of "
            f"{_n(page_w)} × {_n(page_h)} mm, to print on {paper} paper")
    return Sheet(paper, page_w, page_h, card_w, card_h, shown, (shown, shown, page_w - shown, page_h - shown),
                 tuple(slots), (), (), rule.corner_radius, (note,))


def sheet_for(layout: LayoutFile, paper: str, card_width: float, card_height: float, bleed: float,
              mark_inset: float | None = None) -> Sheet:
    """The sheet ``layout`` makes for ``paper`` and cards of ``card_width`` × ``card_height`` with faces
    carrying ``bleed``; raises :class:`LayoutError` when the paper is not the layout's or no card fits.

    A sheet the file lists for this paper and size is used as it is; otherwise the rule works one out.
    ``mark_inset`` replaces a print-and-cut rule's registration inset.
    """
    if paper not in layout.papers:
        raise LayoutError(f"the layout is made for {', '.join(layout.papers)} paper, not {paper}")
    for fixed in layout.sheets:
        if fixed.paper == paper and abs(fixed.card_width - card_width) < 0.01 and abs(fixed.card_height - card_height) < 0.01:
            if fixed.bleed > bleed + EPSILON:
                raise LayoutError(f"the sheet shows {_n(fixed.bleed)} mm of bleed; the faces have {_n(bleed)} mm")
            return fixed_sheet(layout, fixed)
    rule = layout.rule
    if isinstance(rule, GridRule):
        width, height = PAPERS[paper]
        try:
            cells = grid_cells(width, height, card_width, card_height, 0.0, layout.margin)[2]
        except LayoutError as exc:
            raise LayoutError(f"{exc} on {paper} paper") from None
        check_slot_count(len(cells))
        m = layout.margin
        return Sheet(paper, width, height, card_width, card_height, 0.0, (m, m, width - m, height - m),
                     tuple(Slot(x=x, y=y, card=i) for i, (x, y) in enumerate(cells)))
    if isinstance(rule, GutterfoldRule):
        return gutterfold_sheet(rule, layout.margin, paper, card_width, card_height, bleed)
    if isinstance(rule, PrintAndCutRule):
        return print_and_cut_sheet(rule, paper, card_width, card_height, bleed, mark_inset)
    if isinstance(rule, ImageAreaRule):
        return image_area_sheet(rule, paper, card_width, card_height, bleed)
    sizes = ", ".join(f"{_n(s.card_width)} × {_n(s.card_height)} mm on {s.paper}" for s in layout.sheets) or "none"
    raise LayoutError(f"the layout lists no sheet for {_n(card_width)} × {_n(card_height)} mm cards on {paper} paper "
                      f"(it lists: {sizes}) and has no rule to work one out")
