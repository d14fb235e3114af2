"""The size of a card, its one default, and the one resolver that says which size a card has.

A card is its set's size, else its pack's, else its game's; a game that names none has poker cards. Every
part that measures or draws a card (validation, faces, sheets, cut files, exports, the preview) asks
:func:`resolve_card_size`, so neither the fallback nor the default is written twice
(``tests/models/test_card_size.py`` looks for a second copy in the source).
"""

from __future__ import annotations

from typing import Annotated, Protocol

from pydantic import Field

from .base import Model


class CardSize(Model):
    """Trim size of a card, in millimetres (bleed is added when printing)."""

    width_mm: Annotated[float, Field(gt=10, le=300)]
    height_mm: Annotated[float, Field(gt=10, le=300)]

    @property
    def mm(self) -> tuple[float, float]:
        """(width, height) in millimetres: the key sheets and exports group cards by."""
        return (self.width_mm, self.height_mm)


DEFAULT_CARD_SIZE = CardSize(width_mm=63, height_mm=88)
"""Poker, 63 × 88 mm: the size of a game's cards when its ``game.json`` gives no ``card_size``."""


class Sized(Protocol):
    """A document that may give its cards' size: a game, a pack, a set (or a component printed as a card)."""

    @property
    def card_size(self) -> CardSize | None: ...


def resolve_card_size(game: Sized | None, pack: Sized | None = None, card_set: Sized | None = None) -> CardSize:
    """The trim size of a card of ``card_set`` in ``pack`` of ``game``: the first of them that gives one, most
    particular first; :data:`DEFAULT_CARD_SIZE` when none does. Leave out what the card does not belong to
    (a base-game set has no pack; a game's own back has neither pack nor set)."""
    for holder in (card_set, pack, game):
        size = holder.card_size if holder is not None else None
        if size is not None:
            return size
    return DEFAULT_CARD_SIZE
