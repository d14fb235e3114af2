"""``sheet import`` on a game without rules: rows that are new cards, and cards the sheet no longer has.

A designer's own game is edited in its sheet, so the sheet may add cards and drop them. A row whose id no card
has (or, without an ``id`` column, whose name mints an id no card has) is a new card: its id is the one given
or the one its name mints (:func:`cardworks.ids.slugify`), the way ``cardworks new`` minted the others, so the
same row imported again is the same card. A card no row names is reported and kept, and removed only when
the import is told so (``--remove-missing``). A type or a choice may be written by its id or by its name.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..ids import slugify
from ..problems import Problem
from .own_game import sheet_source, sheet_totals
from .sheet_columns import Column, convert
from .sheet_read import Table, where


def plain_header(name: str, known: dict[str, Column]) -> str:
    """A header as ``cardworks new`` reads it (``cost:number:0-9``) names the declared field ``cost``."""
    base = name.split(":", 1)[0].strip()
    return base if ":" in name and base in known else name


def row_id(values: list[Any], id_at: int | None, title_at: int | None) -> Any:
    """The id a row names, else the one its name mints (None when it has neither)."""
    if id_at is not None and values[id_at] is not None:
        return values[id_at]
    name = values[title_at] if title_at is not None else None
    return (slugify(name) or None) if isinstance(name, str) else None


def by_name(game: Any, column: Column, value: Any) -> Any:
    """A type's or a choice's value as its id, when the cell gives its name (``Creature`` for ``creature``)."""
    if column.field == "types" and isinstance(value, list):
        names = {t.name.casefold(): t.id for t in game.card_types}
        return [names.get(v.casefold(), v) for v in value]
    if column.field == "attributes" and isinstance(value, str):
        attribute = next((a for a in game.attributes if a.id == column.key), None)
        names = {v.name.casefold(): v.id for v in attribute.values} if attribute else {}
        return names.get(value.casefold(), value)
    return value


def declared_error(game: Any, column: Column, value: Any, icons: set[str]) -> str | None:
    """Why a converted cell's value does not fit the field game.json declares (a type, a choice, a number's
    range, an icon), or None: said at the cell, before the edited game is validated as a whole."""
    if value is None or value == [] or column.locale is not None:
        return None
    if column.field == "types":
        known = [t.id for t in game.card_types]
        wrong = [v for v in value if v not in known]
        if wrong or len(value) != 1:
            return (f"no type {wrong[0]!r}: the game's types are {', '.join(t.name for t in game.card_types)} (a new type "
                    "is added to card_types in game.json)") if wrong else "a card has one type"
    if column.field == "attributes":
        attribute = next((a for a in game.attributes if a.id == column.key), None)
        known = [v.id for v in attribute.values] if attribute else []
        if value not in known:
            names = ", ".join(v.name for v in attribute.values) if attribute else ""
            return f"{value!r} is not one of {names} (a new value is added to the attribute in game.json)"
    if column.field == "stats":
        stat = next((s for s in game.stats if s.id == column.key), None)
        if stat is not None and not stat.min <= value <= stat.max:
            return f"{value} is outside {stat.min}-{stat.max} (the range game.json gives {column.key})"
    if column.field == "quantity" and not 1 <= value <= 99:
        return f"a quantity is 1 to 99, found {value}"
    if column.field == "icons":
        wrong = [v for v in value if v not in icons]
        if wrong:
            return f"no icon {wrong[0]!r}: the game's icons are {', '.join(sorted(icons)) or 'none'} (icons.json)"
    return None


def new_card(table: Table, number: int, values: list[Any], header: list[str], known: dict[str, Column],
             card_id: Any, game: Any, icons: set[str], problems: list[Problem]) -> dict[str, Any] | None:
    """The card a new row makes (its fields in the order ``cardworks new`` writes), or None with its problems."""
    if not isinstance(card_id, str) or slugify(card_id) != card_id:
        at = header.index("id") if "id" in header else 0
        problems.append(Problem(table.file, where(table, number, at), "sheet-id",
                                f"row {number}: a new card needs a name (its id is minted from it) or an id of "
                                f"lowercase letters, digits and hyphens, found {card_id!r}"))
        return None
    card: dict[str, Any] = {"id": card_id}
    for index, name in enumerate(header):
        column = known.get(name)
        if column is None or column.locale is not None:
            continue
        value, error = convert(column, values[index])
        value = by_name(game, column, value) if not error else value
        error = error or declared_error(game, column, value, icons)
        if error:
            problems.append(Problem(table.file, where(table, number, index), "sheet-type",
                                    f"row {number}, column {name!r}: {error}"))
            continue
        if value is None or value == []:
            continue
        if column.key is not None:
            card.setdefault(column.field, {})[column.key] = value
        else:
            card[column.field] = value
    order = ("id", "quantity", "types", "name", "attributes", "stats", "icons", "rules", "flavour", "art", "artist")
    card = {key: card[key] for key in order if key in card}
    card["sources"] = [sheet_source(card)]
    return card


def new_translations(table: Table, number: int, values: list[Any], header: list[str], known: dict[str, Column],
                     card: dict[str, Any], problems: list[Problem]) -> list[tuple[int, str, str, str]]:
    """(column, locale, field, text) of each translation a new row gives; a translation of a field the card
    does not have is a problem at its cell."""
    found = []
    for index, name in enumerate(header):
        column = known.get(name)
        if column is None or column.locale is None or values[index] is None:
            continue
        if not isinstance(values[index], str):
            problems.append(Problem(table.file, where(table, number, index), "sheet-type",
                                    f"row {number}, column {name!r}: expected text, found {values[index]!r}"))
        elif not isinstance(card.get(column.key or ""), str):
            problems.append(Problem(table.file, where(table, number, index), "sheet-translation",
                                    f"row {number}, column {name!r}: the new card has no {column.key} to translate"))
        else:
            found.append((index, column.locale, column.key or "", values[index]))
    return found


def restated(card: dict[str, Any]) -> None:
    """A card made from the sheet keeps a source stating every field it now gives (a field the sheet filled in
    is not printed as unstated); a card with other sources keeps them as they are."""
    sources = card.get("sources", [])
    if len(sources) == 1 and sources[0].get("doc") == "sheet":
        sources[0] = sheet_source(card)


def without_translations(roots: list[Path], removed: list[str]) -> dict[Path, dict[str, Any]]:
    """The translation files (of every folder in ``roots``) that hold entries of the ``removed`` cards, each
    without them: a card removed from the sheet takes its translations with it."""
    changed = {}
    for root in roots:
        for path in sorted((root / "i18n").glob("*.json")):
            document = json.loads(path.read_text(encoding="utf-8"))
            entries = document.get("entries", {})
            if any(card_id in entries for card_id in removed):
                document["entries"] = {key: value for key, value in entries.items() if key not in removed}
                changed[path] = document
    return changed


def retotalled(document: dict[str, Any]) -> None:
    """A set of a game without rules counts its cards again after the sheet added or removed some."""
    document["totals"] = sheet_totals(document.get("cards", []))
