"""Each card the engine leaves out says why in its own terms: the facts the sources do not give about that card,
or its stated behaviour and the engine feature it needs, read from the card's ``missing`` and ``needs`` data."""

from __future__ import annotations

import pytest

from cardworks.engine.coverage import features_waited_on, left_out_cards
from cardworks.games.fallera.cards import UNEXPLAINED, unmodelled_reason
from cardworks.games.fallera.features import FEATURES
from cardworks.games.fallera.models import FalleraCardDesign
from cardworks.loading import load_database
from cardworks.loading.records import Index
from cardworks.validate import validate
from conftest import FALLERA, FIXTURE_CARDS, REPO

GENERIC = ("is not modelled", "no effect expresses yet", "whose behaviour the sources do not give",
           "only its effects can say", "not in the vocabulary", UNEXPLAINED)
"""Phrases of reasons given per kind of card, not per card (the engine's old reasons, and the fallback)."""


def _left_out(folder):
    db = load_database(folder)
    cards = {record.id: record.model for record in Index(db).of_kind("card")}
    return db, cards, left_out_cards(db)


@pytest.fixture(scope="module")
def shipped():
    """The shipped game: the two tests about what its own left-out cards say read it."""
    return _left_out(REPO / "cards" / "fallera")


@pytest.fixture(scope="module")
def fixture_game():
    """The Fallera fixture game, for the tests of how the engine plays and counts."""
    return _left_out(FALLERA)


def test_every_left_out_card_names_its_own_missing_facts_or_needed_features(shipped) -> None:
    _, cards, left_out = shipped
    assert left_out
    for card_id, reason in left_out.items():
        card = cards[card_id]
        assert not any(phrase in reason for phrase in GENERIC), (card_id, reason)
        null_stats = [s for s in ("attack", "defence", "sell") if f"{s} not given" in reason]
        assert card.missing or card.needs or null_stats or "treasure kind not given" in reason, card_id
        for fact in card.missing:  # each recorded fact, with where the sources stop
            assert f"{fact.fact} is not given ({fact.doc}" in reason, (card_id, fact.fact)
        for need in card.needs:  # each stated behaviour, with the feature it waits on
            assert need.feature in FEATURES, (card_id, need.feature)
            assert f"{need.behaviour}: needs {need.feature}" in reason, (card_id, need.feature)


def test_the_reason_is_read_from_the_card_data() -> None:
    base = {"id": "x", "types": ["special"], "name": "X", "rules": "Does a thing.",
            "sources": [{"doc": "fallera-base"}]}
    assert unmodelled_reason(FalleraCardDesign.model_validate(base), None, {}) == UNEXPLAINED
    card = FalleraCardDesign.model_validate({**base, "missing": [
        {"fact": "what it does", "doc": "fallera-base", "lines": "40-50", "note": "named in the rank table only"}]})
    assert unmodelled_reason(card, None, {}) == \
        "what it does is not given (fallera-base lines 40-50: named in the rank table only)"
    card = FalleraCardDesign.model_validate({**base, "needs": [
        {"feature": "special-play", "behaviour": "cancels a special as it is played"}]})
    assert unmodelled_reason(card, None, {}) == "cancels a special as it is played: needs special-play"
    battle = FalleraCardDesign.model_validate({**base, "types": ["battle"], "missing": [
        {"fact": "its attack", "field": "stats/attack", "doc": "fallera-3", "lines": "194"}]})
    reason = unmodelled_reason(battle, None, {"attack": None, "defence": None})
    assert reason == ("defence not given by the sources (nor assumed); its attack is not given (fallera-3 line 194)")


def test_check_counts_the_cards_each_engine_feature_would_free(shipped) -> None:
    db, cards, left_out = shipped
    waiting = features_waited_on(db, left_out)
    for feature, (needing, alone) in waiting.items():
        named = [c for c in left_out if any(n.feature == feature for n in cards[c].needs)]
        freed = [c for c in named if not cards[c].missing and {n.feature for n in cards[c].needs} == {feature}]
        assert (needing, alone) == (len(named), len(freed)) and needing >= 1, feature
    assert sum(alone for _, alone in waiting.values()) == 0  # no card waits only on an engine feature (issue 26)


def test_validate_counts_missing_facts_per_set(fixture_game) -> None:
    db = fixture_game[0]
    recorded: dict[str, int] = {}
    for record in Index(db).of_kind("card"):
        if not record.model.optional:
            recorded[record.set_id] = recorded.get(record.set_id, 0) + len(record.model.missing)
    report = validate(FIXTURE_CARDS, game="fallera")
    assert not report.failed(strict=False), report.errors
    rows = {item.set_id: item.missing_facts for item in report.completeness["fallera"] if item.set_id in recorded}
    assert rows == recorded and len(recorded) == 3 and all(recorded.values()), (rows, recorded)  # each set has some


ABILITIES = {
    "actions-per-turn": ("scenario-cards-allioli-two-actions", "scenario-cards-allioli-realm-first-no-extra-action",
                         "scenario-cards-allioli-realm-last-extra-action"),
    "return-to-hand": ("scenario-cards-capita-cristia-back-after-losing",
                       "scenario-cards-capita-cristia-back-after-winning",
                       "scenario-cards-capita-cristia-defends-and-returns"),
    "battle-again": ("scenario-cards-queixalets-second-battle", "scenario-cards-queixalets-after-winning"),
}
"""Each verb that made a left-out card playable, and the scenarios of that card that need it."""


def _results(db) -> dict[str, bool]:
    from cardworks.engine.scenarios import run_scenarios

    return {r.id: r.passed for r in run_scenarios(db) if r.file.endswith("card-abilities.json")}


def test_the_cards_made_playable_pass_their_scenarios(fixture_game) -> None:
    db, _, left_out = fixture_game
    assert not {"allioli-persistent", "capita-cristia", "queixalets"} & set(left_out)
    results = _results(db)
    assert {s for scenarios in ABILITIES.values() for s in scenarios} <= set(results)
    assert all(results.values()), results


@pytest.mark.parametrize("verb", sorted(ABILITIES))
def test_their_scenarios_fail_without_the_handler(monkeypatch, verb: str) -> None:
    from cardworks.games.fallera.registry import REGISTRY

    monkeypatch.delitem(REGISTRY.bindings, REGISTRY.by_tag("do")[verb].model)
    results = _results(load_database(FALLERA))
    assert not any(results[s] for s in ABILITIES[verb]), results


@pytest.mark.parametrize("verb, method", [("actions-per-turn", "_another_action"), ("return-to-hand", "_discard_used"),
                                          ("battle-again", "_offer_again")])
def test_their_scenarios_fail_without_the_rules_that_play_them(monkeypatch, verb: str, method: str) -> None:
    from cardworks.games.fallera.rules import FalleraRules

    scenarios = list(ABILITIES[verb])
    if method == "_offer_again":  # the action ends after the first battle, as before the verb (a queue step)
        monkeypatch.setitem(FalleraRules._steps, "again", lambda self, draft, attacker, target: False)
    elif method == "_another_action":
        monkeypatch.setattr(FalleraRules, method, lambda self, draft: False)
        # (the Realm-first scenario passes then too: one action, and the Realm's extra one, make two)
        scenarios = [s for s in scenarios if "realm-first" not in s]
    else:  # every used battle card to the cemetery, as before the verb
        monkeypatch.setattr(FalleraRules, method, lambda self, draft, used: draft.cemetery.extend(
            card for _, card in used if card is not None))
    results = _results(load_database(FALLERA))
    assert scenarios and not any(results[s] for s in scenarios), results


def test_a_card_whose_copies_no_source_gives_is_left_out_saying_so(tmp_path) -> None:
    """No default number of copies: a card with no quantity, stated or assumed, is left out of every deck with
    that reason in the report of left-out cards, instead of being dealt once."""
    import json
    import shutil

    from cardworks.games.fallera.cards import catalogue

    game = shutil.copytree(FALLERA, tmp_path / "fallera")
    assumptions = game / "assumptions" / "base-cards.json"
    data = json.loads(assumptions.read_text(encoding="utf-8"))
    data["assumptions"] = [a for a in data["assumptions"] if a["id"] != "assume-cuixa-de-pollastre-quantity"]
    assumptions.write_text(json.dumps(data), encoding="utf-8")
    db = load_database(game)
    assert next(r for r in Index(db).of_kind("card") if r.id == "cuixa-de-pollastre").model.quantity is None
    found = catalogue(db, ["base"])
    reason = "number of copies not given by the sources (nor assumed)"
    assert "cuixa-de-pollastre" not in found.cards and found.left_out.get("cuixa-de-pollastre") == reason
    assert left_out_cards(db).get("cuixa-de-pollastre") == reason  # what check reports
    assert "cuixa-de-pollastre" in catalogue(load_database(FALLERA), ["base"]).cards  # with its assumed quantity
