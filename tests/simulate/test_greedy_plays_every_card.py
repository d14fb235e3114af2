"""Greedy plays every card it can use (issue 42 item 3): a special whose effect asks for a choice (a rival, a
position in a hand, a treasure, the map, a terreta, the battle) is played when it can act, and greedy answers
every choice it asks, on real engine positions of the fixture game with ``tests/engine/verbs_pack``. A card no
agent plays cannot be judged; before this, greedy never played a special that begins with a player choice."""

from __future__ import annotations

import json

import random

import pytest

from cardworks.games.fallera.actions import Play, parse_action
from cardworks.games.fallera.game import scenario_state
from cardworks.games.fallera.heuristics import greedy
from cardworks.loading import load_database
from conftest import FALLERA, REPO
from simulate_helpers import simulate_json

PACK = REPO / "tests" / "engine" / "verbs_pack"
MAP = {"selection": "base-3", "foods": ["sud", "interior", "nord"], "queen": "sud",
       "map": {"nord": "carxofa", "xuquer-turia": "el-tio-sangonera", "muntanyes-centrals": "cagallo", "sud": "romer",
               "interior": "monleon"}}
DECK = ["monleon", "jaume-i", "cagallo", "la-bellea-del-moc", "el-tio-sangonera", "tombatossals"]
RIVALS = [["verbs-llanca", "xicona-de-xixona"], ["verbs-broquer"]]
"""The rivals' hands: cards to look at, to discard, to pick blind."""


class _Table:
    """What the greedy player reads of a table: the rules and the cards' definitions."""

    def __init__(self, rules):
        self.rules, self.cards = rules, rules.defs


CASES = {  # card → (setup beyond the common one, the kinds of choice its verbs ask, in order)
    "verbs-ullera": ({}, ["player"]),
    "verbs-urpa": ({}, ["player", "hand"]),
    "verbs-espill": ({}, ["player", "hand", "hand"]),
    "verbs-rampi": ({}, ["hand", "hand"]),
    "verbs-mantell": ({"counters": [["conill"], ["bajoqueta"], []]}, ["treasure"]),
    "verbs-vel": ({"counters": [["conill"], ["bajoqueta"], []]}, ["treasure"]),
    "verbs-llacet": ({"counters": [["conill"], ["bajoqueta"], []]}, ["treasure"]),
    "verbs-xarxa": (MAP, ["map"]),
    "verbs-carrossa": (MAP, ["terreta"]),
}


def _position(card: str, extra: dict):
    db = load_database(FALLERA, [PACK])
    setup = {"selection": "base", "players": 3, "hands": [[card], *RIVALS], "counters": [[], ["bajoqueta"], []],
             "deck": DECK, "current": "p1", **extra}
    return scenario_state(db, setup)


@pytest.mark.parametrize("card", sorted(CASES))
def test_greedy_plays_a_special_with_a_choice_and_answers_it(card: str) -> None:
    extra, kinds = CASES[card]
    rules, state = _position(card, extra)
    table, rng = _Table(rules), random.Random(1)
    chosen = greedy(table, 0, rules.observe(state, 0), rules.legal_actions(state), rng)
    assert isinstance(chosen, Play) and chosen.card.design == card, chosen.notation()
    state = rules.apply(state, chosen, rng=rng)
    asked = []
    while rules.actor(state) == 0 and state.phase == "choose":
        asked.append(state.asked[1])
        state = rules.apply(state, greedy(table, 0, rules.observe(state, 0), rules.legal_actions(state), rng), rng=rng)
    assert asked == kinds
    assert state.phase != "choose" and rules.invariants(state) == []


def test_greedy_attaches_to_its_own_best_treasure() -> None:
    rules, state = _position("verbs-llacet", {"counters": [["conill", "espardenyes-pudentes"], ["bajoqueta"], []]})
    table = _Table(rules)
    state = rules.apply(state, parse_action("p1 play verbs-llacet#0"), rng=random.Random(1))
    hosts = {greedy(table, 0, rules.observe(state, 0), rules.legal_actions(state), random.Random(seed)).notation()
             for seed in range(12)}
    assert hosts == {"p1 treasure p1 conill#4"}  # its own ingredient, not a rival's treasure, whatever the rng


@pytest.mark.parametrize("card", ["verbs-rodella", "verbs-mirall"])
def test_greedy_answers_a_battle_against_it_and_targets_it(card: str) -> None:
    rules, state = _position(card, {"hands": [["verbs-llanca"], [card], []], "counters": [[], ["conill"], []]})
    table, rng = _Table(rules), random.Random(1)
    state = rules.apply(state, parse_action("p1 battle p2 conill#2 with verbs-llanca#0"), rng=rng)
    answer = greedy(table, 1, rules.observe(state, 1), rules.legal_actions(state), rng)
    assert answer.notation() == f"p2 respond {card}#1"
    state = rules.apply(state, answer, rng=rng)
    assert state.phase == "choose" and state.asked[1] == "battle"
    target = greedy(table, 1, rules.observe(state, 1), rules.legal_actions(state), rng)
    assert target.notation() == "p2 target-battle conill#2"


def test_greedy_does_not_play_a_special_that_cannot_act() -> None:
    """Without the Kingdom map a take-from-map does nothing: the card stays in the hand (an almoina instead)."""
    rules, state = _position("verbs-xarxa", {})
    chosen = greedy(_Table(rules), 0, rules.observe(state, 0), rules.legal_actions(state), random.Random(1))
    assert chosen.notation() == "p1 almoina"


def test_greedy_plays_every_special_of_the_pack_in_real_games() -> None:
    """On the Kingdom map (where every verb of the pack can act) greedy seats play each of its specials."""
    report = simulate_json(str(PACK), "--set", "base-3", "--agent", "greedy", "--games", "40", "--workers", "1",
                           "--no-paired", "--seed", "2", "--players", "3")
    played = {row["card"]: row["played_per_game"] for row in report["cards"]
              if row["card"].startswith("verbs-") and row["type"] == "special"}
    specials = {card["id"] for card in json.loads((PACK / "sets" / "fixture.json").read_text("utf-8"))["cards"]
                if card["types"] == ["special"]}
    assert set(played) == specials and all(rate > 0 for rate in played.values()), played


def test_ismcts_plays_every_special_with_a_choice_in_real_games() -> None:
    """The searcher's rollouts pick among every listed action, choices included, so ISMCTS seats play the
    specials whose verbs ask for a choice too (a small budget, a few games on the Kingdom map)."""
    report = simulate_json(str(PACK), "--set", "base-3", "--agent", "mcts", "--budget", "6", "--games", "6",
                           "--workers", "1", "--no-paired", "--seed", "2", "--players", "3")
    played = {row["card"]: row["played"] for row in report["cards"]}
    choosing = [*CASES, "verbs-rodella", "verbs-mirall"]
    assert all(played[card] > 0 for card in choosing), {card: played[card] for card in choosing}
