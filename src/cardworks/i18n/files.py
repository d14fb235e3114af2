"""Write translation files: texts by record and field, stamped with their source hashes."""

from __future__ import annotations

import json
from pathlib import Path

from ..errors import DataError
from ..fileio import write_text_atomic
from ..loading.database import Database
from ..loading.records import Index
from ..problems import Problem
from .strings import source_hash, source_index


def write_translations(db: Database, locale: str, texts: dict[str, dict[str, str]]) -> tuple[Path, int]:
    """Merge ``texts`` into the game's ``i18n/<locale>.json``; return the file and the strings written.

    Each text is stamped with the hash of the source it translates. Existing
    translations not named in ``texts`` are kept. Raises :class:`DataError`
    (writing nothing) when a record or field does not exist or a text is empty.
    """
    sources = {(s.record, s.field): s.text for fields in source_index(Index(db)).values() for s in fields.values()}
    path = db.game.root / "i18n" / f"{locale}.json"
    problems = []
    for record_id, fields in texts.items():
        for field, text in fields.items():
            if (record_id, field) not in sources:
                problems.append(Problem(str(path), f"/entries/{record_id}/{field}", "dangling-ref",
                                        f"no translatable field {field!r} in record {record_id!r}"))
            elif not text.strip():
                problems.append(Problem(str(path), f"/entries/{record_id}/{field}", "empty-translation",
                                        "the translation is empty"))
    if problems:
        raise DataError(f"{len(problems)} translation(s) refused; nothing written", problems)
    entries: dict[str, dict[str, dict[str, str]]] = {}
    if path.exists():
        entries = json.loads(path.read_text(encoding="utf-8")).get("entries", {})
    for record_id, fields in texts.items():
        for field, text in fields.items():
            source = sources[(record_id, field)]
            entries.setdefault(record_id, {})[field] = {"text": text, "source_hash": source_hash(source), "source": source}
    document = {
        "$schema": "../../../schema/translations.schema.json",
        "game": db.game_doc.id,
        "locale": locale,
        "entries": {k: dict(sorted(v.items())) for k, v in sorted(entries.items())},
    }
    write_text_atomic(path, json.dumps(document, indent=2, ensure_ascii=False) + "\n")
    return path, sum(len(v) for v in texts.values())
