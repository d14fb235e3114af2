"""Fallera's guards against bugs elsewhere fail on the bad position they guard against.

``check`` runs them after every step, but on the positions correct rules reach they never fire, so the
mutation bench cannot show them failing (bench/equivalent-mutants.json): these tests plant the bad
position (or the leaking view) and show each one failing, and passing on the good position beside it."""

from __future__ import annotations

from cardworks.games.fallera import views
from cardworks.games.fallera.game import scenario_state
from cardworks.loading import load_database
from conftest import FALLERA

DB = load_database(FALLERA)


def _position(**setup):
    return scenario_state(DB, {"selection": "base", "players": 3, "current": "p1", "hands": [["conill"], ["bajoqueta"], []],
                               "counters": [[], [], []], "deck": ["monleon", "jaume-i", "cagallo"], **setup})


def test_hidden_leak_catches_a_public_view_that_shows_what_a_player_saw(monkeypatch) -> None:
    rules, state = _position(hands=[["monleon"], ["jaume-i"], []], deck=["cagallo"])
    state = rules.load({**rules.dump(state), "marks": [["seen", 0, 1, list(state.hands[1])]]})
    assert rules.hidden_leak(state) is None
    assert views.public_marks(state.marks) == [["seen", 0, 1]]
    monkeypatch.setattr(views, "public_marks", lambda marks: [list(m) for m in marks])
    assert rules.hidden_leak(state) == "the public view shows what a player saw of another's hand"


def test_conservation_catches_a_card_in_two_zones_and_one_in_none() -> None:
    rules, state = _position(hands=[["monleon"], ["jaume-i"], []], deck=["cagallo"])
    assert rules.invariants(state) == []
    dumped = rules.dump(state)
    twice = {**dumped, "deck": list(dumped["hands"][0])}  # as many places as cards: one card twice, one nowhere
    assert "conservation: every card instance must be in exactly one zone" in rules.invariants(rules.load(twice))
    lost = {**dumped, "deck": []}
    assert "conservation: every card instance must be in exactly one zone" in rules.invariants(rules.load(lost))


def test_an_empty_map_with_cards_left_to_refill_it_is_caught() -> None:
    rules, state = _position(selection="base-3", hands=[["monleon"], [], []], deck=["jaume-i", "cagallo"],
                             foods=["sud", "interior", "nord"], map={"sud": "romer"}, queen="nord")
    assert rules.invariants(state) == []
    dumped = rules.dump(state)
    emptied = {**dumped, "map": [-1] * len(dumped["map"]), "cemetery": [dumped["map"][dumped["spaces"].index("sud")]]}
    assert rules.invariants(rules.load(emptied)) == ["the map is empty while cards remain to refill it"]
