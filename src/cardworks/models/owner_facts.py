"""Facts from the owner's own copy: values no source gives, read by a kit's owner from the printed game.

An owner's overlay (``cardworks facts import`` writes it, ``--facts DIR`` reads it) lives outside the
database, one file per game (``<game>.json``). Loading merges it into the game in memory: each value fills
an unknown field of a record and carries the certainty ``owner``, so print shows it with no mark and the
contents page lists it. The shipped database never receives it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import Field

from .base import Document, Id, Model

OWNERS_COPY = "owners-copy"
"""Id of the source document every overlay value cites: the owner's own copy of the game."""

OWNERS_COPY_TITLE = "The owner's own copy of the game"
"""Title of that document, as the merged game declares it."""

OverlayValue = int | str | bool | list[int] | list[str] | list[list[str]] | list[dict[str, Any]]


class OwnerValue(Model):
    """One value read from the owner's copy, for a field no source gives."""

    target: Id
    """Id of the record (card, component, board) the value belongs to."""
    field: str = Field(min_length=1, max_length=200)
    """Path of the field inside the record (``quantity``, ``stats/attack``, ``rules``, ``set``,
    ``sides/expert/edges``, ``rows/row-1/values``…), as the exported sheet names it."""
    value: OverlayValue
    """The value, typed as the field takes it."""
    cell: str | None = Field(default=None, max_length=300)
    """Where the owner typed it (``facts.xlsx:Facts!F7``), so a later problem names the cell."""


class NewCard(Model):
    """A card the box holds that no source lists (a set declares more cards of a type than the data has): the
    overlay adds it, one physical card, and its ``values`` give its name, text and attributes."""

    id: Id
    """The slot's id, as the exported sheet names it (``owner-street-spectator-01``)."""
    set: Id
    """The set that declares it."""
    types: list[Id] = Field(min_length=1)
    attributes: dict[Id, Id] = Field(default_factory=dict)
    """Attribute values the set's declared totals fix for this slot (``pavement-row: upper``)."""


class OwnerFacts(Document):
    """An owner's overlay for one game: values read from their own copy."""

    game: Id
    """Id of the game the values belong to."""
    new_cards: list[NewCard] = Field(default_factory=list)
    """Cards no source lists, added before the values are merged (the values fill them)."""
    values: list[OwnerValue] = Field(default_factory=list)


ValueKind = Literal["count", "stat", "markup", "text", "types", "set", "choice", "edges", "effects", "numbers"]
"""How a cell is read: a whole number (``count``, ``stat``), card text (``markup``), card type ids separated by
``+`` (``types``), a set id (``set``), one id of a list (``choice``), accesses as ``a-b; c-d`` (``edges``),
effects in the game's vocabulary as JSON (``effects``), whole numbers separated by spaces (``numbers``)."""


@dataclass(frozen=True)
class Unknown:
    """One value of a game that no source gives, as the owner's sheet lists it (one row)."""

    target: str
    """Id of the record."""
    name: str
    """The record's name, so the owner finds it in the box."""
    field: str
    """Path of the field inside the record."""
    kind: ValueKind
    known: str = ""
    """What the sources do say about it (a partial value, a certainty, where they stop)."""
    stand_in: str = ""
    """The engine's stand-in from ``assumptions/`` today, as text; empty when there is none."""
    low: int | None = None
    """Smallest whole number allowed (``count``, ``stat``, ``numbers``)."""
    high: int | None = None
    """Largest whole number allowed."""
    choices: tuple[str, ...] = field(default_factory=tuple)
    """Ids allowed (``types``, ``set``, ``choice``, ``edges``: the side's spaces)."""
    length: int | None = None
    """How many numbers a ``numbers`` value holds, when fixed."""
    slot: tuple[str, tuple[str, ...], tuple[tuple[str, str], ...]] | None = None
    """For a card no source lists: (set, types, fixed attributes) of the new card the value belongs to."""
