"""A game without rules: its declared card fields (``game.json`` ``card_fields``) checked, and its cards checked
against the JSON Schema generated from them.

The schema is the generic set schema with each card narrowed to the declared fields: types from the game's
card types, numbers in their stats' ranges, choices among their attributes' values, icons among its icon
tokens, required fields required, every undeclared field refused. It is written into the game folder
(``schema/set.schema.json``, which its set files name in ``$schema``), so an editor completes and flags the
same fields ``validate`` does; a copy that differs from the declaration is an error naming the command that
writes it again.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..loading.database import SCHEMA_FOLDER, Database, display_path
from ..models.cards import CardSet
from ..models.fields import FIELD_SLOTS, MANY_KINDS, TRANSLATABLE_KINDS
from ..problems import ProblemList

DIALECT = "https://json-schema.org/draft/2020-12/schema"
SET_SCHEMA = "set.schema.json"
WRITE_COMMAND = "cardworks --cards {folder} schema --game-folder"
"""How a designer writes the folder's schemas again (said by the stale-schema error)."""

ALWAYS = ("id", "name", "types", "sources")
"""Fields every card design has, declared or not (a title and a type are needed to lay a face out)."""
KEPT = ("notes", "art_focus", "layout", "set_certainty", "optional", "alt_names")
"""Card fields that are no declared field's but stay allowed: they are about the design, not printed values."""


def is_declared(game: Any) -> bool:
    """True for a game whose cards are typed by its declared fields (a game without rules)."""
    return bool(getattr(game, "card_fields", None))


def declared_set_schema(game: Any, icon_tokens: list[str]) -> dict[str, Any]:
    """The JSON Schema of a set file of ``game``, its cards narrowed to the declared fields."""
    schema = CardSet.model_json_schema(by_alias=True, mode="validation")
    card = schema["$defs"]["CardDesign"]
    properties = card["properties"]
    slots = {FIELD_SLOTS[field.kind] for field in game.card_fields}
    for name in list(properties):
        if name not in ALWAYS and name not in KEPT and name not in slots:
            del properties[name]
    properties["types"] = {"type": "array", "items": {"enum": [t.id for t in game.card_types]},
                           "minItems": 1, "maxItems": 1, "description": "The card's type: one of the game's card types."}
    stats = {s.id: s for s in game.stats}
    attributes = {a.id: a for a in game.attributes}
    numbers: dict[str, Any] = {}
    choices: dict[str, Any] = {}
    required = list(ALWAYS)
    required_numbers, required_choices = [], []
    for field in game.card_fields:
        described = {"description": f"{field.id} ({field.kind}"
                     f"{', translatable' if field.kind in TRANSLATABLE_KINDS else ''})", "x-field": field.id}
        if field.kind == "number" and field.id in stats:
            numbers[field.id] = {"type": "integer", "minimum": stats[field.id].min, "maximum": stats[field.id].max,
                                 **described}
            (required_numbers.append(field.id) if field.required else None)
        elif field.kind == "choice" and field.id in attributes:
            choices[field.id] = {"enum": [v.id for v in attributes[field.id].values], **described}
            (required_choices.append(field.id) if field.required else None)
        elif field.kind == "icons":
            properties["icons"] = {"type": "array", "items": {"enum": icon_tokens}, "uniqueItems": True, **described}
        elif FIELD_SLOTS[field.kind] in properties and field.kind not in MANY_KINDS:
            properties[FIELD_SLOTS[field.kind]] = {**properties[FIELD_SLOTS[field.kind]], **described}
        if field.required and field.kind not in MANY_KINDS and FIELD_SLOTS[field.kind] not in required:
            required.append(FIELD_SLOTS[field.kind])
    if numbers:
        properties["stats"] = {"type": "object", "properties": numbers, "additionalProperties": False,
                               "required": required_numbers}
        if required_numbers:
            required.append("stats")
    if choices:
        properties["attributes"] = {"type": "object", "properties": choices, "additionalProperties": False,
                                    "required": required_choices}
        if required_choices:
            required.append("attributes")
    card["required"] = required
    card["additionalProperties"] = False
    return {"$schema": DIALECT, "$id": SET_SCHEMA, **schema}


def schema_text(schema: dict[str, Any]) -> str:
    return json.dumps(schema, indent=2, ensure_ascii=False) + "\n"


def icon_tokens(db: Database) -> list[str]:
    """The icon tokens the game and its packs declare, sorted."""
    return sorted({icon.id for _, doc in db.docs("icons") for icon in doc.icons})


def check_declaration(db: Database, out: ProblemList) -> None:
    """The declared fields themselves, then every set file's cards against the schema generated from them."""
    game = db.game_doc
    if not is_declared(game):
        return
    found = ProblemList()  # this check's own problems: the others' do not stop it
    _check_fields(db, game, found)
    out.extend(found.items)
    if found.errors:
        return
    schema = declared_set_schema(game, icon_tokens(db))
    _check_written(db.game.root, schema, out)
    _check_sets(db, schema, out)
    _check_pictures(db, game, out)


def _check_fields(db: Database, game: Any, out: ProblemList) -> None:
    game_file = display_path(db.game.root / "game.json")
    seen: dict[str, int] = {}
    kinds: dict[str, int] = {}
    stats = {s.id for s in game.stats}
    attributes = {a.id for a in game.attributes}
    for index, field in enumerate(game.card_fields):
        at = f"/card_fields/{index}"
        if field.id in seen:
            out.error(game_file, f"{at}/id", "field-repeated", f"field {field.id!r} is declared twice (first at "
                      f"/card_fields/{seen[field.id]})")
        seen.setdefault(field.id, index)
        if field.kind not in MANY_KINDS and field.kind in kinds:
            out.error(game_file, f"{at}/kind", "field-repeated", f"a card has one {field.kind} field; "
                      f"/card_fields/{kinds[field.kind]} already declares it")
        kinds.setdefault(field.kind, index)
        if field.kind == "number" and field.id not in stats:
            out.error(game_file, f"{at}/id", "field-unknown-stat", f"number field {field.id!r} needs a stat of that id "
                      "in \"stats\" (its name and range: min, max)")
        if field.kind == "choice" and field.id not in attributes:
            out.error(game_file, f"{at}/id", "field-unknown-attribute", f"choice field {field.id!r} needs an attribute "
                      "of that id in \"attributes\" (its name and values)")
        if field.corner is not None and field.kind != "number":
            out.error(game_file, f"{at}/corner", "field-corner", f"only a number is printed in a corner; {field.id!r} "
                      f"is a {field.kind}")
        if field.label is not None and field.kind not in MANY_KINDS:
            out.error(game_file, f"{at}/label", "field-label", f"only a number or a choice prints a label; "
                      f"{field.id!r} is a {field.kind}")
    if "title" not in kinds:
        out.error(game_file, "/card_fields", "field-missing", "a game's cards need a title field (kind \"title\")")
    corners = [f.corner for f in game.card_fields if f.corner]
    for corner in sorted({c for c in corners if corners.count(c) > 1}):
        out.error(game_file, "/card_fields", "field-corner", f"two numbers are declared in the {corner} corner")
    if db.game.root.name != game.id:
        out.error(game_file, "/id", "game-folder-name", f"the game's id is {game.id!r} but its folder is named "
                  f"{db.game.root.name!r}; name them alike (commands find a game by its folder's name)")


def _check_written(root: Path, schema: dict[str, Any], out: ProblemList) -> None:
    written = root / SCHEMA_FOLDER / SET_SCHEMA
    shown = display_path(written)
    if not written.is_file():
        out.error(shown, "", "schema-missing", "the game's set schema is missing (editors complete its fields from "
                  f"it); write it with '{WRITE_COMMAND.format(folder=display_path(root))}'")
    elif written.read_text(encoding="utf-8") != schema_text(schema):
        out.error(shown, "", "schema-stale", "differs from the card fields game.json declares; write it again with "
                  f"'{WRITE_COMMAND.format(folder=display_path(root))}'")


def _check_sets(db: Database, schema: dict[str, Any], out: ProblemList) -> None:
    from jsonschema import Draft202012Validator

    validator = Draft202012Validator(schema)
    for loaded, _ in db.docs("set"):
        for error in sorted(validator.iter_errors(loaded.data), key=lambda e: list(e.absolute_path)):
            pointer = "".join(f"/{part}" for part in error.absolute_path)
            out.error(loaded.display, pointer, "card-field", _message(error))


def _check_pictures(db: Database, game: Any, out: ProblemList) -> None:
    """A card of a game that declares an image field but gives it no picture: its face is printed with a
    placeholder pattern where the picture goes, which is said here (and so at ``new`` and ``build``), never
    left for the printed sheet to show."""
    image = next((field for field in game.card_fields if field.kind == "image"), None)
    if image is None:
        return
    for loaded, _ in db.docs("set"):
        cards = loaded.data.get("cards") if isinstance(loaded.data, dict) else None
        for index, card in enumerate(cards if isinstance(cards, list) else []):
            if isinstance(card, dict) and not card.get("art"):
                out.warning(loaded.display, f"/cards/{index}", "art-no-picture",
                            f"card {card.get('id')!r} has no picture (game.json declares image field {image.id!r}): "
                            "its face prints a placeholder pattern where the picture goes; give it an \"art\" file")


def _message(error: Any) -> str:
    if error.validator == "additionalProperties":
        return f"{error.message}; the game declares no such field (game.json card_fields)"
    if error.validator == "required":
        return f"{error.message} (a field game.json declares required)"
    return error.message
