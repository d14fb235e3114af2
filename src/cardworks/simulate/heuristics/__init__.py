"""What an agent knows of each game beyond the engine's contract, one small module per game.

Each module reads observations (``rules.observe``) and the cards' public definitions,
never a game's true state, and offers:

* ``greedy(table, me, seen, legal, rng)``: a one-step heuristic choice;
* ``determinize(table, seen, rng)``: a full state consistent with what ``me`` saw, its hidden
  part drawn at random (ISMCTS samples these);
* ``evaluate(table, state)``: each player's chances in ``[0, 1]`` from a position a search
  stopped at (summing to 1).
"""

from __future__ import annotations

import importlib
from types import ModuleType


def for_game(game: str) -> ModuleType:
    """The heuristics module of ``game``."""
    return importlib.import_module(f".{game}", __name__)
