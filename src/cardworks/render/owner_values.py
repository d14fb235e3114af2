"""The contents page's list of values that came from the owner's own copy (``--facts``), one line per record.

A value an owner's overlay gave carries the certainty ``owner`` in its record's sources
(:mod:`cardworks.loading.overlay`); faces print it with no mark, so the contents page is where a reader
learns that no rulebook gave it. Fields are named in the reader's language where the game or the labels name
them, else by their path in the data.
"""

from __future__ import annotations

from typing import Any

from ..loading.database import Database
from ..loading.records import Index

FIELD_LABELS = ("quantity", "types", "set", "rules", "effects", "edges", "accesses")
"""Fields with a label of their own, ``contents_owner_field_<name>`` in each locale."""


def _owner_fields(record: Any) -> list[str]:
    fields: list[str] = []
    for source in getattr(record.model, "sources", None) or []:
        if source.certainty == "owner":
            fields += source.facts
    if record.kind == "card" and getattr(record.model, "set_certainty", None) == "owner" and "set" not in fields:
        fields.append("set")
    return fields


def _field_name(texts: Any, game: Any, record: Any, field: str) -> str:
    parts = field.split("/")
    stats = {s.id: s for s in game.stats}
    attributes = {a.id: a for a in game.attributes}
    if parts[0] == "stats" and len(parts) == 2 and parts[1] in stats:
        return str(texts.text(game.id, f"stats/{parts[1]}/name", stats[parts[1]].name))
    if parts[0] == "attributes" and len(parts) == 2 and parts[1] in attributes:
        return str(texts.text(game.id, f"attributes/{parts[1]}/name", attributes[parts[1]].name))
    if parts[0] == "sides" and len(parts) >= 3:
        side = next((s for s in record.model.sides if s.id == parts[1]), None)
        side_name = str(texts.text(record.id, f"sides/{parts[1]}/name", side.name)) if side else parts[1]
        if parts[-1] == "edges":
            return f"{texts.label('contents_owner_field_edges')} ({side_name})"
        if parts[-1] == "accesses" and len(parts) == 5 and side is not None:
            space = next((s for s in side.spaces if s.id == parts[3]), None)
            name = str(texts.text(record.id, f"sides/{parts[1]}/spaces/{parts[3]}/name", space.name)) if space else parts[3]
            return f"{texts.label('contents_owner_field_accesses')} ({side_name}: {name})"
    if parts[0] == "areas" and len(parts) == 3:  # what a board's area shows
        area = next((a for a in getattr(record.model, "areas", None) or [] if a.id == parts[1]), None)
        name = str(texts.text(record.id, f"areas/{parts[1]}/name", area.name)) if area else parts[1]
        return f"{name} ({str(texts.label(f'board_{parts[2]}')).lower()})"
    if field in FIELD_LABELS:
        return str(texts.label(f"contents_owner_field_{field}"))
    return field


def owner_rows(db: Database, texts: Any) -> list[dict[str, str]]:
    """One row per record holding values from the owner's copy: its name in the locale, and those fields."""
    if db.game.overlay is None:
        return []
    game = db.game_doc
    rows = []
    for record in Index(db).records:
        fields = _owner_fields(record)
        if not fields:
            continue
        name = texts.text(record.id, "name", record.model.name) if getattr(record.model, "name", None) else record.id
        rows.append({"id": record.id, "name": str(name),
                     "fields": ", ".join(_field_name(texts, game, record, f) for f in fields)})
    return rows
