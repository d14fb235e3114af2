"""The map's bonus lines read as sentences in every locale: the valid-ingredient bonus names its card after
"the card", so that no locale needs an article the card's name does not carry (ca printed "xoriç compta …")."""

from __future__ import annotations

import copy

import pytest

from cardworks.errors import DataError
from cardworks.games.fallera.boardnotes import bonus_text
from cardworks.loading import load_database
from cardworks.loading.records import Index
from cardworks.render.docs.texts import DocTexts
from conftest import REPO

DB = load_database(REPO / "cards" / "fallera")
WORDS = {"en": "the card xoriç counts as a valid ingredient", "ca": "la carta xoriç compta com a ingredient vàlid",
         "es": "la carta xoriç cuenta como ingrediente válido"}


def _ingredient_space():
    spaces = [s for board in Index(DB).of_kind("board") for side in board.model.sides for s in side.spaces
              if any(v.get("verb") == "valid-ingredient" for b in s.bonuses for v in b.get("do", []))]
    assert spaces, "no space has a valid-ingredient bonus"
    return spaces[0]


@pytest.mark.parametrize("locale", sorted(WORDS))
def test_the_valid_ingredient_bonus_names_its_card_after_the_word_card(locale: str) -> None:
    assert WORDS[locale] in bonus_text(DB, DocTexts(DB, locale), _ingredient_space())


def test_a_valid_ingredient_bonus_for_two_cards_is_refused() -> None:
    space = copy.deepcopy(_ingredient_space())
    for bonus in space.bonuses:
        for verb in bonus.get("do", []):
            if verb.get("verb") == "valid-ingredient":
                verb["cards"] = ["xoric", "xoric"]
    with pytest.raises(DataError, match="for one card, not 2"):
        bonus_text(DB, DocTexts(DB, "en"), space)
