"""Every ruling that states behaviour is checked by a passing scenario, or the reason it cannot be yet is found."""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest

from cardworks.engine import coverage
from cardworks.engine.scenarios import run_scenarios
from cardworks.engine.coverage import classify, feature_problems, left_out_cards, ruling_coverage
from cardworks.games.fallera.game import Configuration, rules_for
from cardworks.loading import load_database
from cardworks.loading.records import Index
from cardworks.problems import ProblemList
from cardworks.validate.check_refs import check_references
from conftest import REPO

DB = load_database(REPO / "cards" / "fallera")


@pytest.fixture(scope="module")
def results():
    return run_scenarios(DB)


@pytest.fixture(scope="module")
def cov(results):
    return ruling_coverage(DB, results)


def test_every_behaviour_ruling_is_checked_or_blocked_with_a_reason(cov) -> None:
    unexplained = {r.ruling: r.reason for r in cov.values() if not r.checked and not r.blocked}
    assert unexplained == {}


def test_checked_rulings_name_only_existing_passing_scenarios(cov, results) -> None:
    passed = {r.id for r in results if r.passed}
    assert cov and passed
    for item in cov.values():
        assert not item.missing and not item.failing, item.reason
        assert set(item.passing) <= passed


def test_links_between_rulings_and_scenarios_go_both_ways() -> None:
    """``validate`` reports a link that dangles or goes one way (the engine's coverage no longer asks it)."""
    out = ProblemList()
    check_references(Index(DB), out)
    assert [p for p in out.items if p.code in {"one-way-link", "dangling-ref"}] == []


def test_declared_missing_features_are_current(cov) -> None:
    assert feature_problems(DB, cov) == []


def test_unmodelled_cards_come_with_the_engine_s_reason(cov) -> None:
    """The cards blamed are those the expert selection (all three sets) leaves out, with its own words."""
    engine = rules_for(DB, Configuration("expert", 4))[1].left_out
    for item in cov.values():
        for card, why in item.left_out.items():
            assert engine.get(card) == why
            assert item.checked or f"{card} is left out ({why})" in item.reason
    assert set(left_out_cards(DB)) == {c for c, why in engine.items() if not why.startswith("removed at")}


def test_scenarios_written_for_rulings_cite_the_ruling_s_source() -> None:
    rulings = {r.id: r.model for r in Index(DB).of_kind("ruling")}
    files = sorted((REPO / "cards" / "fallera" / "scenarios").glob("rulings-*.json"))
    assert files
    for path in files:
        for scenario in json.loads(path.read_text(encoding="utf-8"))["scenarios"]:
            assert scenario["rulings"], scenario["id"]
            for ruling_id in scenario["rulings"]:
                source = rulings[ruling_id].source
                assert (scenario["source"]["doc"], scenario["source"].get("section"), scenario["source"].get("lines")) \
                    == (source.doc, source.section, source.lines), (scenario["id"], ruling_id)


def _ruling(id: str, cards: list[str], scenarios: list[str] | None = None, behaviour: bool = True):
    return SimpleNamespace(id=id, cards=cards, scenarios=scenarios or [], states_behaviour=behaviour)


def test_a_behaviour_ruling_with_neither_scenario_nor_reason_is_reported() -> None:
    rulings = [_ruling("plain", ["conill"]), _ruling("words", ["conill"], behaviour=False),
               _ruling("checked", ["conill"], ["s-ok"]), _ruling("broken", ["conill"], ["s-bad", "s-gone"]),
               _ruling("blocked", ["conill", "tirisiti"]), _ruling("feature", ["conill"])]
    found = classify(rulings, {"s-ok", "s-bad"}, {"s-ok"}, {"tirisiti": "no effect yet"},
                     {"deal": ("the opening deal", ("feature",))})
    assert set(found) == {"plain", "checked", "broken", "blocked", "feature"}
    assert not found["plain"].checked and not found["plain"].blocked
    assert "no scenario" in found["plain"].reason
    assert found["checked"].checked and found["checked"].reason is None
    assert not found["broken"].blocked and found["broken"].missing == ("s-gone",) and found["broken"].failing == ("s-bad",)
    assert found["blocked"].blocked and found["blocked"].reason == "tirisiti is left out (no effect yet)"
    assert found["feature"].blocked and found["feature"].reason == "needs deal: the opening deal"


def test_the_real_data_fails_without_the_reasons(monkeypatch, results) -> None:
    """Blocked rulings are only explained by the unmodelled cards and the declared features."""
    blocked = sum(r.blocked for r in ruling_coverage(DB, results).values())
    monkeypatch.setattr(coverage, "left_out_cards", lambda db: {})
    monkeypatch.setattr(coverage, "missing_features", lambda game: {})
    found = ruling_coverage(DB, results)
    uncovered = [r for r in found.values() if not r.checked and not r.blocked]
    assert len(uncovered) == blocked > 60  # every blocked ruling, and only those (79 today)
    assert all("no scenario" in r.reason for r in uncovered)


def test_a_failing_scenario_unchecks_its_ruling(results) -> None:
    victim = next(r for r in results if r.id.startswith("scenario-ruling-"))
    broken = [SimpleNamespace(id=r.id, passed=r.passed and r.id != victim.id) for r in results]
    found = ruling_coverage(DB, broken)
    assert any(victim.id in r.failing and not r.checked and not r.blocked for r in found.values())
