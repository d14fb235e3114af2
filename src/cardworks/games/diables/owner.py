"""What an owner may read from their own copy of Diables, as far as the data holds it: the unknown values of
the cards the data lists, the counts of the boards and tiles ``assumptions/`` stands in for, and what its
boards show, area by area, where no source gives it (``cardworks facts export``). The 108 street, pavement and
social-media cards no source lists are asked as new cards."""

from __future__ import annotations

from typing import Any

from ...engine.unknowns import area_unknowns, assumed_unknowns, card_slots, card_unknowns


def owner_unknowns(index: Any) -> list[Any]:
    """The sheet's rows: the listed cards' unknowns, the cards no source lists (their name, text and
    attributes), the components' stand-ins, then what the boards show that no source gives."""
    return card_unknowns(index) + card_slots(index) + assumed_unknowns(index) + area_unknowns(index)
