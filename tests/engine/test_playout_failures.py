"""A playout in which the game raises is a failed playout, reported and saved, never a crashed ``check``.

Each test plants a raising piece of code in a game's engine (monkeypatch), runs the real command or the real
playout runner, and reads back what it printed and saved. The machinery of ``check`` is the same for every
game, so its tests plant the bug in the fixture game Minitrick (a playout of four plays); the tests of the
random numbers Fallera's own turn-start effects and verbs draw stay on the shipped Fallera engine.
"""

from __future__ import annotations

import json
import random

import pytest

from cardworks.engine import check as check_module
from cardworks.engine.core import SetupRefused
from cardworks.engine.plugins import plugin_for
from cardworks.games.fallera.rules import FalleraRules
from cardworks.loading import load_database
from conftest import FALLERA, FIXTURE_CARDS, FIXTURE_GAMES, run_cli
from minitrick import game as minitrick_game
from minitrick.rules import MinitrickRules

DB = load_database(FALLERA)
ONE = ("--selection", "base", "--players", "3")
MINITRICK = FIXTURE_GAMES / "minitrick" / "cards"


def _raise_after_trick(tricks: int, monkeypatch) -> None:
    """Make every play after ``tricks`` finished tricks raise, as an effect with a bug would."""
    original = MinitrickRules.apply

    def broken(self, state, action, **kwargs):
        if sum(state.tricks) >= tricks:
            raise ZeroDivisionError("planted bug in a play")
        return original(self, state, action, **kwargs)

    monkeypatch.setattr(MinitrickRules, "apply", broken)


def _check_minitrick(tmp_path, *more: str):
    return run_cli("--cards", str(MINITRICK), "check", "--game", "minitrick", "--playouts", "2", "--seed", "1",
                   "--save-failures", str(tmp_path / "failed"), *more)


def _check(tmp_path, *more: str):
    return run_cli("--cards", str(FIXTURE_CARDS), "check", "--game", "fallera", "--playouts", "2", "--seed", "1",
                   *ONE, "--save-failures", str(tmp_path / "failed"), *more)


def test_an_effect_that_raises_fails_the_playout_with_seed_step_and_log_and_saves_a_replay(tmp_path, monkeypatch):
    _raise_after_trick(1, monkeypatch)
    run = _check_minitrick(tmp_path)
    assert run.exit_code == 1 and "Traceback" not in run.output
    line = next(l for l in run.output.splitlines() if "planted bug" in l and "seed" in l)
    assert "base/2p, seed 100003, step " in line and "ZeroDivisionError raised at test_playout_failures.py" in line
    assert "\n  log: " in run.output
    saved = sorted((tmp_path / "failed").glob("*.json"))
    assert [p.name for p in saved] == ["playout-base-2p-seed-100003.json", "playout-base-2p-seed-100004.json"]
    scenario = json.loads(saved[0].read_text(encoding="utf-8"))["scenarios"][0]
    step = int(line.split(", step ")[1].split(":")[0])
    assert step == len(scenario["steps"]) > 0 and scenario["setup"]["state"]
    assert f"step {step}" in scenario["source"]["note"]
    # the saved file replays the failure: the same step raises the same error, reported, not a traceback
    replay = run_cli("--cards", str(MINITRICK), "check", "--game", "minitrick", "--playouts", "0",
                     "--scenarios", str(saved[0]), "--format", "json")
    result = next(s for s in json.loads(replay.output)["scenarios"] if s["id"] == scenario["id"])
    assert replay.exit_code == 1 and not result["passed"]
    assert "ZeroDivisionError" in result["messages"][0] and "planted bug" in result["messages"][0]


def test_the_json_report_carries_configuration_seed_step_and_the_whole_log(tmp_path, monkeypatch):
    _raise_after_trick(1, monkeypatch)
    run = _check_minitrick(tmp_path, "--format", "json")
    failures = json.loads(run.output)["playouts"][0]["failures"]
    assert run.exit_code == 1 and len(failures) == 2
    first = failures[0]
    assert first["configuration"] == "base/2p" and first["seed"] == 100003
    assert first["step"] == len(first["log"]) > 0 and "planted bug" in first["message"]


def test_a_raising_invariant_is_a_failed_playout(tmp_path, monkeypatch):
    original = MinitrickRules.invariants

    def invariants(self, state):
        if sum(state.tricks) >= 1:
            raise KeyError("planted bug in an invariant")
        return original(self, state)

    monkeypatch.setattr(MinitrickRules, "invariants", invariants)
    run = _check_minitrick(tmp_path)
    assert run.exit_code == 1 and "KeyError raised" in run.output and "planted bug in an invariant" in run.output
    assert len(list((tmp_path / "failed").glob("*.json"))) == 2


def test_dealing_that_raises_is_a_failed_playout_naming_configuration_and_seed(tmp_path, monkeypatch):
    def hand_size(db):  # read by the deal alone
        raise RuntimeError("planted bug in the deal")

    monkeypatch.setattr(minitrick_game, "_hand_size", hand_size)
    run = _check_minitrick(tmp_path, "--format", "json")
    failures = json.loads(run.output)["playouts"][0]["failures"]
    assert run.exit_code == 1
    assert [(f["configuration"], f["seed"], f["step"], f["log"]) for f in failures] == [
        ("base/2p", 100003, 0, []), ("base/2p", 100004, 0, [])]
    assert failures[0]["message"].startswith("dealing a new game: RuntimeError raised")
    assert not (tmp_path / "failed").exists() or not list((tmp_path / "failed").iterdir())  # nothing to replay from


def test_a_failure_inside_a_worker_process_is_reported_not_raised(monkeypatch):
    _raise_after_trick(1, monkeypatch)  # forked workers inherit the planted bug
    plugin = plugin_for("minitrick")
    db = load_database(MINITRICK / "minitrick")
    configs = plugin.configurations(db)[0]
    stats = check_module.all_playouts(db, "minitrick", 4, 1, jobs=2, run=2, configs=configs)
    assert [s.configuration for s in stats] == ["base/2p"]
    assert all(len(s.failures) == 4 and all("planted bug" in f.message and f.step > 0 for f in s.failures)
               for s in stats)


def test_a_saved_position_replays_exactly_and_is_not_mixed_with_a_hand_made_one():
    """Minitrick takes the ``state`` a failed playout saved (the replay above needs it), and only with its
    configuration and seed: a position given both ways, or a seed without a position, is refused."""
    plugin = plugin_for("minitrick")
    db = load_database(MINITRICK / "minitrick")
    rules, state = plugin.new_game(db, plugin.configurations(db)[0][0], random.Random(1))
    saved = {"state": rules.dump(state), "selection": "base", "players": 2, "seed": 3}
    assert plugin.scenario_state(db, saved)[1] == state
    for bad in ({**saved, "leader": "p2"}, {"seed": 3}, {"hands": {"p1": ["one"]}, "players": 2}):
        with pytest.raises(ValueError, match="a saved position is 'state' with selection, players and seed only"):
            plugin.scenario_state(db, bad)
    with pytest.raises(SetupRefused):
        plugin.scenario_state(db, {**saved, "players": 3})


def test_new_game_gives_its_rng_to_the_first_turn(monkeypatch):
    """A turn-start effect that draws chance from the step's rng works on the first turn, which new_game starts."""
    drawn = []
    original = FalleraRules._start_turn

    def start_turn(self, draft, *args, **kwargs):
        drawn.append(draft.rng.random())  # raised AttributeError ('NoneType') before the draft carried the rng
        return original(self, draft, *args, **kwargs)

    monkeypatch.setattr(FalleraRules, "_start_turn", start_turn)
    config = next(c for c in plugin_for("fallera").configurations(DB)[0] if c.label == "base/3p")
    seeds = []
    for _ in range(2):
        _, state = plugin_for("fallera").new_game(DB, config, random.Random(5))
        seeds.append(drawn[-1])
    assert drawn and seeds[0] == seeds[1]  # drawn from the seeded rng: the same seed, the same draw


def test_a_scenario_position_gives_its_seed_to_the_turn_it_starts(monkeypatch):
    drawn = []
    original = FalleraRules._start_turn

    def start_turn(self, draft, *args, **kwargs):
        drawn.append(draft.rng.random())
        return original(self, draft, *args, **kwargs)

    monkeypatch.setattr(FalleraRules, "_start_turn", start_turn)
    setup = {"selection": "base", "players": 2, "seed": 3}
    plugin_for("fallera").scenario_state(DB, setup)
    assert drawn == [random.Random(3).random()]


def test_a_verb_drawing_chance_from_the_draft_runs_everywhere_check_plays(tmp_path, monkeypatch):
    """Every effect the interpreter plays (in new_game's first turn, in steps, in scenarios) finds the step's
    rng on the draft: check passes with a verb that draws from it, and the draws are there."""
    original, draws = FalleraRules._steps["verbs"], []

    def verbs(self, draft, *args):
        draws.append(draft.rng.random())  # AttributeError on None where a draft has no rng
        return original(self, draft, *args)

    monkeypatch.setitem(FalleraRules._steps, "verbs", verbs)
    run = _check(tmp_path, "--format", "json")
    report = json.loads(run.output)
    assert [f["message"] for p in report["playouts"] for f in p["failures"]] == []
    assert all(s["passed"] for s in report["scenarios"]) and run.exit_code == 0 and draws


def test_a_verb_that_raises_is_a_failed_playout(tmp_path, monkeypatch):
    original = FalleraRules._steps["verbs"]

    def verbs(self, draft, *args):
        if draft.turn >= 2:
            raise TypeError("planted bug in a verb")
        return original(self, draft, *args)

    monkeypatch.setitem(FalleraRules._steps, "verbs", verbs)
    run = _check(tmp_path, "--format", "json")
    failures = json.loads(run.output)["playouts"][0]["failures"]
    assert run.exit_code == 1 and failures and all("TypeError raised" in f["message"] for f in failures)
    assert all(f["step"] == len(f["log"]) > 0 for f in failures)
