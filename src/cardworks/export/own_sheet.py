"""The designer's sheet read for ``cardworks new``: the fields its first row declares and the card each other
row is, every bad cell a problem at its ``sheet!cell``.

The first row names the fields (:data:`FIXED` names, or ``NAME:number``, ``NAME:number:0-9`` and
``NAME:choice`` for a number or a choice of the designer's own, and ``FIELD@LOCALE`` for a translation). Ids are
minted from names (:func:`cardworks.ids.slugify`): ``Fire Drake`` is ``fire-drake``; an ``id`` column gives them
instead. Two rows minting the same id are refused, never numbered, so that a card keeps its id when the sheet
is imported again.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import UsageError
from ..ids import is_slug, slugify
from ..loading.database import display_path
from ..loading.paths import PathEscape, resolve_inside
from ..markup import MarkupError, tokens
from ..models.cards import CARD_TEXT_LIMITS
from ..problems import Problem
from .sheet_columns import Column, convert
from .sheet_read import Table, letter, where

FIXED: dict[str, str] = {
    "name": "title", "type": "type", "text": "text", "flavour": "flavour", "icons": "icons", "art": "image",
    "quantity": "quantity", "artist": "credit", "back": "back",
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
DEFAULT_TYPE = "card"
"""The one type of a sheet without a type column (named "Card"; translated from the documents' labels)."""


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
    back: tuple[Path | None, int] | None = None
    """The back image its ``back`` cell names, and that cell's column (a back is its card type's: game.json ``backs``)."""
    translations: dict[int, str] = field(default_factory=dict)
    """Column index → the translation the row gives there."""


def read_cards(table: Table, header: Header, art: Art, problems: list[Problem]) -> list[Card]:
    """Every non-empty row as a card (its fields as a set file holds them), each bad cell a problem."""
    cards: list[Card] = []
    ids: dict[str, int] = {}
    title_at = next(index for index, (_, kind) in header.fields.items() if kind == "title")
    quantity_column = any(kind == "quantity" for _, kind in header.fields.values())
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
        if not quantity_column:
            card.data["quantity"] = 1  # the sheet's own rule (docs/your-own-game.md): no column, one copy each
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
    elif kind in ("image", "back"):
        path, problem = art_cell(art, text, table, where(table, number, column), number)
        if problem is not None:
            problems.append(problem)
        if kind == "image":
            card.art = path
        else:
            card.back = (path, column)


def declare(header: Header, cards: list[Card], table: Table, problems: list[Problem]) -> dict[str, Any]:
    """The game.json parts the sheet declares: card fields, card types, stats (ranges), attributes (values)."""
    fields: list[dict[str, Any]] = []
    types: dict[str, str] = {}
    stats: list[dict[str, Any]] = []
    attributes: list[dict[str, Any]] = []
    corners = iter(CORNERS)
    for index, (field_id, kind) in header.fields.items():
        if kind == "back":
            continue  # no field of a card: the back of its type (declare_backs)
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
                type_id = _slug_of(name, "'type'", table, card, index, problems)
                if not type_id:
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
                value_id = _slug_of(value, repr(field_id), table, card, index, problems)
                if not value_id:
                    continue
                values.setdefault(value_id, value)
                card.data["attributes"][field_id] = value_id
            attributes.append({"id": field_id, "name": field_id.replace("-", " ").capitalize(), "applies_to": [],
                               "values": [{"id": v, "name": n} for v, n in values.items()]})
    if "type" not in {kind for _, kind in header.fields.values()}:
        types = {DEFAULT_TYPE: DEFAULT_TYPE.title()}  # every card is of the game's one type (documented: docs/your-own-game.md)
        fields.insert(1, {"id": "type", "kind": "type", "required": True})
        for card in cards:
            card.data["types"] = [DEFAULT_TYPE]
    if "quantity" not in {kind for _, kind in header.fields.values()}:
        fields.append({"id": "quantity", "kind": "quantity"})  # one copy each (read_cards): the count is the sheet's
    if "image" not in {kind for _, kind in header.fields.values()} and any(card.art for card in cards):
        fields.append({"id": "art", "kind": "image"})  # matched by file name: the field is declared all the same
    for declared in (*stats, *attributes):
        declared["applies_to"] = sorted(types)
    card_types = [{"id": type_id, "name": name} for type_id, name in types.items()]
    backs = declare_backs(cards, table, problems)
    return {"backs": backs, "card_fields": fields, "card_types": card_types, "stats": stats,
            "attributes": [a for a in attributes if a["values"]]}


CORNERS = ("top-left", "top-right", "bottom-left", "bottom-right")
"""The corners the sheet's first four numbers are printed in, in column order (game.json may move them)."""


def declare_backs(cards: list[Card], table: Table, problems: list[Problem]) -> dict[str, Path]:
    """Card type → the back image its cards' ``back`` cells name: one back per type (a card's back tells its type
    face down), so two different images for one type are a problem at the second cell."""
    backs: dict[str, tuple[Path, int]] = {}
    for card in cards:
        if card.back is None or card.back[0] is None:
            continue
        type_id = card.data.get("types", [None])[0]
        if type_id is None:
            continue  # a card without a type is a problem of its own
        path, column = card.back
        first = backs.setdefault(type_id, (path, card.row))
        if first[0] != path:
            problems.append(Problem(table.file, where(table, card.row, column), "sheet-back",
                                    f"row {card.row}: a {type_id} card's back is {first[0].name} in row {first[1]}; "
                                    "every card of a type has one back"))
    return {type_id: path for type_id, (path, _) in backs.items()}


def _slug_of(text: str, column: str, table: Any, card: Any, index: int, problems: list[Problem]) -> str:
    """The id a cell's ``text`` names (``slugify``); empty, with a problem at the cell, when it has no letter or digit."""
    made = slugify(text)
    if not made:
        problems.append(Problem(table.file, where(table, card.row, index), "sheet-type",
                                f"row {card.row}, column {column}: {text!r} has no letter or digit"))
    return made
