"""Specials played from the hand, response windows, targets and discards (issue 26), on the example pack's
cards: each pack scenario passes, and a deliberately wrong expectation about each card fails."""

from __future__ import annotations

import json
import random

import pytest

from cardworks.engine.core import IllegalActionError
from cardworks.engine.scenarios import run_scenario
from cardworks.games.fallera.actions import Discard, Pass, Play, Respond, Target, parse_action
from cardworks.games.fallera.game import scenario_state
from cardworks.loading import load_database
from cardworks.models import Scenario
from conftest import FALLERA, REPO

PACK = REPO / "examples" / "fallera-pack"
DB = load_database(FALLERA, [PACK])
SCENARIOS = {s["id"]: s for s in json.loads((PACK / "scenarios" / "example.json").read_text("utf-8"))["scenarios"]}


def _run(scenario_id: str, **changes):
    """The pack scenario ``scenario_id`` (its fields replaced by ``changes``), run on a fresh position."""
    data = {**SCENARIOS[scenario_id], **changes}
    data.pop("$schema", None)
    scenario = Scenario.model_validate(data)
    rules, state = scenario_state(DB, data["setup"])
    return run_scenario(rules, state, scenario, "t", rng=random.Random(0))


WRONG = [  # (scenario, a wrong final expectation, what the runner must say)
    ("scenario-example-rata-lladre-steals-a-treasure", {"counters": {"p1": []}}, "expected p1's counter [], got"),
    ("scenario-example-escut-cancels-a-battle", {"counters": {"p1": ["bajoqueta"]}},
     "expected p1's counter ['bajoqueta'], got []"),
    ("scenario-example-campana-rivals-discard", {"hands": {"p1": ["example-cavaller"]}},
     "expected p1's hand ['example-cavaller'], got []"),
    ("scenario-example-paella-cancels-the-rata-lladre", {"counters": {"p1": ["bajoqueta"]}},
     "expected p1's counter ['bajoqueta'], got []"),
]


@pytest.mark.parametrize("scenario_id", sorted(SCENARIOS))
def test_every_pack_scenario_passes(scenario_id: str) -> None:
    result = _run(scenario_id)
    assert result.passed, result.messages


@pytest.mark.parametrize("scenario_id, wrong, message", WRONG)
def test_a_wrong_expectation_about_each_new_card_fails(scenario_id: str, wrong: dict, message: str) -> None:
    expect = SCENARIOS[scenario_id]["expect"]
    result = _run(scenario_id, expect=[*expect[:-1], wrong])
    assert result.passed is False and message in result.messages[0], result.messages


def _position(hands, counters, current="p1"):
    setup = {"selection": "base", "players": 3, "hands": hands, "counters": counters,
             "deck": ["monleon", "jaume-i", "cagallo"], "current": current}
    return scenario_state(DB, setup)


def test_a_window_asks_in_seat_order_from_the_actors_left_and_says_whose_decision_it_is() -> None:
    # p3 holds the escut too, but the battle is against p2: only p2's escut answers (against-you)
    rules, state = _position([["example-cavaller"], ["example-escut"], ["example-escut"]], [[], ["bajoqueta"], []])
    state = rules.apply(state, parse_action("p1 battle p2 bajoqueta#3 with example-cavaller#0"))
    assert state.phase == "respond" and rules.actor(state) == 1 and state.asked[:3] == (1, "battle-called", 0)
    assert [a.notation() for a in rules.legal_actions(state)] == ["p2 pass", "p2 respond example-escut#1"]
    seen = rules.observe(state, 2)
    assert seen["asked"] == [1, "battle-called", 0, 3]  # about the treasure: the attack card stays unseen
    assert seen["battle"]["attack"] == "hidden" and seen["pending"][0][0] == "window"
    passed = rules.apply(state, Pass(1))
    assert passed.phase == "defend" and passed.asked is None and rules.actor(passed) == 1


def test_no_window_opens_when_nobody_holds_an_answer() -> None:
    rules, state = _position([["example-cavaller"], [], ["example-rata-lladre"]], [[], ["bajoqueta"], []])
    state = rules.apply(state, parse_action("p1 battle p2 bajoqueta#2 with example-cavaller#0"))
    assert state.phase == "defend" and state.asked is None and rules.actor(state) == 1
    assert not any(step[0] == "window" for step in state.pending)


def test_a_paella_cannot_answer_a_card_of_higher_rank() -> None:
    rules, state = _position([["example-rata-lladre"], [], ["paella-protectora"]], [[], ["bajoqueta"], []])
    rata = rules.defs["example-rata-lladre"]
    object.__setattr__(rata, "rank", 3)  # as if the pack printed n3 on it (the definitions are frozen)
    try:
        state = rules.apply(state, parse_action("p1 play example-rata-lladre#0"))
        assert state.phase == "target"  # no window: the n2 paella cannot answer an n3 card
    finally:
        object.__setattr__(rata, "rank", 1)


def test_targets_and_discards_round_trip_and_are_refused_when_wrong() -> None:
    for action in (Play(0, parse_action("p1 play x#3").card), Respond(1, parse_action("p2 respond y#4").card),
                   Target(0, 2, parse_action("p1 target p3 z#5").card), Discard(2, parse_action("p3 discard w#6").card)):
        assert parse_action(action.notation()) == action
    rules, state = _position([["example-rata-lladre"], [], []], [["garrofo"], ["bajoqueta"], []])
    with pytest.raises(IllegalActionError) as info:
        rules.apply(state, parse_action("p1 play garrofo#1"))
    assert info.value.rule == "play-from-hand"
    state = rules.apply(state, parse_action("p1 play example-rata-lladre#0"))
    assert [a.notation() for a in rules.legal_actions(state)] == ["p1 target p2 bajoqueta#2"]
    with pytest.raises(IllegalActionError) as info:
        rules.apply(state, parse_action("p1 target p1 garrofo#1"))
    assert info.value.rule == "target-rival"


def test_a_state_waiting_in_a_window_survives_a_json_round_trip() -> None:
    rules, state = _position([["example-rata-lladre", "paella-protectora"], [], ["paella-protectora"]],
                             [[], ["bajoqueta"], []])
    state = rules.apply(state, parse_action("p1 play example-rata-lladre#0"))
    state = rules.apply(state, parse_action("p3 respond paella-protectora#2"))
    assert state.phase == "respond" and state.asked[0] == 0  # p1 may answer p3's paella with their own
    assert rules.load(json.loads(json.dumps(rules.dump(state)))) == state
    assert rules.invariants(state) == []


def test_validate_refuses_a_cancel_outside_a_response() -> None:
    from cardworks.games.fallera.effects import Effect
    from cardworks.games.fallera.placement import card_places, never_fires

    played = Effect.model_validate({"when": {"event": "played"}, "do": [{"verb": "cancel"}]})
    refused = list(never_fires(played, card_places(["special"], None), "a-special"))
    assert refused and refused[0][0] == "/do/0" and "answers nothing" in refused[0][1]
    answering = Effect.model_validate({"when": {"event": "card-played"}, "do": [{"verb": "cancel"}]})
    assert list(never_fires(answering, card_places(["special"], None), "a-special")) == []
