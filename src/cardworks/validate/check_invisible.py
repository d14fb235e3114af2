"""Characters that print nothing or reorder what prints: refused in every name and text.

A card name made of zero-width spaces prints blank and still passes every
other check; a right-to-left override (U+202E) makes the printed text differ
from what a reviewer reads in the file ("Trojan Source"). No text of these
games needs them: every locale is written left to right in the Latin script.
They are errors, not warnings, because what is printed would differ from
what was reviewed. Allowed: the soft hyphen (a hyphenation hint), no-break
spaces (French punctuation), newlines and tabs.
"""

from __future__ import annotations

from ..markup.invisible import _REFUSED_CATEGORIES, ALLOWED, BLANK, describe, invisible_characters  # noqa: F401  (re-exported)


def report_invisible(text: str, out, file: str, pointer: str) -> None:
    """An ``invisible-character`` error at ``pointer`` when ``text`` holds any (see the module docstring)."""
    found = invisible_characters(text)
    if found:
        out.error(file, pointer, "invisible-character",
                  f"{describe(found)}: characters that print nothing or reorder the text are not allowed "
                  "(the printed text would differ from the one reviewed); remove them")
