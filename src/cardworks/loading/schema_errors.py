"""Turn pydantic validation errors into problems located by JSON pointer."""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from ..problems import Problem
from .jsonfile import pointer_escape

_CODES = {
    "missing": "missing-field",
    "extra_forbidden": "unknown-field",
    "literal_error": "bad-value",
    "enum": "bad-value",
    "string_pattern_mismatch": "bad-value",
    "string_too_short": "bad-value",
    "string_too_long": "text-too-long",
    "too_short": "bad-value",
    "too_long": "bad-value",
    "greater_than": "out-of-range",
    "greater_than_equal": "out-of-range",
    "less_than": "out-of-range",
    "less_than_equal": "out-of-range",
}


def _code(error_type: str) -> str:
    if error_type in _CODES:
        return _CODES[error_type]
    if error_type.endswith("_type") or error_type in {"model_attributes_type", "dict_type", "list_type"}:
        return "wrong-type"
    return "schema"


def _is_union_label(step: str) -> bool:
    """pydantic names union branches like ``int``, ``list[str]`` or ``function-after[...]``."""
    return "[" in step or step in {"int", "str", "bool", "float", "none", "list", "dict"}


def _pointer(data: Any, loc: tuple[Any, ...]) -> str:
    """Follow ``loc`` through the real data, skipping union-branch labels."""
    parts: list[str] = []
    node = data
    for step in loc:
        if isinstance(node, dict) and isinstance(step, str):
            if step in node:
                node = node[step]
                parts.append(pointer_escape(step))
            elif not _is_union_label(step):
                parts.append(pointer_escape(step))  # a missing key: point where it belongs
                node = None
        elif isinstance(node, list) and isinstance(step, int) and 0 <= step < len(node):
            node = node[step]
            parts.append(str(step))
    return "".join(f"/{p}" for p in parts)


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def schema_problems(error: ValidationError, data: Any, display: str) -> list[Problem]:
    """One problem per distinct location, with what was expected and what was found."""
    problems: dict[tuple[str, str], Problem] = {}
    for item in error.errors(include_url=False):
        pointer = _pointer(data, tuple(item["loc"]))
        code = _code(item["type"])
        if code == "missing-field":
            message = f"required field {item['loc'][-1]!r} is missing"
        elif code == "unknown-field":
            message = f"unknown field {item['loc'][-1]!r}; check its spelling against the schema"
        elif code == "text-too-long":
            found = item.get("input")
            length = f"{len(found):,} characters" if isinstance(found, str) else "too long"
            message = (f"text has {length}; at most {item.get('ctx', {}).get('max_length', '?'):,} fit here "
                       f"(the card's box, or the translation limit): {_shown(found)}")
        else:
            message = f"{item['msg']}, found {_shown(item.get('input'))}"
        key = (pointer, code)
        if key in problems:  # several union branches failed at one place: keep one message
            continue
        problems[key] = Problem(display, pointer, code, message)
    return list(problems.values())
