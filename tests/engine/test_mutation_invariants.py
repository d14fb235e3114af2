"""The invariants added so planted rules bugs are caught (``bench/mutants.py``): each one fails on a bad state."""

from __future__ import annotations

from dataclasses import replace

import pytest

from cardworks.games.calavera.game import Configuration, rules_for
from cardworks.engine.core import IllegalActionError, Outcome
from cardworks.games.diables.game import scenario_state as diables_state
from cardworks.games.fallera.game import scenario_state as fallera_state
from cardworks.engine.scenarios import resolve
from cardworks.games.fallera import invariants as fallera_invariants
from cardworks.loading import load_database
from conftest import FALLERA as FALLERA_GAME, FIXTURE_CARDS

CALAVERA = load_database(FIXTURE_CARDS / "calavera")  # the fixture games (tests/fixtures/cards/build.py)
DIABLES = load_database(FIXTURE_CARDS / "diables")
FALLERA = load_database(FALLERA_GAME)


def _calavera(steps: list[str]):
    rules, _ = rules_for(CALAVERA, Configuration(2))
    state = rules.new_game()
    for step in steps:
        state = rules.apply(state, resolve(rules, state, step))
    return rules, state


ROLLED = ["first p1", "p1 roll", "die 1 calavera", "die 2 colour-1", "die 3 colour-1", "die 4 colour-2",
          "die 5 colour-3", "die 6 colour-4"]


def test_calavera_sound_states_break_nothing() -> None:
    assert ROLLED
    for count in range(len(ROLLED) + 1):
        rules, state = _calavera(ROLLED[:count])
        assert rules.invariants(state) == []


@pytest.mark.parametrize(("steps", "change", "message"), [
    ([], {"round": 0}, "rounds count from 1"),
    ([], {"round": 2}, "drawn before the first round"),
    (ROLLED[:1], {"current": 2}, "not a player of the game"),
    (ROLLED[:1], {"rolls": 1}, "before the turn's first roll"),
    (ROLLED, {"rolls": 0}, "rolls after a roll was made"),
    (ROLLED, {"dice": ("colour-1",) * 7, "aside": (False,) * 7}, "dice on the table, the game has 6"),
    (ROLLED[:1], {"credits": 1}, "skulls owed outside"),
    (ROLLED, {"jokers_used": True}, "no die shows a joker"),
    (ROLLED[:1], {"phase": "over", "reason": "rows-closed", "winners": (0,), "scores": (0, 0)}, None),
    (ROLLED[:1], {"passive": 3}, "passive player is not a player"),
])
def test_calavera_invariant_fails_on_a_bad_state(steps: list[str], change: dict, message: str | None) -> None:
    rules, state = _calavera(steps)
    broken = rules.invariants(replace(state, **change))
    if message is None:  # a finished game: sound, and its outcome agrees
        assert broken == [] and rules.outcome(replace(state, **change)).winners == (0,)
    else:
        assert any(message in line for line in broken), broken


def test_calavera_outcome_must_agree_with_the_state(monkeypatch: pytest.MonkeyPatch) -> None:
    rules, state = _calavera(ROLLED[:1])
    monkeypatch.setattr(type(rules), "outcome", lambda self, s: None)
    over = replace(state, phase="over", reason="rows-closed", winners=(0,), scores=(0, 0))
    assert any("outcome exactly when it is over" in line for line in rules.invariants(over))


def test_calavera_first_player_is_drawn_only_before_the_first_turn() -> None:
    rules, state = _calavera(ROLLED[:2])  # a roll is landing: a die outcome is due, not the first player
    with pytest.raises(IllegalActionError) as refused:
        rules.apply(state, rules.parse("first p2"))
    assert refused.value.rule == "turn-sequence"


def _diables(**setup):
    return diables_state(DIABLES, {"players": 2, **setup})


def test_diables_sound_state_breaks_nothing() -> None:
    rules, state = _diables(phase="performance", thrills={"p1": 1}, street={"p1": [{"covered": False}]},
                            wall=[{"kind": "photo", "like_slots": 2}])
    assert rules.invariants(state) == []


@pytest.mark.parametrize(("change", "message"), [
    ({"thrills": (-1, 0)}, "negative thrilled crowd actions"),
    ({"round": 0}, "round 0 does not exist"),
    ({"shows_now": (3, 0)}, "p1 scored 3 shows this round"),
    ({"firebot_show": "plaza"}, "not a show"),
    ({"phase": "over", "winner": 1}, None),
])
def test_diables_invariant_fails_on_a_bad_state(change: dict, message: str | None) -> None:
    rules, state = _diables()
    broken = rules.invariants(replace(state, **change))
    if message is None:
        assert broken == []
    else:
        assert any(message in line for line in broken), broken


def test_diables_negative_likes_break_an_invariant() -> None:
    rules, state = _diables(phase="performance", wall=[{"kind": "photo", "like_slots": 2}])
    bad = replace(state, wall=(replace(state.wall[0], likes=-1),))
    assert "a post holds a negative number of likes" in rules.invariants(bad)


@pytest.mark.parametrize(("method", "patched", "message"), [
    ("actor", lambda self, state: 1, "the table (0) scores"),
    ("outcome", lambda self, state: Outcome("round-scored"), "disagrees with the phase"),
    ("result", lambda self, state: (None, "game-over"), "disagrees with the phase"),
    ("parse", lambda self, text: None, "does not parse back to itself"),
])
def test_diables_views_must_agree_with_the_rules(monkeypatch: pytest.MonkeyPatch, method: str, patched,
                                                 message: str) -> None:
    rules, state = _diables(phase="performance", thrills={"p1": 1}, street={"p1": [{"covered": False}]})
    assert rules.invariants(state) == []
    monkeypatch.setattr(type(rules), method, patched)
    assert any(message in line for line in rules.invariants(state))


def test_fallera_legal_actions_must_parse_back(monkeypatch: pytest.MonkeyPatch) -> None:
    setup = {"players": 2, "hands": [["el-capita-moro"], ["el-tio-sangonera"]], "counters": [[], ["garrofo"]],
             "deck": ["carxofa", "bajoqueta"], "current": "p1"}
    rules, state = fallera_state(FALLERA, setup)
    assert rules.invariants(state) == []
    legal = rules.legal_actions(state)
    monkeypatch.setattr(fallera_invariants, "_PARSED", {})  # fresh caches: the bad parser is not remembered
    monkeypatch.setattr(fallera_invariants, "_ROUND_TRIPPED", {})
    monkeypatch.setattr(type(rules), "parse", lambda self, text: legal[0])  # every notation read as one action
    broken = rules.invariants(state)
    assert len(legal) > 1 and any("does not parse back to itself" in line for line in broken)


@pytest.mark.parametrize(("row", "message"), [
    (("normal", "bonus", "danger"), "has 12 boxes and 3 zones"),
    (("danger",) * 2 + ("normal",) * 10, "does not end in its danger zone"),
    (("normal",) * 12, "does not end in its danger zone"),
])
def test_calavera_sheet_rows_end_in_their_danger_zone(row: tuple, message: str) -> None:
    rules, state = _calavera([])
    assert len(rules.zones) == 4 and all(z[-1] == "danger" for z in rules.zones)
    bad = replace(rules, zones=(row,) + rules.zones[1:], _cache={})
    assert any(message in line for line in bad.invariants(state)), bad.invariants(state)


def test_fallera_legal_actions_belong_to_the_actor(monkeypatch: pytest.MonkeyPatch) -> None:
    setup = {"players": 2, "hands": [["el-capita-moro"], ["el-tio-sangonera"]], "counters": [[], ["garrofo"]],
             "deck": ["carxofa", "bajoqueta"], "current": "p1"}
    rules, state = fallera_state(FALLERA, setup)
    assert rules.actor(state) == 0 and rules.invariants(state) == []
    monkeypatch.setattr(type(rules), "actor", lambda self, s: 1)  # the actor named wrongly: p2, on p1's turn
    assert any("is not p2's, who is to act" in line for line in rules.invariants(state))


@pytest.mark.parametrize(("game", "db"), [("fallera", FALLERA), ("calavera", CALAVERA)])
def test_every_declared_configuration_is_played(game: str, db) -> None:
    from cardworks.engine.check import missing_configurations
    from cardworks.engine.plugins import plugin_for

    configs, later = plugin_for(game).configurations(db)
    assert missing_configurations(db, configs, later) == []
    dropped = configs[-1]  # the largest player count of the last selection, as `max + 1 -> max` would drop it
    assert missing_configurations(db, configs[:-1], later) == [f"{dropped.selection}/{dropped.players}p"]


def test_check_fails_when_a_declared_player_count_is_not_played(monkeypatch: pytest.MonkeyPatch) -> None:
    from dataclasses import replace as replace_plugin

    from cardworks.engine import check
    from cardworks.engine.plugins import plugin_for

    plugin = plugin_for("calavera")
    fewer = replace_plugin(plugin, configurations=lambda db: (plugin.configurations(db)[0][1:], []))
    monkeypatch.setattr(check, "plugin_for", lambda game: fewer)
    report = check.check_game(FIXTURE_CARDS, "calavera", [], 0, 1)
    assert report.unplayed == ["base/2p"] and report.failed
    monkeypatch.setattr(check, "plugin_for", lambda game: plugin)
    assert not check.check_game(FIXTURE_CARDS, "calavera", [], 0, 1).failed


PAELLA = ["bajoqueta", "cuixa-de-pollastre", "garrofo", "carxofa", "conill"]


def test_fallera_a_complete_paella_must_end_the_game() -> None:
    setup = {"players": 2, "hands": [["el-capita-moro"], []], "counters": [PAELLA[:4], []],
             "deck": ["monleon", "jaume-i"], "current": "p1"}
    rules, state = fallera_state(FALLERA, setup)
    assert rules.invariants(state) == []  # four ingredients: the game goes on
    unnoticed = fallera_state(FALLERA, {**setup, "counters": [PAELLA, []]})[1]  # five, and nobody won
    assert any("p1 holds a complete paella (5 valid ingredients)" in line for line in rules.invariants(unnoticed))
    over = replace(unnoticed, phase="over", winner=0, reason="five-ingredients")
    assert not any("complete paella" in line for line in rules.invariants(over))


def test_fallera_a_territorial_paella_must_end_the_game() -> None:
    setup = {"selection": "base-3", "players": 3, "hands": [[], [], []], "counters": [PAELLA[:4], [], []],
             "deck": ["monleon", "jaume-i"], "current": "p1", "foods": ["sud", "interior", "nord"],
             "map": {"nord": "el-tio-sangonera"}, "queen": "nord"}
    rules, state = fallera_state(FALLERA, setup)
    assert rules.invariants(state) == []  # the Queen is not in p1's terreta
    broken = rules.invariants(replace(state, queen=state.foods[0]))
    assert any("p1 holds a complete paella (4 valid ingredients)" in line for line in broken), broken


def test_fallera_an_empty_map_slot_is_minus_one() -> None:
    setup = {"selection": "base-3", "players": 2, "hands": [[], []], "counters": [[], []], "deck": ["monleon"],
             "current": "p1", "foods": ["sud", "interior"], "map": {"nord": "romer", "sud": "carxofa"}}
    rules, state = fallera_state(FALLERA, setup)
    assert -1 in state.map and rules.invariants(state) == []
    emptied = replace(state, map=tuple(-2 if slot == -1 else slot for slot in state.map))
    assert any("neither a card instance nor -1" in line for line in rules.invariants(emptied))


def test_fallera_a_paella_win_must_be_earned() -> None:
    setup = {"players": 2, "hands": [[], []], "counters": [PAELLA, []], "deck": ["monleon"], "current": "p1"}
    rules, state = fallera_state(FALLERA, setup)
    state = replace(state, phase="over", winner=0, reason="five-ingredients")
    assert rules.invariants(state) == []  # five valid ingredients: an earned win
    four = fallera_state(FALLERA, {**setup, "counters": [PAELLA[:4], []]})[1]
    unearned = replace(four, phase="over", winner=0, reason="five-ingredients")
    assert any("p1 won by five-ingredients holding 4 valid ingredients" in line for line in rules.invariants(unearned))
    nobody = replace(state, winner=None)
    assert any("ended by five-ingredients with no winner" in line for line in rules.invariants(nobody))


def test_fallera_a_territorial_win_needs_the_queen_in_the_winners_terreta() -> None:
    setup = {"selection": "base-3", "players": 3, "hands": [[], [], []], "counters": [PAELLA[:4], [], []],
             "deck": ["monleon", "jaume-i"], "current": "p1", "foods": ["sud", "interior", "nord"],
             "map": {"nord": "el-tio-sangonera"}, "queen": "nord"}
    rules, state = fallera_state(FALLERA, setup)
    won = replace(state, phase="over", winner=0, reason="four-ingredients-territorial")
    assert any("the Queen not in their territorial terreta" in line for line in rules.invariants(won))
    assert not any("won by" in line for line in rules.invariants(replace(won, queen=state.foods[0])))


def test_fallera_the_turn_count_is_never_negative() -> None:
    setup = {"players": 2, "hands": [[], []], "counters": [[], []], "deck": ["monleon"], "current": "p1"}
    rules, state = fallera_state(FALLERA, setup)
    assert rules.invariants(state) == [] and rules.invariants(replace(state, turn=0)) == []
    assert any("the turn count is -1" in line for line in rules.invariants(replace(state, turn=-1)))


@pytest.mark.parametrize(("pending", "message"), [
    ((("draw", 0, 0), ("end-action",)), "a draw of 0 cards waits in the queue"),
    ((("end-action",), ("verbs", 0, 1, 0, "", 0)), "the step 'end-action' waits in the queue before 1 more"),
    ((("next-turn",), ("burn",)), "the step 'next-turn' waits in the queue before 1 more"),
])
def test_fallera_the_queue_keeps_its_shape(pending: tuple, message: str) -> None:
    assert fallera_invariants.queue_shape((("draw", 0, 1), ("end-action",))) == []
    assert any(message in line for line in fallera_invariants.queue_shape(pending))
    setup = {"players": 2, "hands": [[], []], "counters": [[], []], "deck": ["monleon"], "current": "p1"}
    rules, state = fallera_state(FALLERA, setup)
    assert any(message in line for line in rules.invariants(replace(state, phase="burn", pending=pending)))


def test_fallera_the_quick_tables_must_agree_with_the_full_answers(monkeypatch: pytest.MonkeyPatch) -> None:
    """``quick_tables``: a hand listed unfiltered holds only weapons, and the plain counts the simulation sums
    are what the full count finds (check plays no reader of ``plain_count``, so a wrong table shows only here)."""
    setup = {"players": 2, "hands": [["el-capita-moro"], []], "counters": [PAELLA[:3], []], "deck": ["monleon"],
             "current": "p1"}
    rules, state = fallera_state(FALLERA, setup)
    facts = rules.facts(state)
    assert facts.hands_all_battle and facts.all_plain and rules.invariants(state) == []
    in_hand = fallera_state(FALLERA, {**setup, "hands": [["el-capita-moro", "bajoqueta"], []]})[1]
    assert rules.facts(in_hand).hands_all_battle
    assert any("p1's hand holds a card that is no battle card" in line for line in rules.invariants(in_hand))
    monkeypatch.setattr(facts, "plain_count", (0,) * facts.size)
    broken = rules.invariants(state)
    assert any("p1's counter adds up to 0 valid ingredients by its plain counts, but holds 3" in line
               for line in broken), broken
    five = {"players": 5, "hands": [[]] * 5, "counters": [["cabeca-d-alls"], [], [], [], []], "deck": ["monleon"],
            "current": "p1"}
    rules, state = fallera_state(FALLERA, five)
    facts = rules.facts(state)
    assert not facts.all_plain and rules.invariants(state) == []  # two ingredients in five-player games
    monkeypatch.setattr(facts, "all_plain", True)
    assert any("p1's counter holds a card whose effects change a count" in line for line in rules.invariants(state))


def test_fallera_a_cemetery_choice_comes_from_a_card_listed_as_taking_back(monkeypatch: pytest.MonkeyPatch) -> None:
    """``quick_tables``: the simulation weighs the cemetery's cards only while a card of ``takes_back`` is in a hand
    or asks, so the card that asks for a cemetery card must be one it lists (the verbs pack's rescat)."""
    from pathlib import Path

    db = load_database(FALLERA_GAME, [Path(__file__).parent / "verbs_pack"])
    setup = {"selection": "base-3", "players": 3, "foods": ["sud", "interior", "nord"],
             "map": {"nord": "carxofa", "sud": "romer"}, "queen": "sud", "deck": ["jaume-i", "la-dama-d-elx"],
             "hands": [["verbs-rescat"], [], []], "counters": [[], [], []], "current": "p1",
             "cemetery": ["cagallo", "conill"]}
    rules, state = fallera_state(db, setup)
    state = rules.apply(state, resolve(rules, state, "p1 play verbs-rescat"))
    facts = rules.facts(state)
    assert state.phase == "choose" and state.asked[1] == "cemetery" and state.asked[2] in facts.takes_back
    assert rules.invariants(state) == []
    monkeypatch.setattr(facts, "takes_back", frozenset())
    assert any("verbs-rescat#0 asks for a cemetery card, but the deck does not list it" in line
               for line in rules.invariants(state)), rules.invariants(state)


def test_fallera_the_lazy_listing_of_legal_actions_must_index_like_the_list(monkeypatch: pytest.MonkeyPatch) -> None:
    """``lazy_listing``: a playout picks an action by position in ``rules.choices`` (built only where looked at),
    so it must read as the list does, from either end."""
    from cardworks.games.fallera.facts import TurnChoices

    setup = {"players": 2, "hands": [["el-capita-moro"], []], "counters": [PAELLA[:2], ["carxofa"]],
             "deck": ["monleon"], "current": "p1"}
    rules, state = fallera_state(FALLERA, setup)
    choices, listed = rules.choices(state), rules.legal_actions(state)
    assert type(choices) is TurnChoices and len(listed) > 1 and rules.invariants(state) == []
    assert fallera_invariants.lazy_listing(choices, listed[::-1]) == ["the legal actions are not sorted by notation"]
    assert fallera_invariants.lazy_listing(listed[::-1], listed) == [
        "the legal actions read by position differ from their list"]
    def lost(self, index):  # a negative index read from the wrong end
        if -len(self) <= index < 0:
            return self[index - len(self)]
        raise IndexError(index)

    monkeypatch.setattr(TurnChoices, "_unusual", lost)
    assert any("cannot be indexed as a sequence" in line for line in rules.invariants(state)), rules.invariants(state)


def test_fallera_a_game_with_discord_does_not_go_on_with_an_empty_deck() -> None:
    """The last card leaving the deck ends a game with expansion 2 (fallera-2 line 34), so no position it reaches
    has an empty deck and a game going on; the base game reshuffles the cemetery instead."""
    setup = {"selection": "base-2", "players": 2, "hands": [["el-capita-moro"], []], "counters": [[], []],
             "deck": ["monleon"], "current": "p1"}
    rules, state = fallera_state(FALLERA, setup)
    assert rules.discord and rules.invariants(state) == []
    emptied = rules.load({**rules.dump(state), "deck": [], "cemetery": list(state.deck)})
    assert any("the deck is empty in a game with expansion 2 that goes on" in line for line in rules.invariants(emptied))
    assert rules.invariants(replace(emptied, phase="over", reason="deck-exhausted")) == []
    base, plain = fallera_state(FALLERA, {**setup, "selection": "base"})
    assert not base.discord
    assert base.invariants(base.load({**base.dump(plain), "deck": [], "cemetery": list(plain.deck)})) == []
