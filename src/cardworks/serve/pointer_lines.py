"""The line on which each value of a JSON text starts, by JSON pointer.

Problems found after parsing carry a JSON pointer; a designer wants the line.
One pass of a regular expression over the text's tokens (strings, scalars,
brackets, commas, colons, newlines): a 200 kB set file is mapped in about
10 ms, where a character-by-character source-map parser took half a second
and sat on the path from a save to the page. Only text that ``json`` already
read is mapped, so the tokens are known to be well formed.
"""

from __future__ import annotations

import json
import re

from ..loading.jsonfile import pointer_escape

_TOKEN = re.compile(r'"(?:[^"\\\n]|\\.)*"|-?\d[\d.eE+-]*|true|false|null|[{}\[\],:\n]')


def pointer_lines(text: str) -> dict[str, int]:
    """JSON pointer → 1-based line where that value starts, for every value in ``text`` (valid JSON)."""
    lines: dict[str, int] = {}
    line = 1
    # One frame per open container: [its pointer, is an object, next key (objects) or next index (arrays)].
    stack: list[list] = []
    key_expected = False

    def value_pointer() -> str:
        if not stack:
            return ""
        path, _, slot = stack[-1]
        return f"{path}/{pointer_escape(slot)}"

    for match in _TOKEN.finditer(text):
        token = match.group()
        if token == "\n":
            line += 1
        elif token == ":":
            key_expected = False
        elif token == ",":
            if stack and stack[-1][1]:
                key_expected = True
            elif stack:
                stack[-1][2] += 1
        elif token in "}]":
            stack.pop()
            key_expected = False
        elif key_expected:
            stack[-1][2] = json.loads(token)
        else:
            pointer = value_pointer()
            lines.setdefault(pointer, line)
            if token == "{":
                stack.append([pointer, True, ""])
                key_expected = True
            elif token == "[":
                stack.append([pointer, False, 0])
    return lines
