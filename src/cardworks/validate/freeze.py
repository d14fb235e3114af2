"""Publish ids: add every new id of a game to its frozen id list."""

from __future__ import annotations

import json
from pathlib import Path

from ..fileio import write_text_atomic
from ..loading.database import Database
from ..loading.records import Index


def freeze_ids(db: Database) -> tuple[Path, list[str]]:
    """Add the game's new ids to ``ids.lock.json`` (never removing any); return the file and the ids added."""
    index = Index(db)
    path = db.game.root / "ids.lock.json"
    locks = db.game.docs("ids")
    known = dict(locks[0][1].ids) if locks else {}
    retired = list(locks[0][1].retired) if locks else []
    added = []
    for record in index.records:
        if record.bundle is db.game and record.id not in known and record.id not in retired:
            known[record.id] = record.kind
            added.append(record.id)
    document = {
        "$schema": "../../schema/ids.schema.json",
        "game": db.game_doc.id,
        "ids": dict(sorted(known.items())),
        "retired": sorted(retired),
    }
    write_text_atomic(path, json.dumps(document, indent=2, ensure_ascii=False) + "\n")
    return path, added
