"""La Fallera Calavera's own documents: card sets and boards whose effects use its vocabulary only.

The generic models leave a card's ``effects`` and a space's ``bonuses`` to the
game; these subclasses type them with ``effects.Effect``, so the game's schemas
(``schema/fallera/``) and ``validate`` accept only Fallera's vocabulary.
"""

from __future__ import annotations

from pydantic import Field

from ...models.boards import Board, BoardSide, Space
from ...models.cards import CardDesign, CardSet
from .effects import Effect


class FalleraCardDesign(CardDesign):
    """A Fallera card design: its effects are Fallera effects."""

    effects: list[Effect] = Field(default_factory=list)
    """What the card does, as effects (``docs/effects.md``). A card with rules text and no effects is
    unmodelled: the engine leaves it out and says so."""


class FalleraCardSet(CardSet):
    """A Fallera card set."""

    cards: list[FalleraCardDesign] = Field(default_factory=list)


class FalleraSpace(Space):
    """A terreta of the Kingdom map: its bonuses are effects that hold while the Queen stands there."""

    bonuses: list[Effect] = Field(default_factory=list)
    """What the terreta does while the Queen stands on it (expert mode): effects whose conditions hold only
    there."""


class FalleraBoardSide(BoardSide):
    spaces: list[FalleraSpace] = Field(min_length=1)


class FalleraBoard(Board):
    """The Kingdom map."""

    sides: list[FalleraBoardSide] = Field(min_length=1)


MODELS = {"set": FalleraCardSet, "board": FalleraBoard}
"""Fallera's own documents, by file kind."""
