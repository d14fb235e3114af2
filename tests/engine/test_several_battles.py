"""Battles of several (``several-battles``, the revolta de les Germanies, fallera-2 lines 35-40): its shipped
scenarios pass and a wrong expectation fails; every legal action round-trips; the state says whose decision
it is; the attack stays hidden from the rivals; what a card may not be called for is not offered."""

from __future__ import annotations

import json
import random

import pytest

from cardworks.engine.core import IllegalActionError
from cardworks.engine.scenarios import run_scenario
from cardworks.games.fallera import views
from cardworks.games.fallera.actions import AttackWith, Call, Card, parse_action
from cardworks.games.fallera.game import scenario_state
from cardworks.loading import load_database
from cardworks.models import Scenario
from conftest import FALLERA, FIXTURE_CARDS

DB = load_database(FALLERA)
SCENARIOS = {s["id"]: s for name in ("rulings-discordia.json", "rulings-faq.json") for s in json.loads(
    (FALLERA / "scenarios" / name).read_text("utf-8"))["scenarios"]
    if "revolta-de-les-germanies" in s["cards"]}
EXAMPLES = [{"id": "example-attack-5", "types": ["battle"], "attack": 5, "defence": 0},
            {"id": "example-defence-3", "types": ["battle"], "attack": 0, "defence": 3},
            {"id": "example-defence-6", "types": ["battle"], "attack": 0, "defence": 6}]


def _run(scenario_id: str, **changes):
    data = {**SCENARIOS[scenario_id], **changes}
    rules, state = scenario_state(DB, data["setup"])
    return run_scenario(rules, state, Scenario.model_validate(data), "t", rng=random.Random(0))


def _position():
    """Four players: p1 holds the revolta and an attack 5; p2, p3, p4 each a treasure, p2 and p3 a defence."""
    return scenario_state(DB, {
        "selection": "base-2", "players": 4, "current": "p1", "example_cards": EXAMPLES,
        "hands": [["revolta-de-les-germanies", "example-attack-5"], ["example-defence-3"], ["example-defence-6"], []],
        "counters": [[], ["bajoqueta"], ["conill"], ["carxofa"]], "deck": ["monleon", "jaume-i", "cagallo"]})


def _played(rules, state, *steps):
    for step in steps:
        state = rules.apply(state, parse_action(step))
        assert rules.invariants(state) == [], step
        assert rules.hidden_leak(state) is None, step
    return state


def _card(state, design):
    return next(f"{design}#{i}" for i, d in enumerate(state.designs) if d == design)


def test_there_are_scenarios_for_the_revolta() -> None:
    assert len(SCENARIOS) == 4


@pytest.mark.parametrize("scenario_id", sorted(SCENARIOS))
def test_each_revolta_scenario_passes(scenario_id: str) -> None:
    result = _run(scenario_id)
    assert result.passed, result.messages


WRONG = [  # (scenario, a wrong final expectation, what the runner must say)
    ("scenario-ruling-discordia-revolta-each-defence-apart",  # as if the attack beat the defence 6 too
     {"counters": {"p1": ["bajoqueta", "conill", "carxofa"]}}, "expected p1's counter"),
    ("scenario-ruling-discordia-revolta-chosen-rivals", {"counters": {"p4": []}}, "expected p4's counter"),
    ("scenario-ruling-faq-paella-cancels-the-revolta", {"counters": {"p1": ["bajoqueta"]}}, "expected p1's counter"),
    ("scenario-ruling-faq-paella-cancels-a-paella", {"counters": {"p1": []}}, "expected p1's counter"),
]


@pytest.mark.parametrize("scenario_id, wrong, message", WRONG)
def test_a_wrong_expectation_about_the_revolta_fails(scenario_id: str, wrong: dict, message: str) -> None:
    expect = SCENARIOS[scenario_id]["expect"]
    result = _run(scenario_id, expect=[*expect[:-1], wrong])
    assert result.passed is False and message in result.messages[0], result.messages


def test_every_legal_action_round_trips_and_the_state_says_whose_decision_it_is() -> None:
    rules, state = _position()
    steps = ["p1 play " + _card(state, "revolta-de-les-germanies"), "p1 call p2 " + _card(state, "bajoqueta"),
             "p1 call p3 " + _card(state, "conill"), "p1 attack-with " + _card(state, "example-attack-5"),
             "p2 defend " + _card(state, "example-defence-3"), "p3 no-defence"]
    deciders = [0, 0, 0, 1, 2, None]
    for step, decider in zip(steps, deciders):
        state = _played(rules, state, step)
        if decider is None:
            break
        assert state.phase == "several" and rules.actor(state) == decider == state.asked[0]
        legal = rules.legal_actions(state)
        assert legal and all(parse_action(a.notation()) == a for a in legal)
    assert state.phase == "turn" and state.current == 1
    assert [state.designs[i] for i in state.counters[0]] == ["bajoqueta", "conill"]
    for action in (Call(0, 3, Card("carxofa", 9)), AttackWith(2, Card("example-attack-5", 1))):
        assert parse_action(action.notation()) == action


def test_the_attack_is_hidden_from_the_rivals_until_it_is_revealed() -> None:
    rules, state = _position()
    attack = _card(state, "example-attack-5")
    state = _played(rules, state, "p1 play " + _card(state, "revolta-de-les-germanies"),
                    "p1 call p2 " + _card(state, "bajoqueta"), "p1 attack-with " + attack)
    assert attack in json.dumps(rules.observe(state, 0))  # the attacker knows their own card
    for rival in (1, 2, 3):
        seen = rules.observe(state, rival)
        assert attack not in json.dumps(seen)
        assert ["face-down", 0] in seen["marks"]  # that an attack lies there is public
    kept = views.public_marks
    try:  # a public view that shows the face-down card is caught by hidden_leak
        views.public_marks = lambda marks: [list(m) for m in marks]
        assert attack not in json.dumps(views.public_marks(()))
        assert "face down" in rules.hidden_leak(state)
    finally:
        views.public_marks = kept


def test_a_protected_treasure_is_not_offered_and_wrong_steps_are_refused() -> None:
    rules, state = _position()
    bajoqueta = next(i for i, d in enumerate(state.designs) if d == "bajoqueta")
    state = rules.load({**rules.dump(state), "marks": [["protect", bajoqueta, 1, "your-next-turn-start"]]})
    state = _played(rules, state, "p1 play " + _card(state, "revolta-de-les-germanies"))
    legal = [a.notation() for a in rules.legal_actions(state)]
    assert legal == ["p1 call p3 " + _card(state, "conill"), "p1 call p4 " + _card(state, "carxofa")]
    with pytest.raises(IllegalActionError, match="not among the choices"):
        rules.apply(state, parse_action("p1 call p2 " + _card(state, "bajoqueta")))
    with pytest.raises(IllegalActionError, match="asks for a call now"):  # the attacker does not defend
        rules.apply(state, parse_action("p1 no-defence"))
    with pytest.raises(IllegalActionError, match="not among the choices"):  # no attack before a rival is called
        rules.apply(state, parse_action("p1 attack-with " + _card(state, "example-attack-5")))
    state = _played(rules, state, "p1 call p3 " + _card(state, "conill"))
    with pytest.raises(IllegalActionError, match="not among the choices"):  # one treasure per rival
        rules.apply(state, parse_action("p1 call p3 " + _card(state, "conill")))
    state = _played(rules, state, "p1 attack-with " + _card(state, "example-attack-5"))
    with pytest.raises(IllegalActionError, match="decision"):  # p3 defends, not p2
        rules.apply(state, parse_action("p2 no-defence"))


def test_without_a_battle_card_the_revolta_does_nothing() -> None:
    rules, state = scenario_state(DB, {
        "selection": "base-2", "players": 3, "current": "p1", "hands": [["revolta-de-les-germanies"], [], []],
        "counters": [[], ["bajoqueta"], []], "deck": ["monleon", "jaume-i", "cagallo"]})
    state = _played(rules, state, "p1 play " + _card(state, "revolta-de-les-germanies"))
    assert state.phase == "turn" and state.current == 1 and state.marks == ()


def test_a_determinization_mid_revolta_shows_each_player_what_they_observed() -> None:
    """ISMCTS samples from ``observe()`` alone: a rival's sample deals the face-down attack from the unseen
    battle cards; the attacker's keeps their own card. Positions from dealt four-player games in which the
    revolta is played whenever it can be."""
    from cardworks.engine.core import CHANCE
    from cardworks.simulate import heuristics
    from cardworks.simulate.tables import TableSpec, build_table

    table = build_table(TableSpec(str(FIXTURE_CARDS), "fallera", "base-2", 4))
    rules, fallera, rng = table.rules, heuristics.for_game("fallera"), random.Random(3)
    checked = 0
    for _ in range(40):
        state = table.deal(rng)
        while rules.actor(state) is not None and checked < 12:
            legal = rules.legal_actions(state)
            revolta = [a for a in legal if "play revolta" in a.notation()]
            state = rules.apply(state, (revolta or legal)[int(rng.random() * len(revolta or legal))], rng=rng)
            if state.phase == "several" and rules.actor(state) != CHANCE:
                for me in range(4):
                    seen = rules.observe(state, me)
                    sampled = fallera.determinize(table, seen, random.Random(me))
                    assert rules.observe(sampled, me) == seen and rules.invariants(sampled) == []
                checked += 1
        if checked >= 12:
            break
    assert checked >= 12


def _with_card(effect: dict, attack: int = 5):
    """``_position`` whose attack card also carries ``effect`` (an example card: its values are the example's)."""
    from dataclasses import replace

    from cardworks.games.fallera.cards import CardDef
    from cardworks.games.fallera.effects import Effect

    rules, state = _position()
    card = CardDef("example-attack-5", ("battle",), attack=attack, defence=0,
                   effects=(Effect.model_validate(effect),))
    return replace(rules, defs={**rules.defs, "example-attack-5": card}), state


REVOLTA_STEPS = ("p1 play revolta-de-les-germanies#0", "p1 call p2 bajoqueta#4", "p1 call p3 conill#5",
                 "p1 attack-with example-attack-5#1", "p2 defend example-defence-3#2")


@pytest.mark.parametrize("last, back", [("p3 no-defence", True), ("p3 defend example-defence-6#3", False)])
def test_an_attack_that_returns_to_the_hand_does_so_only_if_it_lost_no_battle(last: str, back: bool) -> None:
    """fallera-2 line 39: a card that goes back to the attacker's hand does not after losing one battle."""
    rules, state = _with_card({"do": [{"verb": "return-to-hand"}]})
    state = _played(rules, state, *REVOLTA_STEPS, last)
    assert (1 in state.hands[0]) is back and (1 in state.cemetery) is not back


def test_a_second_battle_is_not_offered_after_a_revolta() -> None:
    """fallera-3 line 192: Queixalets' sobresalt! does not apply in a revolta."""
    rules, state = _with_card({"do": [{"verb": "battle-again"}]})
    assert rules._again
    state = _played(rules, state, *REVOLTA_STEPS, "p3 no-defence")
    assert state.phase == "turn" and state.current == 1 and state.again is None


def test_an_observation_showing_a_rivals_face_down_attack_is_a_leak() -> None:
    rules, state = _position()
    attack = _card(state, "example-attack-5")
    state = _played(rules, state, *REVOLTA_STEPS[:4])
    original = rules._private_view
    try:  # a private view that shows every player the attacker's card is caught
        rules._private_view = lambda s, who: {**original(s, who), "battle": {**original(s, who)["battle"],
                                                                            "yours": [attack]}}
        assert "sees a rival's face-down attack" in rules.hidden_leak(state)
    finally:
        rules._private_view = original
    assert rules.hidden_leak(state) is None


def test_the_food_and_face_down_attack_checks_of_hidden_leak_run() -> None:
    """They sat after a ``return`` and never ran: a view showing a rival's food or a called battle's attack is
    caught again."""
    rules, state = scenario_state(DB, {
        "selection": "base-3", "players": 3, "current": "p1", "hands": [["el-capita-moro"], [], []],
        "counters": [[], ["bajoqueta"], []], "deck": ["jaume-i", "la-bellea-del-moc", "monleon"],
        "foods": ["sud", "interior", "nord"], "queen": "xuquer-turia",
        "map": {"nord": "carxofa", "xuquer-turia": "el-tio-sangonera", "muntanyes-centrals": "cagallo",
                "sud": "romer", "interior": "garrofo"}})
    state = _played(rules, state, "p1 battle p2 bajoqueta#1 with el-capita-moro#0")
    assert state.phase == "defend"
    original = rules._private_view
    try:
        rules._private_view = lambda s, who: {**original(s, who), "foods": ["sud", "interior", "nord"]}
        assert "territorial food that is not revealed" in rules.hidden_leak(state)
        rules._private_view = lambda s, who: {**original(s, who), "battle": {
            **original(s, who)["battle"], "attack": "el-capita-moro#0"}}
        assert "sees the face-down attack" in rules.hidden_leak(state)
    finally:
        rules._private_view = original
    assert rules.hidden_leak(state) is None


def test_greedy_calls_every_rival_then_attacks_with_its_strongest_card() -> None:
    from cardworks.engine.core import CHANCE
    from cardworks.games.fallera.heuristics import greedy
    from cardworks.simulate.tables import TableSpec, build_table

    table = build_table(TableSpec(str(FIXTURE_CARDS), "fallera", "base-2", 4))
    rules, rng, kinds = table.rules, random.Random(5), []
    for _ in range(40):
        state = table.deal(rng)
        while rules.actor(state) is not None and len(kinds) < 20:
            legal = rules.legal_actions(state)
            revolta = [a for a in legal if "play revolta" in a.notation()]
            if state.phase == "several" and rules.actor(state) != CHANCE:
                me = rules.actor(state)
                chosen = greedy(table, me, rules.observe(state, me), legal, rng)
                assert chosen in legal
                kinds.append(type(chosen).__name__)
                if any(type(a).__name__ == "Call" for a in legal):
                    assert type(chosen).__name__ == "Call"  # one attack serves every rival called
                elif type(chosen).__name__ == "AttackWith":
                    assert (table.cards[chosen.card.design].attack or 0) == max(
                        table.cards[a.card.design].attack or 0 for a in legal)
            else:
                chosen = (revolta or legal)[int(rng.random() * len(revolta or legal))]
            state = rules.apply(state, chosen, rng=rng)
        if len(kinds) >= 20:
            break
    assert {"Call", "AttackWith"} <= set(kinds) and {"Defend", "NoDefence"} & set(kinds)
