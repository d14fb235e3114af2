"""The map diagram, drawn from the board data: stated accesses as lines, unknown ones as dashed stubs.
An access or an access count the rulebooks do not state (inferred) is drawn with the ``†`` mark of
:mod:`..marks` and its own legend entry, never as known.

Assumed accesses (the engine's guesses) are never drawn: the diagram shows
what the rulebooks say and marks the rest unknown. Labels are measured with
the font's own advance widths and placed where they cross no line, cover no
shape and stay inside the drawing; :func:`map_geometry` returns that geometry
so tests can check it without parsing the SVG back.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from markupsafe import Markup, escape

from ...models.sheets import clip_interval
from ..fonts import text_width
from ...models.certainty import PLAIN
from ..marks import NOT_STATED, UNKNOWN

WIDTH, HEIGHT = 160.0, 120.0
CENTRE = (WIDTH / 2, HEIGHT / 2)
RADII = (54.0, 36.0)
SPACE_R, START_R = 7.0, 5.0
STUB = 11.0
LABEL_SIZE = 4.0
MARK_SIZE = 4.2
MARGIN = 1.0
CLEARANCE = 0.8
"""Room (drawing units, about a millimetre) every label keeps from lines, shapes and other labels."""

Box = tuple[float, float, float, float]
Segment = tuple[float, float, float, float]


def text_box(x: float, y: float, text: str, size: float) -> Box:
    """The box of centred text whose baseline is at ``y`` (DejaVu: ascent 0.76, descent 0.24 of the size)."""
    half = text_width(text, size) / 2
    return (x - half, y - 0.76 * size, x + half, y + 0.24 * size)


@dataclass
class MapGeometry:
    """Everything drawn on one side, in SVG units: for drawing, and for tests to check overlaps."""

    circles: list[tuple[str, float, float, float, str]] = field(default_factory=list)
    """(space id, x, y, radius, css class)."""
    lines: list[Segment] = field(default_factory=list)
    """Accesses the rulebooks state."""
    inferred: list[Segment] = field(default_factory=list)
    """Accesses drawn from an inference: dashed, with a ``†`` (in ``daggers``)."""
    daggers: list[tuple[float, float, Box]] = field(default_factory=list)
    """``†`` marks of inferred accesses: baseline position and box."""
    stubs: list[Segment] = field(default_factory=list)
    marks: list[tuple[float, float, Box]] = field(default_factory=list)
    """``?`` marks: baseline position and box."""
    counts: list[tuple[float, float, str]] = field(default_factory=list)
    labels: list[tuple[str, float, float, Box]] = field(default_factory=list)
    """(text, x, baseline y, box)."""


def _boxes_meet(a: Box, b: Box, room: float = 0.0) -> bool:
    return a[0] - room < b[2] and b[0] - room < a[2] and a[1] - room < b[3] and b[1] - room < a[3]


def segment_meets_box(segment: Segment, box: Box, room: float = 0.0) -> bool:
    """True when the segment passes through the box grown by ``room``."""
    grown = (box[0] - room, box[1] - room, box[2] + room, box[3] + room)
    return clip_interval(segment, grown) is not None


def circle_meets_box(cx: float, cy: float, r: float, box: Box, room: float = 0.0) -> bool:
    nearest_x = min(max(cx, box[0]), box[2])
    nearest_y = min(max(cy, box[1]), box[3])
    return math.hypot(cx - nearest_x, cy - nearest_y) < r + room


def inside(box: Box, margin: float = 0.0) -> bool:
    return box[0] >= margin and box[1] >= margin and box[2] <= WIDTH - margin and box[3] <= HEIGHT - margin


def _free(box: Box, geometry: MapGeometry) -> bool:
    if not inside(box, MARGIN):
        return False
    if any(segment_meets_box(s, box, CLEARANCE) for s in geometry.lines + geometry.inferred + geometry.stubs):
        return False
    if any(circle_meets_box(x, y, r, box, CLEARANCE) for _, x, y, r, _ in geometry.circles):
        return False
    return not any(_boxes_meet(box, other, CLEARANCE) for *_, other in geometry.labels) and \
        not any(_boxes_meet(box, other, CLEARANCE) for _, _, other in geometry.marks + geometry.daggers)


def _place_label(text: str, x: float, y: float, r: float, geometry: MapGeometry) -> tuple[float, float, Box]:
    """The first spot around a shape (below, above, then the sides, moving out) where the label is free."""
    height = LABEL_SIZE
    half = text_width(text, LABEL_SIZE) / 2
    for distance in (1.5, 3.0, 5.0, 8.0, 12.0):
        for angle in (90, 270, 60, 120, 240, 300, 0, 180, 30, 150, 210, 330):
            a = math.radians(angle)
            # the label's centre sits on the ellipse around the shape that just clears its box
            lx = x + math.cos(a) * (r + distance + half)
            ly = y + math.sin(a) * (r + distance + height / 2) + 0.26 * height
            box = text_box(lx, ly, text, LABEL_SIZE)
            if _free(box, geometry):
                return lx, ly, box
    raise ValueError(f"no room for the map label {text!r}")


def _ellipse_point(i: int, n: int) -> tuple[float, float]:
    angle = -math.pi / 2 + 2 * math.pi * i / max(1, n)
    return CENTRE[0] + RADII[0] * math.cos(angle), CENTRE[1] + RADII[1] * math.sin(angle)


def _crosses(a: Segment, b: Segment) -> bool:
    """True when two segments cross at a point inside both (sharing an end is not crossing)."""
    def side(p: tuple[float, float], q: tuple[float, float], r: tuple[float, float]) -> float:
        return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])
    p1, p2, p3, p4 = (a[0], a[1]), (a[2], a[3]), (b[0], b[1]), (b[2], b[3])
    if {p1, p2} & {p3, p4}:
        return False
    return side(p1, p2, p3) * side(p1, p2, p4) < 0 and side(p3, p4, p1) * side(p3, p4, p2) < 0


MAX_UNTANGLE = 8
"""Sides with at most this many spaces are laid out in the order whose accesses cross least (8: 5,040 orders)."""


def untangled(spaces: list[Any], edges: list[tuple[str, str]]) -> list[Any]:
    """``spaces`` in the order around the ellipse whose accesses cross each other, and pass through the start
    in the middle, least often; the data's order when it is as good (the first space stays on top). Only the
    layout changes, never which spaces an access joins."""
    import itertools

    if len(spaces) > MAX_UNTANGLE or len(spaces) < 4:
        return spaces
    ids = [s.id for s in spaces]
    pairs = [(a, b) for a, b in edges if a in ids and b in ids]

    def cost(order: tuple[str, ...]) -> tuple[int, int]:
        at = {sid: _ellipse_point(i, len(order)) for i, sid in enumerate(order)}
        segments = [(*at[a], *at[b]) for a, b in pairs]
        crossings = sum(_crosses(x, y) for x, y in itertools.combinations(segments, 2))
        middle = (CENTRE[0] - START_R, CENTRE[1] - START_R, CENTRE[0] + START_R, CENTRE[1] + START_R)
        through = sum(segment_meets_box(seg, middle) for seg in segments)
        return crossings + through, through

    best, best_cost = tuple(ids), cost(tuple(ids))
    for rest in itertools.permutations(ids[1:]):
        order = (ids[0], *rest)
        found = cost(order)
        if found < best_cost:
            best, best_cost = order, found
    by_id = {s.id: s for s in spaces}
    return [by_id[sid] for sid in best]


def map_geometry(side: Any, names: dict[str, str], start_label: str,
                 unsure_counts: frozenset[str] = frozenset()) -> MapGeometry:
    """Lay out one board side: spaces on an ellipse (the start in the middle), accesses, unknown stubs, labels.

    An edge whose certainty is not ``stated`` is drawn as inferred, and the access counts of the spaces in
    ``unsure_counts`` carry the ``†`` mark."""
    spaces = untangled([s for s in side.spaces if not s.start], [tuple(e.between) for e in side.edges])
    start = next((s for s in side.spaces if s.start), None)
    points: dict[str, tuple[float, float]] = {}
    for i, space in enumerate(spaces):
        angle = -math.pi / 2 + 2 * math.pi * i / max(1, len(spaces))
        points[space.id] = (CENTRE[0] + RADII[0] * math.cos(angle), CENTRE[1] + RADII[1] * math.sin(angle))
    if start is not None:
        points[start.id] = CENTRE
    radius = {s.id: START_R if s.start else SPACE_R for s in side.spaces}
    geometry = MapGeometry()
    degree: Counter[str] = Counter()
    for edge in side.edges:
        a, b = edge.between
        if a in points and b in points:
            degree.update([a, b])
            (x1, y1), (x2, y2) = points[a], points[b]
            length = math.hypot(x2 - x1, y2 - y1)
            ux, uy = (x2 - x1) / length, (y2 - y1) / length
            segment = (x1 + ux * radius[a], y1 + uy * radius[a], x2 - ux * radius[b], y2 - uy * radius[b])
            if edge.certainty in PLAIN and (edge.source is None or edge.source.certainty in PLAIN):
                geometry.lines.append(segment)
                continue
            geometry.inferred.append(segment)
            mx, my = (x1 + x2) / 2 - uy * 3.2, (y1 + y2) / 2 + ux * 3.2 + 0.26 * MARK_SIZE  # beside the line's middle
            geometry.daggers.append((mx, my, text_box(mx, my, NOT_STATED, MARK_SIZE)))
    for space in side.spaces:
        x, y = points[space.id]
        geometry.circles.append((space.id, x, y, radius[space.id], "start" if space.start else "space"))
        if space.accesses is not None and not space.start:
            geometry.counts.append((x, y + 1.6, f"{space.accesses}{NOT_STATED if space.id in unsure_counts else ''}"))
    for space in spaces:
        unknown = max(0, (space.accesses or 0) - degree[space.id])
        x, y = points[space.id]
        outward = math.atan2(y - CENTRE[1], x - CENTRE[0])
        for k in range(unknown):
            angle = outward + (k - (unknown - 1) / 2) * 0.55
            ux, uy = math.cos(angle), math.sin(angle)
            x1, y1 = x + ux * SPACE_R, y + uy * SPACE_R
            x2, y2 = x + ux * (SPACE_R + STUB), y + uy * (SPACE_R + STUB)
            geometry.stubs.append((x1, y1, x2, y2))
            mx, my = x2 + ux * 2.2, y2 + uy * 2.2 + 0.26 * MARK_SIZE
            geometry.marks.append((mx, my, text_box(mx, my, UNKNOWN, MARK_SIZE)))
    for space in side.spaces:  # start last: the middle has the most room once the terretes are placed
        if space.start:
            continue
        x, y = points[space.id]
        text = names.get(space.id, space.id)
        lx, ly, box = _place_label(text, x, y, radius[space.id], geometry)
        geometry.labels.append((text, lx, ly, box))
    if start is not None:
        x, y = points[start.id]
        lx, ly, box = _place_label(start_label, x, y, START_R, geometry)
        geometry.labels.append((start_label, lx, ly, box))
    return geometry


STYLE = (".access{stroke:#3b3127;stroke-width:1.2} .unknown-access{stroke:#8a7d6d;stroke-width:0.8;"
         "stroke-dasharray:2 1.5} .space{fill:#e8b923;stroke:#3b3127;stroke-width:0.6} "
         ".start{fill:#fbf7ee;stroke:#3b3127;stroke-width:0.6} text{font-family:CardSans;text-anchor:middle} "
         f".label{{font-size:{LABEL_SIZE}px}} .count{{font-size:4.5px;font-weight:bold}} "
         f".unknown-mark{{font-size:{MARK_SIZE}px;fill:#6b5a48}} "
         ".inferred-access{stroke:#3b3127;stroke-width:1;stroke-dasharray:4 1.2} "
         f".inferred-mark{{font-size:{MARK_SIZE}px;font-weight:bold}}")


def svg_of(geometry: MapGeometry) -> Markup:
    """The SVG drawing of a laid-out side."""
    parts = [f'<line class="access" x1="{a:.2f}" y1="{b:.2f}" x2="{c:.2f}" y2="{d:.2f}"/>' for a, b, c, d in geometry.lines]
    parts += [f'<line class="unknown-access" x1="{a:.2f}" y1="{b:.2f}" x2="{c:.2f}" y2="{d:.2f}"/>'
              for a, b, c, d in geometry.stubs]
    parts += [f'<line class="inferred-access" x1="{a:.2f}" y1="{b:.2f}" x2="{c:.2f}" y2="{d:.2f}"/>'
              for a, b, c, d in geometry.inferred]
    parts += [f'<text class="unknown-mark" x="{x:.2f}" y="{y:.2f}">{UNKNOWN}</text>' for x, y, _ in geometry.marks]
    parts += [f'<text class="inferred-mark" x="{x:.2f}" y="{y:.2f}">{NOT_STATED}</text>' for x, y, _ in geometry.daggers]
    parts += [f'<circle class="{css}" data-space="{escape(sid)}" cx="{x:.2f}" cy="{y:.2f}" r="{r:g}"/>'
              for sid, x, y, r, css in geometry.circles]
    parts += [f'<text class="count" x="{x:.2f}" y="{y:.2f}">{escape(text)}</text>' for x, y, text in geometry.counts]
    parts += [f'<text class="label" x="{x:.2f}" y="{y:.2f}">{escape(text)}</text>' for text, x, y, _ in geometry.labels]
    return Markup(f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH:.0f} {HEIGHT:.0f}" class="map-svg">'
                  f"<style>{STYLE}</style>{''.join(parts)}</svg>")


def map_svg(side: Any, names: dict[str, str], start_label: str) -> Markup:
    """An SVG of one board side (see :func:`map_geometry`)."""
    return svg_of(map_geometry(side, names, start_label))


def legend_keys(geometry: MapGeometry) -> list[str]:
    """Which legend entries this side needs: only what it draws (``space``, ``access``, ``unknown``, and
    ``inferred`` for an inferred access or access count)."""
    keys = ["space"] if any(css == "space" for *_, css in geometry.circles) else []
    inferred = geometry.inferred or any(text.endswith(NOT_STATED) for *_, text in geometry.counts)
    return keys + (["access"] if geometry.lines else []) + (["unknown"] if geometry.stubs else []) + \
        (["inferred"] if inferred else [])
