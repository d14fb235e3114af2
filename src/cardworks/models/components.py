"""Components that are not cards of a set's deck: coins, pawns, dice, tiles, sheets."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from .card_size import CardSize
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


AREA_VALUES = ("count", "columns", "rows", "spaces", "printed")
"""The values an area of a board records. A value left out of an area does not apply to it (a key has no
spaces); ``null`` says it applies and no source gives it (an owner may read it from their copy)."""


class BoardArea(Model):
    """One area of a board component (a track, a grid, a row of card spaces, a key): what the sources say it
    is, and how many spaces it has and what is printed in them, as far as they say."""

    id: Id
    name: str = Field(min_length=1, json_schema_extra=TRANSLATABLE)
    text: str | None = Field(default=None, json_schema_extra=MARKUP)
    """What the area is for, as the sources describe it."""
    count: Annotated[int, Field(ge=1, le=99)] | None = None
    """How many areas of this kind the board has (4 follower tracks); left out when it has one."""
    columns: Annotated[int, Field(ge=1, le=99)] | None = None
    """Columns of a grid-shaped area."""
    rows: Annotated[int, Field(ge=1, le=99)] | None = None
    """Rows of a grid-shaped area."""
    spaces: Annotated[int, Field(ge=0, le=999)] | None = None
    """Spaces of the area (of each one, with ``count``): a track's spaces, card spaces."""
    printed: str | None = Field(default=None, json_schema_extra=MARKUP)
    """What is printed in the area's spaces (rewards, icons, numbers), in card-text markup."""
    sources: list[Source] = Field(default_factory=list)
    """Sources of the area's own values (``facts``: ``spaces``, ``printed``…); the board's sources may name
    them too, as ``areas/<id>/<value>``."""

    def applies(self) -> tuple[str, ...]:
        """The values the area records (given or ``null``), in :data:`AREA_VALUES` order."""
        return tuple(v for v in AREA_VALUES if v in self.model_fields_set)


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
    areas: list[BoardArea] = Field(default_factory=list)
    """What a ``board`` shows, area by area; empty when the sources say nothing of it."""
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
