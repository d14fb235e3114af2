"""Placeholder art: a deterministic, non-photographic pattern drawn from a card's id.

Shapes are painted in solid tints of the type colour (no transparency), which
keeps the PDF simple and the rendering fast.
"""

from __future__ import annotations

import base64
import hashlib

from markupsafe import Markup

PAPER = (0xF7, 0xF2, 0xE8)


def _tint(colour: str, amount: float) -> str:
    """``colour`` mixed into the paper colour; ``amount`` 0 is paper, 1 the full colour."""
    rgb = [int(colour[i : i + 2], 16) for i in (1, 3, 5)] if len(colour) == 7 else [0x88] * 3
    mixed = [round(p + (c - p) * amount) for c, p in zip(rgb, PAPER)]
    return "#" + "".join(f"{v:02x}" for v in mixed)


def _ink(colour: str) -> str:
    """A colour dark enough to show on paper: very light type colours (a white skull) draw in brown."""
    rgb = [int(colour[i : i + 2], 16) for i in (1, 3, 5)] if len(colour) == 7 else [0x88] * 3
    luminance = (0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2]) / 255
    return colour if luminance < 0.75 else "#6b5a48"


def placeholder_svg(card_id: str, colour: str) -> Markup:
    """Overlapping circles and squares with a few rays; the same id always draws the same picture."""
    colour = _ink(colour)
    digest = hashlib.sha512(card_id.encode()).digest()
    shapes = []
    for i in range(6):
        x, y = 10 + digest[i] % 80, 8 + digest[i + 6] % 44
        r = 6 + digest[i + 12] % 18
        fill = _tint(colour, 0.2 + (digest[i + 18] % 45) / 100)
        if digest[i + 24] % 2:
            shapes.append(f'<circle cx="{x}" cy="{y}" r="{r}" fill="{fill}"/>')
        else:
            shapes.append(f'<rect x="{x - r}" y="{y - r}" width="{2 * r}" height="{2 * r}" fill="{fill}" '
                          f'transform="rotate({digest[i + 30] % 90} {x} {y})"/>')
    ray = _tint(colour, 0.5)
    rays = "".join(f'<line x1="50" y1="30" x2="{(digest[i] * 7) % 100}" y2="{0 if i % 2 else 60}" '
                   f'stroke="{ray}" stroke-width="0.6"/>' for i in range(8))
    return Markup(f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 60" preserveAspectRatio="xMidYMid slice">'
                  f'<rect width="100" height="60" fill="#f7f2e8"/>{rays}{"".join(shapes)}</svg>')


def placeholder_url(card_id: str, colour: str) -> str:
    """The placeholder as a ``data:`` URL for an ``<img>``: WeasyPrint draws these faster than inline SVG."""
    svg = str(placeholder_svg(card_id, colour)).encode()
    return "data:image/svg+xml;base64," + base64.b64encode(svg).decode("ascii")
