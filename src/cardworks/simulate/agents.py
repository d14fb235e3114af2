"""The players a simulation seats: random, a per-game greedy heuristic, and ISMCTS.

An agent decides from what its seat observes (``rules.observe``), the legal actions
and its own seeded rng; it never reads the true state. ``observe`` is passed as a
function so an agent that does not look (random) costs nothing.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Callable, Sequence

from ..errors import UsageError
from .mcts import search
from .tables import Table

KINDS = ("random", "greedy", "mcts")
DEFAULT_BUDGET = 50
"""ISMCTS iterations per decision."""


@dataclass(frozen=True)
class Agent:
    """One seat's player: its kind and, for ``mcts``, its iterations per decision."""

    kind: str
    budget: int = DEFAULT_BUDGET

    @property
    def label(self) -> str:
        return f"mcts-{self.budget}" if self.kind == "mcts" else self.kind

    def choose(self, table: Table, me: int, observe: Callable[[], dict[str, Any]], legal: Sequence[Any],
               rng: random.Random) -> Any:
        if self.kind == "random" or len(legal) == 1:
            return legal[int(rng.random() * len(legal))]
        game = table.heuristics
        if self.kind == "greedy":
            return game.greedy(table, me, observe(), legal, rng)  # a sequence: greedy reads what it needs
        return search(table, game, me, observe(), list(legal), self.budget, rng)


def parse_agents(text: str, players: int, budget: int = DEFAULT_BUDGET) -> tuple[Agent, ...]:
    """``random``, ``greedy`` or ``mcts`` for every seat, or one per seat joined by commas
    (``mcts,greedy,greedy,greedy``); UsageError otherwise."""
    kinds = [part.strip() for part in text.split(",")]
    unknown = [k for k in kinds if k not in KINDS]
    if unknown:
        raise UsageError(f"--agent: unknown agent {unknown[0]!r}; choose among {', '.join(KINDS)}")
    if len(kinds) == 1:
        kinds *= players
    if len(kinds) != players:
        raise UsageError(f"--agent: give one agent for every seat or {players} joined by commas, not {len(kinds)}")
    if budget < 1:
        raise UsageError("--budget must be at least 1")
    return tuple(Agent(kind, budget) for kind in kinds)


def seating(agents: tuple[Agent, ...], index: int) -> tuple[Agent, ...]:
    """The agents of game ``index``, seat by seat: a mixed table turns by one seat each game, so each
    agent plays every seat equally often and seat and agent figures are not confounded."""
    if len(set(agents)) == 1:
        return agents
    turn = index % len(agents)
    return agents[-turn:] + agents[:-turn] if turn else agents
