"""``cardworks new``: a game without rules made from a spreadsheet and a folder of art, no Python.

The sheet's first row names the fields (:data:`FIXED` names, or ``NAME:number``, ``NAME:number:0-9`` and
``NAME:choice`` for a number or a choice of the designer's own); every other row is a card. Every cell is
checked before anything is written, each problem at its ``sheet!cell``; the folder is made in a temporary
sibling, validated whole, and renamed into place in one step, so a refused sheet leaves nothing behind.

Ids are minted from names (:func:`cardworks.ids.slugify`): ``Fire Drake`` is ``fire-drake``. An ``id``
column gives them instead. Two rows minting the same id are refused, never numbered, so that a card keeps
its id when the sheet is imported again (``cardworks sheet import`` finds a row's card by its id, and
without an id column by the id its name mints).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import DataError, UsageError
from ..ids import is_slug, slugify
from ..loading.database import SCHEMA_FOLDER, display_path, is_game_folder, load_database
from ..loading.paths import PathEscape, resolve_inside
from ..markup import MarkupError, tokens
from ..models.cards import CARD_TEXT_LIMITS
from ..problems import Problem
from .sheet_columns import convert, Column
from .sheet_read import Table, letter, read_table, where

FIXED: dict[str, str] = {
    "name": "title", "type": "type", "text": "text", "flavour": "flavour", "icons": "icons", "art": "image",
    "quantity": "quantity", "artist": "credit",
}
"""Header names with a meaning of their own → the kind of field they declare."""
ROW_KEYS = ("id", "set")
"""Header names that say which card and set a row is, not a field."""
TYPED = re.compile(r"^(?P<id>[a-z0-9]+(?:-[a-z0-9]+)*):(?P<kind>number|choice)(?::(?P<low>-?\d{1,6})-(?P<high>-?\d{1,6}))?$")
TRANSLATION = re.compile(r"^(?P<field>[a-z0-9]+(?:-[a-z0-9]+)*)@(?P<locale>[a-z]{2,3}(?:-[A-Za-z0-9]{2,8})*)$")
"""A translation column: ``name@ca`` holds the name in Catalan."""
TRANSLATED_KINDS = frozenset({"title", "text", "flavour", "type", "choice", "set", "icons"})
ART_SUFFIXES = (".png", ".jpg", ".jpeg", ".webp", ".svg")
DEFAULT_SET = "cards"
"""The set of a card whose row names none (or of every card, without a ``set`` column)."""
POKER = (63.0, 88.0)
"""The card size when ``--size`` gives none: poker, 63 × 88 mm (as a game.json without card_size)."""


WHOLE = Column("number", "int", "number")
"""How a number or quantity cell is read (the sheet export's whole-number rule)."""


@dataclass
class Header:
    """What the first row declares: column index → (field id, kind), and a number's explicit range."""

    fields: dict[int, tuple[str, str]] = field(default_factory=dict)
    keys: dict[str, int] = field(default_factory=dict)
    translated: dict[int, tuple[str, str]] = field(default_factory=dict)
    """Column index → (field id, locale) of a translation column (``name@ca``)."""
    ranges: dict[str, tuple[int, int]] = field(default_factory=dict)


def read_header(table: Table, problems: list[Problem]) -> Header:
    """The fields the first row names; every unknown, repeated or empty name is a problem at its cell."""
    header = Header()
    seen: dict[str, int] = {}
    if not table.header:
        problems.append(Problem(table.file, f"{table.sheet}!A1", "sheet-header",
                                "row 1 is empty: the first row names the fields (name, type, text, art, …)"))
        return header
    for index, cell in enumerate(table.header):
        at = where(table, 1, index)
        name = cell.strip() if isinstance(cell, str) else cell
        if name is None or name == "":
            problems.append(Problem(table.file, at, "sheet-header", "row 1: a column without a name"))
            continue
        translation = TRANSLATION.match(name) if isinstance(name, str) else None
        if translation is not None:
            if name in seen:
                problems.append(Problem(table.file, at, "sheet-header", f"row 1: column {name!r} again"))
            seen[name] = index
            header.translated[index] = (translation["field"], translation["locale"])
            continue
        typed = TYPED.match(name) if isinstance(name, str) else None
        if not isinstance(name, str) or (name not in FIXED and name not in ROW_KEYS and typed is None):
            problems.append(Problem(table.file, at, "sheet-header", f"row 1: unknown field {name!r}; a field is one of "
                                    f"{', '.join([*FIXED, *ROW_KEYS])}, or NAME:number (NAME:number:0-9 with its range) "
                                    "or NAME:choice with NAME in lowercase letters, digits and hyphens"))
            continue
        field_id, kind = (typed["id"], typed["kind"]) if typed else (name, FIXED.get(name, "key"))
        if field_id in seen:
            problems.append(Problem(table.file, at, "sheet-header", f"row 1: field {field_id!r} again (first in column "
                                    f"{letter(seen[field_id])})"))
            continue
        seen[field_id] = index
        if kind == "key":
            header.keys[field_id] = index
        else:
            header.fields[index] = (field_id, kind)
        if typed and typed["low"] is not None:
            low, high = int(typed["low"]), int(typed["high"])
            if low > high:
                problems.append(Problem(table.file, at, "sheet-header", f"row 1: range {low}-{high} of {field_id!r} "
                                        "is empty (write the smaller number first)"))
            header.ranges[field_id] = (low, high)
    kinds = {field_id: kind for field_id, kind in header.fields.values()} | ({"set": "set"} if "set" in header.keys else {})
    for index, (field_id, locale) in header.translated.items():
        if kinds.get(field_id) not in TRANSLATED_KINDS:
            problems.append(Problem(table.file, where(table, 1, index), "sheet-header",
                                    f"row 1: {field_id!r} is no translatable field of this sheet (a name, type, text, "
                                    "flavour or choice column)"))
    if "title" not in {kind for _, kind in header.fields.values()} and not problems:
        problems.append(Problem(table.file, f"{table.sheet}!A1", "sheet-header", "row 1: no 'name' column; every "
                                "card needs a name (the title printed on it)"))
    return header


@dataclass
class Art:
    """The folder of art, and the icons in its ``icons/`` folder (``TOKEN.svg``)."""

    folder: Path | None
    by_stem: dict[str, Path] = field(default_factory=dict)
    icons: dict[str, Path] = field(default_factory=dict)


def scan_art(folder: Path | None) -> Art:
    if folder is None:
        return Art(None)
    if not folder.is_dir():
        raise UsageError(f"--art {display_path(folder)!r} is not a folder")
    art = Art(folder)
    for path in sorted(folder.iterdir()):
        if path.is_file() and path.suffix.lower() in ART_SUFFIXES:
            art.by_stem.setdefault(slugify(path.stem), path)
    icons = folder / "icons"
    if icons.is_dir():
        art.icons = {path.stem: path for path in sorted(icons.glob("*.svg")) if is_slug(path.stem)}
    return art


def art_cell(art: Art, value: Any, table: Table, at: str, number: int) -> tuple[Path | None, Problem | None]:
    """The art file a cell names, inside the art folder; a problem for one missing or outside it."""
    if art.folder is None:
        return None, Problem(table.file, at, "sheet-art", f"row {number}: an art file is named but no --art folder given")
    if not isinstance(value, str):
        return None, Problem(table.file, at, "sheet-type", f"row {number}: expected a file name, found {value!r}")
    try:
        path = resolve_inside(art.folder, value.strip())
    except PathEscape as exc:
        return None, Problem(table.file, at, "sheet-art", f"row {number}: {exc} (the art folder)")
    if not path.is_file():
        return None, Problem(table.file, at, "sheet-art", f"row {number}: no file {value.strip()!r} in the art folder")
    if path.suffix.lower() not in ART_SUFFIXES:
        return None, Problem(table.file, at, "sheet-art", f"row {number}: {value.strip()!r} is not PNG, JPEG, WebP or SVG")
    return path, None


def parse_size(text: str) -> tuple[str | None, tuple[float, float]]:
    """``63x88`` or ``SET=70x120`` → (set or None, (width, height)) in millimetres."""
    found = re.fullmatch(r"(?:([a-z0-9]+(?:-[a-z0-9]+)*)=)?(\d+(?:\.\d+)?)x(\d+(?:\.\d+)?)", text.strip())
    if found is None:
        raise UsageError(f"--size {text!r}: give WIDTHxHEIGHT in millimetres (63x88), or SET=WIDTHxHEIGHT")
    width, height = float(found[2]), float(found[3])
    if not (10 < width <= 300 and 10 < height <= 300):
        raise UsageError(f"--size {text!r}: a card is more than 10 and at most 300 mm each way")
    return found[1], (width, height)


@dataclass
class Card:
    row: int
    set_id: str
    data: dict[str, Any]
    art: Path | None = None
    translations: dict[int, str] = field(default_factory=dict)
    """Column index → the translation the row gives there."""


def read_cards(table: Table, header: Header, art: Art, problems: list[Problem]) -> list[Card]:
    """Every non-empty row as a card (its fields as a set file holds them), each bad cell a problem."""
    cards: list[Card] = []
    ids: dict[str, int] = {}
    title_at = next(index for index, (_, kind) in header.fields.items() if kind == "title")
    for offset, values in enumerate(table.rows):
        number = offset + 2
        values = list(values) + [None] * (len(table.header) - len(values))
        if all(value is None for value in values):
            continue
        if len(values) > len(table.header) and any(v is not None for v in values[len(table.header):]):
            extra = next(i for i in range(len(table.header), len(values)) if values[i] is not None)
            problems.append(Problem(table.file, where(table, number, extra), "sheet-header",
                                    f"row {number}: a value in a column row 1 does not name"))
        name = values[title_at]
        if not isinstance(name, str) or not name.strip():
            problems.append(Problem(table.file, where(table, number, title_at), "sheet-name",
                                    f"row {number}: every card needs a name"))
            continue
        card_id = _card_id(table, header, values, number, name, problems)
        if card_id is None:
            continue
        if card_id in ids:
            problems.append(Problem(table.file, where(table, number, header.keys.get("id", title_at)), "sheet-duplicate",
                                    f"row {number}: id {card_id!r} again (first in row {ids[card_id]}); give one of "
                                    "the cards another name, or an id column"))
            continue
        ids[card_id] = number
        set_id = _set_id(table, header, values, number, problems)
        card = Card(number, set_id or "", {"id": card_id})
        for index, (field_id, kind) in header.fields.items():
            if values[index] is not None:
                _cell(table, card, values[index], index, number, field_id, kind, art, problems)
        for index in header.translated:
            value = values[index]
            if value is not None and not isinstance(value, str):
                problems.append(Problem(table.file, where(table, number, index), "sheet-type",
                                        f"row {number}, column {table.header[index]!r}: expected text, found {value!r}"))
            elif value is not None and value.strip():
                card.translations[index] = value.strip()
        if art.folder is not None and "image" not in {k for _, k in header.fields.values()}:
            card.art = art.by_stem.get(card_id)
        cards.append(card)
    return cards


def _card_id(table: Table, header: Header, values: list[Any], number: int, name: str,
             problems: list[Problem]) -> str | None:
    if "id" in header.keys and values[header.keys["id"]] is not None:
        given = values[header.keys["id"]]
        if not isinstance(given, str) or not is_slug(given.strip()):
            problems.append(Problem(table.file, where(table, number, header.keys["id"]), "sheet-id",
                                    f"row {number}: an id is lowercase letters, digits and hyphens, found {given!r}"))
            return None
        return given.strip()
    minted = slugify(name)
    if not minted:
        title_at = next(index for index, (_, kind) in header.fields.items() if kind == "title")
        problems.append(Problem(table.file, where(table, number, title_at), "sheet-id", f"row {number}: the name "
                                f"{name!r} has no letter or digit to mint an id from; add an id column"))
        return None
    return minted


def _set_id(table: Table, header: Header, values: list[Any], number: int, problems: list[Problem]) -> str | None:
    if "set" not in header.keys:
        return None
    value = values[header.keys["set"]]
    if value is None:
        return None
    if not isinstance(value, str) or not is_slug(value.strip()):
        problems.append(Problem(table.file, where(table, number, header.keys["set"]), "sheet-set",
                                f"row {number}: a set is named in lowercase letters, digits and hyphens, found {value!r}"))
        return None
    return value.strip()


def _cell(table: Table, card: Card, value: Any, column: int, number: int, field_id: str, kind: str, art: Art,
          problems: list[Problem]) -> None:
    def bad(code: str, message: str) -> None:  # the cell's name is made only for a problem: a sheet has 10⁶ cells
        problems.append(Problem(table.file, where(table, number, column), code, f"row {number}, column {field_id!r}: {message}"))

    if value is None:
        return
    if kind in ("number", "quantity"):
        number_value, error = convert(WHOLE, value)
        if error:
            return bad("sheet-type", error)
        if kind == "quantity":
            if not 1 <= number_value <= 99:
                return bad("sheet-type", f"a quantity is 1 to 99, found {number_value}")
            card.data["quantity"] = number_value
        else:
            card.data.setdefault("stats", {})[field_id] = number_value
        return
    if not isinstance(value, str):
        return bad("sheet-type", f"expected text, found {value!r}")
    text = value.strip()
    slot = {"title": "name", "text": "rules", "flavour": "flavour"}.get(kind)
    if slot is not None and len(text) > CARD_TEXT_LIMITS[slot]:
        return bad("sheet-too-long", f"{len(text):,} characters; a card's {field_id} holds at most "
                   f"{CARD_TEXT_LIMITS[slot]:,} (more cannot fit its box even at the smallest type size)")
    if kind in ("text", "flavour"):
        try:
            used = tokens(text)
        except MarkupError as exc:
            return bad("sheet-markup", str(exc))
        unknown = [token for token in used if token not in art.icons]
        if unknown:
            return bad("sheet-icon", f"no icon {{{unknown[0]}}}: an icon is an SVG file icons/{unknown[0]}.svg in the "
                       "art folder")
    if kind == "title":
        card.data["name"] = text
    elif kind == "type":
        card.data["types"] = [text]
    elif kind == "choice":
        card.data.setdefault("attributes", {})[field_id] = text
    elif kind == "text":
        card.data["rules"] = text
    elif kind == "flavour":
        card.data["flavour"] = text
    elif kind == "credit":
        card.data["artist"] = text
    elif kind == "icons":
        given = [part.strip() for part in re.split(r"[,\s]+", text) if part.strip()]
        unknown = [token for token in given if token not in art.icons]
        if unknown:
            return bad("sheet-icon", f"no icon {unknown[0]!r}: an icon is an SVG file icons/{unknown[0]}.svg in the "
                       "art folder")
        card.data["icons"] = given
    elif kind == "image":
        path, problem = art_cell(art, text, table, where(table, number, column), number)
        if problem is not None:
            problems.append(problem)
        card.art = path


def declare(header: Header, cards: list[Card], table: Table, problems: list[Problem]) -> dict[str, Any]:
    """The game.json parts the sheet declares: card fields, card types, stats (ranges), attributes (values)."""
    fields: list[dict[str, Any]] = []
    types: dict[str, str] = {}
    stats: list[dict[str, Any]] = []
    attributes: list[dict[str, Any]] = []
    corners = iter(CORNERS)
    for index, (field_id, kind) in header.fields.items():
        fields.append({"id": field_id, "kind": kind, **({"required": True} if kind in ("title", "type") else {})})
        if kind == "number":
            fields[-1]["corner"] = next(corners, None)
            if fields[-1]["corner"] is None:
                del fields[-1]["corner"]
        if kind == "type":
            for card in cards:
                name = card.data.get("types", [None])[0]
                if name is None:
                    problems.append(Problem(table.file, where(table, card.row, index), "sheet-type",
                                            f"row {card.row}, column 'type': every card needs a type"))
                    continue
                type_id = slugify(name)
                if not type_id:
                    problems.append(Problem(table.file, where(table, card.row, index), "sheet-type",
                                            f"row {card.row}, column 'type': {name!r} has no letter or digit"))
                    continue
                types.setdefault(type_id, name)
                card.data["types"] = [type_id]
        elif kind == "number":
            values = [c.data["stats"][field_id] for c in cards if field_id in c.data.get("stats", {})]
            low, high = header.ranges.get(field_id, (min(values, default=0), max(values, default=0)))
            for card in cards:
                value = card.data.get("stats", {}).get(field_id)
                if value is not None and not low <= value <= high:
                    problems.append(Problem(table.file, where(table, card.row, index), "sheet-type",
                                            f"row {card.row}, column {field_id!r}: {value} is outside {low}-{high}"))
            stats.append({"id": field_id, "name": field_id.replace("-", " ").capitalize(), "applies_to": [], "min": low,
                          "max": high})
        elif kind == "choice":
            values: dict[str, str] = {}
            for card in cards:
                value = card.data.get("attributes", {}).get(field_id)
                if value is None:
                    continue
                value_id = slugify(value)
                if not value_id:
                    problems.append(Problem(table.file, where(table, card.row, index), "sheet-type",
                                            f"row {card.row}, column {field_id!r}: {value!r} has no letter or digit"))
                    continue
                values.setdefault(value_id, value)
                card.data["attributes"][field_id] = value_id
            attributes.append({"id": field_id, "name": field_id.replace("-", " ").capitalize(), "applies_to": [],
                               "values": [{"id": v, "name": n} for v, n in values.items()]})
    if "type" not in {kind for _, kind in header.fields.values()}:
        types = {"card": "Card"}  # every card is of the game's one type (documented: docs/your-own-game.md)
        fields.insert(1, {"id": "type", "kind": "type", "required": True})
        for card in cards:
            card.data["types"] = ["card"]
    if "image" not in {kind for _, kind in header.fields.values()} and any(card.art for card in cards):
        fields.append({"id": "art", "kind": "image"})  # matched by file name: the field is declared all the same
    for declared in (*stats, *attributes):
        declared["applies_to"] = sorted(types)
    card_types = [{"id": type_id, "name": name} for type_id, name in types.items()]
    return {"card_fields": fields, "card_types": card_types, "stats": stats,
            "attributes": [a for a in attributes if a["values"]]}


CORNERS = ("top-left", "top-right", "bottom-left", "bottom-right")
"""The corners the sheet's first four numbers are printed in, in column order (game.json may move them)."""
CARD_ORDER = ("id", "quantity", "types", "name", "attributes", "stats", "icons", "rules", "flavour", "art", "artist",
              "sources")


def make_game(folder: Path, sheet: Path, art_folder: Path | None, sizes: list[str], names: list[str],
              locale: str, template: Path | None, stylesheet: Path | None) -> list[Path]:
    """Make the game folder ``folder`` from ``sheet`` and ``art_folder``; DataError (nothing written) on any bad
    cell or a folder that does not validate. Returns the files written."""
    if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
        raise UsageError(f"{display_path(folder)!r} exists and is not empty; 'new' makes a new folder (to update a "
                         "game from its sheet, use 'cardworks --cards FOLDER sheet import')")
    game_id = folder.resolve().name
    if not is_slug(game_id):
        raise UsageError(f"the folder's name {game_id!r} is the game's id: lowercase letters, digits and hyphens "
                         f"(e.g. {slugify(game_id) or 'my-game'!r})")
    name, game_names = None, {}
    for text in names:
        found = re.fullmatch(r"([a-z]{2,3}(?:-[A-Za-z0-9]{2,8})*)=(.+)", text.strip())
        if found and found[1] != locale:
            game_names[found[1]] = found[2].strip()
        else:
            name = found[2].strip() if found else text.strip()
    game_size, set_sizes = POKER, {}
    for text in sizes:
        set_id, size = parse_size(text)
        if set_id is None:
            game_size = size
        else:
            set_sizes[set_id] = size
    table = read_table(sheet)
    problems = list(table.problems)
    header = read_header(table, problems)
    if problems and not header.fields:
        raise DataError(f"{display_path(sheet)}: {len(problems)} problem(s); nothing written", problems)
    art = scan_art(art_folder)
    cards = read_cards(table, header, art, problems) if header.fields and not any(
        p.code == "sheet-header" for p in problems) else []
    declared = declare(header, cards, table, problems) if cards else {}
    if not cards and not problems:
        problems.append(Problem(table.file, f"{table.sheet}!A2", "sheet-empty", "the sheet has no card rows"))
    taken = {game_id: "the game", **{card.set_id or DEFAULT_SET: "a set" for card in cards},
             **dict.fromkeys(art.icons, "an icon")}
    title_at = next((index for index, (_, kind) in header.fields.items() if kind == "title"), 0)
    for card in cards:  # every record of a game has its own id: a card named as its set would clash with it
        if card.data["id"] in taken:
            problems.append(Problem(table.file, where(table, card.row, header.keys.get("id", title_at)), "sheet-duplicate",
                                    f"row {card.row}: id {card.data['id']!r} is {taken[card.data['id']]}'s id too; "
                                    "give the card another name, or an id column"))
    unknown_sizes = sorted(set(set_sizes) - {card.set_id or DEFAULT_SET for card in cards})
    if unknown_sizes and cards:
        raise UsageError(f"--size names set {unknown_sizes[0]!r}, which no row of the sheet is in")
    if problems:
        raise DataError(f"{display_path(sheet)}: {len(problems)} problem(s); nothing written", problems)
    parent = folder.resolve().parent
    parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{game_id}-new-", dir=parent))  # beside it: the rename is one step
    try:
        made = staging / game_id  # named as the game: commands find a game by its folder's name
        _write(made, game_id, name or game_id.replace("-", " ").title(), locale, sheet, cards, declared, art,
               game_size, set_sizes, template, stylesheet)
        _translate(made, header, cards, declared, table, problems, game_names)
        if problems:
            raise DataError(f"{display_path(sheet)}: {len(problems)} problem(s); nothing written", problems)
        write_game_schemas(made)
        _validated(made, folder)
        if folder.exists():
            folder.rmdir()  # empty (checked above): the rename below takes its place
        os.rename(made, folder)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return sorted(p for p in folder.rglob("*") if p.is_file())


def _dump(path: Path, data: Any) -> None:  # into the staging folder: the whole folder is renamed at the end
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def _write(root: Path, game_id: str, name: str, locale: str, sheet: Path, cards: list[Card], declared: dict[str, Any],
           art: Art, game_size: tuple[float, float], set_sizes: dict[str, tuple[float, float]],
           template: Path | None, stylesheet: Path | None) -> None:
    game: dict[str, Any] = {
        "$schema": f"{SCHEMA_FOLDER}/game.schema.json", "id": game_id, "name": name, "source_locale": locale,
        "locales": [locale], "players": {"min": 1, "max": 20},
        "documents": [{"id": "sheet", "title": sheet.name, "language": locale}],
        "card_types": declared["card_types"],
    }
    for key in ("attributes", "stats"):
        if declared[key]:
            game[key] = declared[key]
    game["card_size"] = {"width_mm": game_size[0], "height_mm": game_size[1]}
    game["card_fields"] = declared["card_fields"]
    _dump(root / "game.json", game)
    used_icons = sorted({token for card in cards for token in [*card.data.get("icons", []), *tokens(
        card.data.get("rules") or ""), *tokens(card.data.get("flavour") or "")]})
    if used_icons:
        for token in used_icons:
            (root / "icons").mkdir(exist_ok=True)
            shutil.copyfile(art.icons[token], root / "icons" / f"{token}.svg")
        _dump(root / "icons.json", {"$schema": f"{SCHEMA_FOLDER}/icons.schema.json",
                                    "icons": [{"id": token, "svg": f"icons/{token}.svg", "alt": token}
                                              for token in used_icons]})
    by_set: dict[str, list[Card]] = {}
    for card in cards:
        by_set.setdefault(card.set_id or DEFAULT_SET, []).append(card)
    for order, (set_id, members) in enumerate(by_set.items()):
        document: dict[str, Any] = {"$schema": f"../{SCHEMA_FOLDER}/set.schema.json", "id": set_id,
                                    "name": set_name(set_id), "order": order}
        if set_id in set_sizes:
            document["card_size"] = {"width_mm": set_sizes[set_id][0], "height_mm": set_sizes[set_id][1]}
        document["cards"] = [_card_json(root, card) for card in members]
        document["totals"] = sheet_totals(document["cards"])
        _dump(root / "sets" / f"{set_id}.json", document)
    if template is not None:
        (root / "templates" / "cards").mkdir(parents=True, exist_ok=True)
        shutil.copyfile(template, root / "templates" / "cards" / "face.html.j2")
    if stylesheet is not None:
        (root / "templates" / game_id).mkdir(parents=True, exist_ok=True)
        shutil.copyfile(stylesheet, root / "templates" / game_id / "cards.css")


def set_name(set_id: str) -> str:
    """A set's name, made from its id (``night-market`` → ``Night Market``); game.json's sets may rename it."""
    return set_id.replace("-", " ").title()


def _translate(root: Path, header: Header, cards: list[Card], declared: dict[str, Any], table: Table,
               problems: list[Problem], game_names: dict[str, str]) -> None:
    """The translation columns into ``i18n/<locale>.json`` (and the locales into game.json): a card's name,
    text and flavour, and the names of its type and choices (the same translation on every row that gives one)."""
    from ..i18n.files import merged_translations
    from ..loading.database import Database, load_game

    if not header.translated and not game_names:
        return
    game_path = root / "game.json"
    game = json.loads(game_path.read_text(encoding="utf-8"))
    locales = sorted(({locale for _, locale in header.translated.values()} | set(game_names)) - {game["source_locale"]})
    game["locales"] = [game["source_locale"], *locales]
    _dump(game_path, game)
    kinds = {field_id: kind for field_id, kind in header.fields.values()} | {"set": "set"}
    names = {("type", t["id"]): t["name"] for t in declared["card_types"]}
    names.update({("set", card.set_id or DEFAULT_SET): set_name(card.set_id or DEFAULT_SET) for card in cards})
    names.update({(a["id"], v["id"]): v["name"] for a in declared["attributes"] for v in a["values"]})
    db = Database(game=load_game(root))
    for locale in locales:
        items: dict[tuple[str, str], tuple[str, str, int]] = {}  # (record, field) → (text, source, row)
        if locale in game_names:
            items[(game["id"], "name")] = (game_names[locale], game["name"], 1)
        for card in cards:
            for index, text in card.translations.items():
                field_id, at_locale = header.translated[index]
                if at_locale != locale:
                    continue
                kind = kinds[field_id]
                if kind in ("title", "text", "flavour"):
                    slot = {"title": "name", "text": "rules", "flavour": "flavour"}[kind]
                    if card.data.get(slot) is None:
                        problems.append(Problem(table.file, where(table, card.row, index), "sheet-translation",
                                                f"row {card.row}: a translation of a {field_id} the card does not have"))
                        continue
                    items[(card.data["id"], slot)] = (text, card.data[slot], card.row)
                    continue
                if kind == "icons":
                    _icon_names(table, card, index, text, items, problems)
                    continue
                value = {"type": card.data["types"][0], "set": card.set_id or DEFAULT_SET}.get(kind) or \
                    card.data.get("attributes", {}).get(field_id)
                if value is None:
                    problems.append(Problem(table.file, where(table, card.row, index), "sheet-translation",
                                            f"row {card.row}: a translation of a {field_id} the card does not have"))
                    continue
                key = (value, "name") if kind == "set" else (game["id"], f"card_types/{value}/name" if kind == "type"
                                                             else f"attributes/{field_id}/values/{value}/name")
                source = names[(kind if kind in ("type", "set") else field_id, value)]
                if key in items and items[key][0] != text:
                    problems.append(Problem(table.file, where(table, card.row, index), "sheet-translation",
                                            f"row {card.row}: {source!r} is translated {items[key][0]!r} in row "
                                            f"{items[key][2]}; one name has one translation"))
                    continue
                items.setdefault(key, (text, source, card.row))
        path, data = merged_translations(db, locale, [(record, slot, text, source)
                                                      for (record, slot), (text, source, _) in items.items()])
        if data is not None:
            document = json.loads(data)
            document["$schema"] = f"../{SCHEMA_FOLDER}/translations.schema.json"
            _dump(path, document)


def _icon_names(table: Table, card: Card, index: int, text: str,
                items: dict[tuple[str, str], tuple[str, str, int]], problems: list[Problem]) -> None:
    """``icons@es``: the names of the row's icons (its icons column), in the same order, in that language."""
    names = [part.strip() for part in text.split(",") if part.strip()]
    icons = card.data.get("icons", [])
    if len(names) != len(icons):
        problems.append(Problem(table.file, where(table, card.row, index), "sheet-translation",
                                f"row {card.row}: {len(names)} icon name(s) for the {len(icons)} icon(s) of the row's "
                                "icons column (one each, in its order, comma-separated)"))
        return
    for token, name in zip(icons, names):
        known = items.get((token, "alt"))
        if known is not None and known[0] != name:
            problems.append(Problem(table.file, where(table, card.row, index), "sheet-translation",
                                    f"row {card.row}: icon {token!r} is named {known[0]!r} in row {known[2]}; one icon "
                                    "has one name"))
            return
        items.setdefault((token, "alt"), (name, token, card.row))


def _card_json(root: Path, card: Card) -> dict[str, Any]:
    data = dict(card.data)
    if card.art is not None:
        target = root / "art" / f"{card.data['id']}{card.art.suffix.lower()}"
        target.parent.mkdir(exist_ok=True)
        shutil.copyfile(card.art, target)
        data["art"] = target.relative_to(root).as_posix()
    data["sources"] = [sheet_source(data)]
    return {key: data[key] for key in CARD_ORDER if key in data}


def sheet_totals(cards: list[dict[str, Any]]) -> dict[str, Any]:
    """A set's totals as its sheet gives them (the designer's sheet is the whole truth about their own game): its
    designs, and its cards by type when every card states its quantity."""
    totals: dict[str, Any] = {"designs": len(cards)}
    if all(isinstance(card.get("quantity"), int) for card in cards):
        totals["cards"] = sum(card["quantity"] for card in cards)
        by_type: dict[str, int] = {}
        for card in cards:
            by_type[card["types"][0]] = by_type.get(card["types"][0], 0) + card["quantity"]
        totals["by_type"] = dict(sorted(by_type.items()))
    return totals


def sheet_source(card: dict[str, Any]) -> dict[str, Any]:
    """The source of a card made from the designer's sheet: it states every field the card gives (so nothing
    on its face is marked as not stated)."""
    return {"doc": "sheet", "facts": [key for key in CARD_ORDER if key in card and key not in ("id", "sources")]}


def _validated(staging: Path, folder: Path) -> None:
    from ..validate import validate

    report = validate(staging)
    if report.errors:
        shown = display_path(staging)
        problems = [Problem(p.file.replace(shown, str(folder)), p.location, p.code, p.message.replace(shown, str(folder)))
                    for p in report.errors]
        raise DataError(f"the game made from the sheet does not validate; nothing written", problems)


def write_game_schemas(folder: Path) -> list[Path]:
    """Write the JSON Schemas of the game folder ``folder`` into its ``schema/``: the generic ones, and its set
    schema generated from its declared card fields. Returns the files that changed."""
    from ..engine.schemas import schema_for
    from ..fileio import write_text_atomic
    from ..models.files import FILE_KINDS
    from ..validate.declared import SET_SCHEMA, declared_set_schema, icon_tokens, is_declared, schema_text

    if not is_game_folder(folder):
        raise UsageError(f"{display_path(folder)!r} holds no game.json; give the game folder with --cards")
    db = load_database(folder)
    if db.game_doc is None:
        raise DataError(f"{display_path(folder / 'game.json')} is unusable; run 'cardworks validate'",
                        [p for p in db.game.problems if p.severity == "error"])
    if not is_declared(db.game_doc):
        raise UsageError(f"{display_path(folder / 'game.json')} declares no card_fields; its schemas are cardworks' own")
    texts = {kind.schema_file: schema_text(schema_for(kind)) for kind in FILE_KINDS if kind.name not in ("set", "pack")}
    texts[SET_SCHEMA] = schema_text(declared_set_schema(db.game_doc, icon_tokens(db)))
    changed = []
    for name, text in texts.items():
        path = folder / SCHEMA_FOLDER / name
        if not path.is_file() or path.read_text(encoding="utf-8") != text:
            path.parent.mkdir(parents=True, exist_ok=True)
            write_text_atomic(path, text)
            changed.append(path)
    return changed
