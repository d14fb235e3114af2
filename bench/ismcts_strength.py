"""Why ISMCTS lost its edge over greedy players in the four-player base game: the measurements behind
docs/simulation.md, reproducible.

Run: python bench/ismcts_strength.py [--games 128] [--seed 5] [--budget 20] [--against greedy|counted]
     python bench/ismcts_strength.py --greedy-duel --games 1200 --seed 11
     python bench/ismcts_strength.py --rollout-duel 4 --budget 200 --games 40 --seed 1

``--against greedy`` seats one ISMCTS player against three greedy ones (seats rotating), as
``cardworks simulate --agent mcts,greedy,greedy,greedy`` does. ``--against counted`` makes the three rivals
a greedy player whose chance that a defender stops an attack counts only the battle cards' share of the
unseen hand cards (the shipped greedy counts every hand card as a battle card, and the base deck's
never-played paella protectoras stay in the hands). ``--greedy-duel`` seats that counting greedy player
against three shipped ones: below an even share, the shipped greedy's more careful play is the stronger.
``--rollout-duel K`` seats two ISMCTS players whose rollouts stop after K random steps (then the evaluation)
against two with the shipped ``ROLLOUT_STEPS``, all at ``--budget`` iterations: with equal strength the first
two win half the games. Each prints the measured seats' win rate with its 95% Wilson interval.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from cardworks.games.fallera import heuristics
from cardworks.simulate.agents import Agent
from cardworks.simulate.mcts import ROLLOUT_STEPS, search
from cardworks.simulate.runner import play_game
from cardworks.simulate.stats import wilson
from cardworks.simulate.tables import TableSpec, build_table

REPO = Path(__file__).resolve().parents[1]


def counted_greedy(table: Any, me: int, seen: dict[str, Any], legal: Any, rng: Any) -> Any:
    """The shipped greedy player, its attack odds counting only the battle cards' share of unseen hand cards."""
    visible: set[int] = set()
    for labels in (seen["hand"], seen["cemetery"], seen.get("laying", ()), *seen["counters"]):
        visible.update(map(heuristics._instance, labels))
    unseen = [table.cards[d] for i, d in enumerate(table.rules.deck_designs()) if i not in visible]
    loose = sum(not c.treasure for c in unseen)
    share = sum(bool(c.battle) for c in unseen) / loose if loose else 1.0
    shipped = heuristics._odds

    def odds(attack: int, defences: list[int], hand: int) -> float:
        if not defences or hand <= 0:
            return 1.0
        return (1.0 - share * sum(d >= attack for d in defences) / len(defences)) ** hand

    heuristics._odds = odds
    try:
        return heuristics.greedy(table, me, seen, legal, rng)
    finally:
        heuristics._odds = shipped


@dataclass(frozen=True)
class Custom:
    """A greedy seat playing ``decide`` (``play_game`` asks only ``kind``, ``label`` and ``choose``)."""

    decide: Callable[..., Any]
    kind: str = "greedy"
    label: str = "counting-greedy"

    def choose(self, table: Any, me: int, observe: Callable[[], dict[str, Any]], legal: Any, rng: Any) -> Any:
        if len(legal) == 1:  # as ``Agent.choose`` does, drawing from the rng, so seeded games stay comparable
            return legal[int(rng.random() * len(legal))]
        return self.decide(table, me, observe(), list(legal), rng)


@dataclass(frozen=True)
class Rollouts:
    """An ISMCTS seat whose rollouts stop after ``steps`` random steps (``Agent("mcts")`` takes the shipped
    number)."""

    steps: int
    budget: int
    kind: str = "mcts"

    @property
    def label(self) -> str:
        return f"mcts-{self.budget}-rollouts-{self.steps}"

    def choose(self, table: Any, me: int, observe: Callable[[], dict[str, Any]], legal: Any, rng: Any) -> Any:
        if len(legal) == 1:  # as ``Agent.choose`` does
            return legal[int(rng.random() * len(legal))]
        return search(table, table.heuristics, me, observe(), list(legal), self.budget, rng, self.steps)


def base_table() -> Any:
    """The table every measurement here plays: the shipped four-player base game."""
    return build_table(TableSpec(str(REPO / "cards"), "fallera", "base", 4))


def win_rate(agents: tuple[Any, ...], games: int, seed: int) -> tuple[float, float, float, float]:
    """(wins, rate, low, high) of the seats of the first agent (one seat, or each seat it holds at the table's
    start), seats turning by one each game."""
    table = base_table()
    first = [k for k, agent in enumerate(agents) if agent == agents[0]]
    wins = 0.0
    for index in range(games):
        record = play_game(table, agents, seed, index)
        # ``seating`` turns a mixed table by one seat a game: the first agent's seats move with it
        won = [(index + k) % 4 for k in first if (index + k) % 4 in record.winners]
        if won:
            wins += len(won) / len(record.winners)
    low, high = wilson(wins, games)
    return wins, wins / games, low, high


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=128)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--budget", type=int, default=20)
    parser.add_argument("--against", choices=("greedy", "counted"), default="greedy")
    parser.add_argument("--greedy-duel", action="store_true")
    parser.add_argument("--rollout-duel", type=int, metavar="K",
                        help="two ISMCTS seats with rollouts of K steps against two with the shipped number")
    args = parser.parse_args()
    if args.rollout_duel is not None:
        shipped = Agent("mcts", args.budget)
        changed = Rollouts(args.rollout_duel, args.budget)
        agents = (changed, changed, shipped, shipped)
        label = (f"ISMCTS-{args.budget}, rollouts of {args.rollout_duel} steps, two seats against two with "
                 f"{ROLLOUT_STEPS}")
    elif args.greedy_duel:
        shipped = Agent("greedy")
        agents: tuple[Any, ...] = (Custom(counted_greedy), shipped, shipped, shipped)
        label = "counting greedy against three shipped greedy players"
    else:
        rival = Agent("greedy") if args.against == "greedy" else Custom(counted_greedy)
        agents = (Agent("mcts", args.budget), rival, rival, rival)
        label = f"ISMCTS-{args.budget} against three {'shipped' if args.against == 'greedy' else 'counting'} greedy players"
    wins, rate, low, high = win_rate(agents, args.games, args.seed)
    print(f"{label}: {wins:g} of {args.games} games, {100 * rate:.1f}% [{100 * low:.1f}, {100 * high:.1f}] "
          f"(seed {args.seed})")


if __name__ == "__main__":
    main()
