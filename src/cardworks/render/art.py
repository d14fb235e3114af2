"""Placeholder art: a deterministic, non-photographic pattern drawn from a card's id."""

from __future__ import annotations

import hashlib

from markupsafe import Markup


def placeholder_svg(card_id: str, colour: str) -> Markup:
    """Concentric shapes and rays in the card type's colour; the same id always draws the same picture."""
    digest = hashlib.sha512(card_id.encode()).digest()
    shapes = []
    for i in range(6):
        x, y = 10 + digest[i] % 80, 8 + digest[i + 6] % 44
        r = 6 + digest[i + 12] % 18
        opacity = 0.15 + (digest[i + 18] % 50) / 100
        if digest[i + 24] % 2:
            shapes.append(f'<circle cx="{x}" cy="{y}" r="{r}" fill="{colour}" fill-opacity="{opacity:.2f}"/>')
        else:
            shapes.append(f'<rect x="{x - r}" y="{y - r}" width="{2 * r}" height="{2 * r}" fill="{colour}" '
                          f'fill-opacity="{opacity:.2f}" transform="rotate({digest[i + 30] % 90} {x} {y})"/>')
    rays = "".join(f'<line x1="50" y1="30" x2="{(digest[i] * 7) % 100}" y2="{0 if i % 2 else 60}" '
                   f'stroke="{colour}" stroke-opacity="0.35" stroke-width="0.6"/>' for i in range(8))
    return Markup(f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 60" preserveAspectRatio="xMidYMid slice">'
                  f'<rect width="100" height="60" fill="#f7f2e8"/>{rays}{"".join(shapes)}</svg>')
