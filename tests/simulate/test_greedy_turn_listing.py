"""Greedy's turn read off the rules' own listing (``heuristics._turn``, over ``TurnChoices``) chooses what its loop over
every listed action chooses: the same action from the same random number, ties included, at every turn decision of
greedy games on several decks."""

from __future__ import annotations

import pytest

from cardworks.engine.core import CHANCE
from cardworks.games.fallera import heuristics
from cardworks.games.fallera.facts import TurnChoices
from cardworks.simulate import runner
from cardworks.simulate.agents import parse_agents
from cardworks.simulate.tables import TableSpec, build_table
from simulate_helpers import CARDS, PACK, REPO

VERBS = REPO / "tests" / "engine" / "verbs_pack"
BALANCE = REPO / "tests" / "simulate" / "balance-pack"


class _Fixed:
    """A generator whose ``random()`` is always ``value``: the first or the last of tied actions is chosen."""

    def __init__(self, value: float) -> None:
        self.value, self.draws = value, 0

    def random(self) -> float:
        self.draws += 1
        return self.value


def _turns(pack, selection: str, players: int, games: int):
    """(table, seat, observation, listing) of every greedy turn decision of ``games`` greedy games."""
    table = build_table(TableSpec(str(CARDS), "fallera", selection, players, (str(pack),)))
    seats = parse_agents("greedy", players)
    rules = table.rules
    for index in range(games):
        chance, *minds = runner.game_rngs(5, index, players)
        choices, play, now = table.playout(table.deal(chance))
        legal = choices()
        while legal:
            state = now()
            actor = rules.actor(state)
            if actor != CHANCE and state.phase == "turn" and len(legal) > 1:
                yield table, actor, rules.observe(state, actor), rules.choices(state)
            action = legal[int(chance.random() * len(legal))] if actor == CHANCE else \
                seats[actor].choose(table, actor, lambda: rules.observe(state, actor), legal, minds[actor])
            play(action, chance)
            legal = choices()


@pytest.mark.parametrize("pack, selection, players, games", [
    (PACK, "base", 4, 6), (PACK, "expert", 3, 4), (VERBS, "base-3", 3, 4), (BALANCE, "base", 4, 4)])
def test_the_listing_read_by_numbers_chooses_as_the_loop_does(pack, selection, players, games) -> None:
    compared = tied = 0
    for table, me, seen, legal in _turns(pack, selection, players, games):
        listed = list(legal)
        picks = []
        for value in (0.0, 0.5, 0.999999):
            fast, slow = _Fixed(value), _Fixed(value)
            got = heuristics.greedy(table, me, seen, legal, fast) if type(legal) is TurnChoices else None
            want = heuristics.greedy(table, me, seen, listed, slow)
            if got is not None:
                assert got == want and fast.draws == slow.draws == 1, (value, me, seen)
            picks.append(want)
        compared += type(legal) is TurnChoices
        tied += picks[0] != picks[-1]
    assert compared > 50 and tied > 0  # ties were met, and chosen alike


def test_a_listing_pruned_by_a_wrong_bound_is_seen(monkeypatch) -> None:
    """The comparison is sharp: bounding a rival's battles by its treasure worth least (a bound below some of its
    scores) makes some decision differ from the loop's."""
    monkeypatch.setattr(heuristics, "_BOUND", min)
    differs = 0
    for table, me, seen, legal in _turns(PACK, "base", 4, 3):
        if type(legal) is TurnChoices:
            differs += heuristics.greedy(table, me, seen, legal, _Fixed(0.0)) != \
                heuristics.greedy(table, me, seen, list(legal), _Fixed(0.0))
    assert differs > 0


@pytest.mark.parametrize("pack, selection, players, games", [(PACK, "base", 4, 6), (VERBS, "base-3", 3, 4)])
def test_a_listing_names_the_cards_its_actions_name(pack, selection, players, games) -> None:
    """``Simulation.named`` of a turn's listing, read off its numbers, is what its built actions name: every battle's
    weapon and treasure, every special played and treasure sold, nothing for an almoina or a move."""
    from cardworks.games.fallera import simulation

    kinds = set()
    for _, _, _, legal in _turns(pack, selection, players, games):
        if type(legal) is TurnChoices:
            listed = list(legal)
            assert simulation.named(legal) == simulation.named(listed)
            kinds.update(type(action).__name__ for action in listed)
    assert {"Attack", "Sell", "Play"} <= kinds


def test_the_unseen_defences_are_those_of_the_battle_cards_not_shown() -> None:
    """``_unseen_defences``: the defences, ascending, of the battle cards a player's observation does not show (its
    hand, the cemetery, cards being laid, every counter, the map, a face-up attack), as a plain count finds them."""
    met = 0
    for table, _, seen, _ in _turns(PACK, "base", 4, 4):
        battle = seen.get("battle")
        shown = {*seen["hand"], *seen["cemetery"], *seen.get("laying", ()), *(label for c in seen["counters"] for label in c),
                 *seen.get("map", {}).values(), *((battle.get("attack"),) if battle else ())}
        cards = table.rules.deck_designs()
        want = sorted(table.cards[d].defence for i, d in enumerate(cards) if table.cards[d].battle and f"{d}#{i}" not in shown)
        assert heuristics._unseen_defences(table, seen) == want
        met += 0 < len(want) < sum(table.cards[d].battle for d in cards)
    assert met > 10
