"""Calavera's score sheet and dice as the engine and the print-and-play renderer use them.

The rulebook describes the sheet but gives none of its numbers, so each value
is taken from the data when stated and from ``assumptions/`` otherwise; the
result says which values were assumed, so a printed sheet can mark them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...loading.database import Database
from ...loading.records import Index

SHEET = "score-pad"
DICE = "dice"
ZONES = ("normal", "bonus", "danger")


@dataclass(frozen=True)
class RowLayout:
    """One row of the score sheet, resolved.

    ``colour``: id of the die face whose colour the row has (``colour-1`` …);
    ``boxes``: number of boxes; ``values``: the number under each box, left to
    right (``len(values) == boxes``); ``zones``: the zone of each box,
    ``normal``, ``bonus`` or ``danger``; ``assumed``: which of ``boxes``,
    ``values`` and ``zones`` come (at least partly) from the assumptions
    rather than from the rulebook.
    """

    colour: str
    boxes: int
    values: tuple[int, ...]
    zones: tuple[str, ...]
    assumed: frozenset[str]


def sheet_layout(db: Database) -> list[RowLayout]:
    """The rows of the score sheet, top to bottom, each value stated or assumed.

    Raises ValueError naming the field when a value is neither in the data nor
    in the assumptions.
    """
    index = Index(db)
    assumed = index.assumed()
    sheet = index.by_id[SHEET].model
    layouts = []
    for row in sheet.rows:
        used: set[str] = set()

        def pick(field: str, stated: Any) -> Any:
            if stated is not None:
                return stated
            value = assumed.get((SHEET, f"rows/{row.id}/{field}"))
            if value is None:
                raise ValueError(f"{SHEET}/rows/{row.id}/{field} is neither stated nor assumed")
            used.add({"boxes": "boxes", "values": "values"}.get(field, "zones"))
            return value

        boxes = pick("boxes", row.boxes)
        values = _values(row.values, assumed.get((SHEET, f"rows/{row.id}/values")), boxes, used)
        bonus = (pick("bonus_start", row.bonus_start), pick("bonus_end", row.bonus_end))
        danger = pick("danger_start", row.danger_start)
        zones = tuple("danger" if box >= danger else "bonus" if bonus[0] <= box <= bonus[1] else "normal"
                      for box in range(1, boxes + 1))
        layouts.append(RowLayout(row.colour, boxes, values, zones, frozenset(used)))
    return layouts


def _values(stated: list[int | None] | None, assumed: list[int] | None, boxes: int, used: set[str]) -> tuple[int, ...]:
    """Each box's number: the stated one, else the assumed one at the same place."""
    stated = stated or [None] * boxes
    if len(stated) != boxes or (assumed is not None and len(assumed) != boxes):
        raise ValueError(f"{SHEET}: a row has {boxes} boxes but a different number of values")
    values = []
    for place, value in enumerate(stated):
        if value is None:
            if assumed is None:
                raise ValueError(f"{SHEET}: the value under box {place + 1} is neither stated nor assumed")
            value = assumed[place]
            used.add("values")
        values.append(value)
    return tuple(values)


def face_weights(db: Database) -> tuple[tuple[str, int], ...]:
    """Each face of the special dice with how many sides show it (stated, else assumed), in data order."""
    index = Index(db)
    assumed = index.assumed()
    weights = []
    for face in index.by_id[DICE].model.faces:
        count = face.count if face.count is not None else assumed.get((DICE, f"faces/{face.id}/count"))
        if count is None:
            raise ValueError(f"{DICE}/faces/{face.id}/count is neither stated nor assumed")
        weights.append((face.id, count))
    return tuple(weights)


def parameter(db: Database, name: str) -> Any:
    """A rule parameter of the game: its stated value, else the assumed one."""
    value = Index(db).parameters()[name]
    if value is None:
        raise ValueError(f"parameter {name!r} is neither stated nor assumed")
    return value
