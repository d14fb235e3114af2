"""What ``cardworks simulate`` needs of Calavera beyond the engine's contract: the agents' heuristics and how
turns and rounds are counted (Calavera has no cards: nothing is held or used)."""

from __future__ import annotations

from typing import Any

from ...engine.plugins import Simulation
from . import heuristics


def turns(state: Any, players: int) -> tuple[int, int]:
    """(turns, rounds) played so far; the game ends as a round ends, when every seat has played it."""
    if state.phase == "over":
        return state.round * players, state.round
    turn = (state.round - 1) * players + (state.current - state.first) % players + 1
    return turn, state.round


SIMULATION = Simulation(heuristics=heuristics, turns=turns)
