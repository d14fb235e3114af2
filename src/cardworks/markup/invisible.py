"""Characters that print nothing or reorder what prints, found in a text (the rule is explained in
:mod:`cardworks.validate.check_invisible`); kept in this lowest layer so that an import (i18n) refuses what
``validate`` would, before writing anything."""

from __future__ import annotations

import unicodedata

ALLOWED = frozenset("\n\t\u00ad")
"""Control and format characters a text may hold: line breaks, tabs and the soft hyphen."""
BLANK = frozenset("\u115f\u1160\u3164\uffa0\u2800\u034f")
"""Letters and symbols that print as nothing (Hangul fillers, the blank Braille pattern, the grapheme joiner)."""
_REFUSED_CATEGORIES = {"Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp"}
"""Controls, format characters (zero-width, bidi), private use, surrogates, unassigned, line/paragraph separators."""


def invisible_characters(text: str) -> list[tuple[int, str]]:
    """(offset, character) of each character in ``text`` that prints nothing or reorders the text."""
    if text.isprintable() and BLANK.isdisjoint(text):  # most texts: every refused category is unprintable
        return []
    return [(i, ch) for i, ch in enumerate(text)
            if ch not in ALLOWED and (ch in BLANK or unicodedata.category(ch) in _REFUSED_CATEGORIES)]


def describe(found: list[tuple[int, str]]) -> str:
    """``U+202E RIGHT-TO-LEFT OVERRIDE at 0, …`` for the first few characters found."""
    shown = [f"U+{ord(ch):04X} {unicodedata.name(ch, 'UNNAMED')} at {offset}" for offset, ch in found[:3]]
    more = f" and {len(found) - 3} more" if len(found) > 3 else ""
    return ", ".join(shown) + more
