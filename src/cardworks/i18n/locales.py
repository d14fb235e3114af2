"""Language tags as translators' tools write them, mapped to the game's own locales.

Weblate and Lokalize write Valencian as ``ca@valencia``, Poedit as
``ca_ES@valencia``, BCP 47 as ``ca-valencia``; the game decides (``locale_aliases``
in ``game.json``) which of its locales each one is.
"""

from __future__ import annotations

from typing import Any


def _folded(tag: str) -> str:
    return tag.replace("_", "-").lower()


def resolve_locale(game: Any, tag: str) -> str:
    """The game's locale for ``tag``: itself when the game has it, else its alias, else ``tag`` unchanged.

    Case and the ``_``/``-`` separators are not told apart (``ca_ES@valencia`` = ``ca-es@valencia``).
    """
    folded = _folded(tag)
    for locale in game.locales:
        if _folded(locale) == folded:
            return locale
    for alias, locale in game.locale_aliases.items():
        if _folded(alias) == folded:
            return locale
    return tag
