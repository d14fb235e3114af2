"""The games the engine plays, one package per game, each plugged into the engine core.

Each package holds the game's actions, state, rules and flow, setup and scenario
positions, and exposes ``PLUGIN`` (an ``engine.plugins.Plugin``).
"""

from __future__ import annotations

from typing import Any


def built_in() -> list[Any]:
    """The plugins of the games shipped with cardworks (imported only when asked for)."""
    from .calavera import PLUGIN as calavera
    from .diables import PLUGIN as diables
    from .fallera import PLUGIN as fallera

    return [calavera, diables, fallera]
