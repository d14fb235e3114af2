"""Scenario expectations on what a player observes, and starting positions checked before any step."""

from __future__ import annotations

import random

from cardworks.games.fallera.game import scenario_state
from cardworks.engine.scenarios import run_scenario
from cardworks.loading import load_database
from cardworks.models import Scenario
from conftest import REPO

DB = load_database(REPO / "cards" / "fallera")
SETUP = {"players": 2, "hands": [["el-capita-moro"], ["el-tio-sangonera"]], "counters": [[], ["garrofo"]],
         "deck": ["carxofa", "bajoqueta"], "current": "p1"}
ATTACK = ["p1 battle p2 garrofo with el-capita-moro"]


def _run(expect: list[dict], setup: dict = SETUP, steps: list[str] = ATTACK) -> list[str]:
    rules, state = scenario_state(DB, setup)
    scenario = Scenario(id="t", title="t", source={"doc": "fallera-base"}, setup=setup, steps=steps, expect=expect)
    return run_scenario(rules, state, scenario, "t", rng=random.Random(0)).messages


def test_observation_paths_match_designs_without_instance_numbers() -> None:
    assert _run([{"observe": "p1", "sees": {"battle.attack": "el-capita-moro", "hand_sizes": [0, 1]}},
                 {"observe": "p2", "sees": {"battle.attack": "hidden", "hand": ["el-tio-sangonera"]}}]) == []


def test_a_wrong_observation_says_what_the_player_saw() -> None:
    assert _run([{"observe": "p2", "sees": {"battle.attack": "el-capita-moro"}}]) == [
        "expected p2 to see battle.attack = 'el-capita-moro', got 'hidden'"]


def test_an_unknown_observation_path_is_reported() -> None:
    assert _run([{"observe": "p1", "sees": {"battle.defence": 1, "hand_sizes.5": 0}}]) == [
        "p1's observation has no 'battle.defence'"]


def test_an_unsound_starting_position_fails_before_any_step() -> None:
    setup = {**SETUP, "hands": [["el-capita-moro", "conill"], ["el-tio-sangonera"]]}  # a treasure in a hand
    messages = _run([], setup, [])
    assert messages == ["the starting position: a treasure is in a hand instead of on its counter"]
