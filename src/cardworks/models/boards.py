"""Boards: spaces and the accesses between them, per side."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field

from .base import TRANSLATABLE, Certainty, Document, Id, Model, Ref, Source


class Space(Model):
    """A space of a board side."""

    id: Id
    name: str = Field(json_schema_extra=TRANSLATABLE)
    accesses: Annotated[int, Field(ge=0, le=20)] | None = None
    """Number of accesses (connections) printed on the space; ``null`` when unknown."""
    start: bool = False
    """The starting space, from which every other space counts as adjacent."""
    bonuses: list[dict[str, Any]] = Field(default_factory=list)
    """What the space does while a game's pawn stands on it, in the game's effect vocabulary (checked by the
    game's schema, ``schema/<game>/board.schema.json``, and by ``validate``)."""
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
