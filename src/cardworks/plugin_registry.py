"""Which games exist, asked from any layer: the built-in games' packages and those other distributions
declare under an entry point, each loaded by name only when asked for.

It sits below every layer (it imports no cardworks module) so that validation and schema generation can ask
for a game's plugin without reaching up into the engine; ``engine.plugins`` checks what it returns against
the ``GamePlugin`` protocol."""

from __future__ import annotations

from importlib import import_module
from importlib.metadata import entry_points
from typing import Any

BUILT_IN = ("calavera", "diables", "fallera")
"""The ids of the games shipped with cardworks, each the name of its package under ``cardworks.games``."""
ENTRY_POINT_GROUP = "cardworks.games"
"""The entry-point group under which another distribution declares a game plugin."""

_LOADED: dict[str, Any] = {}


def built_in_plugin(game: str) -> Any:
    """The plugin of the shipped game ``game`` (one of :data:`BUILT_IN`), only its own package imported."""
    return import_module(f"cardworks.games.{game}").PLUGIN


def all_plugins() -> list[Any]:
    """Every plugin, unchecked: the built-in ones, then the entry points' in name order."""
    plugins = [built_in_plugin(game) for game in BUILT_IN]
    for point in sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda p: p.name):
        plugins.append(point.load())
    return plugins


def plugin_of(game: str) -> Any | None:
    """The plugin of ``game``, unchecked, or None: a built-in game's package is imported alone (importing every
    game costs about 0.7 s, paid by each command that validates or builds one game)."""
    if game in BUILT_IN:
        return built_in_plugin(game)
    return next((plugin for plugin in all_plugins() if getattr(plugin, "id", None) == game), None)
