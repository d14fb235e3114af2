"""``cardworks sheet import``: edited cells written back into the JSON files, or the whole file refused.

Every cell is read (:mod:`.sheet_read`, which bounds the work and refuses
undecodable or oversized files) and checked before anything is written:
formulas, error values, dates, merged cells, wrong types, unknown columns,
unknown or repeated ids and a changed ``set`` are each reported with their
sheet, row and column. The edits
are then applied to a copy of the database, which is validated as a whole
(schemas, references, markup tokens, translations); only when it has no error
are the changed files written, as one journaled change (all or none), in the
same layout (``json.dumps(indent=2, ensure_ascii=False)``, key order kept). Cells
that match the files change nothing, so an unchanged round trip writes no byte.

The sheet's base hashes (:mod:`.sheet_base`) say what each cell held when it was
exported: only cells the sheet changed are applied, under the game folder's lock
(the one ``i18n import`` takes), so a sheet never reverts another import's work.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import DataError, UsageError
from ..fileio import fault_point, folder_locks, sweep_dead_temporaries
from ..i18n.files import merge_translations
from ..i18n.merge import LEGACY_WARNING, conflict_message, decide
from ..i18n.workflow import recover_imports
from ..journal import anchor_for, write_journaled
from ..loading.database import Database, display_path, is_game_folder, load_game, load_pack
from ..problems import Problem
from ..validate import validate
from . import sheet_rows
from .sheet import card_rows, cell_value, columns_for, selected_sets, set_files, sheet_database, translations
from .sheet_columns import Column, convert
from .sheet_base import cell_base, normalized, parse_row_base, read_base
from .sheet_read import Table, read_table
from .sheet_read import where as _where

COPY_PREFIX = "cardworks-sheet-"
"""The copy of the database an import validates is ``<temp folder>/cardworks-sheet-<pid>-<random>``."""


def sweep_stale_copies(folder: Path | None = None) -> list[str]:
    """Remove the database copies that imports killed with kill -9 left in the temporary folder (their process
    is gone; a live import's copy is left alone). Returns the names removed."""
    return sweep_dead_temporaries(COPY_PREFIX, folder)


def _set(card: dict[str, Any], column: Column, value: Any) -> bool:
    """Write ``value`` into ``card`` when it differs; an empty cell leaves an absent field absent. True on change."""
    if column.key is not None:
        mapping = card.get(column.field)
        if mapping is None or column.key not in mapping:
            if value is None:
                return False
            card.setdefault(column.field, {})[column.key] = value
            return True
        if mapping[column.key] == value:
            return False
        mapping[column.key] = value
        return True
    if column.field not in card:
        if value is None or value == []:
            return False
        card[column.field] = value
        return True
    if card[column.field] == value:
        return False
    card[column.field] = value
    return True


def _source_text(card: dict[str, Any], field: str) -> str | None:
    value: Any = card
    for part in field.split("/"):
        if isinstance(value, list) and part.isdigit() and int(part) < len(value):
            value = value[int(part)]
        elif isinstance(value, dict) and part in value:
            value = value[part]
        else:
            return None
    return value if isinstance(value, str) else None


@dataclass
class ImportResult:
    cards_changed: int
    translations_changed: int
    files_written: list[Path]
    warnings: list[str] = field(default_factory=list)
    """Said once to the user: a sheet without base hashes, an interrupted import finished first."""
    added: list[str] = field(default_factory=list)
    """Ids of the cards new rows made (a game without rules)."""
    removed: list[str] = field(default_factory=list)
    """Ids of the cards removed because no row names them (``--remove-missing``)."""


def _which_game(cards_root: Path, table: Table, game: str | None, packs: list[Path]) -> Database:
    from ..catalog import load_games

    if packs or (cards_root / "pack.json").is_file():
        return sheet_database(cards_root, game, packs)
    databases = load_games(cards_root, game)
    if len(databases) == 1:
        return databases[0]
    used = {row[0] for row in table.rows if row and row[0] is not None}
    fitting = [db for db in databases if used and used <= set(selected_sets(db, None))]
    if len(fitting) != 1:
        raise UsageError("cannot tell which game the sheet is for; give --game")
    return fitting[0]


def import_sheet(cards_root: Path, path: Path, game: str | None = None, packs: list[Path] | None = None,
                 remove_missing: bool = False) -> ImportResult:
    """Apply the sheet at ``path`` to the game's (and the ``packs``') JSON files; DataError (nothing written) on any bad
    cell or conflict.

    Like ``i18n import`` it holds the game folder's lock, re-reads the files under it and applies only the cells
    the sheet changed relative to its base hashes, so it never reverts another import's work; the files are
    written as one journaled change (all or none, finished by the next import after kill -9).
    """
    packs = list(packs or [])
    table = read_table(path)
    raw_bases = read_base(path, table, len(table.rows))
    db = _which_game(cards_root, table, game, packs)
    with folder_locks([db.game.root, *(pack.root for pack in db.packs)], "import"):
        recovered = recover_imports(db)
        db = Database(game=load_game(db.game.root), packs=[load_pack(pack.root) for pack in db.packs])  # as it is now
        result = _apply(cards_root, path, table, raw_bases, db, remove_missing)
        result.warnings[:0] = recovered
        return result


def _apply(cards_root: Path, path: Path, table: Table, raw_bases: dict[str, str] | None, db: Database,
           remove_missing: bool = False) -> ImportResult:
    rows = card_rows(db, selected_sets(db, None))
    by_id = {row.card["id"]: row for row in rows}
    locales = [loc for loc in db.game_doc.locales if loc != db.game_doc.source_locale]
    known = {c.name: c for c in columns_for(db, rows, locales)}
    problems = list(table.problems)
    header = [str(h) if h is not None else "" for h in table.header]
    own = bool(db.game_doc.card_fields)  # a game without rules: its sheet may add and drop cards (.sheet_rows)
    if own:
        header = [sheet_rows.plain_header(name, known) for name in header]
    elif remove_missing:
        raise UsageError("--remove-missing is for a game without rules (declared card_fields); this game's cards "
                         "are removed in its set files")
    for index, name in enumerate(header):
        if name not in known and name not in ("set", "id"):
            problems.append(Problem(table.file, _where(table, 1, index), "sheet-column",
                                    f"row 1: unknown column {name!r}" if name else "row 1: a column without a name"))
        elif header.index(name) != index:
            problems.append(Problem(table.file, _where(table, 1, index), "sheet-column", f"row 1: column {name!r} repeated"))
    title = next((c.name for c in known.values() if c.field == "name" and c.locale is None), None) if own else None
    if own and (title not in header and "id" not in header):
        raise DataError(f"{path}: the sheet needs an 'id' or a {title!r} column (a card's id is minted from its name)",
                        problems + [Problem(table.file, f"{table.sheet}!1", "sheet-column", f"row 1: no 'id' or {title!r} column")])
    if not own and ("id" not in header or "set" not in header):
        raise DataError(f"{path}: the sheet needs the columns 'set' and 'id'",
                        problems + [Problem(table.file, f"{table.sheet}!1", "sheet-column", "row 1: no 'set' or 'id' column")])
    id_at = header.index("id") if "id" in header else None
    set_at = header.index("set") if "set" in header else None
    title_at = header.index(title) if title in header else None
    files = set_files(db)
    edited = {file: json.loads(file.read_text(encoding="utf-8")) for file in {row.file for row in rows} | (
        set(files.values()) if own else set())}
    added: list[tuple[Path, dict[str, Any]]] = []
    icons = {icon.id for _, doc in db.docs("icons") for icon in doc.icons}
    cards = {card["id"]: card for document in edited.values() for card in document.get("cards", [])}
    texts = {locale: translations(db, locale) for locale in locales}
    seen: dict[str, int] = {}
    changed_cards: set[str] = set()
    translation_items: dict[str, list[tuple[str, str, str]]] = {}
    for offset, values in enumerate(table.rows):
        number = offset + 2
        values = values + [None] * (len(header) - len(values))
        if all(v is None for v in values):
            continue
        card_id = sheet_rows.row_id(values, id_at, title_at) if own else values[id_at]
        key_at = id_at if id_at is not None else title_at or 0  # the cell a row's id is read (or minted) from
        if own and card_id is not None and card_id in seen:
            problems.append(Problem(table.file, _where(table, number, key_at), "sheet-id",
                                    f"row {number}: {card_id!r} again (first in row {seen[card_id]}); give one of "
                                    "the cards another name, or an id"))
            continue
        if own and card_id not in by_id:
            seen[card_id] = number
            set_id = values[set_at] if set_at is not None and values[set_at] is not None else (
                next(iter(files)) if len(files) == 1 else None)
            if set_id not in files:
                problems.append(Problem(table.file, _where(table, number, set_at or 0), "sheet-set",
                                        f"row {number}, column 'set': a new card goes into one of the sets "
                                        f"{', '.join(files)}, found {set_id!r}"))
                continue
            card = sheet_rows.new_card(table, number, values, header, known, card_id, db.game_doc, icons, problems)
            if card is not None:
                added.append((files[set_id], card))
                for index, locale, key, text in sheet_rows.new_translations(table, number, values, header, known, card,
                                                                            problems):
                    translation_items.setdefault(locale, []).append((card_id, key, text, card[key]))
            continue
        if card_id not in by_id:
            problems.append(Problem(table.file, _where(table, number, key_at), "sheet-id",
                                    f"row {number}, column 'id': no card {card_id!r} in {db.game_doc.id}"))
            continue
        if card_id in seen:
            problems.append(Problem(table.file, _where(table, number, key_at), "sheet-id",
                                    f"row {number}, column 'id': {card_id!r} again (first in row {seen[card_id]})"))
            continue
        seen[card_id] = number
        if set_at is not None and values[set_at] != by_id[card_id].set_id:
            problems.append(Problem(table.file, _where(table, number, set_at), "sheet-set",
                                    f"row {number}, column 'set': {card_id} is in set {by_id[card_id].set_id!r}; "
                                    "moving a card to another set is not done in a sheet"))
        card = cards[card_id]
        hashes = None
        if raw_bases is not None:
            hashes = parse_row_base(raw_bases.get(str(card_id)))
            if hashes is None:
                problems.append(Problem(table.file, _where(table, number, key_at), "import-base",
                                        f"row {number}: {card_id} has no usable base hashes in the file's "
                                        "cardworks-base column or sheet, so its cells cannot be merged safely; export again"))
                continue
        pending = []
        for index, name in enumerate(header):
            column = known.get(name)
            if column is None:
                continue
            value, error = convert(column, values[index])
            if own and not error:
                value = sheet_rows.by_name(db.game_doc, column, value)
                error = sheet_rows.declared_error(db.game_doc, column, value, icons)
            if error:
                problems.append(Problem(table.file, _where(table, number, index), "sheet-type",
                                        f"row {number}, column {name!r}: {error}"))
            elif hashes is not None and not _merges(table, number, index, column, value, hashes,
                                                     normalized(column, cell_value(column, card, texts)), problems):
                continue
            elif column.locale is not None:
                pending.append((index, column, value))
            elif _set(card, column, value):
                changed_cards.add(card_id)
        for index, column, value in pending:  # after the card's own fields: a translation follows the new source
            old = texts[column.locale].get(card_id, {}).get(column.key, {}).get("text")
            if value == old:
                continue
            source = _source_text(card, column.key or "")
            if value is None:
                problems.append(Problem(table.file, _where(table, number, index), "sheet-translation",
                                        f"row {number}, column {column.name!r}: a translation cannot be removed in a sheet"))
            elif source is None:
                problems.append(Problem(table.file, _where(table, number, index), "sheet-translation",
                                        f"row {number}, column {column.name!r}: {card_id} has no {column.key} to translate"))
            else:
                translation_items.setdefault(column.locale, []).append((card_id, column.key, value, source))
    # a sheet of some sets (sheet export --set) speaks only for those: a card of another set is not missing
    named_sets = {row[set_at] for row in table.rows if set_at is not None and len(row) > set_at} if own else set()
    missing = [card_id for card_id in by_id if card_id not in seen
               and (set_at is None or by_id[card_id].set_id in named_sets)] if own else []
    if problems:
        raise DataError(f"{path}: {len(problems)} bad cell(s); nothing written", problems)
    warnings = [] if raw_bases is not None else [f"{display_path(path)}: {LEGACY_WARNING}"]
    if missing and not remove_missing:
        warnings += [f"{display_path(path)}: card {card_id!r} (set {by_id[card_id].set_id!r}) is in no row of the sheet; "
                     "kept (give --remove-missing to remove it)" for card_id in missing]
    removed = missing if remove_missing else []
    if not changed_cards and not translation_items and not added and not removed:
        return ImportResult(0, 0, [], warnings)
    owners = {row.card["id"]: _owner(db, row.file) for row in rows} | {card["id"]: _owner(db, file) for file, card in added}
    touched = {by_id[card_id].file for card_id in changed_cards}  # other files are left exactly as they are
    if own:
        for card_id in changed_cards:
            sheet_rows.restated(cards[card_id])
        for file, card in added:
            edited[file].setdefault("cards", []).append(card)
            touched.add(file)
        for card_id in removed:
            document = edited[by_id[card_id].file]
            document["cards"] = [card for card in document["cards"] if card["id"] != card_id]
            touched.add(by_id[card_id].file)
        for file in touched:
            sheet_rows.retotalled(edited[file])
        for file, document in sheet_rows.without_translations(db.roots, removed).items():
            edited[file] = document  # a removed card's translations go with it
            touched.add(file)
    written = _validate_and_write(cards_root, db, {f: d for f, d in edited.items() if f in touched}, translation_items,
                                  owners)
    return ImportResult(len(changed_cards), sum(len(v) for v in translation_items.values()), written, warnings,
                        [card["id"] for _, card in added], removed)


def _merges(table: Table, number: int, index: int, column: Column, value: Any, hashes: dict[str, str], stored: Any,
            problems: list[Problem]) -> bool:
    """True when the sheet changed this cell and the database did not (so it is applied); a conflict is added to
    ``problems``. Cells the sheet left as exported keep what the database holds now."""
    decision = decide(cell_base(hashes, column), value, stored)
    if decision == "conflict":
        problems.append(Problem(table.file, _where(table, number, index), "import-conflict", conflict_message(
            f"row {number}, column {column.name!r}", stored, value, cell_base(hashes, column))))
    return decision == "apply"


def _owner(db: Database, file: Path) -> Path:
    """The root (game folder or pack) that holds ``file``."""
    resolved = file.resolve()
    return next(root.resolve() for root in reversed(db.roots) if resolved.is_relative_to(root.resolve()))


def _validate_and_write(cards_root: Path, db: Database, edited: dict[Path, dict],
                        translation_items: dict[str, list], owners: dict[str, Path]) -> list[Path]:
    """Write the edits into a copy of the database (and of its packs), validate it whole, then copy changed files
    back atomically, each into the game folder or pack it came from."""
    from ..loading.database import load_pack

    game_root = db.game.root.resolve()
    root = cards_root.resolve()
    sweep_stale_copies()
    # the process id in the name tells a later import whether this copy's import is still running
    with tempfile.TemporaryDirectory(prefix=f"{COPY_PREFIX}{os.getpid()}-") as tmp:
        copy_root = Path(tmp) / (root.name if is_game_folder(root) else "cards")  # a game folder keeps its name
        shutil.copytree(root, copy_root, symlinks=True)
        fault_point("sheet-copy")
        copies = {game_root: copy_root / game_root.relative_to(root)}
        for number, pack in enumerate(db.packs):
            copies[pack.root.resolve()] = Path(tmp) / f"pack-{number}"
            shutil.copytree(pack.root.resolve(), copies[pack.root.resolve()], symlinks=True)
        for file, document in edited.items():
            owner = _owner(db, file)
            target = copies[owner] / file.resolve().relative_to(owner)
            target.write_text(json.dumps(document, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        for locale, items in translation_items.items():
            by_owner: dict[Path, list] = {}
            for item in items:
                by_owner.setdefault(owners[item[0]], []).append(item)
            for owner, owned in by_owner.items():  # a translation goes into the folder that holds its card
                game = load_game(copies[game_root])
                copy_db = Database(game=game) if owner == game_root else Database(game=game, packs=[load_pack(copies[owner])])
                merge_translations(copy_db, locale, owned)
        copy_packs = [copies[pack.root.resolve()] for pack in db.packs]
        report = validate(copy_root, copy_packs or None)
        if report.errors:
            names = {str(copy): str(real if real != game_root else cards_root / game_root.relative_to(root))
                     for real, copy in copies.items()}
            names[str(copy_root)] = str(cards_root)

            def shown(text: str) -> str:
                for copy, real in sorted(names.items(), key=lambda item: -len(item[0])):
                    text = text.replace(copy, real)
                return text

            problems = [Problem(shown(p.file), p.location, p.code, p.message) for p in report.errors]
            raise DataError("the edited cards do not validate; nothing written", problems)
        contents: dict[Path, bytes] = {}
        for real_root, copy in copies.items():
            for new in sorted(p for p in copy.rglob("*.json") if p.is_file()):
                real = real_root / new.relative_to(copy)
                data = new.read_bytes()
                if not real.is_file() or real.read_bytes() != data:
                    contents[real] = data
        write_journaled(anchor_for([game_root, *(pack.root.resolve() for pack in db.packs)], list(contents)), contents)
        return list(contents)
