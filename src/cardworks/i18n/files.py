"""Write translation files: texts by record and field, stamped with their source hashes."""

from __future__ import annotations

import json
from pathlib import Path

from ..errors import DataError
from ..fileio import read_limited, write_bytes_atomic
from ..loading.database import Database
from ..loading.records import Index
from ..problems import Problem
from .strings import source_hash, source_index


def write_translations(db: Database, locale: str, texts: dict[str, dict[str, str]]) -> tuple[Path, int]:
    """Merge ``texts`` (translations of the current sources) into ``i18n/<locale>.json``.

    Returns the file and the number of strings written. Raises :class:`DataError`
    (writing nothing) when a record or field does not exist or a text is empty.
    """
    sources = {(s.record, s.field): s.text for fields in source_index(Index(db)).values() for s in fields.values()}
    path = db.roots[-1] / "i18n" / f"{locale}.json"  # a pack's translations live in the pack
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
    items = [(record_id, field, text, sources[(record_id, field)]) for record_id, fields in texts.items()
             for field, text in fields.items()]
    return merge_translations(db, locale, items), len(items)


def merge_translations(db: Database, locale: str, items: list[tuple[str, str, str, str]]) -> Path:
    """Merge (record, field, text, source it translates) into the locale file; other entries are kept as they are."""
    path, data = merged_translations(db, locale, items)
    if data is not None:
        write_bytes_atomic(path, data)
    return path


def merged_translations(db: Database, locale: str, items: list[tuple[str, str, str, str]]) -> tuple[Path, bytes | None]:
    """The locale file with ``items`` merged in, as bytes to write (nothing is written here); ``None`` when no
    entry changes, so an import that only touches rulebook sections leaves the file's bytes (and its order) alone."""
    path = db.roots[-1] / "i18n" / f"{locale}.json"  # a pack's translations live in the pack
    entries: dict[str, dict[str, dict[str, str]]] = {}
    if path.exists():
        entries = json.loads(read_limited(path)).get("entries", {})
    changed = not path.exists()
    for record_id, field, text, source in items:
        known = entries.get(record_id, {}).get(field)
        if known and known.get("text") == text and known.get("source_hash") == source_hash(source):
            continue  # unchanged: leave the entry exactly as it was
        entries.setdefault(record_id, {})[field] = {"text": text, "source_hash": source_hash(source), "source": source}
        changed = True
    if not changed:
        return path, None
    document = {
        "$schema": "../../../schema/translations.schema.json",
        "game": db.game_doc.id,
        "locale": locale,
        "entries": {k: dict(sorted(v.items())) for k, v in sorted(entries.items())},
    }
    return path, (json.dumps(document, indent=2, ensure_ascii=False) + "\n").encode("utf-8")
