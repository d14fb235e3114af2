"""The map diagram, drawn from the board data: stated accesses as lines, unknown ones as dashed stubs.

Assumed accesses (the engine's guesses) are never drawn: the diagram shows
what the rulebooks say and marks the rest unknown.
"""

from __future__ import annotations

import math
from collections import Counter
from typing import Any

from markupsafe import Markup, escape


def map_svg(side: Any, names: dict[str, str], start_label: str) -> Markup:
    """An SVG of one board side: spaces on a circle (the start in the middle), accesses between them."""
    spaces = [s for s in side.spaces if not s.start]
    start = next((s for s in side.spaces if s.start), None)
    width, height, radius = 160.0, 120.0, 44.0
    centre = (width / 2, height / 2)
    points = {}
    for i, space in enumerate(spaces):
        angle = -math.pi / 2 + 2 * math.pi * i / max(1, len(spaces))
        points[space.id] = (centre[0] + radius * 1.3 * math.cos(angle), centre[1] + radius * math.sin(angle))
    if start is not None:
        points[start.id] = centre
    parts = []
    degree: Counter[str] = Counter()
    for edge in side.edges:
        a, b = edge.between
        if a in points and b in points:
            degree.update([a, b])
            (x1, y1), (x2, y2) = points[a], points[b]
            parts.append(f'<line class="access" x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}"/>')
    for space in spaces:
        unknown = (space.accesses or 0) - degree[space.id]
        x, y = points[space.id]
        outward = math.atan2(y - centre[1], x - centre[0])
        for k in range(max(0, unknown)):
            angle = outward + (k - (unknown - 1) / 2) * 0.5
            x2, y2 = x + 16 * math.cos(angle), y + 16 * math.sin(angle)
            parts.append(f'<line class="unknown-access" x1="{x:.1f}" y1="{y:.1f}" x2="{x2:.1f}" y2="{y2:.1f}"/>'
                         f'<text class="unknown-mark" x="{x2 + 2 * math.cos(angle):.1f}" y="{y2 + 2 * math.sin(angle) + 1.2:.1f}">?</text>')
    for space in side.spaces:
        x, y = points[space.id]
        label = start_label if space.start else names.get(space.id, space.id)
        css = "start" if space.start else "space"
        parts.append(f'<circle class="{css}" cx="{x:.1f}" cy="{y:.1f}" r="{5 if space.start else 7}"/>')
        if space.accesses is not None and not space.start:
            parts.append(f'<text class="count" x="{x:.1f}" y="{y + 1.6:.1f}">{space.accesses}</text>')
        if space.start:
            lx, ly = x, y + 9
        else:  # toward the centre, away from the outward stubs of unknown accesses
            inward = math.atan2(centre[1] - y, centre[0] - x)
            lx, ly = x + 13 * math.cos(inward), y + 11 * math.sin(inward) + 1.5
        parts.append(f'<text class="label" x="{lx:.1f}" y="{ly:.1f}">{escape(label)}</text>')
    body = "".join(parts)
    return Markup(f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width:.0f} {height:.0f}" class="map-svg">'
                  f"<style>.access{{stroke:#3b3127;stroke-width:1.2}} .unknown-access{{stroke:#8a7d6d;stroke-width:0.8;"
                  f"stroke-dasharray:2 1.5}} .space{{fill:#e8b923;stroke:#3b3127;stroke-width:0.6}} "
                  f".start{{fill:#fbf7ee;stroke:#3b3127;stroke-width:0.6}} text{{font-family:CardSans;text-anchor:middle}} "
                  f".label{{font-size:4.2px}} .count{{font-size:4.5px;font-weight:bold}} .unknown-mark{{font-size:4px;"
                  f"fill:#8a7d6d}}</style>{body}</svg>")
