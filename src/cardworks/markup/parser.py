"""Card-text markup: plain text with icon tokens in braces.

``Steal one {treasure}`` shows the treasure icon; ``{{`` and ``}}`` stand for
literal braces. Token names are lowercase slugs, registered by the game's icon
registry; the parser knows no game and checks only the syntax.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from ..errors import CardworksError

TOKEN_NAME = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
_BRACES = re.compile(r"\{\{|\}\}|[{}]")


class MarkupError(CardworksError, ValueError):
    """Text that is not valid markup; ``offset`` is the character where it goes wrong."""

    def __init__(self, message: str, offset: int) -> None:
        super().__init__(f"{message} (at character {offset + 1})")
        self.reason = message
        self.offset = offset


@dataclass(frozen=True)
class Text:
    """Literal text (braces already unescaped)."""

    value: str


@dataclass(frozen=True)
class Token:
    """An icon token; ``offset`` is where its ``{`` stands in the source."""

    name: str
    offset: int


Part = Text | Token


def parse(source: str) -> list[Part]:
    """Split ``source`` into text and tokens; raise :class:`MarkupError` on bad syntax."""
    if "{" not in source and "}" not in source:  # most text: nothing to split
        return [Text(source)] if source else []
    parts: list[Part] = []
    buffer: list[str] = []
    i = 0
    while brace := _BRACES.search(source, i):  # from brace to brace; the text between is copied whole
        at = brace.start()
        buffer.append(source[i:at])
        mark = brace.group()
        if mark in ("{{", "}}"):
            buffer.append(mark[0])
            i = at + 2
            continue
        if mark == "}":
            raise MarkupError("'}' without a matching '{'; write '}}' for a literal brace", at)
        close = source.find("}", at + 1)
        if close == -1:
            raise MarkupError("'{' opens a token that is never closed; write '{{' for a literal brace", at)
        name = source[at + 1 : close]
        if not name:
            raise MarkupError("empty token '{}'", at)
        if not TOKEN_NAME.fullmatch(name):
            raise MarkupError(f"invalid token name {name!r}: use lowercase letters, digits and hyphens", at)
        text = "".join(buffer)
        if text:
            parts.append(Text(text))
        buffer = []
        parts.append(Token(name, at))
        i = close + 1
    buffer.append(source[i:])
    text = "".join(buffer)
    if text:
        parts.append(Text(text))
    return parts


def render(parts: list[Part]) -> str:
    """The markup source of ``parts``; ``render(parse(s)) == s`` for valid ``s``."""
    out = []
    for part in parts:
        if isinstance(part, Token):
            out.append("{" + part.name + "}")
        else:
            out.append(part.value.replace("{", "{{").replace("}", "}}"))
    return "".join(out)


def tokens(source: str) -> list[str]:
    """Token names in ``source``, in order, repeats kept."""
    return list(_tokens(source))


@lru_cache(maxsize=65536)
def _tokens(source: str) -> tuple[str, ...]:
    """Each distinct text parsed once: validation asks for a source's tokens once per locale."""
    return tuple(part.name for part in parse(source) if isinstance(part, Token))


def plain_text(parts: list[Part], alt: dict[str, str]) -> str:
    """Text with each token replaced by its alt text (or ``[name]`` when none)."""
    return "".join(part.value if isinstance(part, Text) else alt.get(part.name, f"[{part.name}]") for part in parts)
