"""The one place a language tag given to any command becomes one of the game's locales.

Weblate and Lokalize write Valencian as ``ca@valencia``, Poedit as
``ca_ES@valencia``, BCP 47 as ``ca-valencia``; the game decides (``locale_aliases``
in ``game.json``) which of its locales each one is. The pseudo-locale is known to
every game. ``build``, ``export``, ``serve``, ``cards`` and the ``i18n`` commands all
resolve through ``resolve_locale``, so they accept the same tags and refuse an
unknown one with the same message.
"""

from __future__ import annotations

from typing import Any

from ..errors import UsageError
from .pseudo import PSEUDO_LOCALE

__all__ = ["known_locale", "resolve_locale", "unknown_locale"]


def _folded(tag: str) -> str:
    return tag.replace("_", "-").lower()


def known_locale(game: Any, tag: str) -> str | None:
    """The game's locale for ``tag`` (itself, its alias, or the pseudo-locale), or None when it has none.

    Case and the ``_``/``-`` separators are not told apart (``ca_ES@valencia`` = ``ca-es@valencia``).
    """
    folded = _folded(tag)
    for locale in game.locales:
        if _folded(locale) == folded:
            return locale
    for alias, locale in game.locale_aliases.items():
        if _folded(alias) == folded:
            return locale
    return PSEUDO_LOCALE if folded == PSEUDO_LOCALE else None


def unknown_locale(game: Any, tag: str) -> UsageError:
    """The error every command gives for a tag the game has no locale for."""
    return UsageError(f"game {game.id!r} has no locale {tag!r}; it has {', '.join(game.locales)} "
                      f"and the pseudo-locale {PSEUDO_LOCALE}")


def resolve_locale(game: Any, tag: str) -> str:
    """The game's locale for ``tag`` (see ``known_locale``); raises UsageError naming the locales it has."""
    locale = known_locale(game, tag)
    if locale is None:
        raise unknown_locale(game, tag)
    return locale
