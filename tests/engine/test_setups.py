"""Setups the rulebooks forbid are refused, naming the rule and its source; territorial foods are the five real ones."""

from __future__ import annotations

import json
import random

import pytest

from cardworks.engine.scenarios import run_scenarios
from cardworks.engine.core import SetupRefused
from cardworks.games.fallera.game import Configuration, new_game, scenario_state
from cardworks.loading import load_database
from conftest import FALLERA, FIXTURE_CARDS, run_cli

DB = load_database(FALLERA)
FOODS = {"nord", "xuquer-turia", "muntanyes-centrals", "sud", "interior"}


@pytest.mark.parametrize("selection, players, rule, source", [
    ("base", 6, "players-base", "fallera-base, Objective of the Game, line 6"),
    ("base-3", 6, "max-players-with-mes-enlla", "fallera-3, Final game conditions in this mode, line 168"),
    ("expert", 6, "max-players-with-mes-enlla", "line 168"),
    ("base-2", 7, "players", "fallera-2"),
    ("base", 1, "players", "fallera"),
])
def test_new_game_refuses_what_the_rulebooks_forbid(selection: str, players: int, rule: str, source: str) -> None:
    with pytest.raises(SetupRefused) as refused:
        new_game(DB, Configuration(selection, players), random.Random(1))
    assert refused.value.rule == rule and source in refused.value.source
    assert rule in str(refused.value)


def test_scenario_setup_refuses_six_players_without_expecting_it() -> None:
    with pytest.raises(SetupRefused, match="players-base"):
        scenario_state(DB, {"selection": "base", "players": 6})


@pytest.mark.parametrize("players", [2, 5])
def test_territorial_foods_are_the_five_real_ones_never_benidorm(players: int) -> None:
    dealt = set()
    for seed in range(25):
        _, state = new_game(DB, Configuration("expert", players), random.Random(seed))
        assert "benidorm" not in state.foods and len(set(state.foods)) == players
        dealt |= set(state.foods)
        if players == 5:
            assert set(state.foods) == FOODS  # with five players every real food is dealt
    assert dealt == FOODS


def test_cli_refuses_a_forbidden_configuration_with_exit_1() -> None:
    run = run_cli("--cards", str(FIXTURE_CARDS), "check", "--selection", "base", "--players", "6", "--playouts", "1")
    assert run.exit_code == 1
    assert "players-base" in run.output and "fallera-base, Objective of the Game, line 6" in run.output


def test_a_refused_expectation_fails_when_accepted_or_refused_by_another_rule(tmp_path) -> None:
    scenarios = [
        {"id": "scenario-accepted", "title": "t", "source": {"doc": "fallera-base"},
         "setup": {"selection": "base", "players": 5}, "refused": "players-base"},
        {"id": "scenario-other-rule", "title": "t", "source": {"doc": "fallera-base"},
         "setup": {"selection": "base", "players": 6}, "refused": "players"},
        {"id": "scenario-unexpected", "title": "t", "source": {"doc": "fallera-base"},
         "setup": {"selection": "base-3", "players": 6}},
    ]
    path = tmp_path / "refusals.json"
    path.write_text(json.dumps({"$schema": "x", "game": "fallera", "scenarios": scenarios}))
    results = {r.id: r for r in run_scenarios(DB, [path]) if r.file.endswith("refusals.json")}
    assert not any(r.passed for r in results.values())
    assert "accepted" in results["scenario-accepted"].messages[0]
    assert "players-base" in results["scenario-other-rule"].messages[0]
    assert "max-players-with-mes-enlla" in results["scenario-unexpected"].messages[0]


@pytest.mark.parametrize("selection, rule, source", [
    ("base", "redeal-ingredients", "fallera-base, Playing the Game, line 61"),
    ("base-3", "max-ingredients-on-map-setup", "fallera-3, Setup, line 74"),
])
def test_a_deck_that_gives_no_deal_the_rules_keep_is_refused(selection: str, rule: str, source: str) -> None:
    """A deck of ingredients alone puts 3+ on every counter (and 2+ on the map) however it is shuffled: the setup
    stops after MAX_REDEALS tries naming the rule, instead of shuffling for ever or keeping a deal it must redo."""
    from cardworks.games.fallera.deal import MAX_REDEALS
    from cardworks.games.fallera.game import rules_for

    rules, _ = rules_for(DB, Configuration(selection, 2))
    ingredients = sorted(d for d, card in rules.defs.items() if card.kind == "ingredient")
    counted = _CountingRandom(1)
    with pytest.raises(SetupRefused) as refused:
        rules.new_game(rng=counted, deal=7, designs=tuple(ingredients * 10))
    assert refused.value.rule == rule and source in refused.value.source
    assert f"{MAX_REDEALS} " in refused.value.reason and rule in str(refused.value)
    assert counted.shuffles == MAX_REDEALS  # the first refused loop's tries, then it stops


class _CountingRandom(random.Random):
    shuffles = 0

    def shuffle(self, x) -> None:
        self.shuffles += 1
        super().shuffle(x)
