"""An index of every record of a database, with where each one is written."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, get_args

from pydantic import BaseModel

from .database import Bundle, Database, LoadedFile
from ..models.files import RECORD_FIELDS

#: Document kind → (list field holding records, record kind). ``None``: the document is the record.
RECORD_LISTS: dict[str, tuple[str | None, str]] = {
    "game": (None, "game"),
    "pack": (None, "pack"),
    "set": (None, "set"),
    "board": (None, "board"),
    "icons": ("icons", "icon"),
    "components": ("components", "component"),
    "rulings": ("rulings", "ruling"),
    "scenarios": ("scenarios", "scenario"),
    "assumptions": ("assumptions", "assumption"),
}


KIND_ORDER = ["game", "pack", "set", "card", "icon", "component", "board", "ruling", "scenario", "assumption"]


@dataclass(frozen=True)
class Record:
    """A record with a game-wide id: where it is and what it is."""

    kind: str
    id: str
    model: Any
    file: LoadedFile
    pointer: str
    bundle: Bundle
    set_id: str | None = None
    """For cards: the set whose file holds the card."""

    @property
    def where(self) -> str:
        return f"{self.file.display}:{self.pointer}" if self.pointer else self.file.display


def iter_records(db: Database) -> Iterator[Record]:
    """Every record of every bundle, cards included, in file order."""
    for bundle in db.bundles:
        for loaded in bundle.files:
            doc = loaded.doc
            if doc is None or loaded.kind.name not in RECORD_LISTS:
                continue
            list_field, kind = RECORD_LISTS[loaded.kind.name]
            if list_field is None:
                yield Record(kind, doc.id, doc, loaded, "", bundle)
            else:
                for index, item in enumerate(getattr(doc, list_field)):
                    yield Record(kind, item.id, item, loaded, f"/{list_field}/{index}", bundle)
            if loaded.kind.name == "set":
                for index, card in enumerate(doc.cards):
                    yield Record("card", card.id, card, loaded, f"/cards/{index}", bundle, set_id=doc.id)


def _may_hold_model(annotation: Any) -> bool:
    if annotation is Any:
        return True
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return True
    return any(_may_hold_model(arg) for arg in get_args(annotation))


@lru_cache(maxsize=None)
def model_fields_of(model_class: type[BaseModel]) -> tuple[str, ...]:
    """The fields of a model class whose annotation lets them hold a model or a list of models: walks read only
    these (a card has over twenty fields, and three of them can)."""
    return tuple(name for name, info in model_class.model_fields.items() if _may_hold_model(info.annotation))


@lru_cache(maxsize=None)
def has_id(item_class: type) -> bool:
    """True for a model class with an ``id`` field (asking a model for an attribute it lacks costs ~25 µs)."""
    return isinstance(item_class, type) and issubclass(item_class, BaseModel) and "id" in item_class.model_fields


def iter_models(model: BaseModel, pointer: str = "") -> Iterator[tuple[str, BaseModel]]:
    """Every model nested in a record (itself included) with its JSON pointer; nested records are skipped."""
    yield pointer, model
    for name in model_fields_of(type(model)):
        if not pointer and name in RECORD_FIELDS:
            continue
        value = getattr(model, name)
        if isinstance(value, BaseModel):
            yield from iter_models(value, f"{pointer}/{name}")
        elif isinstance(value, list) and value and isinstance(value[0], BaseModel):
            for index, item in enumerate(value):
                yield from iter_models(item, f"{pointer}/{name}/{index}")


class Index:
    """Records by id and by kind, built once per validation."""

    def __init__(self, db: Database) -> None:
        self.db = db
        # Primary records first, so a clash is reported on the later, secondary record.
        self.records: list[Record] = sorted(iter_records(db), key=lambda r: KIND_ORDER.index(r.kind))
        self.by_id: dict[str, Record] = {}
        for record in self.records:
            self.by_id.setdefault(record.id, record)
        self.game = db.game_doc
        self._nested: dict[int, list[tuple[str, BaseModel]]] = {}

    def nested(self, record: Record) -> list[tuple[str, BaseModel]]:
        """:func:`iter_models` of a record, walked once for all the checks that ask."""
        found = self._nested.get(id(record.model))
        if found is None:
            found = self._nested[id(record.model)] = list(iter_models(record.model))
        return found

    def of_kind(self, *kinds: str) -> list[Record]:
        return [r for r in self.records if r.kind in kinds]

    def assumed(self) -> dict[tuple[str, str], Any]:
        """Assumed values by (target record id, field path)."""
        return {(r.model.target, r.model.field): r.model.value for r in self.of_kind("assumption")}

    def parameters(self) -> dict[str, Any]:
        """The game's rule parameters by id: the stated value, else the assumed one (else None)."""
        assumed = self.assumed()
        game = self.game.id if self.game else ""
        return {p.id: p.value if p.value is not None else assumed.get((game, f"parameters/{p.id}/value"))
                for p in (self.game.parameters if self.game else [])}

    def ids_of(self, *kinds: str) -> set[str]:
        return {r.id for r in self.records if r.kind in kinds}
