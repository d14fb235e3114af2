"""The response windows inside an action (issue 26 item 1): a battle about to resolve, a treasure about to
change hands, the Queen about to move, a card about to be used. The pack's scenarios for them run in
``test_special_play``; here a wrong expectation about each new card fails, a game without such cards never
queues one, a position inside one keeps its invariants and round-trips, and ``validate`` refuses a cancel whose
outcome would hang on an order the rulebooks do not give."""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path

import pytest

from cardworks.engine.scenarios import run_scenario
from cardworks.games.fallera.actions import parse_action
from cardworks.games.fallera.effects import RESPONSES
from cardworks.games.fallera.game import scenario_state
from cardworks.loading import load_database
from cardworks.models import Scenario
from conftest import FALLERA, FIXTURE_CARDS, REPO

PACK = REPO / "examples" / "fallera-pack"
DB = load_database(FALLERA, [PACK])
SCENARIOS = {s["id"]: s for s in json.loads((PACK / "scenarios" / "example.json").read_text("utf-8"))["scenarios"]}
NEW = ("battle-resolving", "treasure-changing-hands", "queen-moving", "card-being-used")
WINDOW_STEPS = {"window", "sell", "resolve", "move-treasure", "move-queen"}


def _run(scenario_id: str, **changes):
    data = {**SCENARIOS[scenario_id], **changes}
    scenario = Scenario.model_validate(data)
    rules, state = scenario_state(DB, data["setup"])
    return run_scenario(rules, state, scenario, "t", rng=random.Random(0))


WRONG = [  # (scenario, a wrong final expectation, what the runner must say)
    ("scenario-example-sentinella-cancels-a-battle-about-to-resolve", {"counters": {"p1": ["bajoqueta"]}},
     "expected p1's counter ['bajoqueta'], got []"),
    ("scenario-example-cadenat-keeps-a-stolen-treasure", {"counters": {"p1": ["garrofo"]}},
     "expected p1's counter ['garrofo'], got []"),
    ("scenario-example-boira-keeps-the-queen", {"queen": "sud"}, "expected the Queen in sud, got muntanyes-centrals"),
    ("scenario-example-embargo-cancels-a-sale", {"counters": {"p1": []}},
     "expected p1's counter [], got ['espardenyes-pudentes']"),
    ("scenario-example-embargo-seat-order", {"current": "p2"}, "expected current p2, got p4"),
    ("scenario-example-paella-cancels-the-cadenat", {"counters": {"p2": ["garrofo"]}},
     "expected p2's counter ['garrofo'], got []"),
    ("scenario-example-paella-cannot-answer-the-tempesta", {"hands": {"p3": ["paella-protectora"]}},
     "expected p3's hand ['paella-protectora'], got []"),
]


def test_the_four_moments_are_response_triggers() -> None:
    assert set(NEW) <= set(RESPONSES)


@pytest.mark.parametrize("scenario_id, wrong, message", WRONG)
def test_a_wrong_expectation_about_each_window_card_fails(scenario_id: str, wrong: dict, message: str) -> None:
    expect = SCENARIOS[scenario_id]["expect"]
    assert _run(scenario_id).passed
    result = _run(scenario_id, expect=[*expect[:-1], wrong])
    assert result.passed is False and message in result.messages[0], result.messages


def test_a_game_without_such_cards_never_queues_one() -> None:
    from cardworks.games.fallera.game import Configuration, new_game

    db, config, rng, seen = load_database(FALLERA), Configuration("base-3", 4), random.Random(3), set()
    rules, state = new_game(db, config, rng)
    assert not rules._response_events & set(NEW) and rules._resolving is False
    for _ in range(400):
        if rules.outcome(state) is not None:
            rules, state = new_game(db, config, rng)
        state = rules.apply(state, rng.choice(rules.legal_actions(state)), rng=rng)
        seen.update(step[1] if step[0] == "window" else step[0] for step in state.pending)
        assert state.battle is None or len(state.battle) == 4
    # a window of an older moment may open (the paella protectora answers the llenya de taronger played);
    # neither a window of the four new moments nor the split-off rest of an action ever does
    assert seen and not seen & (WINDOW_STEPS | set(NEW)), seen


def test_a_battle_waiting_to_resolve_shows_both_cards_keeps_its_invariants_and_round_trips() -> None:
    setup = {**SCENARIOS["scenario-example-sentinella-cancels-a-battle-about-to-resolve"]["setup"]}
    rules, state = scenario_state(DB, setup)
    for step in ("p1 battle p2 bajoqueta", "p2 defend example-defence-4"):
        state = rules.apply(state, next(a for a in rules.legal_actions(state) if a.notation().startswith(step)))
    assert state.phase == "respond" and len(state.battle) == 5 and rules.actor(state) == 1
    assert rules.invariants(state) == [] and rules.hidden_leak(state) is None
    seen = rules.observe(state, 2)
    assert seen["battle"]["attack"].startswith("example-cavaller#") and seen["battle"]["defence"].startswith(
        "example-defence-4#")
    assert rules.load(json.loads(json.dumps(rules.dump(state)))) == state
    for action in rules.legal_actions(state):
        assert parse_action(action.notation()) == action


def _pack_with(tmp_path: Path, *cards: dict) -> Path:
    pack = tmp_path / "pack"
    shutil.copytree(PACK, pack)
    path = pack / "sets" / "example.json"
    data = json.loads(path.read_text("utf-8"))
    data["cards"] += cards
    data["totals"]["designs"] += len(cards)
    data["totals"]["cards"] += len(cards)
    data["totals"]["by_type"]["special"] += len(cards)
    path.write_text(json.dumps(data, indent=2), "utf-8")
    return pack


def _validate(pack: Path) -> list[str]:
    from cardworks.validate.runner import validate

    return [problem.text() for problem in validate(FIXTURE_CARDS, [pack]).errors]


_SOURCES = [{"doc": "fallera-base", "section": "Special Cards", "lines": "39", "certainty": "inferred"}]


def test_validate_refuses_a_cancel_that_meets_a_special_of_its_own_rank(tmp_path: Path) -> None:
    low = {"id": "example-contra", "quantity": 1, "types": ["special"], "name": "contra", "rules": "Cancels a special.",
           "effects": [{"when": {"event": "card-played"}, "do": [{"verb": "cancel"}]}], "sources": _SOURCES}
    high = {**low, "id": "example-contra-alta", "name": "contra alta", "stats": {"rank": 4}}  # alone at n4
    errors = _validate(_pack_with(tmp_path, low, high))  # n1 meets the rata lladre d'exemple and the other n1s
    line = next(x for x in errors if "cancel-same-rank" in x)
    assert "example.json:/cards/" in line and "/effects/0/do/0" in line and "example-rata-lladre" in line, errors
    assert [x for x in errors if "cancel-same-rank" in x] == [line] and "'example-contra' (n1)" in line


def test_a_determinized_battle_about_to_resolve_keeps_both_cards() -> None:
    from cardworks.games.fallera.heuristics import determinize

    class _Table:
        def __init__(self, rules):
            self.rules, self.cards = rules, rules.defs

    rules, state = scenario_state(DB, SCENARIOS["scenario-example-sentinella-cancels-a-battle-about-to-resolve"]["setup"])
    for step in ("p1 battle p2 bajoqueta", "p2 defend example-defence-4"):
        state = rules.apply(state, next(a for a in rules.legal_actions(state) if a.notation().startswith(step)))
    sampled = determinize(_Table(rules), rules.observe(state, 1), random.Random(1))
    assert sampled.battle == state.battle and sampled.asked == state.asked and rules.actor(sampled) == 1
    # (the sample deals the configuration's deck, not the scenario's: only what is public is compared)


def test_the_engine_stops_when_a_cancel_meets_a_special_of_its_own_rank() -> None:
    rules, state = scenario_state(DB, {"selection": "base", "players": 3, "counters": [[], ["garrofo"], []],
                                       "hands": [["example-rata-lladre"], [], ["paella-protectora"]],
                                       "deck": ["monleon", "jaume-i"], "current": "p1"})
    rata = rules.defs["example-rata-lladre"]
    object.__setattr__(rata, "rank", 2)  # as if the pack printed n2 on it (validate refuses such a deck)
    try:
        with pytest.raises(RuntimeError, match="cancel-same-rank"):
            rules.apply(state, parse_action("p1 play example-rata-lladre#0"))
    finally:
        object.__setattr__(rata, "rank", 1)
