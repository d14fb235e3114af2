"""What an owner may read from their own copy of Calavera: the score sheet's rows (boxes, point values, bonus
and danger zones) and how many faces of each kind a die has, every value ``assumptions/`` stands in for today
(``cardworks facts export``)."""

from __future__ import annotations

from typing import Any

from ...engine.unknowns import assumed_unknowns


def owner_unknowns(index: Any) -> list[Any]:
    """The sheet's rows: every stand-in of the score sheet and the dice."""
    return assumed_unknowns(index)
