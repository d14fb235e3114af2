"""Legibility: the type of every face, read from its layout at the card's real size (``measure.type_sizes``),
held against the smallest size the face's pack allows (``Pack.min_type_pt``, else the defaults below).

A part printed smaller than its minimum is reported like an overflowing part: a warning naming the card and
the part, and under ``--strict`` a refusal before anything is written (docs/templates.md).
"""

from __future__ import annotations

from ..models.pack import TypeMinimum

DEFAULT = TypeMinimum()
"""6 pt for the texts a player reads in play, 5 pt for the credits (artist, legend of the marks)."""
KIND = {"name": "text", "stats": "text", "rules": "text", "flavour": "text", "artist": "credits", "legend": "credits"}
"""Part of a face → which minimum holds for it."""
SLACK_PT = 0.01
"""Rounding in the layout's sizes, not a smaller type."""


def minimum_of(part: str, minimum: TypeMinimum) -> float:
    """The smallest size ``part`` may print at."""
    return getattr(minimum, KIND[part])


def too_small(sizes: dict[str, float], minimum: TypeMinimum) -> dict[str, tuple[float, float]]:
    """The parts of one face printed below their minimum: part → (printed size, minimum), in points."""
    return {part: (size, minimum_of(part, minimum)) for part, size in sizes.items()
            if part in KIND and size < minimum_of(part, minimum) - SLACK_PT}


def describe_small(small: dict[str, dict[str, tuple[float, float]]]) -> str:
    """Faces with too small type for a message: ``card-a (rules 4.1 pt < 6 pt), card-b (artist 2.9 pt < 5 pt)``."""
    return ", ".join(f"{face_id} ({', '.join(f'{part} {size:.1f} pt < {least:g} pt' for part, (size, least) in parts.items())})"
                     for face_id, parts in small.items())
