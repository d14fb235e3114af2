"""How strong the agents are, so a designer knows how far to trust a verdict (``simulate --measure-agents N``).

Three matches on the table the run plays, seats rotating each game: greedy against random players, and ISMCTS
at the run's budget and at twice it against greedy players. Each gives the stronger agent's win rate over its
seats with Wilson's interval, against an even share (1 / players): an agent no better than an even share
plays the cards no better than chance, and verdicts from its games say little about careful players.
"""

from __future__ import annotations

from typing import Any, Callable

from .agents import parse_agents
from .stats import WIN_UNIT, rate
from .tables import TableSpec


def matches(players: int, budget: int) -> list[tuple[str, str]]:
    """(agents joined by commas, the agent measured) of each match."""
    others = lambda agent: ",".join([agent] * (players - 1))  # noqa: E731
    return [(f"greedy,{others('random')}", "greedy"), (f"mcts,{others('greedy')}", f"mcts-{budget}"),
            (f"mcts,{others('greedy')}", f"mcts-{2 * budget}")]


def measure_agents(spec: TableSpec, games: int, seed: int, budget: int, run: Callable[..., Any]) -> list[dict[str, Any]]:
    """Each match's measured agent: its win rate over its seats (95% CI) and whether it beats an even share.
    ``run(spec, agents, games, seed)`` plays the games (any executor)."""
    plain = TableSpec(spec.cards_root, spec.game, spec.selection, spec.players, spec.packs, spec.max_steps)
    rows = []
    for joined, measured in matches(spec.players, budget):
        search = 2 * budget if measured == f"mcts-{2 * budget}" else budget
        agents = parse_agents(joined, spec.players, search)
        tally = run(plain, agents, games, seed)
        won = rate(tally.agent_wins[measured] / WIN_UNIT, tally.agent_seats[measured])
        opponent = "random" if measured == "greedy" else "greedy"
        rows.append({"agent": measured, "against": opponent, "games": games, **won,
                     "beats_even": won["low"] > 1 / spec.players})
    return rows
