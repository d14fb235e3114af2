"""No effect validates that cannot fire: the engine reads each trigger where its registration says (the card
being used, a counter, the Queen's terreta), and ``validate`` refuses an effect placed anywhere else."""

from __future__ import annotations

import json
import re
import shutil
from dataclasses import replace
from pathlib import Path

import pytest

from cardworks.games.fallera.effects import Effect
from cardworks.games.fallera.game import scenario_state
from cardworks.loading import load_database
from conftest import FALLERA, FIXTURE_CARDS, run_cli
from test_effects import _pack_copy

FIXTURES = Path(__file__).parent / "effects_pack"


@pytest.fixture(scope="module")
def fixture_db():
    return load_database(FALLERA, [FIXTURES])


def _play(rules, state, *steps: str):
    """``steps`` written as scenarios write them (designs without instance numbers), each a legal action."""
    for step in steps:
        legal = [a for a in rules.legal_actions(state) if re.sub(r"#\d+", "", a.notation()) == step]
        assert len(legal) == 1, (step, [a.notation() for a in rules.legal_actions(state)])
        state = rules.apply(state, legal[0])
    return state


def _hand(state, who: int) -> list[str]:
    return [state.designs[i] for i in state.hands[who]]


def test_a_battle_cards_own_card_used_effect_fires_when_it_is_used(fixture_db) -> None:
    """The first example of issue 25: ``card-used`` on the battle card's own effects (it was read only on
    counters and the Queen's terreta, so the attacker drew nothing)."""
    rules, state = scenario_state(fixture_db, {
        "selection": "base", "players": 3, "hands": [["fixture-petard"], [], []], "counters": [[], ["conill"], []],
        "deck": ["monleon", "jaume-i", "el-capita-moro"], "current": "p1"})
    state = _play(rules, state, "p1 battle p2 conill with fixture-petard", "p2 no-defence")
    assert _hand(state, 0) == ["monleon"] and [state.designs[i] for i in state.deck] == ["jaume-i", "el-capita-moro"]
    assert state.current == 1 and state.phase == "turn"


def test_an_extra_action_in_a_turn_start_coin_branch_is_granted(fixture_db) -> None:
    """The second example of issue 25: heads of a turn-start coin grants an action before the turn's own, so
    the player takes two; tails, one."""
    setup = {"selection": "base", "players": 3, "hands": [[], [], []], "counters": [["fixture-mascleta"], [], []],
             "deck": ["monleon", "jaume-i", "cagallo"], "current": "p1"}
    rules, start = scenario_state(fixture_db, setup)
    assert start.phase == "effect-coin"
    heads = _play(rules, start, "coin heads")
    assert (heads.phase, heads.current, heads.actions) == ("turn", 0, -1)
    once = _play(rules, heads, "p1 almoina")
    assert (once.current, once.phase, _hand(once, 0)) == (0, "turn", ["monleon"])
    twice = _play(rules, once, "p1 almoina")
    assert (twice.current, twice.actions, _hand(twice, 0)) == (1, 0, ["monleon", "jaume-i"])
    tails = _play(rules, start, "coin tails", "p1 almoina")
    assert (tails.current, _hand(tails, 0)) == (1, ["monleon"])


def test_an_extra_action_before_a_coin_in_the_same_list_is_kept_while_the_coin_waits(fixture_db) -> None:
    """``[extra-action, coin]``: the coin stops the flow after the grant; the grant waits in the queue and
    still gives the turn its second action (it was dropped when a later verb stopped the list)."""
    setup = {"selection": "base", "players": 3, "hands": [[], [], []], "counters": [["fixture-mascleta"], [], []],
             "deck": ["monleon", "jaume-i", "cagallo"], "current": "p1"}
    rules, _ = scenario_state(fixture_db, setup)
    first = Effect.model_validate({"when": {"event": "turn-start"}, "while": [{"is": "on-your-counter"}],
                                   "do": [{"verb": "extra-action"}, {"verb": "coin"}]})
    mascleta = replace(rules.defs["fixture-mascleta"], effects=(first,), _by_verb={}, _by_event={})
    rules = replace(rules, defs={**rules.defs, "fixture-mascleta": mascleta})
    start = rules.started(replace(scenario_state(fixture_db, setup)[1], phase="turn", pending=()))
    assert start.phase == "effect-coin"
    state = _play(rules, start, "coin tails", "p1 almoina")
    assert (state.current, state.phase) == (0, "turn")
    assert _play(rules, state, "p1 almoina").current == 1


def test_an_extra_action_gives_nothing_to_a_player_whose_turn_it_is_not(fixture_db) -> None:
    """A defender's card-used extra action would have given the attacker (whose turn it is) another action."""
    rules, state = scenario_state(fixture_db, {
        "selection": "base", "players": 3, "hands": [["el-capita-moro"], ["fixture-petard"], []],
        "counters": [[], ["conill"], []], "deck": ["monleon", "jaume-i", "cagallo"], "current": "p1"})
    own = rules.defs["fixture-petard"].effects[0]
    granting = Effect.model_validate({"when": own.when.model_dump(by_alias=True), "do": [{"verb": "extra-action"}]})
    petard = replace(rules.defs["fixture-petard"], effects=(granting,), _by_verb={}, _by_event={})
    rules = replace(rules, defs={**rules.defs, "fixture-petard": petard})
    state = _play(rules, state, "p1 battle p2 conill with el-capita-moro", "p2 defend fixture-petard")
    assert state.current == 1 and state.phase == "turn"


def test_a_terretas_turn_start_effect_fires_while_the_queen_is_there() -> None:
    """turn-start on a terreta (no shipped terreta has one): the current player draws as the turn starts."""
    db = load_database(FALLERA)
    setup = {"selection": "expert", "players": 3, "hands": [["monleon"], [], []], "counters": [[], [], []],
             "deck": ["jaume-i", "cagallo", "el-capita-moro", "monleon"], "current": "p1",
             "foods": ["sud", "interior", "nord"],
             "map": {"nord": "el-tio-sangonera", "xuquer-turia": "cagallo", "muntanyes-centrals": "bajoqueta",
                     "sud": "garrofo", "interior": "carxofa"}, "queen": "nord"}
    rules, plain = scenario_state(db, setup)  # expert mode: the turn starts with the burn
    bonus = Effect.model_validate({"when": {"event": "turn-start"}, "do": [{"verb": "draw", "count": 1}]})
    drawing = replace(rules, bonuses={**rules.bonuses, "nord": (bonus,)})
    assert plain.phase == "burn" and _hand(plain, 0) == ["monleon", "jaume-i"]
    without = _play(rules, plain, "p1 burn monleon")
    state = _play(drawing, plain, "p1 burn monleon")
    assert _hand(without, 0) == ["jaume-i"] and without.phase == "turn"
    assert _hand(state, 0) == ["jaume-i", "cagallo"] and state.phase == "turn" and state.current == 0


def test_the_fixture_pack_validates_and_its_scenarios_pass() -> None:
    """Every trigger and place the shipped cards do not use has a scenario in the fixture pack."""
    run = run_cli("--cards", str(FIXTURE_CARDS), "validate", str(FIXTURES), "--format", "json")
    assert run.exit_code == 0, run.output
    run = run_cli("--cards", str(FIXTURE_CARDS), "check", "--pack", str(FIXTURES), "--playouts", "2",
                  "--format", "json")
    assert run.exit_code == 0, run.output
    report = json.loads(run.output)
    fixture = {s["id"]: s["passed"] for s in report["scenarios"] if "fixture" in s["id"]}
    assert len(fixture) == 9 and all(fixture.values()), fixture
    assert not {k for k in report["left_out"] if k.startswith("fixture-")}


def _effect(cards: list, index: int, effect: dict) -> None:
    cards[index]["effects"] = [effect]


# the example pack's cards: 0 orxata (ingredient), 1 cavaller (battle), 2 bunyol (other), 3 tomaca (ingredient),
# 4 estendard (other)
@pytest.mark.parametrize("index, effect, pointer", [
    (1, {"when": {"event": "card-used", "cards": ["el-capita-moro"]}, "do": [{"verb": "draw", "count": 1}]},
     "/cards/1/effects/0/when/cards"),
    (1, {"when": {"event": "turn-start"}, "do": [{"verb": "draw", "count": 1}]}, "/cards/1/effects/0/when"),
    (1, {"when": {"event": "card-used", "cards": ["example-cavaller"]}, "while": [{"is": "on-your-counter"}],
         "do": [{"verb": "draw", "count": 1}]}, "/cards/1/effects/0/while/0"),
    (2, {"do": [{"verb": "draw", "count": 1}]}, "/cards/2/effects/0/do/0"),
    (2, {"when": {"event": "turn-start"},
         "do": [{"verb": "coin", "heads": [{"verb": "modify-stat", "cards": ["example-cavaller"], "attack": 1}]}]},
     "/cards/2/effects/0/do/0/heads/0"),
    (2, {"when": {"event": "deck-runs-out"}, "do": [{"verb": "draw", "count": 1}]}, "/cards/2/effects/0/do/0"),
    (4, {"do": [{"verb": "count-as-ingredients", "value": 2}]}, "/cards/4/effects/0/do/0"),
    (1, {"do": [{"verb": "actions-per-turn", "count": 2}]}, "/cards/1/effects/0/do/0"),
    (2, {"do": [{"verb": "return-to-hand"}]}, "/cards/2/effects/0/do/0"),
])
def test_validate_refuses_an_effect_placed_where_it_never_fires(tmp_path: Path, index: int, effect: dict,
                                                                 pointer: str) -> None:
    pack = _pack_copy(tmp_path, lambda cards: _effect(cards, index, effect))
    run = run_cli("--cards", str(FIXTURE_CARDS), "validate", str(pack), "--format", "json")
    assert run.exit_code == 1, run.output
    found = [(p["code"], p["pointer"]) for p in run.problems if p["file"].endswith("sets/example.json")]
    assert found == [("effect-never-fires", pointer)], found


@pytest.mark.parametrize("bonus, found", [
    ({"when": {"event": "deck-runs-out"}, "do": [{"verb": "draw", "count": 1}]},
     {("effect-never-fires", "/when"), ("effect-never-fires", "/do/0")}),
    ({"do": [{"verb": "face-up-attacks"}]}, {("effect-never-fires", "/do/0")}),  # refused once, not also terreta-verb
    ({"while": [{"is": "on-your-counter"}], "do": [{"verb": "modify-stat", "cards": ["el-capita-moro"], "attack": 1}]},
     {("effect-never-fires", "/while/0")}),
    ({"when": {"event": "turn-start"}, "do": [{"verb": "win"}]}, {("terreta-verb", "/do/0")}),
])
def test_validate_refuses_a_terreta_bonus_that_never_fires(tmp_path: Path, bonus: dict, found: set) -> None:
    shutil.copytree(FALLERA, tmp_path / "cards" / "fallera")
    board = tmp_path / "cards" / "fallera" / "boards" / "kingdom-map.json"
    data = json.loads(board.read_text(encoding="utf-8"))
    side, space = next((s, p) for s, side in enumerate(data["sides"]) for p, space in enumerate(side["spaces"])
                       if space["id"] == "nord" and space.get("bonuses"))
    data["sides"][side]["spaces"][space]["bonuses"] = [bonus]
    board.write_text(json.dumps(data), encoding="utf-8")
    run = run_cli("--cards", str(tmp_path / "cards"), "validate", "--format", "json")
    assert run.exit_code == 1, run.output
    here = f"/sides/{side}/spaces/{space}/bonuses/0"
    refused = [(p["code"], p["pointer"].removeprefix(here)) for p in run.problems
               if p["file"].endswith("kingdom-map.json")]
    assert sorted(refused) == sorted(found), refused


def test_the_places_of_a_card_follow_its_type_and_kind() -> None:
    from cardworks.games.fallera.placement import NOWHERE, card_places, never_fires

    assert card_places(["treasure"], "ingredient") == {"counter", "ingredient"}
    assert card_places(["treasure"], "sellable") == {"counter", "sold"}
    assert card_places(["treasure"], "other") == {"counter"} == card_places(["treasure"], None)
    assert card_places(["battle"], None) == {"battle"}
    assert card_places(["special"], None) == {"hand", "attached"}
    draw = Effect.model_validate({"when": {"event": "turn-start"}, "do": [{"verb": "draw", "count": 1}]})
    refused = list(never_fires(draw, card_places(["special"], None), "any-special"))
    assert [pointer for pointer, _ in refused] == ["/when"] and "in its holder's hand" in refused[0][1]
    refused = list(never_fires(draw, frozenset(), "no-type"))
    assert [pointer for pointer, _ in refused] == ["/when"] and NOWHERE in refused[0][1]
    describing = Effect.model_validate({"do": [{"verb": "as-its-type"}]})
    assert list(never_fires(describing, frozenset(), "any-special")) == []
