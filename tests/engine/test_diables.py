"""The Diables scoring engine: scenarios, notation, refused steps and scoring invariants."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardworks.engine.scenarios import run_scenarios
from cardworks.engine.core import IllegalActionError
from cardworks.games.diables.actions import parse_action
from cardworks.games.diables.game import scenario_state
from cardworks.engine.scenarios import run_scenario
from cardworks.loading import load_database
from cardworks.models import Scenario
from conftest import FIXTURE_CARDS, run_cli

DB = load_database(FIXTURE_CARDS / "diables")  # its rules data (tests/fixtures/cards/build.py)



def test_every_scenario_passes() -> None:
    results = run_scenarios(DB)
    assert len(results) >= 30
    assert [r.id for r in results if not r.passed] == []


def test_cli_check_passes() -> None:
    result = run_cli("check", "--game", "diables")
    assert result.exit_code == 0, result.output
    assert "0 failed" in result.output


def _scenario(setup: dict, steps: list[str], expect: list[dict]) -> Scenario:
    return Scenario(id="t", title="t", source={"doc": "diables-rules"}, setup=setup, steps=steps, expect=expect)


CARRETILLADA = {"players": 2, "followers": {"p1": {"carretillada": 3}},
                "shows": {"carretillada": {"tile": "carretillada-scoring-tile-figures-by-type",
                                           "figures": ["p1 character colorful @c1", "p1 tabaler @t1",
                                                       "p1 diable regular @d1", "p2 diable whistling @d2"]}}}


def test_a_broken_expectation_fails_and_says_why() -> None:
    rules, state = scenario_state(DB, CARRETILLADA)
    scenario = _scenario(CARRETILLADA, ["p1 score carretillada c1 d1 t1"], [{"fp": {"p1": 14}}])
    result = run_scenario(rules, state, scenario, "t", rng=random.Random(0))
    assert not result.passed
    assert "expected p1's FP 14, got 7" in result.messages[0]


def test_an_unknown_expectation_key_fails() -> None:
    rules, state = scenario_state(DB, CARRETILLADA)
    result = run_scenario(rules, state, _scenario(CARRETILLADA, [], [{"points": {"p1": 1}}]), "t", rng=random.Random(0))
    assert not result.passed and "unknown Diables expectation 'points'" in result.messages[0]


def test_refused_steps_name_the_rule() -> None:
    rules, state = scenario_state(DB, CARRETILLADA)
    with pytest.raises(IllegalActionError) as caught:
        rules.apply(state, parse_action("p1 score carretillada c1 d1"))
    assert caught.value.rule == "follower-limit" and "[follower-limit]" in str(caught.value)
    with pytest.raises(IllegalActionError) as caught:
        rules.apply(state, parse_action("p1 score carretillada c1 d2 t1"))
    assert caught.value.rule == "own-figures"


def test_legal_actions_are_sorted_and_apply() -> None:
    rules, state = scenario_state(DB, CARRETILLADA)
    legal = rules.legal_actions(state)
    notations = [a.notation() for a in legal]
    assert notations == sorted(notations)
    assert "p1 score carretillada c1 d1 t1" in notations and "score street" in notations
    for action in legal:
        rules.apply(state, action)


def test_dump_and_load_round_trip() -> None:
    rules, state = scenario_state(DB, CARRETILLADA)
    assert rules.load(rules.dump(state)) == state


def test_every_scoring_tile_has_a_condition_with_its_source() -> None:
    from cardworks.games.diables.game import tile_conditions
    from cardworks.loading.records import Index

    conditions = tile_conditions(DB)
    tiles = [r for r in Index(DB).of_kind("component") if "scoring-tile" in r.id or r.id.startswith("lluiment-tile")]
    assert len(tiles) == 22 and all(t.id in conditions for t in tiles)
    assert all(any("scoring" in s.facts for s in t.model.sources) for t in tiles)


KINDS = ["diable", "character", "small-beast", "large-beast"]
figures = st.lists(st.tuples(st.sampled_from(["p1", "p2", "p3", "neutral"]), st.sampled_from(KINDS + ["tabaler"]),
                             st.sampled_from(["regular", "whistling", "colorful"]), st.integers(1, 6)), max_size=12)


def _show_setup(figs: list, tile: str, fp: dict, street: dict) -> dict:
    written = [f"{o} {k} {'' if k == 'tabaler' else c + ' '}@s{i}".replace("  ", " ") for i, (o, k, c, _) in enumerate(figs)]
    places = {f"s{i}": {"quadrants": [f"q{n % 2}"], "opposite": f"s{n}", "side": "left" if n % 2 else "right",
                        "row": n, "column": i % 3, "adjacent": [f"s{(i + 1) % max(len(figs), 1)}"]}
              for i, (_, _, _, n) in enumerate(figs)}
    return {"players": 3, "lluiments": ["regular-firecrackers"], "fp": fp, "street": street,
            "followers": {p: {"trobada-de-besties": 3} for p in ("p1", "p2", "p3")},
            "shows": {"trobada-de-besties": {"tile": tile, "figures": written, "places": places}}}


@settings(max_examples=60, deadline=None)
@given(figures, st.sampled_from(["trobada-de-besties-scoring-tile-adjacent-sectors",
                                  "trobada-de-besties-scoring-tile-opposite",
                                  "trobada-de-besties-scoring-tile-paired-sectors",
                                  "trobada-de-besties-scoring-tile-firecracker-majority"]),
       st.dictionaries(st.sampled_from(["p1", "p2", "p3"]), st.integers(0, 6)),
       st.dictionaries(st.sampled_from(["p1", "p2", "p3"]), st.lists(st.booleans(), max_size=4)))
def test_scoring_keeps_fame_points_non_negative_and_lluiment_conserves_counts(figs, tile, fp, street) -> None:
    setup = _show_setup(figs, tile, fp, {p: [{"covered": c} for c in cs] for p, cs in street.items()})
    rules, state = scenario_state(DB, setup)
    rule = rules.tiles["lluiment-tile-regular-firecrackers"]
    counts = rules.lluiment_counts(state, rule)
    weights = {"diable": 1, "character": 2, "small-beast": 2, "large-beast": 3}
    assert sum(counts) == sum(weights[k] for o, k, c, _ in figs if o != "neutral" and k != "tabaler" and c == "regular")
    rng = random.Random(len(figs))
    while rules.actor(state) is not None:
        legal = rules.legal_actions(state)
        if not legal:
            break
        state = rules.apply(state, rng.choice(legal))
        assert rules.invariants(state) == []
        assert min(state.fp) >= 0
