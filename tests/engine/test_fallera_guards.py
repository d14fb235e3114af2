"""Fallera's guards against bugs elsewhere fail on the bad position they guard against.

``check`` runs them after every step, but on the positions correct rules reach they never fire, so the
mutation bench cannot show them failing (bench/equivalent-mutants.json): these tests plant the bad
position (or the leaking view) and show each one failing, and passing on the good position beside it."""

from __future__ import annotations

import functools
import json
import random
from pathlib import Path

import pytest

from cardworks.engine.scenarios import run_scenario
from cardworks.games.fallera import views
from cardworks.games.fallera.game import scenario_state
from cardworks.games.fallera.victory import Victory
from cardworks.loading import load_database
from cardworks.models import Scenario
from conftest import FALLERA

DB = load_database(FALLERA)
EFFECTS_PACK = Path(__file__).parent / "effects_pack"


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


REFUSED_THEN_ANOTHER_WINS = "scenario-fixture-senyera-refused-paella-lets-the-next-paella-win"
QUEUE_LEFT = "steps wait in the queue only while a decision or chance outcome is due"


@functools.cache
def _effects_pack() -> tuple:
    doc = json.loads((EFFECTS_PACK / "scenarios" / "fixture.json").read_text("utf-8"))
    return load_database(FALLERA, [EFFECTS_PACK]), {s["id"]: s for s in doc["scenarios"]}


def _run_pack_scenario(scenario_id: str, **changes):
    db, scenarios = _effects_pack()
    data = {**scenarios[scenario_id], **changes}
    rules, state = scenario_state(db, data["setup"])
    return run_scenario(rules, state, Scenario.model_validate(data), "t", rng=random.Random(0))


def test_a_refused_paella_that_lets_another_paella_win_passes_its_scenario() -> None:
    result = _run_pack_scenario(REFUSED_THEN_ANOTHER_WINS)
    assert result.passed, result.messages


@pytest.mark.parametrize("wrong, message", [
    ({"winner": "p1", "reason": "five-ingredients-seafood"}, "expected winner p1"),
    ({"observe": "p1", "sees": {"pending": [["end-action"]]}}, "expected p1 to see pending = [['end-action']], got []"),
])
def test_a_wrong_end_of_the_refused_paella_scenario_fails(wrong: dict, message: str) -> None:
    _, scenarios = _effects_pack()
    expect = scenarios[REFUSED_THEN_ANOTHER_WINS]["expect"]
    result = _run_pack_scenario(REFUSED_THEN_ANOTHER_WINS, expect=[*expect[:-1], wrong])
    assert result.passed is False and message in result.messages[0], result.messages


def test_the_queue_invariant_fails_the_refused_paella_scenario_on_the_rules_before_5ecf842(monkeypatch) -> None:
    """The bug 5ecf842 fixed, put back: when the coin refuses a seafood paella and another player's paella
    then wins, the game ends with the end of the action still queued. The runner checks the engine's
    invariants after every step, so the scenario fails at the last toss (found by ``check --pack`` on the
    shipped game, base-2/3p, seed 100032, step 126; with the two lines reverted the fast suite stayed green)."""
    fixed = Victory._after_toss

    def as_before_the_fix(self, draft) -> None:
        pending = draft.pending
        fixed(self, draft)
        if draft.phase == "over" and draft.reason != "five-ingredients-seafood":
            draft.pending = pending  # a win found after the refusal left the queue as it was

    monkeypatch.setattr(Victory, "_after_toss", as_before_the_fix)
    result = _run_pack_scenario(REFUSED_THEN_ANOTHER_WINS)
    assert result.messages == [f"after step 6 'coin heads': {QUEUE_LEFT}"]


def test_hidden_leak_catches_an_observation_showing_another_players_look(monkeypatch) -> None:
    """The looks an observation shows are checked against the marks of the viewer's own looks only."""
    from cardworks.games.fallera.verbs import Verbs

    rules, state = _position(hands=[["monleon"], ["jaume-i"], ["conill"]], deck=["cagallo"])
    state = rules.load({**rules.dump(state), "marks": [["seen", 1, 2, list(state.hands[2])]]})  # p2 looked at p3
    assert rules.hidden_leak(state) is None
    everyone = lambda self, state, who, label: {views.player(m[2]): [] for m in state.marks if m[0] == "seen"}
    monkeypatch.setattr(Verbs, "_looked", everyone)  # p2's look shown to every player
    assert rules.hidden_leak(state) == "p1's observation shows a hand they did not look at"


def test_hidden_leak_catches_a_face_down_attack_shown_before_the_defence(monkeypatch) -> None:
    """Before the defence is chosen, only the attacker (or a target with a face-up-attacks card) sees the attack."""
    rules, state = _position(hands=[["el-capita-moro"], ["monleon"], []], counters=[[], ["conill"], []],
                             deck=["cagallo"])
    state = rules.apply(state, rules.parse(f"p1 battle p2 conill#{state.counters[1][0]} with "
                                           f"el-capita-moro#{state.hands[0][0]}"))
    assert state.phase == "defend" and len(state.battle) == 4 and rules.hidden_leak(state) is None
    facts = rules.facts(state)
    monkeypatch.setattr(facts, "face_up", (True,) * facts.size)  # every card shows attacks face up in the view
    assert rules.hidden_leak(state) == "p2 sees the face-down attack"


def test_an_attached_card_whose_host_left_every_counter_is_caught() -> None:
    rules, state = _position(hands=[["monleon"], ["jaume-i"], []], counters=[["conill"], [], []], deck=["cagallo"])
    dumped = rules.dump(state)
    host = dumped["counters"][0][0]
    special = dumped["deck"].pop()
    attached = {**dumped, "marks": [["attach", special, host]]}
    assert rules.invariants(rules.load(attached)) == []
    gone = {**attached, "counters": [[], [], []], "cemetery": [host]}
    assert "a card is attached to a treasure that is on no counter" in rules.invariants(rules.load(gone))


_ZONES_AND_PHASES = [  # a change to a sound position's dump, and the cheap invariant it breaks
    ({"hands": [[0], [1], [2]], "counters": [[], [], []]}, "a treasure is in a hand instead of on its counter"),
    ({"hands": [[], [1], []], "counters": [[2, 0], [], []]}, "a card that is not a treasure is on a counter"),
    ({"deck": [3, 3]}, "conservation: every card instance must be in exactly one zone"),
    ({"deck": [], "laying": [3], "phase": "lay"}, None),  # a card waiting to be laid is in a zone of its own
    ({"deck": [], "laying": [3]}, "cards wait to be laid on the map exactly in the lay phase"),
    ({"battle": [0, 1, 2, 3], "deck": []}, "a battle is pending exactly in the defend phase"),
    ({"phase": "over"}, "a game is over exactly when it has a reason"),
    ({"phase": "respond"}, "a player is asked exactly in the respond, target, discard and choose phases"),
    ({"refused": [[2], [], [], []]}, "a refused paella is recorded for each player or for none"),
    ({"refused": [[2]]}, "a refused paella is recorded for each player or for none"),  # the full set said IndexError
    ({"phase": "toss"}, "coin tosses are pending exactly in the toss phase"),
    ({"again": 1}, "one more battle is offered exactly in the again phase"),
    ({"pending": [["end-action"]]}, "steps wait in the queue only while a decision or chance outcome is due"),
]


@pytest.mark.parametrize(("change", "message"), _ZONES_AND_PHASES)
def test_the_cheap_invariants_catch_each_bad_zone_and_phase(change, message) -> None:
    """``step_invariants`` (what ``check`` runs at every step) fails on each bad position, with the message of the
    invariant it breaks, and passes on the sound one; ``invariants`` (the steps checked in full) says the same."""
    rules, state = _position(hands=[["monleon"], ["jaume-i"], []], counters=[["conill"], [], []], deck=["cagallo"])
    assert rules.step_invariants(state) == [] and rules.invariants(state) == []
    bad = rules.load({**rules.dump(state), **change})
    broken = rules.step_invariants(bad)
    if message is None:
        assert not any("zone" in line for line in broken)
    else:
        assert any(line.startswith(message) for line in broken), broken
        assert set(broken) <= set(rules.invariants(bad))


def test_hidden_leak_catches_an_observation_showing_another_players_hand(monkeypatch) -> None:
    rules, state = _position(hands=[["monleon"], ["jaume-i"], []], deck=["cagallo"])
    assert rules.hidden_leak(state) is None
    shown = views.Views._private_view

    def rivals_hand(self, position, who):  # every player shown p2's hand
        return {**shown(self, position, who), "hand": shown(self, position, 1)["hand"]}

    monkeypatch.setattr(views.Views, "_private_view", rivals_hand)
    assert rules.hidden_leak(state) == "p1's observation shows a hand that is not theirs"
