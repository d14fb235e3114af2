"""The face layout at any card size: the poker face (63 × 88 mm) scaled, with its art and rules boxes stretched.

Every card is laid out on a *virtual* card as wide as a poker card relative to
its text (trim ÷ ``scale``, where ``scale`` is the smaller of width ÷ 63 and
height ÷ 88) and drawn scaled by ``scale``: titles, icons, frames and text grow
or shrink with the card, so a text that fits a poker face fits every size the
same way. The virtual card is never lower than a poker card (``scale`` is at
most height ÷ 88) but may be taller (tarot, bridge) or wider (landscape,
square): the height it has beyond a poker card's goes to the art box, so the
rules box stays exactly the poker face's. On a wider card the rules and
flavour text are set larger (``text_scale``), so a text fills its box about
as on a poker face rather than in fewer, longer lines.

Type is never drawn smaller than on a poker face while the card is at least
``FLOOR_MM`` (a mini card): a card smaller than poker in either direction
(mini, bridge, square, landscape) is laid out at its own size (``scale`` 1),
its art box taking the height it lacks (down to ``ART_MIN_MM``, then the rules
box), so its texts stay as legible as on a poker face. Only a card smaller
than that floor is drawn scaled down; its type then shrinks with it, and the
legibility check (``render.legibility``) reports what falls under the minimum.
"""

from __future__ import annotations

from dataclasses import dataclass

POKER_MM = (63.0, 88.0)
ART_MM, RULES_MM = 31.0, 27.5
"""The poker face's art and rules box heights."""
FLOOR_MM = (44.0, 63.0)
"""The smallest card laid out at poker type size (mini); a smaller card is this layout drawn scaled down."""
ART_MIN_MM, RULES_MIN_MM = 12.0, 8.0
"""What the art box and the rules box keep on a card lower than poker before the other gives up height."""
HEADER_MM, GAP_MM, STATS_MM = 9.4, 0.8, 6.0
TEXT_MM = 53.5
"""Width of the poker face's rules text: 63 less the frame (2 × 2.6), the panel border (2 × 0.35) and the
rules margins (2 × 1.8)."""


@dataclass(frozen=True)
class FaceGeometry:
    """Where the parts of a face go, in virtual mm (before ``scale``)."""

    scale: float
    card_w: float
    card_h: float
    art_h: float
    stats_top: float
    rules_top: float
    rules_h: float
    text_scale: float = 1.0
    """Rules and flavour text size against the poker face's, on a card wider than poker (square, landscape):
    √(width ratio), so a text takes about the height it takes on a poker face instead of fewer, longer lines."""


def face_geometry(trim_w: float, trim_h: float) -> FaceGeometry:
    """The layout of a face of this trim size (see the module docstring)."""
    fitted = min(trim_w / POKER_MM[0], trim_h / POKER_MM[1])
    floor = min(1.0, trim_w / FLOOR_MM[0], trim_h / FLOOR_MM[1])
    scale = max(fitted, floor)
    card_w, card_h = trim_w / scale, trim_h / scale
    art_h = max(ART_MIN_MM, ART_MM + card_h - POKER_MM[1])
    rules_h = max(RULES_MIN_MM, RULES_MM - max(0.0, ART_MIN_MM - (ART_MM + card_h - POKER_MM[1])))
    stats_top = HEADER_MM + art_h + GAP_MM
    rules_top = stats_top + STATS_MM + GAP_MM
    text_scale = max(1.0, ((card_w - (POKER_MM[0] - TEXT_MM)) / TEXT_MM) ** 0.5)
    return FaceGeometry(scale, card_w, card_h, art_h, stats_top, rules_top, rules_h, text_scale)


FRAME_INSET_MM = 9.6
"""Poker trim width less the art box width in the shipped face (frame, panel border, margins, box border)."""
ART_BORDERS_MM = 0.5
"""The art box's own border, top and bottom, inside its CSS height."""


def art_box_mm(trim_w: float, trim_h: float, layout: str) -> tuple[float, float]:
    """Size of the area a card's art covers, in mm: the shipped face's art box at this card size
    (``geometry``), or trim + bleed for ``full-bleed``."""
    if layout == "full-bleed":
        return trim_w + 6.0, trim_h + 6.0
    shape = face_geometry(trim_w, trim_h)
    return (shape.card_w - FRAME_INSET_MM) * shape.scale, (shape.art_h - ART_BORDERS_MM) * shape.scale


def effective_dpi(pixels: tuple[int, int], box_mm: tuple[float, float]) -> float:
    """Resolution of an image scaled to cover a box: the smaller of its two axis resolutions."""
    return 25.4 * min(pixels[0] / box_mm[0], pixels[1] / box_mm[1])
