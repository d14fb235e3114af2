"""The expectation tables of ``docs/scenarios.md``, generated from the games' expectation models (so they cannot
drift: a test compares).

Each table sits between ``<!-- expectations:NAME -->`` and ``<!-- /expectations -->``, where NAME is ``generic``
(the keys every game has) or a game's id. Run ``python -m cardworks.engine.expectations_doc docs/scenarios.md`` to
rewrite them after changing a model: every registered game must have its block, or the command says which
is missing and exits 1 (it never writes a page that silently lacks a game).
"""

from __future__ import annotations

import re
import sys
import typing
from pathlib import Path
from typing import Annotated, Any, Literal, Union, get_args, get_origin

from pydantic import BaseModel

from ..validate.expectations import Expectation, Ref

_BLOCK = re.compile(r"(<!-- expectations:([A-Za-z0-9_-]+) -->\n)(.*?)(<!-- /expectations -->)", re.S)
"""A block, named ``generic`` or by any id a game may have (an importable name such as ``my_game``)."""
_KINDS = {"player": "player", "card": "card id", "terreta": "terreta id", "rule": "rule id", "step": "action"}


def type_text(annotation: Any) -> str:
    """A short reading of a field's type: ``{player: [card id]}``, ``integer ≥ 0``, `` `a` or `b` ``."""
    origin = get_origin(annotation)
    if origin is Annotated:
        base, *meta = get_args(annotation)
        refs = [m for m in meta if isinstance(m, Ref)]
        if refs:
            return _KINDS.get(refs[0].kind, refs[0].kind)
        return type_text(base) + "".join(_bounds(m) for m in meta)
    if origin is Union or type(annotation).__name__ == "UnionType":
        return " or ".join(type_text(a) for a in get_args(annotation))
    if origin is Literal:
        return " or ".join(f"`{value}`" for value in get_args(annotation))
    if origin is list:
        return f"[{type_text(get_args(annotation)[0])}]"
    if origin is dict:
        key, value = get_args(annotation)
        return f"{{{type_text(key)}: {type_text(value)}}}"
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        hints = typing.get_type_hints(annotation, include_extras=True)
        parts = [f"`{name}`: {type_text(hints[name])}" for name in annotation.model_fields]
        if "__pydantic_extra__" in hints:
            key, value = get_args(hints["__pydantic_extra__"])
            parts.append(f"{type_text(key)}: {type_text(value)}")
        return "{" + ", ".join(parts) + "}"
    return {str: "text", int: "integer", bool: "true or false", type(None): "`null`", Any: "any value"}.get(
        annotation, getattr(annotation, "__name__", str(annotation)))


def _bounds(meta: Any) -> str:
    found = []
    for item in getattr(meta, "metadata", [meta]):
        for attribute, sign in (("ge", "≥"), ("le", "≤"), ("pattern", "matching")):
            value = getattr(item, attribute, None)
            if value is not None:
                found.append(f" {sign} `{value}`" if attribute == "pattern" else f" {sign} {value}")
    return ",".join(found)


def table(model: type[Expectation], generic: bool = False) -> str:
    """The Markdown table of ``model``'s own keys (``generic``: the keys every game has)."""
    hints = typing.get_type_hints(model, include_extras=True)
    names = Expectation.model_fields if generic else model.own_keys()
    rows = ["| key | value | checks |", "| --- | --- | --- |"]
    for name in names:
        annotation = hints[name]
        optional = get_origin(annotation) is Union or type(annotation).__name__ == "UnionType"
        if optional and name not in model.nullable:  # leaving a key out checks nothing; null only where it says so
            annotation = Union[tuple(a for a in get_args(annotation) if a is not type(None))] \
                if len(get_args(annotation)) > 2 else next(a for a in get_args(annotation) if a is not type(None))
        about = " ".join((model.model_fields[name].description or "").split()).replace("``", "`").replace("|", "\\|")
        value = type_text(annotation).replace("|", "\\|")
        rows.append(f"| `{name}` | {value} | {about} |")
    return "\n".join(rows) + "\n"


def render(name: str) -> str:
    """The table of one block: ``generic`` or a game's id."""
    if name == "generic":
        return table(Expectation, generic=True)
    from .plugins import plugin_for

    return table(plugin_for(name).expectations)


def update(text: str) -> str:
    """``text`` with each expectation block rewritten from the models."""
    return _BLOCK.sub(lambda m: m[1] + render(m[2]) + m[4], text)


def blocks(text: str) -> list[str]:
    """The names of the expectation blocks in ``text``."""
    return [m[2] for m in _BLOCK.finditer(text)]


def missing_blocks(text: str, games: list[str]) -> list[str]:
    """The names among ``generic`` and ``games`` that have no block in ``text``."""
    present = set(blocks(text))
    return [name for name in ["generic", *games] if name not in present]


def main(argv: list[str]) -> int:
    """Rewrite the page ``argv[0]``; exit 1 naming each registered game (or ``generic``) the page has no block for."""
    from ..fileio import write_text_atomic
    from .plugins import registered

    page = Path(argv[0])
    text = page.read_text(encoding="utf-8")
    missing = missing_blocks(text, list(registered()))
    if missing:
        print(f"{page}: no expectation block for {', '.join(missing)}: add "
              + " ".join(f"'<!-- expectations:{name} -->' … '<!-- /expectations -->'" for name in missing),
              file=sys.stderr)
        return 1
    write_text_atomic(page, update(text))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
