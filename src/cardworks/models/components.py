"""Components that are not cards of a set's deck: coins, pawns, dice, tiles, sheets."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from .game import CardSize
from .base import MARKUP, TRANSLATABLE, Document, Id, Model, Ref, RelPath, Source
from .score_sheet import SheetRow

ComponentKind = Literal["coin", "pawn", "die", "tile", "card", "token", "score-sheet", "pencil", "board", "other"]


class Face(Model):
    """One face or side of a component (a coin face, a die face)."""

    id: Id
    name: str = Field(json_schema_extra=TRANSLATABLE)
    text: str | None = Field(default=None, json_schema_extra=MARKUP)
    """What the face means in play."""
    count: Annotated[int, Field(ge=1)] | None = None
    """How many faces of the component look like this (dice); ``null`` when unknown."""
    colour: Annotated[str, StringConstraints(pattern=r"^#[0-9a-fA-F]{6}$")] | None = None
    """The colour the face is printed in (``#rrggbb``), when a source names it (a green sticker): the shade
    is ours, the colour the source's (source fact ``faces/<id>/colour``)."""


class Component(Model):
    """A physical component other than the set's deck cards."""

    id: Id
    kind: ComponentKind
    set: Ref | None = None
    """Set that brings this component."""
    quantity: Annotated[int, Field(ge=1, le=999)] | None = None
    """How many come in the box; ``null`` when no source says."""
    per_colour: Annotated[int, Field(ge=1, le=999)] | None = None
    """How many of ``quantity`` come in each player colour, when the source splits them by colour; the
    colours are ``quantity / per_colour``. Cut-out counters are printed in groups of this size."""
    name: str = Field(min_length=1, json_schema_extra=TRANSLATABLE)
    text: str | None = Field(default=None, json_schema_extra=MARKUP)
    """What the component does, in card-text markup."""
    items: list[str] = Field(default_factory=list, json_schema_extra=TRANSLATABLE)
    """Things listed on the component (e.g. the foods on a territorial food card)."""
    faces: list[Face] = Field(default_factory=list)
    rows: list[SheetRow] = Field(default_factory=list)
    """Rows of boxes printed on a score sheet, top to bottom (``score-sheet`` components)."""
    space: Ref | None = None
    """Board space this component belongs to (e.g. the terreta of a territorial food)."""
    art: RelPath | None = None
    card_size: CardSize | None = None
    """Printed size, for components printed like cards or tiles."""
    scoring: dict[str, Any] | None = None
    """How the tile scores, when it is a scoring tile: an operation of the game's own vocabulary, which
    the game's schema (``schema/<game>/components.schema.json``) and ``validate`` check."""
    sources: list[Source] = Field(min_length=1)
    notes: str | None = None


class ComponentList(Document):
    """The components of a game or pack."""

    components: list[Component] = Field(default_factory=list)
