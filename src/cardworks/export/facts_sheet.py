"""The owner's facts sheet: every value of a game no source gives, to fill from one's own copy, and back.

``cardworks facts export`` writes one row per unknown value (the game plugin's ``owner_unknowns``): the
record's id and name, the field, how to type the value, what the sources do say, the engine's stand-in today,
and an empty ``value`` column. ``cardworks facts import`` reads the rows the owner filled, checks each cell
(its type, range, ids; a value for a field the sources give is refused: the overlay only fills unknowns),
merges them into the game in memory and validates it as the database is validated, then writes the overlay
``<game>.json`` (:class:`~cardworks.models.owner_facts.OwnerFacts`) into the folder given. Every problem is
reported at its cell (``facts.xlsx:facts!G7``); nothing is written unless every row is clean. The game's
files are never written.
"""

from __future__ import annotations

import csv
import io
import json
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..engine.plugins import plugin_for
from ..engine.schemas import owner_facts_schema
from ..errors import DataError, UsageError
from ..fileio import write_text_atomic
from ..loading.database import Database, display_path, load_game
from ..loading.overlay import SCHEMA_FILE, merge_owner_facts, overlay_file
from ..loading.records import Index
from ..markup.parser import MarkupError, parse
from ..models.owner_facts import NewCard, OwnerFacts, OwnerValue, Unknown
from ..problems import Problem, ProblemList
from .cells import neutralise, text_workbook
from .sheet_read import Table, read_table, where

FACTS_SHEET = "facts"
"""Title of the XLSX worksheet."""
COLUMNS = ("game", "id", "name", "field", "type as", "known", "stand-in", "value")
"""The sheet's columns; the owner fills ``value``."""


def _how(row: Unknown) -> str:
    """How to type the value, in words."""
    if row.kind in {"count", "stat"}:
        return f"a whole number from {row.low} to {row.high}"
    if row.kind == "markup":
        return "card text; icons as {tokens}"
    if row.kind == "text":
        return "the name printed on the card"
    if row.kind == "types":
        return f"card types joined by + ({', '.join(row.choices)})"
    if row.kind in {"set", "choice"}:
        return f"one of {', '.join(row.choices)}"
    if row.kind == "edges":
        return f"accesses as space + space, separated by ; (spaces: {', '.join(row.choices)})"
    if row.kind == "effects":
        return "effects in the game's vocabulary, as JSON (docs/effects.md)"
    count = f"{row.length} " if row.length else ""
    return f"{count}whole numbers from {row.low} to {row.high}, separated by spaces"


def unknowns_of(db: Database) -> list[Unknown]:
    """The game's unknown values, as its plugin lists them; a game that lists none is a usage error."""
    plugin = plugin_for(db.game_doc.id)
    reader = plugin.owner_unknowns
    if reader is None:
        raise UsageError(f"{db.game_doc.id} does not list the values an owner may give (its plugin has no "
                         "owner_unknowns)")
    return reader(Index(db))


def export_facts(db: Database, fmt: str) -> tuple[bytes, int]:
    """The sheet of ``db``'s unknown values as CSV or XLSX bytes, and its number of rows."""
    rows = unknowns_of(db)
    game = db.game_doc.id
    lines = [[game, r.target, r.name, r.field, _how(r), r.known, r.stand_in, None] for r in rows]
    if fmt == "csv":
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(COLUMNS)
        for line in lines:
            writer.writerow(["" if v is None else neutralise(v) for v in line])
        return buffer.getvalue().encode("utf-8"), len(rows)
    book, sheet = text_workbook(FACTS_SHEET, list(COLUMNS), lines)
    for letter_, width in zip("ABCDEFGH", (10, 24, 28, 28, 40, 48, 24, 24)):
        sheet.column_dimensions[letter_].width = width
    sheet.freeze_panes = "D2"
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue(), len(rows)


class _Bad(ValueError):
    """A cell that does not hold a value of its kind."""


def _whole(value: Any, row: Unknown) -> int:
    if isinstance(value, bool):
        raise _Bad(f"a whole number is wanted, found {value!r}")
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, str):
        try:
            value = int(value.strip())
        except ValueError:
            raise _Bad(f"a whole number is wanted, found {value!r}") from None
    if not isinstance(value, int):
        raise _Bad(f"a whole number is wanted, found {value!r}")
    if row.low is not None and value < row.low or row.high is not None and value > row.high:
        raise _Bad(f"{value} is outside {row.low}..{row.high}")
    return value


def _ids(text: str, sep: str, row: Unknown) -> list[str]:
    found = [part.strip() for part in text.split(sep)]
    if not all(found):
        raise _Bad(f"an empty id in {text!r}")
    strange = [part for part in found if part not in row.choices]
    if strange:
        raise _Bad(f"unknown id {strange[0]!r}; one of {', '.join(row.choices)}")
    return found


def parse_value(value: Any, row: Unknown) -> Any:
    """The cell's value as the field takes it; :class:`_Bad` with the reason when it does not fit."""
    if row.kind in {"count", "stat"}:
        return _whole(value, row)
    text = value if isinstance(value, str) else str(value)
    if row.kind == "numbers":
        parts = text.replace(",", " ").split()
        numbers = [_whole(p, row) for p in parts]
        if row.length is not None and len(numbers) != row.length:
            raise _Bad(f"{row.length} numbers are wanted, found {len(numbers)}")
        return numbers
    if row.kind == "text":
        if not text.strip() or "{" in text or "}" in text:
            raise _Bad("a name: plain text, not empty, without { }")
        return text.strip()
    if row.kind == "text":
        if not text.strip() or "{" in text or "}" in text:
            raise _Bad("a name: plain text, not empty, without { }")
        return text.strip()
    if row.kind == "markup":
        if not text.strip():
            raise _Bad("empty text")
        try:
            parse(text)
        except MarkupError as exc:
            raise _Bad(f"card text markup: {exc}") from None
        return text
    if row.kind == "types":
        return _ids(text, "+", row)
    if row.kind in {"set", "choice"}:
        return _ids(text, "\0", row)[0]
    if row.kind == "edges":
        pairs = [pair for pair in text.split(";") if pair.strip()]
        edges = [_ids(pair, "+", row) for pair in pairs]
        if not edges or any(len(pair) != 2 or pair[0] == pair[1] for pair in edges):
            raise _Bad("accesses are pairs of two different spaces, as space + space; space + space")
        return edges
    try:
        effects = json.loads(text)
    except json.JSONDecodeError as exc:
        raise _Bad(f"effects are JSON: {exc.msg} at character {exc.pos}") from None
    if not isinstance(effects, list) or not effects or not all(isinstance(e, dict) for e in effects):
        raise _Bad("effects are a JSON list of objects")
    return effects


@dataclass
class FactsImport:
    """What an import wrote: the overlay file and how many values it holds."""

    path: Path
    values: int
    rows: int


def _column(table: Table, name: str, problems: list[Problem]) -> int | None:
    header = [str(h).strip().lower() if h is not None else "" for h in table.header]
    if name not in header:
        problems.append(Problem(table.file, f"{table.sheet}!1", "sheet-missing-column",
                                f"the sheet has no {name!r} column (the export's columns: {', '.join(COLUMNS)})"))
        return None
    return header.index(name)


def read_facts(db: Database, path: Path, new_cards: list[Any] | None = None) -> tuple[list[OwnerValue], list[Problem], int]:
    """The filled rows of the sheet as overlay values, each with its cell (and into ``new_cards`` the cards no
    source lists that the rows add); the problems found, at their cells."""
    new_cards = new_cards if new_cards is not None else []
    table = read_table(path)
    problems = list(table.problems)
    display = display_path(path)
    table.file = display
    columns = [_column(table, name, problems) for name in ("id", "field", "value")]
    if None in columns:
        return [], problems, 0
    at_id, at_field, at_value = columns  # type: ignore[misc]
    unknowns = {(r.target, r.field): r for r in unknowns_of(db)}
    index = Index(db)
    values: list[OwnerValue] = []
    seen: dict[tuple[str, str], str] = {}
    slots: dict[str, tuple[Any, list[tuple[str, str]]]] = {}
    filled = 0
    for number, line in enumerate(table.rows, start=2):
        cells = [*line, *[None] * (max(at_id, at_field, at_value) + 1 - len(line))]
        value = cells[at_value]
        if value is None or isinstance(value, str) and not value.strip():
            continue
        filled += 1
        target, field = (str(cells[at_id] or "").strip(), str(cells[at_field] or "").strip())
        cell = where(table, number, at_value)
        here = f"{path.name}:{cell}"  # the file's name only: the overlay holds no path of this machine
        row = unknowns.get((target, field))
        if row is None and target not in index.by_id and not any(t == target for t, _ in unknowns):
            problems.append(Problem(display, where(table, number, at_id), "dangling-ref",
                                    f"row {number}: unknown id {target!r} in {db.game_doc.id}"))
            continue
        if row is None:
            problems.append(Problem(display, cell, "owner-over-fact",
                                    f"row {number}: {target}/{field} is not one of the game's unknown values (the "
                                    "sources give it, or it is no field the sheet lists); the owner's copy only "
                                    "fills unknowns"))
            continue
        if (target, field) in seen:
            problems.append(Problem(display, cell, "duplicate-id",
                                    f"row {number}: {target}/{field} is given again (first at {seen[target, field]})"))
            continue
        seen[target, field] = cell
        try:
            parsed = parse_value(value, row)
        except _Bad as exc:
            problems.append(Problem(display, cell, "bad-value", f"row {number}: {target}/{field}: {exc}"))
            continue
        values.append(OwnerValue(target=target, field=field, value=parsed, cell=here))
        if row.slot is not None:
            slots.setdefault(target, (row.slot, []))[1].append((field, cell))
    for target, ((set_id, types, fixed), given) in slots.items():
        if not any(field == "name" for field, _ in given):
            problems.append(Problem(display, given[0][1], "missing-field",
                                    f"{target} is a card no source lists: give its name too (a card is added "
                                    "only with the name printed on it)"))
            continue
        new_cards.append(NewCard(id=target, set=set_id, types=list(types), attributes=dict(fixed)))
    return values, problems, filled


def _cell_of(problem: Problem, overlay: OwnerFacts, index: Index, display: str, sheet: str) -> Problem:
    """A problem of the merged game, moved to the cell of the value it is about where one is (else kept)."""
    cells = [v.cell for v in overlay.values]
    if problem.file == display and problem.location.startswith("/values/"):
        number = int(problem.location.split("/")[2])
        return _at(problem, sheet, cells[number])
    for number, value in enumerate(overlay.values):
        record = index.by_id.get(value.target)
        if record is not None and record.file.display == problem.file and record.pointer and \
                (problem.location + "/").startswith(record.pointer + "/"):
            return _at(problem, sheet, cells[number], f" (at {problem.file}:{problem.location})")
    if problem.location.startswith("/totals"):  # a set's count: at the quantities given for its cards
        given = [value.cell for value in overlay.values if value.field == "quantity" and value.cell and
                 (record := index.by_id.get(value.target)) is not None and record.file.display == problem.file]
        if given:
            cells = ", ".join(cell.rpartition(":")[2] for cell in given[:8]) + (", …" if len(given) > 8 else "")
            return _at(problem, sheet, given[-1], f" (at {problem.file}:{problem.location}; quantities given at "
                                                  f"{cells})")
    return Problem(problem.file, problem.location, problem.code,
                   f"{problem.message} (with the owner's values merged)", problem.severity)


def _at(problem: Problem, sheet: str, cell: str | None, more: str = "") -> Problem:
    """``problem`` at ``cell`` (``name:Sheet!H7``, as the overlay keeps it) of the sheet shown as ``sheet``."""
    location = (cell or "").rpartition(":")[2]
    return Problem(sheet if location else problem.file, location or problem.location, problem.code,
                   problem.message.split(" (cell ")[0] + more, problem.severity)


def import_facts(db: Database, path: Path, out: Path) -> FactsImport:
    """Read the filled sheet, check every cell and the merged game, write ``out/<game>.json`` atomically."""
    from ..validate.runner import check_database

    new_cards: list[NewCard] = []
    values, problems, rows = read_facts(db, path, new_cards)
    game = db.game_doc.id
    if problems:
        raise DataError(f"{display_path(path)}: {len(problems)} problem(s); nothing written", problems)
    overlay = OwnerFacts.model_validate({"$schema": SCHEMA_FILE, "game": game,
                                         "new_cards": [c.model_dump() for c in new_cards],
                                         "values": [v.model_dump() for v in values]})
    text = json.dumps(overlay.model_dump(by_alias=True, exclude_none=True), indent=2, ensure_ascii=False) + "\n"
    with tempfile.TemporaryDirectory(prefix="cardworks-facts-") as trial:
        trial_file = overlay_file(Path(trial), game)
        trial_file.write_text(text, encoding="utf-8")
        bundle = _fresh(db)
        merge_owner_facts(bundle, Path(trial))
        merged = Database(game=bundle)
        found = ProblemList()
        check_database(merged, found)
        display = display_path(trial_file)
        index = Index(merged)
        errors = [_cell_of(p, overlay, index, display, display_path(path)) for p in found.items
                  if p.severity == "error"]
    if errors:
        raise DataError(f"{display_path(path)}: the game with these values does not validate; nothing written", errors)
    target = overlay_file(out, game)
    out.mkdir(parents=True, exist_ok=True)
    write_text_atomic(target, text)
    write_text_atomic(out / SCHEMA_FILE, owner_facts_schema())  # beside it, so an editor checks the file too
    return FactsImport(target, len(values), rows)


def _fresh(db: Database) -> Any:
    """The game's bundle as on disk, without any overlay in use."""
    return _plain(db.game.root)


def _plain(folder: Path) -> Any:
    from ..loading.overlay import owner_facts_folder, use_owner_facts

    active = owner_facts_folder()
    use_owner_facts(None)
    try:
        return load_game(folder)
    finally:
        use_owner_facts(active)


def facts_database(cards_root: Path, game: str) -> Database:
    """``game`` of ``cards_root`` as the database holds it (no overlay merged); UsageError for no such game,
    DataError when its files do not load."""
    from ..loading.database import game_folders

    folders = {folder.name: folder for folder in game_folders(cards_root)}
    if game not in folders:
        raise UsageError(f"no game {game!r} in {display_path(cards_root)}; there are {', '.join(sorted(folders))}")
    bundle = _plain(folders[game])
    broken = [p for p in bundle.problems if p.severity == "error"]
    if broken or not bundle.complete:
        raise DataError(f"{game} has unusable files; run 'cardworks validate'", broken)
    return Database(game=bundle)


def sheet_game(path: Path) -> str:
    """The game a filled sheet is about, from its ``game`` column (one game a sheet)."""
    table = read_table(path)
    problems: list[Problem] = []
    column = _column(table, "game", problems)
    if column is None:
        raise DataError(f"{display_path(path)}: not an owner's facts sheet; nothing written", problems)
    games = {str(line[column]).strip() for line in table.rows if column < len(line) and line[column] is not None}
    if len(games) != 1:
        raise DataError(f"{display_path(path)}: nothing written", [Problem(
            display_path(path), f"{table.sheet}!{chr(ord('A') + column)}2", "wrong-game",
            f"a facts sheet is about one game; found {', '.join(sorted(games)) or 'none'}")])
    return games.pop()
