"""Read one JSON data file defensively: size, encoding, syntax, duplicates, depth.

Every problem carries a location: ``line:column`` before the JSON is read, a
JSON pointer after. Nothing here raises for bad input.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from ..fileio import UnsafeFile, read_limited
from ..problems import Problem

MAX_FILE_BYTES = 16 * 1024 * 1024
"""Largest data file accepted; a set of 10,000 designs is well under this."""
MAX_DEPTH = 32
"""Deepest nesting of arrays and objects accepted; real data needs under 10."""

_NON_FINITE = re.compile(r"-?\b(?:NaN|Infinity)\b")
_LONG_NUMBER = re.compile(r"\d{4301,}")
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
_SURROGATE = re.compile("[\ud800-\udfff]")


class _NonFinite(ValueError):
    pass


class _DuplicateKeys(dict):
    """An object in which a key appeared more than once; the walker reports it."""

    duplicates: list[str]


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result = dict(pairs)
    if len(result) != len(pairs):
        marked = _DuplicateKeys(result)
        seen: set[str] = set()
        marked.duplicates = [k for k, _ in pairs if k in seen or seen.add(k)]  # type: ignore[func-returns-value]
        return marked
    return result


def _reject_constant(name: str) -> Any:
    raise _NonFinite(name)


def pointer_escape(token: str | int) -> str:
    """Escape one JSON pointer token (RFC 6901)."""
    return str(token).replace("~", "~0").replace("/", "~1")


def _line_col(text: str, index: int) -> str:
    line = text.count("\n", 0, index) + 1
    column = index - (text.rfind("\n", 0, index) + 1) + 1
    return f"{line}:{column}"


def _check_tree(root: Any, display: str, problems: list[Problem]) -> bool:
    """Report duplicate keys and excessive depth; False when too deep to use."""
    if not _needs_report(root):
        return True
    stack: list[tuple[Any, str, int]] = [(root, "", 0)]
    ok = True
    while stack:
        node, pointer, depth = stack.pop()
        if depth > MAX_DEPTH:
            problems.append(Problem(display, pointer, "json-too-deep", f"nesting deeper than {MAX_DEPTH} levels"))
            ok = False
            continue
        if isinstance(node, dict):
            if isinstance(node, _DuplicateKeys):
                for key in node.duplicates:
                    problems.append(
                        Problem(display, f"{pointer}/{pointer_escape(key)}", "json-duplicate-key",
                                f"key {key!r} appears more than once in this object; only one may stay")
                    )
            stack.extend((v, f"{pointer}/{pointer_escape(k)}", depth + 1) for k, v in node.items() if isinstance(v, (dict, list)))
        else:
            stack.extend((v, f"{pointer}/{i}", depth + 1) for i, v in enumerate(node) if isinstance(v, (dict, list)))
    return ok


def _needs_report(root: Any) -> bool:
    """True when the tree has a duplicate key or is too deep: the walk that names where is done only then
    (building a pointer for every node of a 10 MB file cost a second)."""
    level, depth = [root], 0
    while level:
        if depth > MAX_DEPTH:
            return True
        below = []
        for node in level:
            if type(node) is _DuplicateKeys:
                return True
            children = node.values() if isinstance(node, dict) else node
            below += [v for v in children if isinstance(v, (dict, list))]
        level, depth = below, depth + 1
    return False


def read_json(path: Path, display: str) -> tuple[Any, list[Problem]]:
    """Parse ``path``; return ``(data, problems)``, data None when unusable."""
    problems: list[Problem] = []
    try:
        raw = read_limited(path, MAX_FILE_BYTES)
    except UnsafeFile as exc:
        return None, [Problem(display, "", exc.code, str(exc))]
    if raw.startswith(b"\xef\xbb\xbf"):
        problems.append(Problem(display, "1:1", "json-bom",
                                "file starts with a UTF-8 byte-order mark; save it as UTF-8 without BOM"))
        raw = raw[3:]
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = raw[: exc.start].decode("utf-8", errors="replace")
        problems.append(Problem(display, _line_col(before + "?", len(before)), "json-encoding",
                                f"invalid UTF-8 byte 0x{raw[exc.start]:02x}; save the file as UTF-8"))
        return None, problems
    if not text.strip():
        problems.append(Problem(display, "1:1", "json-syntax", "file is empty; expected a JSON object"))
        return None, problems
    try:
        data = json.loads(text, object_pairs_hook=_pairs, parse_constant=_reject_constant)
    except json.JSONDecodeError as exc:
        problems.append(Problem(display, f"{exc.lineno}:{exc.colno}", "json-syntax", exc.msg))
        return None, problems
    except _NonFinite as exc:
        match = _NON_FINITE.search(text)
        where = _line_col(text, match.start()) if match else ""
        problems.append(Problem(display, where, "json-non-finite",
                                f"{exc} is not valid JSON; write a number or null"))
        return None, problems
    except RecursionError:
        problems.append(Problem(display, "", "json-too-deep", f"nesting deeper than {MAX_DEPTH} levels"))
        return None, problems
    except ValueError as exc:  # an integer of more than 4,300 digits
        match = _LONG_NUMBER.search(text)
        where = _line_col(text, match.start()) if match else ""
        problems.append(Problem(display, where, "json-number-too-long",
                                f"a number has more than 4,300 digits and cannot be read ({str(exc).split(':')[0]})"))
        return None, problems
    if data is None:
        problems.append(Problem(display, "1:1", "wrong-type", "the file holds JSON null; expected a JSON object"))
        return None, problems
    if isinstance(data, (dict, list)) and not _check_tree(data, display, problems):
        return None, problems
    if _SURROGATE_ESCAPE.search(text):  # rare: only then look for a "\ud800" that pairs with nothing
        lone = _lone_surrogates(data)
        if lone:
            problems += [Problem(display, pointer, "json-surrogate", "a \\u escape encodes half of a character "
                                 "(a lone surrogate); write the character itself") for pointer in lone]
            return None, problems
    return data, problems


def _lone_surrogates(root: Any) -> list[str]:
    """JSON pointers of strings (keys included) that hold a lone surrogate and so cannot be encoded."""
    found = []
    stack: list[tuple[Any, str]] = [(root, "")]
    while stack:
        node, pointer = stack.pop()
        items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
        for key, value in items:
            here = f"{pointer}/{pointer_escape(key)}"
            for text in (key, value):
                if isinstance(text, str) and _SURROGATE.search(text):
                    found.append(here)
                    break
            if isinstance(value, (dict, list)):
                stack.append((value, here))
    return sorted(set(found))
