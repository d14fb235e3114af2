"""The greedy player values every verb the engine plays (``games/fallera/worth.py``)."""

from __future__ import annotations

import dataclasses

import pytest
from pydantic import TypeAdapter

from cardworks.games.fallera.cards import CardDef
from cardworks.games.fallera.effects import Effect
from cardworks.games.fallera.interpreter import handled, vocabulary
from cardworks.games.fallera.worth import WORTH, effect_worth, returns

NOTHING = {"as-its-type", "restates-terreta-bonus", "part-of", "face-up-attacks", "return-to-hand", "attach",
           "choose-player"}
"""Verbs worth nothing on their own (return-to-hand changes what using the card costs instead)."""
EXAMPLES = {
    "draw": {"verb": "draw", "count": 2}, "coin": {"verb": "coin", "heads": [{"verb": "draw", "count": 1}]},
    "extra-action": {"verb": "extra-action"}, "win": {"verb": "win"},
    "count-as-ingredients": {"verb": "count-as-ingredients", "value": 2},
    "valid-ingredient": {"verb": "valid-ingredient", "cards": ["garrofo"]},
    "modify-stat": {"verb": "modify-stat", "cards": ["monleon"], "attack": 2},
    "actions-per-turn": {"verb": "actions-per-turn", "count": 2}, "battle-again": {"verb": "battle-again"},
    "steal": {"verb": "steal"}, "discard": {"verb": "discard", "count": 1}, "cancel": {"verb": "cancel"},
    "protect": {"verb": "protect"}, "set-stat": {"verb": "set-stat", "stat": "attack", "value": 0},
    "swap-stats": {"verb": "swap-stats"}, "look-at-hand": {"verb": "look-at-hand"},
    "take-from-map": {"verb": "take-from-map"}, "move-queen": {"verb": "move-queen"},
    "several-battles": {"verb": "several-battles"}, "return-from-cemetery": {"verb": "return-from-cemetery"},
}


def test_every_verb_of_the_vocabulary_and_of_the_engine_has_a_value() -> None:
    assert set(WORTH) == set(vocabulary()["do"]) == set(handled()["do"])
    assert set(EXAMPLES) | NOTHING == set(WORTH)


@pytest.mark.parametrize("verb", sorted(EXAMPLES))
def test_a_card_with_an_acting_verb_is_worth_more_than_without_it(verb: str) -> None:
    effect = TypeAdapter(Effect).validate_python({"when": {"event": "turn-start"}, "do": [EXAMPLES[verb]]})
    plain = CardDef(id="x", types=("treasure",), kind="other")
    card = dataclasses.replace(plain, effects=(effect,), _by_verb={}, _by_event={})
    assert effect_worth(card) > effect_worth(plain) == 0


def test_a_battle_card_that_returns_to_the_hand_is_recognised() -> None:
    effect = TypeAdapter(Effect).validate_python({"do": [{"verb": "return-to-hand"}]})
    card = CardDef(id="x", types=("battle",), attack=3, defence=3, effects=(effect,))
    assert returns(card) and not returns(dataclasses.replace(card, effects=(), _by_verb={}, _by_event={}))
