"""What an agent knows of each game beyond the engine's contract: each game's plugin gives it (its
``Simulation.heuristics``, e.g. ``cardworks.games.fallera.heuristics``).

Each module reads observations (``rules.observe``) and the cards' public definitions,
never a game's true state, and offers:

* ``greedy(table, me, seen, legal, rng)``: a one-step heuristic choice;
* ``determinize(table, seen, rng)``: a full state consistent with what ``me`` saw, its hidden
  part drawn at random (ISMCTS samples these);
* optionally ``determinizer(table, seen)``: a function of the rng giving what ``determinize`` gives
  for the same rng, with what every draw of one observation shares worked out once (a search draws
  hundreds from one observation);
* optionally ``determinized_playouts(table, seen)``: a function of the rng giving ``table.playout`` of what
  ``determinizer`` gives for the same rng, dealt straight into a position played in place (the search
  plays each determinization so);
* ``evaluate(table, state)``: each player's chances in ``[0, 1]`` from a position a search
  stopped at (summing to 1).
"""

from __future__ import annotations

from typing import Any

from ..engine.plugins import plugin_for


def for_game(game: str) -> Any:
    """The heuristics of ``game``, as its plugin gives them (None when the game has no ``Simulation``)."""
    simulation = plugin_for(game).simulation
    return simulation.heuristics if simulation is not None else None
