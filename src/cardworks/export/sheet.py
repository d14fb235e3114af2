"""``cardworks sheet export``: card data as a spreadsheet, one row per card, one column per field and translation.

Designers edit decks in spreadsheets (Squib, nanDECK, CardMaker, Dextrous all
read CSV/XLSX). Columns:

- ``set`` and ``id`` say which card a row is (``set`` cannot be changed);
- scalar fields as they are: ``quantity``, ``name``, ``rules``, ``flavour`` …;
- lists of ids joined with ``", "`` (``types``, ``markers``, ``icons``),
  alternative names joined with ``"; "``;
- one column per stat and attribute (``stats.attack``, ``attributes.treasure-kind``);
- one column per translatable field and locale (``name@ca``, ``rules@es``).

Effects and sources are not in the sheet; ``sheet import`` leaves them as they are.
Text that a spreadsheet would run as a formula is written inert (see :mod:`.cells`).
With PACK folders the sheet holds the packs' own sets (unless ``--set`` says
otherwise) and their translations, read from and written back to each pack.
"""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import DataError, UsageError
from ..loading.database import Database
from ..loading.records import Index
from ..problems import Problem
from ..i18n.strings import source_index
from .cells import neutralise, text_workbook
from .packs import pack_games
from .sheet_base import BASE_COLUMN, add_base_sheet, row_base
from .sheet_columns import SEPARATOR, SHEET_NAME, Column, Kind


FIELDS: dict[str, Kind] = {
    "set_certainty": "text", "optional": "bool", "quantity": "int", "types": "ids", "markers": "ids", "icons": "ids",
    "name": "text", "alt_names": "names", "rules": "text", "flavour": "text", "art": "text", "notes": "text",
}
"""Card fields a sheet carries, and how a cell writes them."""
MAPS: dict[str, Kind] = {"stats": "int", "attributes": "text"}
"""Fields holding one value per key: one column each (``stats.attack``)."""
@dataclass
class CardRow:
    set_id: str
    file: Path
    card: dict[str, Any]
    """The card as the JSON file holds it (key order kept)."""


def set_files(db: Database) -> dict[str, Path]:
    """Set id → its JSON file."""
    return {r.id: r.file.path for r in Index(db).of_kind("set")}


def selected_sets(db: Database, selection: str | None) -> list[str]:
    """Set ids of a selection id, of set ids joined by '+', or every set (in set order)."""
    sets = sorted(Index(db).of_kind("set"), key=lambda r: (r.model.order, r.id))
    ids = [r.id for r in sets]
    if selection is None:
        return ids
    for chosen in db.game_doc.selections:
        if chosen.id == selection:
            return list(chosen.sets)
    parts = [p for p in selection.replace(",", "+").split("+") if p]
    unknown = [p for p in parts if p not in ids]
    if unknown:
        raise UsageError(f"unknown set or selection {selection!r}; choose from "
                         f"{', '.join([s.id for s in db.game_doc.selections] + ids)}")
    return parts


def card_rows(db: Database, sets: list[str]) -> list[CardRow]:
    files = set_files(db)
    rows = []
    for set_id in sets:
        document = json.loads(files[set_id].read_text(encoding="utf-8"))
        rows += [CardRow(set_id, files[set_id], card) for card in document.get("cards", [])]
    return rows


def translatable_fields(db: Database) -> dict[str, list[str]]:
    """Card id → its translatable fields (``name``, ``rules``, ``alt_names/0`` …)."""
    index = Index(db)
    cards = {r.id for r in index.of_kind("card")}
    return {record: list(fields) for record, fields in source_index(index).items() if record in cards}


def columns_for(db: Database, rows: list[CardRow], locales: list[str]) -> list[Column]:
    """The sheet's columns: fixed fields, then one per map key seen or defined, then translations. A game without
    rules has one column per declared field instead, named as its game.json names it (:func:`declared_columns`)."""
    game = db.game_doc
    if game.card_fields:
        return declared_columns(game, locales)
    columns = [Column(name, kind, name) for name, kind in FIELDS.items()]
    keys = {"stats": [s.id for s in game.stats], "attributes": [a.id for a in game.attributes]}
    for row in rows:
        for field in MAPS:
            keys[field] += [k for k in row.card.get(field, {}) if k not in keys[field]]
    for field, kind in MAPS.items():
        columns += [Column(f"{field}.{key}", kind, field, key) for key in keys[field]]
    translated: list[str] = []
    fields = translatable_fields(db)
    for row in rows:
        translated += [f for f in fields.get(row.card["id"], []) if f not in translated]
    for locale in locales:
        columns += [Column(f"{field}@{locale}", "text", "translation", field, locale) for field in translated]
    return columns


def declared_columns(game: Any, locales: list[str]) -> list[Column]:
    """The columns of a game without rules: one per declared field, in declared order, then its translatable
    fields (title, text, flavour) once per locale (``text@ca``)."""
    from ..models.fields import FIELD_SLOTS, TRANSLATABLE_KINDS

    columns = []
    for declared in game.card_fields:
        slot = FIELD_SLOTS[declared.kind]
        if declared.kind in ("number", "choice"):
            columns.append(Column(declared.id, "int" if declared.kind == "number" else "text", slot, declared.id))
        else:
            columns.append(Column(declared.id, {"type": "ids", "icons": "ids", "quantity": "int"}.get(declared.kind, "text"),
                                  slot))
    for locale in locales:
        columns += [Column(f"{declared.id}@{locale}", "text", "translation", FIELD_SLOTS[declared.kind], locale)
                    for declared in game.card_fields if declared.kind in TRANSLATABLE_KINDS]
    return columns


def translations(db: Database, locale: str) -> dict[str, dict[str, Any]]:
    """Entries of ``locale`` by record id, from the game's and every pack's translation file (ids are unique)."""
    entries: dict[str, dict[str, Any]] = {}
    for root in db.roots:
        path = root / "i18n" / f"{locale}.json"
        if path.is_file():
            entries.update(json.loads(path.read_text(encoding="utf-8")).get("entries", {}))
    return entries


def sheet_database(cards_root: Path, game: str | None, packs: list[Path]) -> Database:
    """The one game a sheet is about, loaded with ``packs``; UsageError when that is not one game."""
    from ..catalog import load_games
    from ..loading.database import load_pack

    if packs:
        extended = pack_games(packs)
        if len(extended) > 1 or (game is not None and game not in extended):
            raise UsageError(f"the packs extend {', '.join(sorted(extended))}; one game at a time")
        game = extended.pop()
    if (cards_root / "pack.json").is_file() and not (cards_root / "game.json").is_file():
        raise UsageError(f"{cards_root} is a pack, not a cards folder; give it after the command "
                         f"(cardworks sheet export {cards_root} --out FILE)")
    databases = load_games(cards_root, game)
    if not databases:
        raise UsageError(f"no game folder (with a game.json) in {cards_root}")
    if len(databases) > 1:
        raise UsageError("several games here; choose one with --game")
    db = databases[0]
    if packs:
        db = Database(game=db.game, packs=[load_pack(folder) for folder in packs])
        broken = [p for bundle in db.packs for p in bundle.problems if p.severity == "error"]
        if broken or any(bundle.docs("pack") == [] for bundle in db.packs):
            raise DataError("a pack has unusable files; run 'cardworks validate PACK'", broken)
    return db


def pack_selection(db: Database) -> str | None:
    """With packs, the packs' own sets joined by '+'; without, None (every set)."""
    if not db.packs:
        return None
    return "+".join(r.id for r in Index(db).of_kind("set") if r.bundle is not db.game) or None


def cell_value(column: Column, card: dict[str, Any], texts: dict[str, dict[str, dict[str, Any]]]) -> Any:
    """What a cell shows: text, a number, a boolean, or None for an empty cell."""
    if column.locale is not None:
        entry = texts[column.locale].get(card["id"], {}).get(column.key or "")
        return entry.get("text") if entry else None
    value = card.get(column.field, {}).get(column.key) if column.key is not None else card.get(column.field)
    if column.kind in SEPARATOR:
        return SEPARATOR[column.kind].join(value) if value else None
    return value


def _csv_cell(value: Any) -> Any:
    """A value as a CSV cell: booleans as true/false, text neutralised so no spreadsheet runs it as a formula."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return neutralise(value) if isinstance(value, str) else value


def export_sheet(db: Database, selection: str | None, locales: list[str], fmt: str) -> bytes:
    """The cards of the selected sets as CSV or XLSX bytes."""
    unknown = [loc for loc in locales if loc not in db.game_doc.locales or loc == db.game_doc.source_locale]
    if unknown:
        raise UsageError(f"no translation locale {', '.join(unknown)} in {db.game_doc.id}; "
                         f"it has {', '.join(l for l in db.game_doc.locales if l != db.game_doc.source_locale)}")
    rows = card_rows(db, selected_sets(db, selection))
    problems = [Problem(str(row.file), f"/cards/{i}/alt_names", "sheet-separator",
                        "an alternative name holds ';', which a sheet cell cannot keep apart")
                for i, row in enumerate(rows) if any(";" in name for name in row.card.get("alt_names", []))]
    if problems:
        raise DataError("cannot write the sheet", problems)
    columns = columns_for(db, rows, locales)
    texts = {locale: translations(db, locale) for locale in locales}
    header = ["set", "id", *(c.name for c in columns)]
    table = [[row.set_id, row.card["id"], *(cell_value(c, row.card, texts) for c in columns)] for row in rows]
    bases = [(line[1], row_base(columns, line[2:])) for line in table]  # what each cell held: imports merge on it
    if fmt == "csv":
        header = [*header, BASE_COLUMN]
        table = [[*line, base] for line, (_, base) in zip(table, bases)]
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(header)
        for line in table:
            writer.writerow([_csv_cell(v) for v in line])
        return buffer.getvalue().encode("utf-8")
    book, sheet = text_workbook(SHEET_NAME, header, table)
    sheet.freeze_panes = "C2"
    add_base_sheet(book, bases)
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()
