"""Scripted chance: shuffles and picks come from the script, strictly."""

from __future__ import annotations

import pytest

from cardworks.engine.scripted import ScriptedChance, ScriptError

DESIGNS = ("a", "b", "b", "c", "d")


def test_a_shuffle_puts_the_scripted_designs_on_top_and_keeps_the_rest_in_order() -> None:
    chance = ScriptedChance(DESIGNS, [["c", "b", "b"], []])
    pile = [0, 1, 2, 3, 4]
    chance.shuffle(pile)
    assert pile == [3, 1, 2, 0, 4]
    chance.shuffle(pile)
    assert pile == [3, 1, 2, 0, 4] and chance.unused() == []


def test_an_unscripted_shuffle_or_pick_is_an_error() -> None:
    chance = ScriptedChance(DESIGNS, [[]])
    chance.shuffle([0, 1])
    with pytest.raises(ScriptError, match="shuffles 2 times; the script gives 1"):
        chance.shuffle([0, 1])
    with pytest.raises(ScriptError, match="gives no pick"):
        chance.sample(["nord", "sud"], 1)


def test_a_card_not_in_the_pile_or_a_wrong_pick_is_an_error() -> None:
    with pytest.raises(ScriptError, match="no \\(further\\) card of that design"):
        ScriptedChance(DESIGNS, [["a", "a"]]).shuffle([0, 1, 2])
    with pytest.raises(ScriptError, match="must be 2 of nord, sud, est"):
        ScriptedChance(DESIGNS, [], [["nord", "oest"]]).sample(["nord", "sud", "est"], 2)


def test_unused_script_lines_are_reported() -> None:
    chance = ScriptedChance(DESIGNS, [[], []], [["nord"]])
    chance.shuffle([0])
    assert chance.unused() == ["1 shuffle(s)", "1 pick(s)"]
    assert chance.sample(["nord", "sud"], 1) == ["nord"]
