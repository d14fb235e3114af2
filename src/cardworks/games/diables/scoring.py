"""Diables' scoring conditions: each tile operation implemented once, selected by the tile's data.

The operations read the figures in one show and the show's layout (which
spaces are opposite, share a quadrant, lie on a half, a row or a column, or
touch). The rulebook describes these relations but never prints the boards,
so a layout comes with the position being scored (see ``docs/scenarios.md``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .models import (AdjacentGroup, CompleteLines, Majority, NeighbourColours, Opposite, PlazaMajority,
                              SameQuadrant, SideBalance, SideSize, TypeCount)

PERFORMERS = ("diable", "character", "small-beast", "large-beast")
KINDS = PERFORMERS + ("tabaler",)
FIRECRACKERS = ("regular", "whistling", "colorful")


@dataclass(frozen=True, order=True)
class Figure:
    """A figure in a show: its owner (a seat, or None for the unused colour filling spaces with
    fewer than 4 players), its kind, the firecracker it carries, and the space (or sector) it is on."""

    owner: int | None
    kind: str
    firecracker: str | None
    place: str


@dataclass(frozen=True)
class Place:
    """A space of a show, with the relations the scoring tiles read; None when not given."""

    id: str
    quadrants: tuple[str, ...] = ()
    opposite: str | None = None
    side: str | None = None
    row: int | None = None
    column: int | None = None
    adjacent: tuple[str, ...] | None = None
    """Explicit neighbours (sectors of a circle); without them, orthogonal neighbours by row and column."""


@dataclass(frozen=True)
class Layout:
    """A show's spaces by id."""

    show: str
    places: dict[str, Place] = field(default_factory=dict)

    def place(self, place_id: str) -> Place:
        return self.places.get(place_id) or Place(place_id)

    def need(self, place_id: str, attribute: str) -> Any:
        value = getattr(self.place(place_id), attribute)
        if value in (None, ()):
            raise ValueError(f"{self.show} space {place_id!r} has no {attribute}: the layout must give it")
        return value

    def neighbours(self, place_id: str) -> set[str]:
        here = self.place(place_id)
        if here.adjacent is not None:
            found = set(here.adjacent)
            return found | {p.id for p in self.places.values() if p.adjacent and place_id in p.adjacent}
        row, column = self.need(place_id, "row"), self.need(place_id, "column")
        return {p.id for p in self.places.values()
                if p.row is not None and p.column is not None and abs(p.row - row) + abs(p.column - column) == 1}


def weight(kind: str, weights: dict[str, int], weighted: bool) -> int:
    return weights.get(kind, 1) if weighted else 1


def plaza_count(rule: PlazaMajority, figures: list[Figure], seat: int, weights: dict[str, int]) -> int:
    """What a lluïment counts for ``seat`` over every show."""
    total = 0
    for f in figures:
        if f.owner != seat:
            continue
        if rule.counts == "firecrackers" and f.firecracker == rule.firecracker:
            total += weight(f.kind, weights, rule.weighted)
        elif rule.counts == "figures" and f.kind in rule.kinds:
            total += weight(f.kind, weights, rule.weighted)
    return total


def plaza_rewards(rule: PlazaMajority, counts: list[int]) -> list[int]:
    """FP per seat: counts rank by distinct value (tied seats share a rank); the third reward for the rest."""
    ranks = sorted(set(counts), reverse=True)
    return [count * rule.rewards[min(ranks.index(count), 2)] for count in counts]


def figure_points(rule: Any, figures: tuple[Figure, ...], scored: Figure, layout: Layout, seats: int) -> int:
    """FP one scored figure earns in its show under the tile ``rule``."""
    return _OPS[type(rule)](rule, figures, scored, layout, seats)


def _type_count(rule: TypeCount, figures, scored, layout, seats) -> int:
    return rule.fp_per_figure.get(scored.kind, 0) * sum(f.kind == scored.kind for f in figures)


def _has_most(mine: int, others: list[int]) -> bool:
    return all(mine >= other for other in others)


def _majority(rule: Majority, figures, scored, layout, seats) -> int:
    pool = figures
    if rule.scope == "column":
        column = layout.need(scored.place, "column")
        pool = tuple(f for f in figures if layout.place(f.place).column == column)

    def counts(seat: int) -> int:
        if rule.measure == "firecracker" and scored.firecracker is not None:
            return sum(f.owner == seat and f.firecracker == scored.firecracker for f in pool)
        return sum(f.owner == seat and f.kind == scored.kind for f in pool)

    others = [counts(s) for s in range(seats) if s != scored.owner]
    return rule.win if _has_most(counts(scored.owner), others) else rule.otherwise


def _same_quadrant(rule: SameQuadrant, figures, scored, layout, seats) -> int:
    mine = set(layout.need(scored.place, "quadrants"))
    return rule.fp_per_figure * sum(bool(mine & set(layout.need(f.place, "quadrants"))) for f in figures)


def _opposite(rule: Opposite, figures, scored, layout, seats) -> int:
    there = [f for f in figures if f.place == layout.need(scored.place, "opposite")]
    if any(f.owner == scored.owner for f in there):
        return rule.own
    return rule.other if there else 0


def _sides(figures, scored, layout) -> tuple[int, int]:
    side = layout.need(scored.place, "side")
    same = sum(layout.need(f.place, "side") == side for f in figures)
    return same, len(figures) - same


def _side_size(rule: SideSize, figures, scored, layout, seats) -> int:
    same, other = _sides(figures, scored, layout)
    return same * (rule.fp_per_figure_fewer_or_tied if same <= other else rule.fp_per_figure_more)


def _side_balance(rule: SideBalance, figures, scored, layout, seats) -> int:
    same, other = _sides(figures, scored, layout)
    return rule.fewer if same < other else rule.more if same > other else rule.equal


def _groups(places: set[str], layout: Layout) -> list[set[str]]:
    """Connected groups of ``places`` under the layout's adjacency, in a stable order."""
    groups, seen = [], set()
    for start in sorted(places):
        if start in seen:
            continue
        group, todo = set(), [start]
        while todo:
            here = todo.pop()
            if here in group:
                continue
            group.add(here)
            todo += sorted(layout.neighbours(here) & places - group)
        seen |= group
        groups.append(group)
    return groups


def _adjacent_group(rule: AdjacentGroup, figures, scored, layout, seats) -> int:
    own = [f for f in figures if f.owner == scored.owner]
    groups = _groups({f.place for f in own}, layout)
    if rule.group == "largest":
        chosen = max(groups, key=lambda g: len(g) if rule.counts == "spaces" else sum(f.place in g for f in own))
    else:
        chosen = next(g for g in groups if scored.place in g)
    size = len(chosen) if rule.counts == "spaces" else sum(f.place in chosen for f in own)
    return rule.fp_per_member * size


def _complete_lines(rule: CompleteLines, figures, scored, layout, seats) -> int:
    taken = {f.place for f in figures}
    lines = 0
    for attribute in ("row", "column"):
        value = layout.need(scored.place, attribute)
        line = {p.id for p in layout.places.values() if getattr(p, attribute) == value}
        lines += line <= taken
    return rule.fp_per_line * lines


def _neighbour_colours(rule: NeighbourColours, figures, scored, layout, seats) -> int:
    near = layout.neighbours(scored.place) | {scored.place}
    return rule.fp_per_colour * len({f.owner for f in figures if f.place in near})


_OPS = {TypeCount: _type_count, Majority: _majority, SameQuadrant: _same_quadrant, Opposite: _opposite,
        SideSize: _side_size, SideBalance: _side_balance, AdjacentGroup: _adjacent_group,
        CompleteLines: _complete_lines, NeighbourColours: _neighbour_colours}


def vocabulary() -> dict[str, frozenset[str]]:
    """The scoring operations tiles may name (the ``op`` tags of ``models.Scoring``)."""
    from typing import get_args

    from .models import Scoring

    return {"scoring": frozenset(get_args(m.model_fields["op"].annotation)[0] for m in get_args(get_args(Scoring)[0]))}


def handled() -> dict[str, frozenset[str]]:
    """The scoring operations the engine plays: the plaza majorities (lluïments) and every figure condition."""
    from typing import get_args

    ops = [PlazaMajority, *_OPS]
    return {"scoring": frozenset(get_args(m.model_fields["op"].annotation)[0] for m in ops)}


def figure_refs(figures: tuple[Figure, ...]) -> dict[str, Figure]:
    """How steps name the figures of a show: the space, or ``space.n`` when several share it."""
    per_place: dict[str, list[Figure]] = {}
    for f in figures:
        per_place.setdefault(f.place, []).append(f)
    refs = {}
    for place, group in per_place.items():
        for n, f in enumerate(group, start=1):
            refs[place if len(group) == 1 else f"{place}.{n}"] = f
    return refs
