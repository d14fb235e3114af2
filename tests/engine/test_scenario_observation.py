"""Scenario expectations on what a player observes, and starting positions checked before any step: the
runner's own logic, shown on the fixture game Minitrick (tests/fixtures/games)."""

from __future__ import annotations

import random

from cardworks.engine.plugins import data_folder, plugin_for
from cardworks.engine.scenarios import run_scenario
from cardworks.loading import load_database
from cardworks.models import Scenario

PLUGIN = plugin_for("minitrick")
DB = load_database(data_folder(PLUGIN))
SETUP = {"hands": {"p1": ["one", "three"], "p2": ["two", "two"]}, "deck": ["one"]}
LEAD = ["p1 play three"]


def _run(expect: list[dict], steps: list[str] = LEAD, state=None) -> list[str]:
    rules, start = PLUGIN.scenario_state(DB, SETUP)
    scenario = Scenario(id="t", title="t", source={"doc": "minitrick-rules"}, setup=SETUP, steps=steps, expect=expect)
    return run_scenario(rules, start if state is None else state, scenario, "t", rng=random.Random(0)).messages


def test_observation_paths_match_designs_without_instance_numbers() -> None:
    assert _run([{"observe": "p1", "sees": {"table": ["three"], "hand": ["one"], "hand_sizes": [1, 2]}},
                 {"observe": "p2", "sees": {"table": ["three#1"], "hand": ["two", "two"], "deck_size": 1}}]) == []


def test_a_wrong_observation_says_what_the_player_saw() -> None:
    assert _run([{"observe": "p2", "sees": {"deck_size": 2}}]) == ["expected p2 to see deck_size = 2, got 1"]


def test_an_unknown_observation_path_is_reported() -> None:
    assert _run([{"observe": "p1", "sees": {"table.card": 1, "hand_sizes.1": 2}}]) == [
        "p1's observation has no 'table.card'"]


def test_an_unsound_starting_position_fails_before_any_step() -> None:
    rules, start = PLUGIN.scenario_state(DB, SETUP)
    twice = rules.load({**rules.dump(start), "hands": [[0, 1], [1, 3]]})  # card 1 in both hands, card 2 nowhere
    assert _run([], [], twice) == [
        "the starting position: every card instance is in exactly one place: a hand, the deck, the table or a won trick"]


def test_an_observation_of_another_json_type_does_not_match() -> None:
    """``1.0 == 1`` and ``False == 0`` in Python; an expectation's number is held to its JSON type (issue 49)."""
    assert _run([{"observe": "p2", "sees": {"deck_size": 1.0}}]) == ["expected p2 to see deck_size = 1.0, got 1"]
    assert _run([{"observe": "p2", "sees": {"deck_size": True}}]) == ["expected p2 to see deck_size = True, got 1"]
    assert _run([{"observe": "p1", "sees": {"hand_sizes": [1, 2.0]}}]) == [
        "expected p1 to see hand_sizes = [1, 2.0], got [1, 2]"]
    assert _run([{"observe": "p1", "sees": {"hand_sizes": [1, 2], "deck_size": 1}}]) == []
