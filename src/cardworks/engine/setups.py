"""Setups every game checks the same way: its declared player range, with the sources that state it.

A game plugin adds its own limits (set combinations, per-selection counts) and
raises ``SetupRefused`` naming the rule and the source; this module writes the
citations so every refusal reads alike.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .core import SetupRefused


def cite(sources: Iterable[Any]) -> str:
    """``doc, section, line(s) n`` for each source, joined with ``; `` (``game.json`` when there is none)."""
    parts = []
    for source in sources:
        where = [source.doc] + ([source.section] if source.section else [])
        if source.lines:
            where.append(f"line{'s' if '-' in source.lines else ''} {source.lines}")
        parts.append(", ".join(where))
    return "; ".join(parts) or "game.json"


def check_players(game: Any, players: int) -> None:
    """Refuse a player count outside the game's declared range (rule ``players``), citing the sources
    of ``players/min`` and ``players/max``."""
    low, high = game.players.min, game.players.max
    if low <= players <= high:
        return
    fact = "players/min" if players < low else "players/max"
    sources = [s for s in game.sources if fact in s.facts]
    raise SetupRefused("players", cite(sources), f"{game.name} is played by {low} to {high} players, not {players}")
