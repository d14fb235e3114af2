"""The games the engine plays, one package per game, each plugged into the engine core.

Each package holds the game's actions, state, rules and flow, setup and scenario
positions, and exposes ``PLUGIN`` (an ``engine.plugins.Plugin``).
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

BUILT_IN = ("calavera", "diables", "fallera")
"""The ids of the games shipped with cardworks, each the name of its package here."""


def built_in() -> list[Any]:
    """The plugins of the games shipped with cardworks (imported only when asked for)."""
    return [built_in_plugin(game) for game in BUILT_IN]


def built_in_plugin(game: str) -> Any:
    """The plugin of the shipped game ``game`` (one of :data:`BUILT_IN`), only its own package imported."""
    return import_module(f"{__name__}.{game}").PLUGIN
