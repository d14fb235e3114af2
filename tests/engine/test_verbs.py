"""The verbs that choose a target or leave something in play (issue 26 items 2 and 3), on the invented specials
of ``verbs_pack``: each scenario passes, a deliberately wrong expectation about each verb fails, every choosing
action's notation parses back to it, and what a verb leaves in play is checked where it shows (legal actions,
``observe``, the cemetery)."""

from __future__ import annotations

import functools
import json
import random
from pathlib import Path

import pytest

from cardworks.engine.core import IllegalActionError
from cardworks.engine.scenarios import run_scenario
from cardworks.games.fallera.actions import (Card, Choose, Pick, TargetBattle, TargetCemetery, TargetMap,
                                             TargetTerreta, TargetTreasure, parse_action)
from cardworks.games.fallera.effects import Effect
from cardworks.games.fallera.game import scenario_state
from cardworks.games.fallera.placement import card_places, never_fires
from cardworks.games.fallera.verbs import amount
from cardworks.loading import load_database
from cardworks.models import Scenario
from conftest import FALLERA

PACK = Path(__file__).parent / "verbs_pack"
DB = load_database(FALLERA, [PACK])
SCENARIOS = {s["id"]: s for s in json.loads((PACK / "scenarios" / "fixture.json").read_text("utf-8"))["scenarios"]}


def _run(scenario_id: str, **changes):
    data = {**SCENARIOS[f"scenario-verbs-{scenario_id}"], **changes}
    data.pop("$schema", None)
    rules, state = scenario_state(DB, data["setup"])
    return run_scenario(rules, state, Scenario.model_validate(data), "t", rng=random.Random(0))


WRONG = [  # (scenario, a wrong final expectation, what the runner must say)
    ("mantell-protects-until-next-turn", {"legal": ["p2 almoina", "p2 battle p1 conill with verbs-llanca"]},
     "legal"),
    ("vel-protects-until-the-turn-ends", {"legal": ["p2 almoina"]}, "legal"),
    ("rodella-sets-the-attack", {"counters": {"p1": ["conill"]}}, "expected p1's counter ['conill'], got []"),
    ("mirall-swaps-the-values", {"counters": {"p1": ["conill"]}}, "expected p1's counter ['conill'], got []"),
    ("ullera-looks-at-a-hand", {"after": 3, "observe": "p2", "sees": {"looked.p3": ["verbs-mirall"]}},
     "p2's observation has no 'looked.p3'"),
    ("xarxa-takes-from-the-map", {"queen": "nord"}, "expected the Queen in nord, got sud"),
    ("carrossa-moves-the-queen", {"map": {"nord": None}}, "expected None on nord, got carxofa"),
    ("llacet-leaves-with-its-treasure", {"cemetery": ["espardenyes-pudentes"]}, "expected cemetery"),
    ("urpa-picks-blind", {"hands": {"p3": ["verbs-broquer"]}}, "expected p3's hand ['verbs-broquer']"),
    ("ventada-discards-half-rounded-down", {"hands": {"p2": ["verbs-llanca"]}}, "expected p2's hand ['verbs-llanca']"),
    ("sort-discards-at-random", {"hands": {"p2": ["verbs-llanca"]}}, "expected p2's hand ['verbs-llanca'], got []"),
    ("rampi-passes-over-an-empty-hand", {"hands": {"p4": ["verbs-mirall"]}}, "expected p4's hand ['verbs-mirall'], got []"),
    ("espill-looks-again", {"observe": "p1", "sees": {"looked.p3": ["verbs-mirall"]}},
     "p1's observation has no 'looked.p3'"),
    ("revolta-shows-each-player-their-own-face-down-card",
     {"after": 4, "observe": "p2", "sees": {"battle.yours": ["example-attack-5"]}}, "expected p2 to see battle.yours"),
    ("map-card-numbered-first", {"map": {"nord": None}}, "expected None on nord, got carxofa"),
    ("xarxa-leaves-the-first-instance-on-the-map", {"map": {"sud": None}}, "expected None on sud, got romer"),
    ("arpo-draws-after-the-refill", {"hands": {"p1": []}}, "expected p1's hand [], got ['cagallo']"),
    ("almoina-with-no-card-left-to-draw", {"current": "p1"}, "expected current p1, got p2"),
    ("canya-draws-again-after-a-refused-paella", {"hands": {"p1": []}}, "expected p1's hand [], got ['cagallo']"),
]


@pytest.mark.parametrize("scenario_id", sorted(s.removeprefix("scenario-verbs-") for s in SCENARIOS))
def test_every_verb_scenario_passes(scenario_id: str) -> None:
    result = _run(scenario_id)
    assert result.passed, result.messages


@pytest.mark.parametrize("scenario_id, wrong, message", WRONG)
def test_a_wrong_expectation_about_each_verb_fails(scenario_id: str, wrong: dict, message: str) -> None:
    expect = SCENARIOS[f"scenario-verbs-{scenario_id}"]["expect"]
    result = _run(scenario_id, expect=[*expect[:-1], wrong])
    assert result.passed is False and message in result.messages[0], result.messages


def wrong_version(expect: dict) -> tuple[dict, str] | None:
    """A copy of the expectation ``expect`` made wrong in one key it checks (the current player, a hand, a
    counter, the cemetery, the map, what a player sees, the phase), with what the runner's message must name;
    None when it checks none of them."""
    if "current" in expect:
        other = "p2" if expect["current"] != "p2" else "p3"
        return {**expect, "current": other}, "current"
    for key in ("hands", "counters"):
        if expect.get(key):
            who, cards = next(iter(expect[key].items()))
            return {**expect, key: {**expect[key], who: [*cards, "verbs-llanca"]}}, f"{who}'s {key.rstrip('s')}"
    if "cemetery" in expect:
        return {**expect, "cemetery": [*expect["cemetery"], "verbs-llanca"]}, "cemetery"
    if expect.get("map"):
        space, card = next(iter(expect["map"].items()))
        return {**expect, "map": {**expect["map"], space: None if card else "cagallo"}}, space
    if expect.get("sees"):
        key, value = next(iter(expect["sees"].items()))
        return {**expect, "sees": {**expect["sees"], key: [*value, "x"] if isinstance(value, list) else "x"}}, key
    if "phase" in expect:
        return {**expect, "phase": "over" if expect["phase"] != "over" else "turn"}, "phase"
    return None


@pytest.mark.parametrize("scenario_id", sorted(s.removeprefix("scenario-verbs-") for s in SCENARIOS))
def test_every_verb_scenario_fails_once_made_wrong(scenario_id: str) -> None:
    """Derived, so a new scenario needs no entry anywhere: its last expectation that checks the current player, a
    hand, a counter, the cemetery, the map, an observation or the phase, made wrong in that key, fails the
    scenario with a message naming the key."""
    expect = SCENARIOS[f"scenario-verbs-{scenario_id}"]["expect"]
    k, (wrong, key) = next((k, made) for k in reversed(range(len(expect))) if (made := wrong_version(expect[k])))
    result = _run(scenario_id, expect=[*expect[:k], wrong, *expect[k + 1:]])
    assert result.passed is False and any(key in m for m in result.messages), (key, result.messages)


def test_the_wrong_version_changes_what_it_says() -> None:
    assert wrong_version({"current": "p2"}) == ({"current": "p3"}, "current")
    assert wrong_version({"hands": {"p1": []}}) == ({"hands": {"p1": ["verbs-llanca"]}}, "p1's hand")
    assert wrong_version({"observe": "p1", "sees": {}}) is None


def test_every_wrong_case_names_a_scenario_and_every_verb_has_one() -> None:
    assert {case[0] for case in WRONG} <= {s.removeprefix("scenario-verbs-") for s in SCENARIOS}
    used = {v["verb"] for card in json.loads((PACK / "sets" / "fixture.json").read_text("utf-8"))["cards"]
            for effect in card.get("effects", ()) for v in effect["do"]}
    assert {"protect", "set-stat", "swap-stats", "look-at-hand", "take-from-map", "move-queen", "attach",
            "choose-player", "discard", "return-from-cemetery"} <= used


@pytest.mark.parametrize("action", [
    Choose(0, 2), Pick(0, 1, 3), TargetBattle(1, Card("conill", 4)), TargetMap(0, Card("carxofa", 7)),
    TargetTerreta(2, "muntanyes-centrals"), TargetTreasure(0, 0, Card("conill", 1)),
    TargetTreasure(1, 2, Card("espardenyes-pudentes", 12)), TargetCemetery(0, Card("cagallo", 6))])
def test_each_target_action_round_trips(action) -> None:
    assert parse_action(action.notation()) == action


def _position(hands, counters, current="p1"):
    return scenario_state(DB, {"selection": "base", "players": 3, "hands": hands, "counters": counters,
                               "deck": ["monleon", "jaume-i", "cagallo"], "current": current})


def test_a_protected_treasure_is_refused_to_a_battle_and_to_a_steal() -> None:
    rules, state = _position([["verbs-mantell"], ["verbs-llanca", "verbs-xarxa"], []], [["conill"], [], []])
    for step in ("p1 play verbs-mantell#0", "p1 treasure p1 conill#3"):
        state = rules.apply(state, parse_action(step))
    with pytest.raises(IllegalActionError) as info:
        rules.apply(state, parse_action("p2 battle p1 conill#3 with verbs-llanca#1"))
    assert info.value.rule == "battle-protected"
    assert "p2 battle p1 conill#3 with verbs-llanca#1" not in [a.notation() for a in rules.legal_actions(state)]
    unprotected = rules.load({**rules.dump(state), "marks": []})
    assert "p2 battle p1 conill#3 with verbs-llanca#1" in [a.notation() for a in rules.legal_actions(unprotected)]
    assert rules.invariants(state) == []
    assert rules.load(json.loads(json.dumps(rules.dump(state)))) == state  # the marks survive a save


def test_the_looker_alone_sees_the_hand_and_a_forged_look_is_a_leak() -> None:
    rules, state = _position([["verbs-espill"], ["verbs-broquer"], ["verbs-mirall"]], [[], [], []])
    for step in ("p1 play verbs-espill#0", "p1 choose p3"):  # p1 looked and is still to pick: the turn goes on
        state = rules.apply(state, parse_action(step))
    assert state.phase == "choose" and state.current == 0
    assert rules.observe(state, 0)["looked"] == {"p3": ["verbs-mirall#2"]}
    assert rules.observe(state, 1)["looked"] == {} and rules.observe(state, 2)["looked"] == {}
    assert rules.hidden_leak(state) is None
    forged = rules.load({**rules.dump(state), "marks": [["seen", 1, 2, [2]]]})  # as if p2 had looked: p2 sees it
    assert rules.observe(forged, 1)["looked"] == {"p3": ["verbs-mirall#2"]}
    assert ["seen", 0, 2] in rules.observe(state, 1)["marks"]  # others know p1 looked, not what p1 saw
    state = rules.load({**rules.dump(state), "marks": [["seen", 0, 2, [2]]]})  # the look alone, for the leaks below
    original = rules._looked
    try:  # an observe that shows a hand nobody looked at is caught by hidden_leak
        rules._looked = lambda s, who, label: {"p3": ["verbs-mirall#2"]}
        assert "did not look at" in rules.hidden_leak(state)
    finally:
        rules._looked = original
    from cardworks.games.fallera import views
    kept = views.public_marks
    try:  # a public view that shows what the looker saw is caught too
        views.public_marks = lambda marks: [list(m) for m in marks]
        assert rules.observe(state, 1)["marks"] == [["seen", 0, 2, (2,)]]  # the cards p1 saw, shown to p2
        assert "what a player saw" in rules.hidden_leak(state)
    finally:
        views.public_marks = kept


def test_the_observation_names_players_as_the_expectations_do() -> None:
    """``p2``, as a scenario's ``current`` or ``observe`` writes it, never the seat number ``1``."""
    rules, state = _position([["verbs-llanca"], ["verbs-broquer"], []], [[], ["conill"], []])
    state = rules.apply(state, parse_action("p1 battle p2 conill#2 with verbs-llanca#0"))
    seen = rules.observe(state, 1)
    assert (seen["you"], seen["current"], seen["winner"]) == ("p2", "p1", None)  # p2 defends in p1's turn
    assert (seen["battle"]["attacker"], seen["battle"]["target"]) == ("p1", "p2")
    assert rules.observe(state, 0)["you"] == "p1" and rules.hidden_leak(state) is None


def test_a_look_at_a_hand_ends_with_the_turn() -> None:
    """docs/effects.md (``look-at-hand``): the hand is in the looker's observation until the turn ends; no
    rulebook says otherwise. The ullera takes p1's whole turn, so the look is gone as p2's turn starts."""
    rules, state = _position([["verbs-ullera"], ["verbs-broquer"], ["verbs-mirall"]], [[], [], []])
    for step in ("p1 play verbs-ullera#0", "p1 choose p3"):
        state = rules.apply(state, parse_action(step))
    assert state.current == 1 and state.phase == "turn"
    assert [rules.observe(state, who)["looked"] for who in range(3)] == [{}, {}, {}]
    assert not any(m[0] == "seen" for m in state.marks)


def test_a_choice_of_the_wrong_kind_or_outside_the_options_is_refused() -> None:
    rules, state = _position([["verbs-urpa"], [], ["verbs-llanca"]], [[], [], []])
    state = rules.apply(state, parse_action("p1 play verbs-urpa#0"))
    with pytest.raises(IllegalActionError) as info:
        rules.apply(state, parse_action("p1 pick p3 1"))
    assert info.value.rule == "choose-kind"
    with pytest.raises(IllegalActionError) as info:
        rules.apply(state, parse_action("p1 choose p1"))
    assert info.value.rule == "choose-option"
    state = rules.apply(state, parse_action("p1 choose p3"))
    with pytest.raises(IllegalActionError) as info:
        rules.apply(state, parse_action("p1 pick p3 2"))  # p3 holds one card
    assert info.value.rule == "choose-option"


def test_half_is_rounded_down_as_the_rulebook_says() -> None:
    # fallera-3 line 134: an odd number of cards, half of them minus one
    assert [amount("half", n) for n in range(8)] == [0, 0, 1, 1, 2, 2, 3, 3]
    assert amount(3, 2) == 2


def test_a_random_discard_draws_with_the_steps_chance_and_fails_loudly_without_it() -> None:
    rules, state = _position([["verbs-sort"], ["verbs-llanca", "verbs-broquer", "verbs-mirall"], []], [[], [], []])
    kept = {tuple(rules.apply(state, parse_action("p1 play verbs-sort#0"), rng=random.Random(seed)).hands[1])
            for seed in range(12)}
    assert len(kept) == 3  # each of p2's cards is discarded under some seed
    with pytest.raises(RuntimeError, match="pass rng="):
        rules.apply(state, parse_action("p1 play verbs-sort#0"))


def test_validate_refuses_an_attach_outside_a_card_played_from_the_hand() -> None:
    on_counter = Effect.model_validate({"when": {"event": "turn-start"}, "do": [{"verb": "attach"}]})
    refused = list(never_fires(on_counter, card_places(["treasure"], "other"), "a-treasure"))
    assert refused and refused[0][0] == "/do/0" and "plays no card from the hand" in refused[0][1]
    played = Effect.model_validate({"when": {"event": "played"}, "do": [{"verb": "attach"}]})
    assert list(never_fires(played, card_places(["special"], None), "a-special")) == []


class _Table:
    """What the greedy player reads of a table: the rules and the cards' definitions."""

    def __init__(self, rules):
        self.rules, self.cards = rules, rules.defs


def test_greedy_values_a_protect_by_the_treasure_it_keeps_and_protects_the_best() -> None:
    from cardworks.games.fallera.heuristics import _play_score, greedy

    rules, rich = _position([["verbs-mantell"], [], []], [["conill", "bajoqueta"], [], []])
    _, poor = _position([["verbs-mantell"], [], []], [["espardenyes-pudentes"], [], []])
    table = _Table(rules)
    assert _play_score(table, 0, rules.observe(rich, 0), "verbs-mantell", [2, 0, 0]) > \
        _play_score(table, 0, rules.observe(poor, 0), "verbs-mantell", [0, 0, 0])
    state = rules.apply(rich, parse_action("p1 play verbs-mantell#0"))
    chosen = greedy(table, 0, rules.observe(state, 0), rules.legal_actions(state), random.Random(0))
    assert isinstance(chosen, TargetTreasure) and chosen.owner == 0



@functools.cache
def _game():
    return load_database(FALLERA)


RULINGS = {s["id"]: s for s in json.loads((FALLERA / "scenarios" / "rulings-mes-enlla.json")
                                          .read_text("utf-8"))["scenarios"]}


@pytest.mark.parametrize("scenario_id, wrong, message", [
    ("scenario-ruling-mes-enlla-llenya-worth-two", {"valid_ingredients": {"p1": 3}},
     "expected p1 to have 3 valid ingredients, got 4"),
    ("scenario-ruling-mes-enlla-llenya-already-double", {"valid_ingredients": {"p1": 4}},
     "expected p1 to have 4 valid ingredients, got 3"),
    ("scenario-ruling-mes-enlla-llenya-paella-cancels-its-placing", {"valid_ingredients": {"p1": 4}},
     "expected p1 to have 4 valid ingredients, got 3"),
])
def test_the_llenya_de_taronger_plays_its_rulings_and_a_wrong_expectation_fails(scenario_id, wrong, message) -> None:
    """The shipped card the attach verb makes playable (fallera-3 line 211), on the fixture game: its rulings'
    scenarios pass, and a wrong count fails."""
    data = {k: v for k, v in RULINGS[scenario_id].items() if k != "$schema"}
    db = _game()
    for expect, passes in ((data["expect"], True), ([*data["expect"][:-1], wrong], False)):
        rules, state = scenario_state(db, data["setup"])
        result = run_scenario(rules, state, Scenario.model_validate({**data, "expect": expect}), "t",
                              rng=random.Random(0))
        assert result.passed is passes, result.messages
        assert passes or message in result.messages[0], result.messages


def test_a_paella_completed_by_stealing_an_ingredient_raised_by_an_attached_special_is_found_at_once() -> None:
    """The quick bound of valid ingredients (``Facts.weight``) counts what an attached special may raise an
    ingredient to: with the printed bound, the win below went unnoticed (an invariant caught it in playouts)."""
    db = load_database(FALLERA)
    rules, state = scenario_state(db, {
        "selection": "base-3", "players": 3, "hands": [["llenya-de-taronger", "el-capita-moro"], [], []],
        "counters": [["bajoqueta", "garrofo", "carxofa"], ["conill"], []], "current": "p1",
        "deck": ["jaume-i", "xicona-de-xixona", "la-bellea-del-moc", "el-guerrer-de-moixent", "monleon"],
        "foods": ["sud", "interior", "nord"], "queen": "xuquer-turia",
        "map": {"nord": "cagallo", "xuquer-turia": "el-tio-sangonera", "muntanyes-centrals": "romer",
                "sud": "cuixa-de-pollastre", "interior": "la-dama-d-elx"}})
    label = {state.designs[i]: i for i in range(len(state.designs))}
    for step in ("p1 play llenya-de-taronger#{}", "p1 treasure p2 conill#{}", "p2 almoina", "p3 almoina",
                 "p1 battle p2 conill#{} with el-capita-moro#{}", "p2 no-defence"):
        names = [w.split("#")[0] for w in step.split() if w.endswith("#{}")]
        state = rules.apply(state, parse_action(step.format(*(label[n] for n in names))), rng=random.Random(0))
    assert (state.winner, state.reason) == (0, "five-ingredients") and rules.ingredients(state, 0)[0] == 5
