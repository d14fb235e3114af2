"""Every game's action notation: any action prints and parses back identically; anything else is refused."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardworks.games.calavera import actions as calavera
from cardworks.games.diables import actions as diables
from cardworks.games.fallera import actions as fallera

slugs = st.from_regex(r"[a-z0-9]+(-[a-z0-9]+)*", fullmatch=True)
players = st.integers(0, 5)

cards = st.builds(fallera.Card, slugs, st.integers(0, 500))
FALLERA = st.one_of(
    st.builds(fallera.Almoina, players), st.builds(fallera.Sell, players, cards),
    st.builds(fallera.Attack, players, players, cards, cards), st.builds(fallera.Defend, players, cards),
    st.builds(fallera.NoDefence, players), st.builds(fallera.Coin, st.booleans()),
    st.builds(fallera.Take, players, players, cards), st.builds(fallera.First, players),
    st.builds(fallera.Move, players, slugs), st.builds(fallera.Burn, players, cards),
    st.builds(fallera.Lay, players, cards, slugs), st.builds(fallera.Call, players, players, cards),
    st.builds(fallera.AttackWith, players, cards))

dice = st.sets(st.integers(0, 5), min_size=1).map(lambda s: tuple(sorted(s)))
CALAVERA = st.one_of(
    st.builds(calavera.First, players), st.builds(calavera.Roll, players), st.builds(calavera.Die, st.integers(0, 5), slugs),
    st.builds(calavera.Reroll, players, dice), st.builds(calavera.Mark, players, slugs, st.integers(0, 12)),
    st.builds(calavera.Pass, players))

seats = st.sampled_from(["p1", "p2", "p3", "p4", "firebot"])
refs = st.from_regex(r"[a-z0-9]{1,4}(\.[1-9])?", fullmatch=True)
numbers = st.integers(1, 9)
DIABLES = st.one_of(
    st.builds(diables.ScoreLluiment, st.sampled_from(["diables", "regular-firecrackers", "characters-and-beasts"])),
    st.builds(diables.ScoreShow, seats, st.sampled_from(diables.SHOWS), st.lists(refs, max_size=4).map(tuple)),
    st.builds(diables.ScoreStreet), st.builds(diables.ScoreSocialMedia), st.builds(diables.TurnOrder),
    st.builds(diables.EndPerformance), st.builds(diables.Drums, seats), st.builds(diables.Thrill, seats, numbers),
    st.builds(diables.Like, seats, numbers), st.builds(diables.Camera, seats, numbers))

GAMES = {"fallera": (fallera.parse_action, FALLERA), "calavera": (calavera.parse_action, CALAVERA),
         "diables": (diables.parse_action, DIABLES)}
NOT_ACTIONS = [("fallera", "p1 dance"), ("diables", "p1 score circus d1")] + [
    ("calavera", text) for text in ["p1 dance", "p1 reroll", "p1 reroll 3 1", "p1 reroll 2 2", "die 0 joker", "p0 roll"]]


@pytest.mark.parametrize("game", sorted(GAMES))
@given(data=st.data())
def test_notation_parses_back_identically(game: str, data: st.DataObject) -> None:
    parse, actions = GAMES[game]
    action = data.draw(actions)
    assert parse(action.notation()) == action
    assert parse(action.notation()).notation() == action.notation()


@pytest.mark.parametrize("game, text", NOT_ACTIONS)
def test_bad_notation_is_refused(game: str, text: str) -> None:
    with pytest.raises(ValueError):
        GAMES[game][0](text)
