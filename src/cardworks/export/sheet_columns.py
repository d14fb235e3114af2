"""The columns of a card sheet and how one cell's value becomes a JSON field's: shared by the export (which
records each cell's base as the import will read it back), the base hashes and the import."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Literal

Kind = Literal["text", "int", "bool", "ids", "names"]
SEPARATOR = {"ids": ", ", "names": "; "}
SHEET_NAME = "cards"


@dataclass(frozen=True)
class Column:
    name: str
    kind: Kind
    field: str
    key: str | None = None
    """The map key (``stats.attack``: ``attack``) or, for a translation, the translated field."""
    locale: str | None = None


WHOLE_NUMBER = re.compile(r"^-?\d+$")
MAX_DIGITS = 15
"""Longest whole number a cell may hold: card values are small, and a float holds 15 digits exactly."""


def shown(value: Any) -> str:
    """A cell's value for a message, cut short (a refused cell may hold 100,000 characters)."""
    text = repr(value)
    return text if len(text) <= 80 else f"{text[:60]}… ({len(str(value)):,} characters)"


def convert(column: Column, value: Any) -> tuple[Any, str | None]:
    """A cell's value as the JSON field wants it, or an error message."""
    if value is None:
        return ([] if column.kind in SEPARATOR else None), None
    if column.kind == "int":
        if isinstance(value, bool):
            return None, "expected a whole number, found TRUE/FALSE"
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        if isinstance(value, str) and WHOLE_NUMBER.match(value.strip()):
            digits = len(value.strip().lstrip("-"))
            if digits > MAX_DIGITS:  # int() of a 5,000-digit text raises, and no card value is that large
                return None, f"a whole number of {digits:,} digits; at most {MAX_DIGITS} are taken"
            value = int(value.strip())
        if isinstance(value, int):
            if abs(value) >= 10 ** MAX_DIGITS:
                return None, f"a whole number of {len(str(abs(value))):,} digits; at most {MAX_DIGITS} are taken"
            return value, None
        return None, f"expected a whole number, found {shown(value)}"
    if column.kind == "bool":
        if isinstance(value, bool):
            return value, None
        if isinstance(value, str) and value.strip().lower() in ("true", "false"):
            return value.strip().lower() == "true", None
        return None, f"expected true or false, found {shown(value)}"
    if not isinstance(value, str):
        return None, f"expected text, found {type(value).__name__} {shown(value)}"
    if column.kind in SEPARATOR:
        return [part.strip() for part in value.split(SEPARATOR[column.kind].strip()) if part.strip()], None
    return value, None
