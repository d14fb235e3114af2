"""bench/ismcts_strength.py, whose figures docs/simulation.md quotes, still runs and measures what it says:
its counting greedy player reads a hand's never-played cards as no defence, so it sees better odds than the
shipped greedy player wherever such cards are unseen, and both seats play whole games."""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path

from cardworks.engine.core import CHANCE
from cardworks.simulate.agents import Agent
from cardworks.simulate.runner import game_rngs
from cardworks.simulate.tables import TableSpec, build_table

REPO = Path(__file__).resolve().parents[2]
_SPEC = importlib.util.spec_from_file_location("ismcts_strength_bench", REPO / "bench" / "ismcts_strength.py")
bench = importlib.util.module_from_spec(_SPEC)
sys.modules[_SPEC.name] = bench  # its dataclass looks its module up while it is defined
_SPEC.loader.exec_module(bench)


def test_the_counting_greedy_player_sees_better_odds_where_dead_cards_are_unseen() -> None:
    table = build_table(TableSpec(str(REPO / "cards"), "fallera", "base", 4))
    rules = table.rules
    chance = game_rngs(5, 0, 4)[0]
    state = table.deal(chance)
    while rules.actor(state) == CHANCE or state.phase != "turn" or not any(
            type(a).__name__ == "Attack" for a in rules.legal_actions(state)):
        legal = rules.legal_actions(state)
        state = rules.apply(state, legal[int(chance.random() * len(legal))], rng=chance)
    me, legal = state.current, rules.legal_actions(state)
    seen = rules.observe(state, me)
    heuristics = bench.heuristics
    shipped: list[float] = []
    counted: list[float] = []
    real, original = heuristics._odds, heuristics.greedy

    def recorded(odds, into):
        return lambda *args: into.append(odds(*args)) or into[-1]

    heuristics._odds = recorded(real, shipped)  # the shipped player's odds
    try:
        original(table, me, seen, legal, random.Random(0))
    finally:
        heuristics._odds = real

    def greedy_recording_counted(*args):  # the counting player swaps its ``_odds`` in, then calls greedy
        counting = heuristics._odds
        heuristics._odds = recorded(counting, counted)
        try:
            return original(*args)
        finally:
            heuristics._odds = counting

    heuristics.greedy = greedy_recording_counted
    try:
        bench.counted_greedy(table, me, seen, legal, random.Random(0))
    finally:
        heuristics.greedy = original
    assert len(shipped) == len(counted) > 0
    assert all(c >= s for c, s in zip(counted, shipped)) and any(c > s for c, s in zip(counted, shipped))


def test_both_seats_play_whole_games() -> None:
    agents = (bench.Custom(bench.counted_greedy), Agent("greedy"), Agent("greedy"), Agent("greedy"))
    wins, rate, low, high = bench.win_rate(agents, 4, 11)
    assert 0 <= wins <= 4 and low <= rate <= high


def test_a_rollout_duel_counts_the_games_either_changed_seat_wins() -> None:
    """``--rollout-duel``'s changed searcher holds two seats: its wins are the games a seat it holds won (read
    from ``seating``), and its rollouts stop where it says (a search of no rollout steps grows another tree)."""
    from cardworks.simulate.agents import seating
    from cardworks.simulate.mcts import grow
    from cardworks.simulate.runner import play_game

    changed, shipped = bench.Rollouts(0, 6), Agent("mcts", 6)
    agents = (changed, changed, shipped, shipped)
    wins, rate, low, high = bench.win_rate(agents, 4, 11)
    table = bench.base_table()
    expected = 0.0
    for index in range(4):
        record = play_game(table, agents, 11, index)
        seats = seating(agents, index)
        expected += sum(seats[w] == changed for w in record.winners) / len(record.winners)
    assert wins == expected and low <= rate <= high
    state = table.deal(random.Random(3))
    while table.rules.actor(state) == CHANCE or len(table.rules.legal_actions(state)) < 2:
        legal = table.rules.legal_actions(state)
        state = table.rules.apply(state, legal[0], rng=random.Random(0))
    me = table.rules.actor(state)
    seen = table.rules.observe(state, me)
    trees = [grow(table, table.heuristics, me, seen, 30, random.Random(5), (), steps) for steps in (0, 12)]
    counts = [{key: child.visits for key, child in tree.children.items()} for tree in trees]
    assert counts[0] != counts[1]
