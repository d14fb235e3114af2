"""The Calavera engine: notation, the turn rules, scenarios, playouts, and the sheet layout the renderer draws."""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path

import pytest

from cardworks.games.calavera.game import Configuration, new_game, rules_for, scenario_state, sheet_layout
from cardworks.engine.scenarios import run_scenarios
from cardworks.engine.core import CHANCE, IllegalActionError
from cardworks.engine.playouts import run_playouts
from cardworks.engine.scenarios import resolve, run_scenario
from cardworks.loading import load_database
from cardworks.models import Scenario
from conftest import FIXTURE_CARDS, REPO, run_cli

GAME = FIXTURE_CARDS / "calavera"  # its rules data (tests/fixtures/cards/build.py)
DB = load_database(GAME)






def play(setup: dict, steps: list[str]):
    rules, state = scenario_state(DB, setup)
    for step in steps:
        state = rules.apply(state, resolve(rules, state, step))
    return rules, state


ROLL = ["p1 roll", "die 1 colour-1", "die 2 colour-1", "die 3 calavera", "die 4 colour-3", "die 5 joker", "die 6 colour-4"]


@pytest.mark.parametrize(("steps", "illegal", "rule"), [
    (ROLL, "p1 reroll 3", "skull-stays-aside"),
    (ROLL, "p1 mark colour-1 1", "mark-exact-count"),
    (ROLL, "p1 mark joker 1", "mark-a-colour-row"),
    (ROLL, "p1 pass", "active-must-mark"),
    (ROLL, "p2 mark colour-3 1", "not-your-turn"),
    (ROLL, "die 1 joker", "not-chance"),
    (ROLL[:3], "p1 mark colour-1 2", "chance-pending"),
    (ROLL[:3], "die 3 rainbow", "no-such-face"),
    (ROLL[:3], "die 4 joker", "dice-in-order"),
    (ROLL + ["p1 mark colour-1 3"], "p2 mark colour-1 2", "passive-not-active-colour"),
    (ROLL + ["p1 mark colour-1 3"], "p2 mark colour-3 2", "jokers-used-by-active"),
    (ROLL + ["p1 reroll 1 2", "die 1 joker", "die 2 joker"], "p1 reroll 1 4", "set-aside-stays"),
])
def test_illegal_actions_name_their_rule(steps: list[str], illegal: str, rule: str) -> None:
    rules, state = play({"players": 3}, steps)
    with pytest.raises(IllegalActionError) as caught:
        rules.apply(state, rules.parse(illegal))
    assert caught.value.rule == rule
    assert rule in str(caught.value)


def test_unused_jokers_go_to_passive_players_once() -> None:
    rules, state = play({"players": 3}, ROLL + ["p1 mark colour-1 2"])
    legal = [a.notation() for a in rules.legal_actions(state)]
    assert legal == sorted(legal) and "p2 pass" in legal and "p2 mark colour-3 2" in legal
    assert "p2 mark colour-1 2" not in legal
    state = rules.apply(state, rules.parse("p2 mark colour-3 2"))
    assert state.sheets[1] == (0, 0, 2, 0)
    assert rules.actor(state) == 2  # one skull: p2 is done, p3 decides


def test_legal_actions_are_pure_and_each_applies() -> None:
    rules, state = play({"players": 2}, ROLL)
    before = rules.dump(state)
    legal = rules.legal_actions(state)
    assert rules.dump(state) == before and [a.notation() for a in legal] == sorted(a.notation() for a in legal)
    for action in legal:
        rules.apply(state, action)


def test_die_outcomes_follow_the_face_counts() -> None:
    rules, state = play({"players": 2}, ["p1 roll"])
    assert rules.actor(state) == CHANCE
    faces = [a.face for a in rules.legal_actions(state)]
    assert sorted(faces) == sorted(face for face, sides in rules.faces for _ in range(sides))


def test_every_scenario_passes() -> None:
    results = run_scenarios(DB)
    assert len(results) >= 15
    assert [r.messages for r in results if not r.passed] == []


def test_a_wrong_expectation_fails_and_says_why() -> None:
    doc = json.loads((GAME / "scenarios" / "end.json").read_text())
    raw = next(s for s in doc["scenarios"] if s["id"] == "calavera-tie-shares-the-win")
    raw["expect"] = [{"winners": ["p1"]}, {"illegal": "p1 roll", "rule": "three-rolls"}]
    scenario = Scenario.model_validate(raw)
    rules, state = scenario_state(DB, scenario.setup)
    result = run_scenario(rules, state, scenario, "t", rng=random.Random(0))
    assert not result.passed
    assert "expected winners ['p1']" in result.messages[0] and "'p1', 'p2'" in result.messages[0]
    assert "game-over" in result.messages[1]


def test_a_tie_reports_every_winner() -> None:
    doc = json.loads((GAME / "scenarios" / "end.json").read_text())
    raw = next(s for s in doc["scenarios"] if s["id"] == "calavera-tie-shares-the-win")
    rules, state = play(raw["setup"], raw["steps"])
    assert rules.result(state) == ((0, 1), "rows-closed")
    assert rules.actor(state) is None and rules.legal_actions(state) == []


def test_state_survives_a_json_round_trip() -> None:
    rules, state = play({"players": 3}, ROLL + ["p1 mark colour-1 2"])
    assert rules.load(json.loads(json.dumps(rules.dump(state)))) == state


def test_short_playouts_pass_in_every_configuration() -> None:
    for config in (Configuration(2), Configuration(3), Configuration(4)):
        stats = run_playouts(config.label, lambda rng, c=config: new_game(DB, c, rng), 4, 7)
        assert stats.failures == [] and stats.games == 4
        assert sum(stats.endings.values()) == 4 and "step-limit" not in stats.endings


def test_check_command_runs_calavera() -> None:
    run = run_cli("--cards", str(REPO / "cards"), "check", "--game", "calavera", "--playouts", "2", "--seed", "1")
    assert run.exit_code == 0, run.output
    assert "scenarios: " in run.output and " 0 failed" in run.output


def test_sheet_layout_marks_assumed_values() -> None:
    rows = sheet_layout(DB)
    assert [r.colour for r in rows] == ["colour-1", "colour-2", "colour-3", "colour-4"]
    for row in rows:
        assert row.assumed == {"boxes", "values", "zones"}
        assert len(row.values) == len(row.zones) == row.boxes
        assert row.zones[-1] == "danger" and "bonus" in row.zones
        assert row.zones.index("bonus") < row.zones.index("danger")


def test_sheet_layout_prefers_stated_values(tmp_path: Path) -> None:
    folder = tmp_path / "calavera"
    shutil.copytree(GAME, folder)
    path = folder / "components.json"
    doc = json.loads(path.read_text())
    pad = next(c for c in doc["components"] if c["id"] == "score-pad")
    pad["rows"][0].update({"boxes": 12, "values": [None] * 11 + [1]})
    path.write_text(json.dumps(doc))
    row = sheet_layout(load_database(folder))[0]
    assert row.assumed == {"values", "zones"}
    assert row.values[-1] == 1 and row.values[0] == sheet_layout(DB)[0].values[0]


def test_rules_read_the_parameters() -> None:
    rules, _ = rules_for(DB, Configuration(4))
    assert (rules.players, rules.dice, rules.rolls, len(rules.colours)) == (4, 6, 3, 4)
    assert rules.rows_to_end == 3
