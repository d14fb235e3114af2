"""What an owner may read from their own copy of La Fallera Calavera: every card's unknown quantity, type,
set, attack, defence, sell value, treasure kind, rules text and behaviour, and the map's accesses and access
counts (``cardworks facts export``)."""

from __future__ import annotations

from typing import Any

from ...engine.unknowns import board_unknowns, card_unknowns


def owner_unknowns(index: Any) -> list[Any]:
    """The sheet's rows: the cards' unknowns, then the map's."""
    return card_unknowns(index) + board_unknowns(index)
