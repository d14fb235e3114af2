"""Boards: spaces and the accesses between them, per side."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from .base import TRANSLATABLE, Certainty, Document, Id, Model, Ref, Source


class DrawAfterUse(Model):
    """While the Queen is here, whoever uses one of ``cards`` (in attack or defence) draws ``draw`` cards after."""

    op: Literal["draw-after-use"]
    cards: list[Ref] = Field(min_length=1)
    draw: Annotated[int, Field(ge=1, le=10)]


class StatBonus(Model):
    """While the Queen is here, ``cards`` add ``attack`` and ``defence``."""

    op: Literal["stat-bonus"]
    cards: list[Ref] = Field(min_length=1)
    attack: int = 0
    defence: int = 0


class CoinExtraAction(Model):
    """Moving the Queen here as the last thing of a turn tosses the coin; heads gives another action."""

    op: Literal["coin-extra-action"]


class ValidIngredient(Model):
    """While the Queen is here, ``cards`` count as valid ingredients."""

    op: Literal["valid-ingredient"]
    cards: list[Ref] = Field(min_length=1)


Bonus = Annotated[DrawAfterUse | StatBonus | CoinExtraAction | ValidIngredient, Field(discriminator="op")]


class Space(Model):
    """A space of a board side."""

    id: Id
    name: str = Field(json_schema_extra=TRANSLATABLE)
    accesses: Annotated[int, Field(ge=0, le=20)] | None = None
    """Number of accesses (connections) printed on the space; ``null`` when unknown."""
    start: bool = False
    """The starting space, from which every other space counts as adjacent."""
    bonuses: list[Bonus] = Field(default_factory=list)
    """What the terreta does while the Queen stands on it (expert mode)."""
    sources: list[Source] = Field(default_factory=list)


class Edge(Model):
    """An access between two spaces of the same side."""

    between: list[Ref] = Field(min_length=2, max_length=2)
    certainty: Certainty = "stated"
    source: Source | None = None


class BoardSide(Model):
    """One side of a board."""

    id: Id
    name: str = Field(json_schema_extra=TRANSLATABLE)
    spaces: list[Space] = Field(min_length=1)
    edges: list[Edge] = Field(default_factory=list)
    """Accesses known from the sources. Missing ones belong in the assumptions file."""
    edges_complete: bool = False
    """True when ``edges`` lists every access of the side."""


class Board(Document):
    """A board with one or more sides."""

    id: Id
    set: Ref | None = None
    name: str = Field(json_schema_extra=TRANSLATABLE)
    sides: list[BoardSide] = Field(min_length=1)
    sources: list[Source] = Field(min_length=1)
