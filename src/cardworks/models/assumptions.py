"""Assumed values: what the engine needs and the sources do not give, kept apart from facts."""

from __future__ import annotations

from pydantic import Field

from .base import Document, Id, Model, Ref

AssumedValue = int | str | bool | list[int] | list[str] | list[list[str]]


class Assumption(Model):
    """A value assumed for a field whose fact is unknown, and why."""

    id: Id
    target: Ref
    """Id of the record (card, component, board) the value belongs to."""
    field: str = Field(min_length=1)
    """Path of the field inside the record, e.g. ``quantity``, ``stats/attack``, ``sides/normal/edges``."""
    value: AssumedValue
    reason: str = Field(min_length=1)
    """Why this value was chosen; the engine may use it, print never shows it."""


class AssumptionList(Document):
    """The game's assumed values. Never printed as facts."""

    assumptions: list[Assumption] = Field(default_factory=list)
