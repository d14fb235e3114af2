"""What ``cardworks simulate`` needs of La Fallera Calavera beyond the engine's contract: the agents'
heuristics, the deck's public card definitions, and the referee's view of who holds and uses which card."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from ...engine.plugins import Simulation
from . import heuristics
from .actions import Attack, Defend, Sell

USING = (Sell, Attack, Defend)
"""Actions that put a card to use: selling it, battling or defending with it."""


def cards(rules: Any) -> dict[str, Any]:
    """Design → its definition, for every design the rules deal (the pack's cards too)."""
    return dict(rules.defs)


def zones(state: Any) -> tuple[Sequence[Iterable[int]], ...]:
    """The hands and the counters: the cards a player holds."""
    return state.hands, state.counters


def design(state: Any, instance: int) -> str:
    return state.designs[instance]


def played(action: Any) -> str | None:
    """The design a sale, an attack or a defence uses."""
    return action.card.design if type(action) in USING else None


def turns(state: Any, players: int) -> tuple[int, int]:
    """(turns, rounds) started so far: ``turn`` counts turns from 1 (0 before the first player is chosen)."""
    turn = max(state.turn, 1)
    return turn, (turn + players - 1) // players


SIMULATION = Simulation(heuristics=heuristics, turns=turns, cards=cards, zones=zones, design=design, played=played)
