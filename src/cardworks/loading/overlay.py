"""Merge an owner's overlay (values read from their own copy of the game) into a game as it is loaded.

``--facts DIR`` names a folder of overlays, one ``<game>.json`` per game (:class:`OwnerFacts`). When it is
set, :func:`merge_owner_facts` fills each named unknown field of the game's records in memory, cites the
owner's copy for it (certainty ``owner``), drops the recorded missing fact it answers (the stand-in in ``assumptions/`` stays, unused), and
leaves the files on disk untouched: everything downstream (validation, the engine, print, exports) sees the
values, and the shipped database never receives them. A value for a field the sources already give, for a
record the game lacks, or of the wrong type is an error at its place in the overlay, and then no value of the
overlay is merged.
"""

from __future__ import annotations

import copy
import hashlib
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from ..models.certainty import field_certainty, speaks_of
from ..models.owner_facts import OWNERS_COPY, OWNERS_COPY_TITLE, OwnerFacts
from ..models.base import Source
from ..problems import Problem
from .jsonfile import read_json
from .schema_errors import schema_problems

SCHEMA_FILE = "owner-facts.schema.json"
"""Name of the overlay's JSON Schema in ``schema/``."""

_ACTIVE: list[Path | None] = [None]

Bundle = LoadedFile = Any  # :mod:`.database` calls this module, so its classes are not imported here


def display_path(path: Path) -> str:
    """A path as messages show it: relative to the working folder when inside it (as :mod:`.database`)."""
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def use_owner_facts(folder: Path | None) -> None:
    """Set (or clear, with None) the overlay folder every game loaded from now on is merged with. The command
    line sets it once per command from ``--facts``; worker processes forked later inherit it."""
    _ACTIVE[0] = folder


def owner_facts_folder() -> Path | None:
    """The overlay folder in use, or None."""
    return _ACTIVE[0]


def refuse_remote(what: str) -> None:
    """UsageError when an overlay is in use and ``what`` would load the game elsewhere (a Dask cluster's
    workers read the game from its folder, without this process's ``--facts``): never a run that silently
    drops the owner's values."""
    if _ACTIVE[0] is not None:
        from ..errors import UsageError

        raise UsageError(f"--facts cannot be used with {what}: the cluster's workers would load the game without "
                         "the owner's values; run it on this machine")


def overlay_file(folder: Path, game: str) -> Path:
    """Where the overlay of ``game`` lives in ``folder``."""
    return folder / f"{game}.json"


def overlay_key() -> str:
    """A digest of the overlays in use (their names and bytes), for caches keyed by what a game holds."""
    folder = _ACTIVE[0]
    digest = hashlib.sha256(b"owner-facts\0")
    if folder is None:
        return digest.hexdigest()
    digest.update(str(folder.resolve()).encode() + b"\0")
    for path in sorted(folder.glob("*.json")) if folder.is_dir() else []:
        try:
            digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
        except OSError:
            digest.update(path.name.encode() + b"\0unreadable\0")
    return digest.hexdigest()


class _Refused(Exception):
    """A value the overlay may not merge: (pointer suffix, code, message)."""

    def __init__(self, where: str, code: str, message: str) -> None:
        super().__init__(message)
        self.where, self.code, self.message = where, code, message


def _records(bundle: Bundle) -> dict[str, tuple[LoadedFile, dict[str, Any], str | None]]:
    """Record id → (file, the record's raw data, the id of the set holding it for a card)."""
    found: dict[str, tuple[LoadedFile, dict[str, Any], str | None]] = {}
    for loaded in bundle.files:
        data = loaded.data
        if not isinstance(data, dict):
            continue
        kind = loaded.kind.name
        if kind in {"board", "game"} and isinstance(data.get("id"), str):
            found.setdefault(data["id"], (loaded, data, None))
        if kind == "set":
            for card in data.get("cards") or []:
                if isinstance(card, dict) and isinstance(card.get("id"), str):
                    found.setdefault(card["id"], (loaded, card, data.get("id")))
        if kind == "components":
            for item in data.get("components") or []:
                if isinstance(item, dict) and isinstance(item.get("id"), str):
                    found.setdefault(item["id"], (loaded, item, None))
    return found


def _step(node: Any, part: str) -> Any:
    if isinstance(node, dict):
        if part in {"stats", "attributes"} and part not in node:  # left out while every value was unknown
            node[part] = {}
        if part not in node:
            raise _Refused("/field", "dangling-ref", f"the record has no field {part!r}")
        return node[part]
    if isinstance(node, list):
        for item in node:
            if isinstance(item, dict) and item.get("id") == part:
                return item
    raise _Refused("/field", "dangling-ref", f"the record has no field {part!r}")


def _sources_of(record: dict[str, Any]) -> list[Any]:
    try:
        return [Source.model_validate(s) for s in record.get("sources") or []]
    except ValidationError:
        return []


def _known(record: dict[str, Any], field: str, current: Any, node: Any = None) -> bool:
    """True when the sources already give ``field``: a value is there and every source naming it states it
    (a value only inferred, or from an outside source, is not known: the owner's copy may confirm it)."""
    if field == "set":
        return record.get("set_certainty", "stated") == "stated"
    sure = field_certainty(_sources_of(record), field)
    if sure is None and isinstance(node, dict) and node is not record:  # a space names its own sources
        sure = field_certainty(_sources_of(node), field.rsplit("/", 1)[-1])
    return current not in (None, "", [], {}) and sure == "stated"


def _apply(record: dict[str, Any], set_id: str | None, field: str, value: Any) -> None:
    """Put ``value`` into ``field`` of ``record`` (raw data), or raise :class:`_Refused`."""
    parts = field.split("/")
    if field == "set":
        if set_id is None:
            raise _Refused("/field", "dangling-ref", "only a card belongs to a set")
        if _known(record, field, None):
            raise _Refused("/value", "owner-over-fact", f"the set of {record['id']} is known from the sources "
                           f"({set_id}); the owner's copy only fills unknowns")
        if value != set_id:
            raise _Refused("/value", "bad-value", f"{record['id']} is held by set {set_id!r}; the owner's copy can "
                           f"confirm its set, not move it (found {value!r})")
        record["set_certainty"] = "owner"
        return
    *path, last = parts
    node: Any = record
    for part in path:
        node = _step(node, part)
    if last == "edges" and isinstance(node, dict) and "spaces" in node:  # a board side's accesses
        if node.get("edges_complete"):
            raise _Refused("/value", "owner-over-fact", f"every access of side {node.get('id')!r} is known from "
                           "the sources; the owner's copy only fills unknowns")
        if not isinstance(value, list) or not all(isinstance(p, list) and len(p) == 2 for p in value):
            raise _Refused("/value", "wrong-type", "accesses are pairs of space ids")
        stated = [e for e in node.get("edges") or [] if isinstance(e, dict) and e.get("certainty", "stated") == "stated"
                  and (not isinstance(e.get("source"), dict) or e["source"].get("certainty", "stated") == "stated")]
        have = {frozenset(e.get("between", [])) for e in stated}
        node["edges"] = [*stated, *({"between": list(p), "certainty": "owner"} for p in value  # the owner's graph
                                    if frozenset(p) not in have)]                             # replaces inferences
        node["edges_complete"] = True
        return
    if isinstance(node, dict):
        if last in node and _known(record, field, node[last], node):
            raise _Refused("/value", "owner-over-fact", f"{record['id']}/{field} is known from the sources "
                           f"({node.get(last)!r}); the owner's copy only fills unknowns")
        if last not in node and len(parts) == 1 and last not in _OPEN_TOP:
            raise _Refused("/field", "dangling-ref", f"the record has no field {last!r}")
        if last not in node and parts[0] == "areas":  # a value the board's area leaves out does not apply to it
            raise _Refused("/field", "dangling-ref", f"area {node.get('id')!r} of {record['id']} records no {last!r}")
        node[last] = value
        return
    raise _Refused("/field", "dangling-ref", f"the record has no field {field!r}")


_OPEN_TOP = frozenset({"quantity", "rules", "effects", "types", "stats", "attributes", "faces", "rows"})
"""Top-level fields a record may leave out when they are unknown, which the overlay may add."""


def _cite(record: dict[str, Any], fields: list[str]) -> None:
    """Cite the owner's copy for ``fields`` of ``record`` and stop the other sources speaking for them (the
    owner's copy supersedes an inference); drop the recorded missing facts they answer."""
    if not isinstance(record.get("sources"), list):
        return
    kept = []
    for source in record["sources"]:
        if isinstance(source, dict) and isinstance(source.get("facts"), list) and source["facts"]:
            facts = [f for f in source["facts"] if not any(speaks_of(f, x) for x in fields)]
            if not facts:  # it spoke only for what the owner's copy now gives: it no longer speaks for the card
                continue
            source = {**source, "facts": facts}
        kept.append(source)
    kept.append({"doc": OWNERS_COPY, "certainty": "owner", "facts": sorted(fields),
                 "note": "read by the kit's owner from their own copy (owner's facts overlay)"})
    record["sources"] = kept
    if isinstance(record.get("missing"), list):
        record["missing"] = [m for m in record["missing"]
                             if not (isinstance(m, dict) and m.get("field", "effects") in fields)]


def merge_owner_facts(bundle: Bundle, folder: Path | None = None) -> None:
    """Merge the overlay of ``bundle``'s game from ``folder`` (default: the one in use) into its files' data
    and documents. Problems go to ``bundle.problems``, located in the overlay file."""
    folder = folder if folder is not None else _ACTIVE[0]
    if folder is None or bundle.is_pack:
        return
    games = [f for f in bundle.files if f.kind.name == "game" and isinstance(f.data, dict)]
    if not games or not isinstance(games[0].data.get("id"), str):
        return
    game_file, game_id = games[0], games[0].data["id"]
    path = overlay_file(folder, game_id)
    if not path.is_file():
        return
    display = display_path(path)
    data, problems = read_json(path, display)
    if data is None or problems:
        bundle.problems.extend(problems)
        return
    named = data.get("$schema") if isinstance(data, dict) else None
    if not isinstance(named, str) or named.rsplit("/", 1)[-1] != SCHEMA_FILE:
        bundle.problems.append(Problem(display, "/$schema", "schema-ref",
                                       f"an owner's facts file names its schema: \".../schema/{SCHEMA_FILE}\""))
        return
    try:
        overlay = OwnerFacts.model_validate(data)
    except ValidationError as exc:
        bundle.problems.extend(schema_problems(exc, data, display))
        return
    if overlay.game != game_id:
        bundle.problems.append(Problem(display, "/game", "wrong-game",
                                       f"this overlay is for {overlay.game!r}, not {game_id!r}"))
        return
    cited = [Problem(f.display, where, "owner-in-database", "the certainty 'owner' is given only by an owner's facts "
                     "overlay (--facts), never by the database; cite the document that states the value")
             for f in bundle.files for where in _owner_places(f.data, "")]
    if cited:
        bundle.problems.extend(cited)
        return
    saved = {id(f): (copy.deepcopy(f.data), f.doc) for f in bundle.files}
    records = _records(bundle)
    found: list[Problem] = _add_cards(bundle, overlay, records, display)
    records = _records(bundle)
    filled: dict[str, list[str]] = {}
    for number, item in enumerate(overlay.values):
        here = f"/values/{number}"
        cell = f" (cell {item.cell})" if item.cell else ""
        if item.target not in records:
            found.append(Problem(display, f"{here}/target", "dangling-ref", f"unknown record {item.target!r}{cell}"))
            continue
        loaded, record, set_id = records[item.target]
        if item.field in filled.get(item.target, []):
            found.append(Problem(display, f"{here}/field", "duplicate-id",
                                 f"{item.target}/{item.field} is given twice{cell}"))
            continue
        try:
            _apply(record, set_id, item.field, copy.deepcopy(item.value))
        except _Refused as refused:
            found.append(Problem(display, here + refused.where, refused.code, refused.message + cell))
            continue
        filled.setdefault(item.target, []).append(item.field)
    added = {card.id for card in overlay.new_cards}
    for target, fields in filled.items():
        _cite(records[target][1], fields + (["quantity", "types", "set"] if target in added else []))
    _declare_document(game_file.data)
    if not found:
        found = _revalidate(bundle, display, overlay, records)
    if found:
        for loaded in bundle.files:  # none of the overlay is merged: the game as on disk
            loaded.data, loaded.doc = saved[id(loaded)]
        bundle.problems.extend(found)
        return
    bundle.overlay = path


def _add_cards(bundle: Bundle, overlay: OwnerFacts, records: dict[str, Any], display: str) -> list[Problem]:
    """Add the overlay's new cards (one physical card each, known only from the owner's copy) to the files of
    the sets that declare them; their name and text come from the values."""
    found: list[Problem] = []
    sets = {f.data.get("id"): f for f in bundle.files if f.kind.name == "set" and isinstance(f.data, dict)}
    for number, card in enumerate(overlay.new_cards):
        here = f"/new_cards/{number}"
        if card.id in records:
            found.append(Problem(display, f"{here}/id", "duplicate-id", f"{card.id!r} is already a record of the game"))
        elif card.set not in sets:
            found.append(Problem(display, f"{here}/set", "dangling-ref", f"unknown set {card.set!r}"))
        else:
            sets[card.set].data.setdefault("cards", []).append(
                {"id": card.id, "set_certainty": "owner", "quantity": 1, "types": list(card.types),
                 "attributes": dict(card.attributes), "name": "", "sources": []})
    return found


def _owner_places(data: Any, pointer: str) -> list[str]:
    """JSON pointers of every ``certainty``/``set_certainty`` that says ``owner`` in a file's data."""
    if isinstance(data, dict):
        found = [f"{pointer}/{key}" for key in ("certainty", "set_certainty") if data.get(key) == "owner"]
        return found + [p for key, value in data.items() if isinstance(value, (dict, list))
                        for p in _owner_places(value, f"{pointer}/{key}")]
    if isinstance(data, list):
        return [p for i, value in enumerate(data) if isinstance(value, (dict, list))
                for p in _owner_places(value, f"{pointer}/{i}")]
    return []


def _declare_document(game: dict[str, Any]) -> None:
    documents = game.setdefault("documents", [])
    if isinstance(documents, list) and not any(isinstance(d, dict) and d.get("id") == OWNERS_COPY for d in documents):
        documents.append({"id": OWNERS_COPY, "title": OWNERS_COPY_TITLE})


def _revalidate(bundle: Bundle, display: str, overlay: OwnerFacts,
                records: dict[str, tuple[LoadedFile, dict[str, Any], str | None]]) -> list[Problem]:
    """Parse again every file the overlay changed; a value the file's model refuses is reported at its place
    in the overlay (the first value of the record the model's error points into)."""
    touched = {id(records[v.target][0]) for v in overlay.values} | {
        id(f) for f in bundle.files if f.kind.name in {"assumptions", "game"}}
    found: list[Problem] = []
    for loaded in bundle.files:
        if id(loaded) not in touched or loaded.doc is None:
            continue
        try:
            loaded.doc = loaded.kind.model.model_validate(loaded.data)
        except ValidationError as exc:
            for problem in schema_problems(exc, loaded.data, loaded.display):
                number = _value_at(overlay, records, loaded, problem.location)
                where = f"/values/{number}/value" if number is not None else ""
                cell = f" (cell {overlay.values[number].cell})" if number is not None and overlay.values[number].cell else ""
                found.append(Problem(display, where, problem.code,
                                     f"{problem.message} (at {loaded.display}:{problem.location}){cell}"))
    return found


def _value_at(overlay: OwnerFacts, records: dict[str, tuple[LoadedFile, dict[str, Any], str | None]],
              loaded: LoadedFile, pointer: str) -> int | None:
    """The overlay value whose record holds ``pointer`` in ``loaded``, or None."""
    for number, item in enumerate(overlay.values):
        file, record, _ = records[item.target]
        if file is not loaded:
            continue
        for key in ("cards", "components"):
            items = loaded.data.get(key) if isinstance(loaded.data, dict) else None
            place = next((i for i, x in enumerate(items) if x is record), None) if isinstance(items, list) else None
            if place is not None and (pointer + "/").startswith(f"/{key}/{place}/"):
                return number
        if record is loaded.data:
            return number
    return None
