"""Building blocks of a game's list of unknown values, the rows of the owner's facts sheet.

A game plugin says which of its values no source gives (``GamePlugin.owner_unknowns``): it composes its list
from these readers of the data, which know no game. Each row names the record, the field, what the sources
do say, and the engine's stand-in from ``assumptions/`` today.
"""

from __future__ import annotations

import json
from typing import Any

from ..loading.records import Index
from ..models.certainty import field_certainty
from ..models.owner_facts import Unknown

MAX_QUANTITY = 99
"""Largest quantity of a design (as ``CardDesign.quantity`` allows)."""


def stand_in(value: Any) -> str:
    """An assumed value as the sheet shows it, in the notation the owner would type."""
    if value is None:
        return ""
    if isinstance(value, list) and value and all(isinstance(v, list) for v in value):
        return "; ".join(" + ".join(map(str, pair)) for pair in value)
    if isinstance(value, list):
        return " ".join(map(str, value))
    return str(value)


def _where(source: Any) -> str:
    lines = f" lines {source.lines}" if source and source.lines else ""
    return f"{source.doc}{lines}" if source else ""


def _stated(record: Any, field: str, value: Any) -> bool:
    """True when the sources give ``field`` and every one naming it states it."""
    return value is not None and field_certainty(record.sources, field) == "stated"


def _known(record: Any, field: str, value: Any) -> str:
    """What the sources say of a field that is not stated: its value and how sure it is, or that it is not given."""
    if value is None:
        return "not given by the sources"
    return f"{value} ({field_certainty(record.sources, field) or 'no source names it'}; confirm or correct it)"


def card_unknowns(index: Index, *, fields: tuple[str, ...] = ("name", "quantity", "types", "set", "stats",
                                                                 "attributes", "rules", "effects")) -> list[Unknown]:
    """The unknown values of every card (optional ones included): a null quantity, stat or attribute the card's
    types take, null rules text, types and set that no source states, and the effects of a card whose recorded
    ``missing`` facts are about what it does (its behaviour, in the game's effect vocabulary)."""
    game = index.game
    assumed = index.assumed()
    types = tuple(t.id for t in game.card_types)
    sets = tuple(r.id for r in index.of_kind("set"))
    rows: list[Unknown] = []
    for record in index.of_kind("card"):
        card = record.model
        row = dict(target=card.id, name=card.name)
        if "name" in fields and field_certainty(card.sources, "name") not in (None, "stated"):  # a fan list's name
            rows.append(Unknown(**row, field="name", kind="text", known=_known(card, "name", card.name)))
        if "quantity" in fields and not _stated(card, "quantity", card.quantity):
            rows.append(Unknown(**row, field="quantity", kind="count", low=1, high=MAX_QUANTITY,
                                known=_known(card, "quantity", card.quantity),
                                stand_in=stand_in(assumed.get((card.id, "quantity")))))
        if "types" in fields and field_certainty(card.sources, "types") != "stated":
            rows.append(Unknown(**row, field="types", kind="types", choices=types,
                                known=f"{' + '.join(card.types)} ({field_certainty(card.sources, 'types') or 'no source'})"))
        if "set" in fields and card.set_certainty != "stated":
            rows.append(Unknown(**row, field="set", kind="set", choices=sets,
                                known=f"{record.set_id} ({card.set_certainty})"))
        if "stats" in fields:
            recorded = {m.field: m for m in card.missing}
            for stat in game.stats:
                applies = set(stat.applies_to) & set(card.types)
                path = f"stats/{stat.id}"
                if not applies:
                    continue
                if card.stats.get(stat.id) is not None:
                    if not _stated(card, path, card.stats[stat.id]):
                        rows.append(Unknown(**row, field=path, kind="stat", low=stat.min, high=stat.max,
                                            known=_known(card, path, card.stats[stat.id])))
                    continue
                if stat.id not in card.stats and stat.default is not None and path not in recorded:
                    continue
                if stat.id not in card.stats and path not in recorded and (card.id, path) not in assumed:
                    continue
                note = recorded.get(path)
                rows.append(Unknown(**row, field=path, kind="stat", low=stat.min, high=stat.max,
                                    known=f"{note.fact} ({_where(note)})" if note else "not given by the sources",
                                    stand_in=stand_in(assumed.get((card.id, path)))))
        if "attributes" in fields:
            recorded = {m.field: m for m in card.missing}
            for attribute in game.attributes:
                path = f"attributes/{attribute.id}"
                value = card.attributes.get(attribute.id)
                if attribute.id in card.attributes and not _stated(card, path, value) or \
                        attribute.id not in card.attributes and path in recorded:
                    note = recorded.get(path)
                    rows.append(Unknown(**row, field=path, kind="choice", choices=tuple(v.id for v in attribute.values),
                                        known=f"{note.fact} ({_where(note)})" if note else _known(card, path, value),
                                        stand_in=stand_in(assumed.get((card.id, path)))))
        if "rules" in fields and not _stated(card, "rules", card.rules):
            rows.append(Unknown(**row, field="rules", kind="markup", known=_known(card, "rules", card.rules)))
        if "effects" in fields and not card.effects and not card.needs:
            gaps = [m for m in card.missing if m.field == "effects"]
            if gaps or card.rules is None:  # what it does is unknown (a blank card may also do nothing)
                known = "; ".join(f"{m.fact} ({_where(m)})" for m in gaps) or \
                    "its rules text is not given, so neither is what it does (leave blank if it does nothing)"
                rows.append(Unknown(**row, field="effects", kind="effects", known=known))
    return rows


def board_unknowns(index: Index) -> list[Unknown]:
    """Each board side whose accesses the sources do not all give (its known ones listed), and each space whose
    printed access count is unknown."""
    assumed = index.assumed()
    rows: list[Unknown] = []
    for record in index.of_kind("board"):
        board = record.model
        for side in board.sides:
            spaces = tuple(s.id for s in side.spaces)
            if not side.edges_complete:
                known = "; ".join(" + ".join(e.between) + ("" if e.certainty == "stated" else f" ({e.certainty})")
                                  for e in side.edges) or "none"
                rows.append(Unknown(target=board.id, name=f"{board.name}: {side.name}", field=f"sides/{side.id}/edges",
                                    kind="edges", choices=spaces, known=f"known accesses: {known}",
                                    stand_in=stand_in(assumed.get((board.id, f"sides/{side.id}/edges")))))
            for space in side.spaces:
                path = f"sides/{side.id}/spaces/{space.id}/accesses"
                sure = field_certainty(board.sources, path) or field_certainty(space.sources, "accesses")
                if space.accesses is None or sure != "stated":
                    known = "the printed count is not given" if space.accesses is None else \
                        f"{space.accesses} ({sure or 'no source names it'}; confirm or correct it)"
                    rows.append(Unknown(target=board.id, name=f"{board.name}: {side.name}: {space.name}", field=path,
                                        kind="count", low=0, high=20, known=known,
                                        stand_in=stand_in(assumed.get((board.id, path)))))
    return rows


AREA_RANGES = {"count": (1, 99), "columns": (1, 99), "rows": (1, 99), "spaces": (0, 999)}
"""The whole numbers an area's value may take (as ``BoardArea`` allows)."""


def area_certainty(component: Any, area: Any, value: str) -> Any:
    """How sure an area's value is: from the board's sources naming ``areas/<id>/<value>`` (an owner's value is
    cited there), else from the area's own sources naming ``value``; None when no source names it."""
    return field_certainty(component.sources, f"areas/{area.id}/{value}") or field_certainty(area.sources, value)


def area_unknowns(index: Index) -> list[Unknown]:
    """What the boards show that no source gives: each value an area of a board component records (its count,
    columns, rows, spaces, what is printed in it) that is null or not stated, one row each under the board's
    name. A value the area leaves out does not apply to it and is not asked."""
    rows: list[Unknown] = []
    for record in index.of_kind("component"):
        component = record.model
        for area in getattr(component, "areas", None) or []:
            for value in area.applies():
                current = getattr(area, value)
                sure = area_certainty(component, area, value)
                if current is not None and sure == "stated":
                    continue
                known = f"{area.name}: " + ("not given by the sources" if current is None else
                                            f"{current} ({sure or 'no source names it'}; confirm or correct it)")
                path = f"areas/{area.id}/{value}"
                if value == "printed":
                    rows.append(Unknown(target=component.id, name=component.name, field=path, kind="markup",
                                        known=known.replace("not given", "what is printed in it is not given")))
                else:
                    low, high = AREA_RANGES[value]
                    rows.append(Unknown(target=component.id, name=component.name, field=path, kind="count",
                                        low=low, high=high, known=known))
    return rows


def assumed_unknowns(index: Index, targets: set[str] | None = None) -> list[Unknown]:
    """A row for each value ``assumptions/`` stands in for (of ``targets``, or every record but the game's own
    rule parameters): a whole number (0 to 999), or whole numbers as many as the stand-in holds."""
    rows: list[Unknown] = []
    game_id = index.game.id if index.game else ""
    for record in index.of_kind("assumption"):
        item = record.model
        if item.target == game_id or targets is not None and item.target not in targets:
            continue
        owner = index.by_id.get(item.target)
        name = getattr(owner.model, "name", item.target) if owner else item.target
        value = item.value
        if isinstance(value, bool) or not (isinstance(value, int) or isinstance(value, list) and all(
                isinstance(v, int) and not isinstance(v, bool) for v in value)):
            continue  # only numbers are asked of an owner; other stand-ins are the engine's own choices
        kind = "count" if isinstance(value, int) else "numbers"
        rows.append(Unknown(target=item.target, name=name, field=item.field, kind=kind, low=0, high=999,
                            length=len(value) if isinstance(value, list) else None,
                            known="not given by the sources", stand_in=stand_in(value)))
    return rows


def effects_text(value: Any) -> str:
    """Effects as one JSON line (the sheet's notation for the ``effects`` kind)."""
    return json.dumps(value, ensure_ascii=False)


def card_slots(index: Index) -> list[Unknown]:
    """Rows for the cards a set declares and the data does not list: for each card type whose declared count
    exceeds the known cards (every quantity of that type known), one new card per missing card, asking its
    name, rules text and the attributes its type takes; an attribute the set counts per value
    (``by_attribute``) is fixed by the slot, so the slots add up to the declared counts."""
    game = index.game
    names = {t.id: t.name for t in game.card_types}
    rows: list[Unknown] = []
    for set_record in index.of_kind("set"):
        totals = set_record.model.totals
        cards = [r.model for r in index.of_kind("card") if r.set_id == set_record.id and not r.model.optional]
        for type_id, declared in totals.by_type.items():
            of_type = [c for c in cards if type_id in c.types]
            if any(c.quantity is None for c in of_type):
                continue  # how many are missing is not known
            missing = declared - sum(c.quantity or 0 for c in of_type)
            applies = [a for a in game.attributes if type_id in a.applies_to]
            fixed_by = next((a for a in applies if a.id in totals.by_attribute), None)
            plan: list[tuple[tuple[str, str], ...]] = []
            if fixed_by is not None:
                for value, count in totals.by_attribute[fixed_by.id].items():
                    have = sum(c.quantity or 0 for c in of_type if c.attributes.get(fixed_by.id) == value)
                    plan += [((fixed_by.id, value),)] * max(count - have, 0)
            plan += [()] * max(missing - len(plan), 0)
            width = len(str(len(plan)))
            for number, fixed in enumerate(plan, start=1):
                card_id = f"owner-{type_id}-{number:0{width}d}"
                slot = (set_record.id, (type_id,), fixed)
                where = f"card {number} of the {declared} {type_id} cards of {set_record.id} no source lists" + \
                    "".join(f" ({attribute}: {value})" for attribute, value in fixed)
                common = dict(target=card_id, name=f"{names.get(type_id, type_id)} {number}", slot=slot)
                rows.append(Unknown(**common, field="name", kind="text", known=where + "; its name starts the card"))
                rows.append(Unknown(**common, field="rules", kind="markup", known=where))
                for attribute in applies:
                    if attribute.id not in dict(fixed):
                        rows.append(Unknown(**common, field=f"attributes/{attribute.id}", kind="choice",
                                            choices=tuple(v.id for v in attribute.values), known=where))
    return rows
