"""Generate the JSON Schemas in ``schema/`` from the models."""

from __future__ import annotations

import json
from pathlib import Path

from .files import FILE_KINDS, FileKind

DIALECT = "https://json-schema.org/draft/2020-12/schema"


def schema_for(kind: FileKind) -> dict:
    """The JSON Schema of one file kind, as a dict."""
    schema = kind.model.model_json_schema(by_alias=True, mode="validation")
    return {"$schema": DIALECT, "$id": kind.schema_file, **schema}


def render_schemas() -> dict[str, str]:
    """Every schema file's name and exact text."""
    return {kind.schema_file: json.dumps(schema_for(kind), indent=2, ensure_ascii=False) + "\n" for kind in FILE_KINDS}


def write_schemas(folder: Path) -> list[Path]:
    """Write every schema into ``folder``; return the files that changed."""
    from ..fileio import write_text_atomic

    folder.mkdir(parents=True, exist_ok=True)
    changed = []
    for name, text in render_schemas().items():
        path = folder / name
        if not path.exists() or path.read_text(encoding="utf-8") != text:
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
