"""Generate the JSON Schemas in ``schema/`` from the models."""

from __future__ import annotations

import json
from pathlib import Path

from ..models.files import FILE_KINDS, KINDS_BY_NAME, FileKind

DIALECT = "https://json-schema.org/draft/2020-12/schema"


def schema_for(kind: FileKind) -> dict:
    """The JSON Schema of one file kind, as a dict."""
    schema = kind.model.model_json_schema(by_alias=True, mode="validation")
    return {"$schema": DIALECT, "$id": kind.schema_file, **schema}


def game_schemas() -> dict[str, dict]:
    """Each game's own schemas, ``<game>/<kind>.schema.json``: the file kinds whose documents carry the
    game's vocabulary (effects, bonuses, scoring), typed by the models its plugin gives, and its scenario files
    with their expectations typed. A game that keeps its data in its own folder (``Plugin.data``: another
    distribution's) is left out: its schemas belong with its data, not in cardworks' ``schema/``."""
    from .plugins import registered

    found = {}
    for game, plugin in registered().items():
        if plugin.data is not None:
            continue
        for kind_name, model in sorted(plugin.models.items()):
            kind = KINDS_BY_NAME[kind_name]
            name = f"{game}/{kind.schema_file}"
            found[name] = {"$schema": DIALECT, "$id": name, **model.model_json_schema(by_alias=True, mode="validation")}
        expectations = plugin.expectations
        if expectations is not None:  # the scenario files, their ``expect`` typed by the game's vocabulary
            from ..validate.expectations import scenario_file_model

            name = f"{game}/{KINDS_BY_NAME['scenarios'].schema_file}"
            schema = scenario_file_model(expectations).model_json_schema(by_alias=True, mode="validation")
            found[name] = {"$schema": DIALECT, "$id": name, **schema}
    return found


def owner_facts_schema() -> str:
    """The JSON Schema of an owner's facts overlay (``cardworks facts import`` writes it beside the overlay)."""
    from ..models.owner_facts import OwnerFacts

    schema = {"$schema": DIALECT, "$id": OWNER_FACTS_SCHEMA, **OwnerFacts.model_json_schema(by_alias=True, mode="validation")}
    return json.dumps(schema, indent=2, ensure_ascii=False) + "\n"


OWNER_FACTS_SCHEMA = "owner-facts.schema.json"
"""Name of the overlay's schema file (outside the database's file kinds: no game folder holds an overlay)."""


def render_schemas() -> dict[str, str]:
    """Every schema file's name (a path under ``schema/``) and exact text: the generic ones, the owner's facts
    overlay, then each game's."""
    schemas = {kind.schema_file: schema_for(kind) for kind in FILE_KINDS} | game_schemas()
    schemas[OWNER_FACTS_SCHEMA] = json.loads(owner_facts_schema())
    return {name: json.dumps(schema, indent=2, ensure_ascii=False) + "\n" for name, schema in schemas.items()}


def write_schemas(folder: Path) -> list[Path]:
    """Write every schema into ``folder``; return the files that changed."""
    from ..fileio import remove_stale_temps, write_text_atomic

    folder.mkdir(parents=True, exist_ok=True)
    changed = []
    for name, text in render_schemas().items():
        path = folder / name
        remove_stale_temps(path)  # left by a run killed between writing this file and renaming it
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.parent.mkdir(parents=True, exist_ok=True)
            write_text_atomic(path, text)
            changed.append(path)
    return changed


def stale_schemas(folder: Path) -> list[str]:
    """Names of schema files in ``folder`` that are missing or differ from the models."""
    stale = []
    for name, text in render_schemas().items():
        path = folder / name
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            stale.append(name)
    return stale
