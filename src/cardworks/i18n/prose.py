"""Prose checks a machine can make on a locale's text (issue 45): the space between a number and its unit,
the punctuation after a closing quote, and English words left in a text of another language.

Each returns ``(code, message)`` warnings; ``validate`` reports them at the file and pointer (or line) of the
text, and ``--strict`` fails on them. The data keeps what the text is to print: a number and its unit are
joined by a no-break space (U+00A0), in French a narrow one (U+202F) before ``%``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

UNITS = ("PF", "FP", "%", "cm", "mm", "dpi")
"""Units and abbreviations printed after a number: fame points (en ``FP``, ca/es ``PF``), per cent, sizes."""

_UNIT_AFTER_SPACE = re.compile(rf"\d( )(?:{'|'.join(re.escape(u) for u in UNITS)})(?![\w])")
_PERCENT_AFTER = re.compile(r"\d([ \u00a0\u202f]?)%")
_POINT_IN_QUOTE = re.compile(r'[.](?:»|”|"(?=\s|$|[,;:)]))')
"""A full stop before a closing quotation mark (typed as ``»``, ``”`` or a straight ``"`` the typesetter closes)."""

ENGLISH_WORDS = ("the", "and", "with", "your", "you", "card", "cards", "player", "players", "this", "when",
                 "each", "which", "from", "only", "must", "may", "instead", "until", "their", "they", "turn",
                 "rulebook", "board", "tile", "tiles", "token", "tokens")
"""English words that are no word of Catalan, Spanish, French or Dutch: one in a text of those languages is
English left over (names the game keeps in English are listed in the glossary's ``kept_english``)."""
_ENGLISH = re.compile(rf"(?<![\w{{-])(?:{'|'.join(ENGLISH_WORDS)})(?![\w}}-])", re.IGNORECASE)
_SKIPPED = re.compile(r"`[^`]*`|\{[^}]*\}|https?://\S+|\S+\.(?:json|md|pdf|txt|html)\b|--[a-z-]+")
"""Code, tokens, addresses, file names and command options: not prose."""


def unit_warnings(text: str, locale: str) -> list[tuple[str, str]]:
    """A number and its unit apart by a breakable space, or a per cent sign spaced against the locale's rule."""
    language = locale.split("-")[0]
    found = []
    if _UNIT_AFTER_SPACE.search(text):
        found.append(("unit-spacing", "join a number and its unit with a no-break space (U+00A0), not a plain "
                                      "space: a line must not end between them"))
    for match in _PERCENT_AFTER.finditer(text):
        space = match.group(1)
        want = {"fr": "\u202f", "ca": "\u00a0", "es": "\u00a0"}.get(language, "")
        if space != want and not (space == " " and _UNIT_AFTER_SPACE.search(text)):
            name = {"\u202f": "a narrow no-break space (U+202F)", "\u00a0": "a no-break space (U+00A0)",
                    "": "no space"}[want]
            found.append(("unit-spacing", f"{language} writes {name} between a number and %"))
            break
    return found


def quote_warnings(text: str, locale: str) -> list[tuple[str, str]]:
    """Catalan and Spanish put the full stop after the closing quotation mark, not inside it."""
    if locale.split("-")[0] in {"ca", "es"} and _POINT_IN_QUOTE.search(text):
        return [("quote-punctuation", "the full stop goes after the closing quotation mark («…»., not «….»)")]
    return []


def kept_pattern(kept: Iterable[str]) -> re.Pattern[str] | None:
    """One expression for every name kept as written (longest first, whole words, case ignored)."""
    names = sorted({k for k in kept if _ENGLISH.search(k)}, key=len, reverse=True)  # only names that could hit
    if not names:
        return None
    return re.compile(rf"(?<!\w)(?:{'|'.join(re.escape(n) for n in names)})(?!\w)", re.IGNORECASE)


def english_left(text: str, locale: str, kept: re.Pattern[str] | None = None) -> list[str]:
    """English words in ``text`` of a non-English ``locale``, once names (:func:`kept_pattern`) and code are
    taken out."""
    if locale.split("-")[0] == "en" or not _ENGLISH.search(text):
        return []
    plain = _SKIPPED.sub(" ", text)
    if kept is not None:
        plain = kept.sub(" ", plain)
    return [m.group(0) for m in _ENGLISH.finditer(plain)]


def english_warnings(text: str, locale: str, kept: re.Pattern[str] | None = None) -> list[tuple[str, str]]:
    words = english_left(text, locale, kept)
    if not words:
        return []
    return [("english-left", f"English left in a {locale} text: {', '.join(dict.fromkeys(words))} (a name kept "
                             "on purpose goes in the glossary's kept_english)")]


def prose_warnings(text: str, locale: str) -> list[tuple[str, str]]:
    """The checks that need nothing but the text and its locale."""
    return unit_warnings(text, locale) + quote_warnings(text, locale)
