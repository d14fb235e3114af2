"""The face layout at any card size: the poker face (63 × 88 mm) scaled, with its art and rules boxes stretched.

Every card is laid out on a *virtual* card as wide as a poker card relative to
its text (trim ÷ ``scale``, where ``scale`` is the smaller of width ÷ 63 and
height ÷ 88) and drawn scaled by ``scale``: titles, icons, frames and text grow
or shrink with the card, so a text that fits a poker face fits every size the
same way. The virtual card is never lower than a poker card (``scale`` is at
most height ÷ 88) but may be taller (tarot, bridge) or wider (landscape,
square): the height it has beyond a poker card's goes to the art box. The
rules box keeps the poker box's area (27.5 × 53.5 mm): on a wider card it is
as much lower as its text is wider (and, on a card lower than poker, no
larger a part of the card's height than on poker), the art box taking the
rest, so a text fills about as much of the card as on a poker face; on a
narrower card it is taller, as far as the art box keeps ``ART_MIN_MM``.

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
    """Rules and flavour text size against the poker face's (1: a wider card keeps the text's size and gives
    its rules box the poker box's area instead, see ``face_geometry``)."""


def face_geometry(trim_w: float, trim_h: float) -> FaceGeometry:
    """The layout of a face of this trim size (see the module docstring)."""
    fitted = min(trim_w / POKER_MM[0], trim_h / POKER_MM[1])
    floor = min(1.0, trim_w / FLOOR_MM[0], trim_h / FLOOR_MM[1])
    scale = max(fitted, floor)
    card_w, card_h = trim_w / scale, trim_h / scale
    room = ART_MM + RULES_MM + card_h - POKER_MM[1]  # what the art and rules boxes share
    text_w = card_w - (POKER_MM[0] - TEXT_MM)
    share = TEXT_MM / text_w  # the poker box's area: lower as the text is wider, taller as it is narrower
    if text_w > TEXT_MM:  # and on a card lower than poker, no larger a part of its height than on poker
        share = min(share, card_h / POKER_MM[1])
    rules_h = max(RULES_MIN_MM, min(RULES_MM * share, room - ART_MIN_MM))
    art_h = room - rules_h
    stats_top = HEADER_MM + art_h + GAP_MM
    rules_top = stats_top + STATS_MM + GAP_MM
    return FaceGeometry(scale, card_w, card_h, art_h, stats_top, rules_top, rules_h)


FRAME_INSET_MM = 9.6
"""Poker trim width less the art box width in the shipped face (frame, panel border, margins, box border)."""
ART_BORDERS_MM = 0.5
"""The art box's own border, top and bottom, inside its CSS height."""


def art_box_mm(trim_w: float, trim_h: float, layout: str) -> tuple[float, float]:
    """Size of the area a card's art covers, in mm: the shipped face's art box at this card size
    (``geometry``), or trim + bleed for ``full-bleed`` and ``art-only``."""
    if layout in ("full-bleed", "art-only"):
        return trim_w + 6.0, trim_h + 6.0
    shape = face_geometry(trim_w, trim_h)
    return (shape.card_w - FRAME_INSET_MM) * shape.scale, (shape.art_h - ART_BORDERS_MM) * shape.scale


def effective_dpi(pixels: tuple[int, int], box_mm: tuple[float, float]) -> float:
    """Resolution of an image scaled to cover a box: the smaller of its two axis resolutions."""
    return 25.4 * min(pixels[0] / box_mm[0], pixels[1] / box_mm[1])
