"""Scoring conditions of tiles, as data: a closed set of operations tagged by ``op``.

Diables prints its scoring rules on tiles (lluïment tiles, show scoring tiles).
Each tile names one operation and its numbers here, so the engine implements
every operation once and the tiles select it. Positions the operations read
(quadrants, opposite spaces, sides, rows and columns, adjacency) belong to the
board a game is played on, not to the tile.
"""

from __future__ import annotations

from typing import Annotated, Literal, Union

from pydantic import Field

from ...models.base import Model
from ...models.components import Component, ComponentList

FigureKind = Literal["diable", "character", "small-beast", "large-beast", "tabaler"]
Firecracker = Literal["regular", "whistling", "colorful"]
Show = Literal["carretillada", "ball-parlat", "trobada-de-besties", "tabalada"]


class PlazaMajority(Model):
    """A lluïment: every player counts an element over the whole plaza; ranks by count earn rewards."""

    op: Literal["plaza-majority"]
    counts: Literal["figures", "firecrackers"]
    """Count figures of ``kinds``, or firecrackers of type ``firecracker``."""
    kinds: list[FigureKind] = Field(default_factory=list)
    """Figure kinds counted (for ``figures``)."""
    firecracker: Firecracker | None = None
    """Firecracker type counted (for ``firecrackers``)."""
    weighted: bool
    """Characters and small beasts (and what they carry) count double, large beasts triple."""
    rewards: list[int] = Field(min_length=3, max_length=3)
    """FP per counted element for the highest count, the second-highest, and everyone else."""


class _ShowCondition(Model):
    show: Show
    """The show whose scoring tile this is."""


class TypeCount(_ShowCondition):
    """FP per figure of the scored figure's kind present in the show (all colours, itself included)."""

    op: Literal["type-count"]
    fp_per_figure: dict[FigureKind, int]
    """FP for each figure of the same kind, by the kind of the scored figure."""


class Majority(_ShowCondition):
    """A fixed FP when the scorer has (or shares) the most of something, else a smaller FP."""

    op: Literal["majority"]
    measure: Literal["firecracker", "figure-kind"]
    """``firecracker``: firecrackers of the type the scored figure carries (one each, whoever carries
    it); a figure without one (a tabaler) compares figures of its kind. ``figure-kind``: figures of
    the scored figure's kind."""
    scope: Literal["show", "column"] = "show"
    """Where to count: the whole show, or the scored figure's column."""
    win: int
    otherwise: int


class SameQuadrant(_ShowCondition):
    """FP per figure sharing a quadrant (a group of spaces with one follower reward) with the scored figure."""

    op: Literal["same-quadrant"]
    fp_per_figure: int


class Opposite(_ShowCondition):
    """FP when the opposite space holds a figure of the scorer's colour, or else one of another colour."""

    op: Literal["opposite"]
    own: int
    other: int


class SideSize(_ShowCondition):
    """FP per figure on the scored figure's half, at a higher rate on the half with fewer (or tied) figures."""

    op: Literal["side-size"]
    fp_per_figure_fewer_or_tied: int
    fp_per_figure_more: int


class SideBalance(_ShowCondition):
    """A fixed FP by whether the scored figure's half has fewer, more, or as many figures as the other."""

    op: Literal["side-balance"]
    fewer: int
    more: int
    equal: int


class AdjacentGroup(_ShowCondition):
    """FP per member of a group of adjacent spaces holding the scorer's figures."""

    op: Literal["adjacent-group"]
    group: Literal["largest", "of-scored-figure"]
    """The scorer's largest group anywhere in the show, or the group the scored figure belongs to."""
    counts: Literal["spaces", "figures"]
    """Whether the group's size is its spaces or the scorer's figures in it."""
    fp_per_member: int


class CompleteLines(_ShowCondition):
    """FP per completed (fully occupied) row or column through the scored figure."""

    op: Literal["complete-lines"]
    fp_per_line: int


class NeighbourColours(_ShowCondition):
    """FP per distinct colour among the scored figure and the figures orthogonally adjacent to it."""

    op: Literal["neighbour-colours"]
    fp_per_colour: int


Scoring = Annotated[
    Union[PlazaMajority, TypeCount, Majority, SameQuadrant, Opposite, SideSize, SideBalance, AdjacentGroup,
          CompleteLines, NeighbourColours],
    Field(discriminator="op"),
]
"""A tile's scoring condition."""


class DiablesComponent(Component):
    """A Diables component: its scoring condition is one of the operations above."""

    scoring: Scoring | None = None
    """How the tile scores, when it is a scoring tile."""


class DiablesComponentList(ComponentList):
    """Diables' components file, whose tiles' scoring conditions use Diables' operations only."""

    components: list[DiablesComponent] = Field(default_factory=list)


MODELS = {"components": DiablesComponentList}
"""Diables' own documents, by file kind (its schema accepts only its own scoring operations)."""
