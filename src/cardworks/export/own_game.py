"""``cardworks new``: a game without rules made from a spreadsheet and a folder of art, no Python.

Every cell is checked before anything is written (:mod:`.own_sheet`); the folder is made in a hidden sibling
(``.<id>.staging-<pid>-…``), validated whole, and renamed into place in one step, so a refused sheet leaves
nothing behind and a killed run no half-made game: only its staging folder, which the next run removes. Ids are
minted from names, and ``cardworks sheet import`` finds a row's card by its id, or without an id column by the
id its name mints (docs/your-own-game.md).
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
from ..fileio import fault_point, remove_stale_runs
from ..ids import is_slug, slugify
from ..loading.database import SCHEMA_FOLDER, display_path, is_game_folder, load_database
from ..markup import tokens
from ..models.card_size import DEFAULT_CARD_SIZE
from ..problems import Problem
from .own_sheet import (ART_SUFFIXES, DEFAULT_SET, DEFAULT_TYPE, Art, Card, Header, declare, parse_size, read_cards,
                        read_header, scan_art)
from .sheet_read import Table, read_table, where

CARD_ORDER = ("id", "quantity", "types", "name", "attributes", "stats", "icons", "rules", "flavour", "art", "artist",
              "sources")


def make_game(folder: Path, sheet: Path, art_folder: Path | None, sizes: list[str], names: list[str],
              locale: str, template: Path | None, stylesheet: Path | None) -> "Made":
    """Make the game folder ``folder`` from ``sheet`` and ``art_folder``; DataError (nothing written) on any bad
    cell or a folder that does not validate."""
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
    game_size, set_sizes = DEFAULT_CARD_SIZE.mm, {}  # no --size: the size of a game.json without card_size
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
    prefix = f".{game_id}.staging-"
    remove_stale_runs(parent, prefix)  # what a killed run of new left (its process has ended)
    staging = Path(tempfile.mkdtemp(prefix=f"{prefix}{os.getpid()}-", dir=parent))  # beside it: one rename
    try:
        made = staging / game_id  # named as the game: commands find a game by its folder's name
        _write(made, game_id, name or game_id.replace("-", " ").title(), locale, sheet, cards, declared, art,
               game_size, set_sizes, template, stylesheet)
        made_warnings = _translate(made, header, cards, declared, table, problems, game_names)
        if problems:
            raise DataError(f"{display_path(sheet)}: {len(problems)} problem(s); nothing written", problems)
        write_game_schemas(made)
        warnings = _validated(made, folder)
        fault_point("new-publish")
        try:
            if folder.exists():
                folder.rmdir()  # empty (checked above): the rename below takes its place
            os.rename(made, folder)
        except OSError as exc:  # another run made the folder meanwhile: its game stands, this one is dropped
            raise UsageError(f"{display_path(folder)!r} was made by another run while this one read the sheet; "
                             f"nothing written by this run ({exc.strerror})") from exc
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    used = {path.resolve() for path in [*(card.art for card in cards if card.art), *declared.get("backs", {}).values()]}
    return Made(sorted(p for p in folder.rglob("*") if p.is_file()),
                sorted(path.name for path in art.by_stem.values() if path.resolve() not in used),
                [*without_picture(table, header, art, cards), *made_warnings, *warnings])


@dataclass
class Made:
    """What ``cardworks new`` wrote, and the pictures of the art folder no card uses (said, never dropped quietly)."""

    files: list[Path]
    unused_art: list[str]
    warnings: list[Problem] = field(default_factory=list)
    """What validating the made game warns of (low-resolution art …), and each card left without a picture."""


def without_picture(table: Table, header: Header, art: Art, cards: list[Card]) -> list[Problem]:
    """A warning at each card of a game with pictures that got none (its face prints a placeholder pattern), naming
    the card and what was looked for: its empty ``art`` cell, or the file names its id would match."""
    column = next((index for index, (_, kind) in header.fields.items() if kind == "image"), None)
    if column is None and not any(card.art for card in cards):
        return []  # no pictures at all: the faces are laid out without art
    title_at = next(index for index, (_, kind) in header.fields.items() if kind == "title")
    found = []
    for card in cards:
        if card.art is not None:
            continue
        if column is not None:
            looked = f"its {table.header[column]!r} cell is empty"
        else:
            names = ", ".join(f"{card.data['id']}{suffix}" for suffix in ART_SUFFIXES)
            looked = f"no file {names} in the art folder {display_path(art.folder)!r}"
        found.append(Problem(table.file, where(table, card.row, title_at if column is None else column), "art-no-picture",
                             f"row {card.row}: card {card.data['name']!r} has no picture ({looked}); its face prints "
                             "a placeholder pattern where the picture goes", "warning"))
    return found


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
    if declared["backs"]:
        (root / "art").mkdir(parents=True, exist_ok=True)
        for type_id, path in declared["backs"].items():
            shutil.copyfile(path, root / "art" / f"back-{type_id}{path.suffix.lower()}")
        game["backs"] = {type_id: {"art": f"art/back-{type_id}{path.suffix.lower()}"}
                         for type_id, path in declared["backs"].items()}
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
               problems: list[Problem], game_names: dict[str, str]) -> list[Problem]:
    """The translation columns into ``i18n/<locale>.json`` (and the locales into game.json): a card's name,
    text and flavour, and the names of its type and choices (the same translation on every row that gives one).
    Returns warnings: what a build in a translated locale would still miss."""
    from ..i18n.files import merged_translations
    from ..loading.database import Database, load_game

    warnings: list[Problem] = []
    if not header.translated and not game_names:
        return warnings
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
        else:
            warnings.append(Problem(table.file, "", "sheet-translation",
                                    f"the sheet is translated into {locale} but the game's name is not: give it with "
                                    f"--name '{locale}=NAME' (a build in {locale} stops without it)"))
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
        for key, made in _made_names(locale, game["id"], header, cards, warnings, table).items():
            items.setdefault(key, made)  # a translation column of the sheet comes first
        path, data = merged_translations(db, locale, [(record, slot, text, source)
                                                      for (record, slot), (text, source, _) in items.items()])
        if data is not None:
            document = json.loads(data)
            document["$schema"] = f"../{SCHEMA_FOLDER}/translations.schema.json"
            _dump(path, document)
    return warnings


def _made_names(locale: str, game_id: str, header: Header, cards: list[Card], warnings: list[Problem],
                table: Table) -> dict[tuple[str, str], tuple[str, str, int]]:
    """The translations of the names ``new`` made itself (the set "Cards" of a sheet without a set column, the type
    "Card" of one without a type column), from the documents' own labels (``templates/docs/labels``): the words
    are cardworks', not the designer's. A locale without labels is a warning, never an English word passed off."""
    from ..validate.check_labels import labels_folder

    wanted = {}
    if any(not card.set_id for card in cards):
        wanted[(DEFAULT_SET, "name")] = ("cards", set_name(DEFAULT_SET))
    if "type" not in {kind for _, kind in header.fields.values()}:
        wanted[(game_id, f"card_types/{DEFAULT_TYPE}/name")] = ("card", DEFAULT_TYPE.title())
    if not wanted:
        return {}
    path = labels_folder() / f"{locale}.json"
    labels = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
    made: dict[tuple[str, str], tuple[str, str, int]] = {}
    for key, (label, source) in wanted.items():
        if label in labels:
            made[key] = (labels[label][:1].upper() + labels[label][1:], source, 1)
        else:
            warnings.append(Problem(table.file, "", "sheet-translation",
                                    f"cardworks has no {locale} word for the {source!r} it named; give a "
                                    f"{'set' if key[0] == DEFAULT_SET else 'type'}@{locale} column"))
    return made


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
        target.parent.mkdir(parents=True, exist_ok=True)
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


def _validated(staging: Path, folder: Path) -> list[Problem]:
    """Validate the staged game; DataError on any error, else its warnings as ``validate`` would give them for the
    folder (those of a card without a picture are said at its row instead, :func:`without_picture`)."""
    from ..validate import validate

    report = validate(staging)
    shown = display_path(staging)

    def moved(p: Problem) -> Problem:
        return Problem(p.file.replace(shown, str(folder)), p.location, p.code, p.message.replace(shown, str(folder)),
                       p.severity)

    if report.errors:
        raise DataError(f"the game made from the sheet does not validate; nothing written",
                        [moved(p) for p in report.errors])
    return [moved(p) for p in report.warnings if p.code != "art-no-picture"]


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
    texts[TEMPLATE_VARIABLES] = template_variables(db.game_doc)
    changed = []
    for name, text in texts.items():
        path = folder / SCHEMA_FOLDER / name
        if not path.is_file() or path.read_text(encoding="utf-8") != text:
            path.parent.mkdir(parents=True, exist_ok=True)
            write_text_atomic(path, text)
            changed.append(path)
    return changed


TEMPLATE_VARIABLES = "template-variables.md"
"""Beside the schemas: what a face template of this game is given, field by field, from its declaration."""
KIND_VALUES = {
    "title": "the card's name, in the language being built", "type": "its type's name", "text": "the text box's "
    "text (card-text markup: draw it with `markup_html(icons)`)", "flavour": "the flavour line",
    "number": "the number as printed (text), or none", "choice": "the chosen value's name, or none",
    "icons": "a list of icons, each with `url` and `alt`", "image": "the picture's path in the game folder (the "
    "face draws `face.art.url`)", "quantity": "copies in the deck", "credit": "who drew the picture",
}


def template_variables(game: Any) -> str:
    """The variables a face template of ``game`` is given, from its declared fields (docs/your-own-game.md)."""
    lines = [f"# Face template variables of {game.name}", "",
             "Generated from the card fields game.json declares (`cardworks --cards FOLDER schema --game-folder`).",
             "A face template (`templates/cards/face.html.j2`) is given `face`; each declared field is",
             "`face.values.ID`, and `face.fields` lists them in order with `id`, `kind`, `value`, `label`, `corner`.", "",
             "| variable | kind | what it holds |", "| --- | --- | --- |"]
    lines += [f"| `face.values.{field.id}` | {field.kind} | {KIND_VALUES[field.kind]}"
              f"{'; printed in the ' + field.corner + ' corner' if field.corner else ''} |" for field in game.card_fields]
    lines += ["", "Also: `face.id`, `face.set_id`, `face.type`, `face.name`, `face.rules`, `face.flavour`, `face.artist`,",
              "`face.art` (`url`, `position`), `face.marks` (the icons), `face.fit` and `face.name_size`.", ""]
    return "\n".join(lines)
