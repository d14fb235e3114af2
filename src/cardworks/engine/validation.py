"""Checks every game plugin can reuse in its ``validate``: its own document models over the generic ones."""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from ..loading.schema_errors import schema_problems


def check_own_models(db: Any, models: dict[str, type], out: Any) -> dict[int, Any]:
    """Validate each document of the kinds in ``models`` with the game's model (the strict vocabulary the
    generic models leave open); report each problem with its JSON pointer. Returns id(file) → the parsed
    document, for the documents that passed."""
    parsed = {}
    for kind, model in models.items():
        for loaded, _ in db.docs(kind):
            try:
                parsed[id(loaded)] = model.model_validate(loaded.data)
            except ValidationError as exc:
                out.extend(schema_problems(exc, loaded.data, loaded.display))
    return parsed
