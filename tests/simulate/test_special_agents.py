"""Agents play specials and responses (issue 26): random, greedy and ISMCTS seats play the example pack's
special cards in real games, and the greedy player values a steal and answers a rival's battle."""

from __future__ import annotations

import random

import pytest

from cardworks.games.fallera.actions import Pass, Respond, Target, parse_action
from cardworks.games.fallera.game import scenario_state
from cardworks.games.fallera.heuristics import determinize, greedy
from cardworks.loading import load_database
from conftest import FALLERA, REPO
from simulate_helpers import simulate_json

PACK = REPO / "examples" / "fallera-pack"
SPECIALS = {"example-rata-lladre", "example-escut", "paella-protectora"}


@pytest.mark.parametrize("agent, games", [("random", 40), ("greedy", 40), ("mcts,greedy,greedy,greedy", 6)])
def test_agents_play_specials_in_real_games(agent: str, games: int) -> None:
    report = simulate_json(str(PACK), "--agent", agent, "--games", str(games), "--workers", "1", "--no-paired",
                           "--budget", "8", "--seed", "3")
    played = {row["card"]: row["played"] for row in report["cards"]}
    assert played.get("example-rata-lladre", 0) > 0, played
    assert sum(played.get(card, 0) for card in SPECIALS) > 0


class _Table:
    """What the greedy player reads of a table: the rules and the cards' definitions."""

    def __init__(self, rules):
        self.rules, self.cards = rules, rules.defs


def _position(hands, counters, current="p1"):
    db = load_database(FALLERA, [PACK])
    return scenario_state(db, {"selection": "base", "players": 3, "hands": hands, "counters": counters,
                               "deck": ["monleon", "jaume-i", "cagallo"], "current": current})


def test_greedy_steals_the_best_treasure_and_cancels_a_battle_against_it() -> None:
    rules, state = _position([["example-rata-lladre"], ["example-escut"], []],
                             [[], ["bajoqueta", "example-estendard"], []])
    table, rng = _Table(rules), random.Random(0)
    chosen = greedy(table, 0, rules.observe(state, 0), rules.legal_actions(state), rng)
    assert chosen.notation() == "p1 play example-rata-lladre#0"  # a steal is worth more than a draw
    state = rules.apply(state, chosen)
    chosen = greedy(table, 0, rules.observe(state, 0), rules.legal_actions(state), rng)
    assert isinstance(chosen, Target) and chosen.card.design == "bajoqueta"  # the ingredient
    rules, state = _position([["example-cavaller"], ["example-escut"], []], [[], ["bajoqueta"], []])
    state = rules.apply(state, parse_action("p1 battle p2 bajoqueta#2 with example-cavaller#0"))
    assert isinstance(greedy(table, 1, rules.observe(state, 1), rules.legal_actions(state), rng), Respond)


def test_a_determinized_window_keeps_the_queue_and_whose_decision_it_is() -> None:
    rules, state = _position([["example-cavaller"], ["example-escut"], []], [[], ["bajoqueta"], []])
    state = rules.apply(state, parse_action("p1 battle p2 bajoqueta#2 with example-cavaller#0"))
    sampled = determinize(_Table(rules), rules.observe(state, 1), random.Random(1))
    assert sampled.asked == state.asked and sampled.pending == state.pending and rules.actor(sampled) == 1
    after = rules.apply(sampled, Pass(1))  # (the sample deals the configuration's deck, not the scenario's)
    assert after.phase == "defend" and after.asked is None and rules.actor(after) == 1
