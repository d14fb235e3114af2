"""Placeholder art: a deterministic, non-photographic pattern drawn from a card's id.

The pattern is drawn as PDF path operators straight into the art box that the
face template leaves empty, after WeasyPrint has laid the face out: drawing it
as SVG through WeasyPrint cost a fifth of a face's rendering time. Shapes are
solid tints of the type colour (no transparency), so the PDF stays simple.
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass

PAPER = (0xF7, 0xF2, 0xE8)
VIEW_W, VIEW_H = 100.0, 60.0
"""The pattern's own coordinates (y down); it is scaled to cover the art box and centred."""
KAPPA = 0.5522847498
"""Bézier control distance for a quarter circle of radius 1."""


@dataclass(frozen=True)
class ArtBox:
    """Where a face's art goes on its page, in PDF points (origin bottom left), and its corner radius."""

    x: float
    y: float
    width: float
    height: float
    radius: float
    colour: str


def _rgb(colour: str) -> list[int]:
    return [int(colour[i : i + 2], 16) for i in (1, 3, 5)] if len(colour) == 7 else [0x88] * 3


def _tint(colour: str, amount: float) -> tuple[int, ...]:
    """``colour`` mixed into the paper colour; ``amount`` 0 is paper, 1 the full colour."""
    return tuple(round(p + (c - p) * amount) for c, p in zip(_rgb(colour), PAPER))


def _ink(colour: str) -> str:
    """A colour dark enough to show on paper: very light type colours (a white skull) draw in brown."""
    rgb = _rgb(colour)
    luminance = (0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2]) / 255
    return colour if luminance < 0.75 else "#6b5a48"


def _colour_op(rgb: tuple[int, ...], operator: str) -> str:
    return " ".join(f"{v / 255:.3f}" for v in rgb) + f" {operator}"


def _rounded_rect(x: float, y: float, w: float, h: float, r: float) -> str:
    """A closed rectangle path with quarter-circle corners of radius ``r``."""
    r = max(0.0, min(r, w / 2, h / 2))
    k = r * KAPPA
    return (f"{x + r:.3f} {y:.3f} m {x + w - r:.3f} {y:.3f} l "
            f"{x + w - r + k:.3f} {y:.3f} {x + w:.3f} {y + r - k:.3f} {x + w:.3f} {y + r:.3f} c "
            f"{x + w:.3f} {y + h - r:.3f} l "
            f"{x + w:.3f} {y + h - r + k:.3f} {x + w - r + k:.3f} {y + h:.3f} {x + w - r:.3f} {y + h:.3f} c "
            f"{x + r:.3f} {y + h:.3f} l "
            f"{x + r - k:.3f} {y + h:.3f} {x:.3f} {y + h - r + k:.3f} {x:.3f} {y + h - r:.3f} c "
            f"{x:.3f} {y + r:.3f} l {x:.3f} {y + r - k:.3f} {x + r - k:.3f} {y:.3f} {x + r:.3f} {y:.3f} c h")


def _circle(cx: float, cy: float, r: float) -> str:
    return _rounded_rect(cx - r, cy - r, 2 * r, 2 * r, r)


def placeholder_ops(card_id: str, box: ArtBox) -> bytes:
    """Content-stream operators that paint the pattern of ``card_id`` into ``box``, clipped to it.

    Overlapping circles and squares with a few rays; the same id always draws the same picture.
    """
    colour = _ink(box.colour)
    digest = hashlib.sha512(card_id.encode()).digest()
    scale = max(box.width / VIEW_W, box.height / VIEW_H)
    left = box.x + (box.width - VIEW_W * scale) / 2
    top = box.y + box.height - (box.height - VIEW_H * scale) / 2
    ops = ["q", _rounded_rect(box.x, box.y, box.width, box.height, box.radius) + " W n",
           f"{scale:.5f} 0 0 {-scale:.5f} {left:.3f} {top:.3f} cm",  # from here on: pattern units, y down
           _colour_op(PAPER, "rg"), f"0 0 {VIEW_W:g} {VIEW_H:g} re f",
           _colour_op(_tint(colour, 0.5), "RG"), "0.6 w"]
    ops += [f"50 30 m {(digest[i] * 7) % 100} {0 if i % 2 else 60} l S" for i in range(8)]
    for i in range(6):
        x, y = 10 + digest[i] % 80, 8 + digest[i + 6] % 44
        r = 6 + digest[i + 12] % 18
        ops.append(_colour_op(_tint(colour, 0.2 + (digest[i + 18] % 45) / 100), "rg"))
        if digest[i + 24] % 2:
            ops.append(_circle(x, y, r) + " f")
        else:
            angle = math.radians(digest[i + 30] % 90)
            cos, sin = math.cos(angle), math.sin(angle)
            ops.append(f"q {cos:.5f} {sin:.5f} {-sin:.5f} {cos:.5f} {x - x * cos + y * sin:.4f} "
                       f"{y - x * sin - y * cos:.4f} cm {x - r} {y - r} {2 * r} {2 * r} re f Q")
    ops.append("Q")
    return ("\n".join(ops) + "\n").encode("ascii")


