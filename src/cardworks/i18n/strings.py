"""Walk the models for translatable strings.

A string's address is the id of the record that holds it plus a field path
inside that record; nested records with an ``id`` (card types, faces, spaces)
contribute their id to the path, so addresses survive reordering.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache

from pydantic import BaseModel

from ..loading.records import Index, has_id, model_fields_of
from ..models.files import RECORD_FIELDS


@dataclass(frozen=True)
class SourceString:
    """One translatable string of the source locale."""

    record: str
    """Id of the top-level record (card, component, ruling, set, game, icon, board)."""
    field: str
    """Path inside the record, e.g. ``rules`` or ``card_types/treasure/name``."""
    pointer: str
    """JSON pointer of the string inside the record, e.g. ``/card_types/0/name``."""
    text: str
    markup: bool
    """True when the text is card-text markup whose tokens translations must keep."""


@lru_cache(maxsize=65536)  # validation asks for each source's hash once per locale
def source_hash(text: str) -> str:
    """The hash that ties a translation to the exact source text it translates."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


@lru_cache(maxsize=None)
def _fields(model_class: type[BaseModel]) -> tuple[tuple[str, bool, bool], ...]:
    """(name, translatable, markup) of each field of a model class that holds a translatable string or may hold
    a model, looked up once per class (the walk skips every other field)."""
    nested = set(model_fields_of(model_class))
    found = []
    for name, info in model_class.model_fields.items():
        extra = info.json_schema_extra
        flags = (bool(extra.get("x-translatable")), bool(extra.get("x-markup"))) if isinstance(extra, dict) else (False, False)
        if flags[0] or name in nested:
            found.append((name, *flags))
    return tuple(found)


def _walk(model: BaseModel, record: str, prefix: str, pointer: str) -> Iterator[SourceString]:
    for name, translatable, markup in _fields(type(model)):
        if not prefix and name in RECORD_FIELDS:
            continue
        value = getattr(model, name)
        if translatable:
            if isinstance(value, str):
                yield SourceString(record, f"{prefix}{name}", f"{pointer}/{name}", value, markup)
            elif isinstance(value, list):
                for index, item in enumerate(value):
                    yield SourceString(record, f"{prefix}{name}/{index}", f"{pointer}/{name}/{index}", item, markup)
            continue
        if isinstance(value, BaseModel):
            yield from _walk(value, record, f"{prefix}{name}/", f"{pointer}/{name}")
        elif isinstance(value, list):
            for index, item in enumerate(value):
                if isinstance(item, BaseModel):
                    key = (item.id if has_id(type(item)) else None) or str(index)
                    yield from _walk(item, record, f"{prefix}{name}/{key}/", f"{pointer}/{name}/{index}")


def source_strings(record: BaseModel) -> Iterator[SourceString]:
    """Every translatable string of a top-level record that has an ``id``."""
    yield from _walk(record, record.id, "", "")  # type: ignore[attr-defined]


def source_index(index: Index) -> dict[str, dict[str, SourceString]]:
    """Every source string of a database, by record id and field path."""
    return {record.id: {s.field: s for s in source_strings(record.model)}
            for record in index.records if record.kind not in {"pack", "assumption"}}
