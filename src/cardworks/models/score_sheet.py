"""The printed layout of a roll-and-write score sheet: colour rows of boxes with zones.

A rulebook often describes a sheet (rows, a bonus zone, a danger zone, a value
under each box) without giving its numbers, so every number here may be
``null``; values the engine needs then come from the game's assumptions.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from .base import Id, Model, Ref

BoxNumber = Annotated[int, Field(ge=1, le=100)]


class SheetRow(Model):
    """One row of boxes, ticked from left to right."""

    id: Id
    colour: Ref
    """Id of the die face whose colour this row has (a face of a ``die`` component)."""
    boxes: BoxNumber | None = None
    """How many boxes the row has; ``null`` when no source says."""
    values: list[int | None] | None = None
    """The number printed under each box, left to right; ``null`` when unknown (a single unknown box is ``null``)."""
    bonus_start: BoxNumber | None = None
    """First box (counting from 1 on the left) of the secure bonus zone; ``null`` when unknown."""
    bonus_end: BoxNumber | None = None
    """Last box of the secure bonus zone; ``null`` when unknown."""
    danger_start: BoxNumber | None = None
    """First box of the danger zone, which runs to the end of the row; ``null`` when unknown."""
