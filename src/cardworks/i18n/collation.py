"""Sorting names the way each language's dictionaries do.

Letters compare without their accents first (``à`` sorts with ``a``), then by
accent, then by case. Catalan sorts ``ç`` with ``c`` and reads the geminated
``l·l`` as ``ll``; Spanish keeps ``ñ`` as a letter of its own between ``n``
and ``o``. Spaces and punctuation are ignored at first and only break ties.
"""

from __future__ import annotations

import unicodedata

_IGNORED = {"·", "'", "’", "-", " ", ".", ",", "!", "?", "¡", "¿", "(", ")", "\u00a0", "\u202f"}


def collation_key(text: str, locale: str) -> tuple:
    """A key that sorts ``text`` in ``locale``'s alphabetical order."""
    language = locale.split("-")[0]
    primary: list[tuple[int, int]] = []
    secondary: list[str] = []
    tertiary: list[int] = []
    for char in text:
        if char in _IGNORED or char.isspace():
            continue
        lower = char.lower()
        if language == "es" and lower == "ñ":
            primary.append((ord("n"), 1))  # ñ: its own letter after n
            secondary.append("")
            tertiary.append(int(char != lower))
            continue
        decomposed = unicodedata.normalize("NFD", lower)
        base = decomposed[0]
        primary.append((ord(base), 0))
        secondary.append(decomposed[1:])
        tertiary.append(int(char != lower))
    return tuple(primary), tuple(secondary), tuple(tertiary), text


def sort_names(names: list[str], locale: str) -> list[str]:
    """``names`` in ``locale``'s order."""
    return sorted(names, key=lambda name: collation_key(name, locale))
