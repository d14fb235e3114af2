"""The rollouts' sets of marked instances (``rollouts._marked``) are those the deck's flags name, and a list
holding none of the out-of-order ones is in notation order, as the rollouts rely on; marking by the rank alone
is shown to miss one. (``test_random_steps.py`` compares whole rollouts with the plain loop.)"""

from __future__ import annotations

import random

import pytest

from cardworks.games.fallera.rollouts import _marked
from cardworks.simulate.tables import TableSpec, build_table
from conftest import FIXTURE_CARDS

TABLES = {"base4": ("base", 4), "base2-4": ("base-2", 4), "expert3": ("expert", 3)}


def _facts(name: str):
    selection, players = TABLES[name]
    table = build_table(TableSpec(str(FIXTURE_CARDS), "fallera", selection, players))
    return table.rules.facts(table.deal(random.Random(1)))


def _out_of_order(facts) -> set[int]:
    """Instances ranked otherwise than their number says against some other instance (brute force)."""
    rank, size = facts.rank, facts.size
    return {i for i in range(size) for j in range(size) if (i < j) != (rank[i] < rank[j]) and i != j}


@pytest.mark.parametrize("name", list(TABLES))
def test_the_rollouts_marked_instances_are_those_their_flags_name(name: str) -> None:
    facts = _facts(name)
    unsorted, loose, granting, starters = _marked(facts)
    assert unsorted == _out_of_order(facts)
    assert loose == {i for i in range(facts.size) if not facts.battle[i]}
    assert granting == {i for i in range(facts.size) if facts.more_actions[i]}
    assert starters == {i for i in range(facts.size) if facts.turn_start[i]}
    # the promise the rollouts rely on: a list in number order holding none of ``unsorted`` is in notation order
    rng, checked = random.Random(3), 0
    for _ in range(300):
        picked = sorted(rng.sample(range(facts.size), rng.randrange(1, 8)))
        if unsorted.isdisjoint(picked):
            assert sorted(picked, key=facts.rank_of) == picked
            checked += 1
    assert checked > 50


def test_the_bench_deck_has_instances_out_of_notation_order() -> None:
    """The fixture's base deck numbers ``el-capita-moro`` 9 and 10 ("#10" sorts before "#9"): the sorting path
    of the rollouts is played by the comparisons of ``test_random_steps.py`` on it."""
    assert _out_of_order(_facts("base4")) == {9, 10}


def test_a_wrong_marking_fails_the_comparison(monkeypatch) -> None:
    """Marked by the rank alone (an instance whose rank equals its number counted as in order), the set misses
    an instance that is out of order with a later one; the comparison sees it."""
    facts = _facts("base4")
    rank = list(facts.rank)
    # a deck whose instance 3 keeps its rank but 2 and 4 swap around it: 2 > 4 in rank, 3 stays in place
    rank[2], rank[4] = rank[4], rank[2]
    wrong = {i for i, r in enumerate(rank) if r != i}

    class Swapped:
        pass

    swapped = Swapped()
    swapped.__dict__.update(vars(facts))
    swapped.rank = tuple(rank)
    monkeypatch.setattr("cardworks.games.fallera.rollouts._MARKED", {})
    assert _marked(swapped)[0] == _out_of_order(swapped) != wrong
