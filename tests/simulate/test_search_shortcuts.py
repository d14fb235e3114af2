"""The search's shortcuts decide as the plain loops they replace: the root's children scored as lists
(``mcts._RootScores``) against UCB1 over the nodes, and the rollouts' sets of marked instances
(``rollouts._marked``) against the flags they are read from. Each comparison is shown failing on a wrong
shortcut. (``test_ismcts_decisions.py`` compares whole searches with recorded ones.)"""

from __future__ import annotations

import math
import random

import pytest

from cardworks.games.fallera.rollouts import _marked
from cardworks.simulate.mcts import EXPLORATION, Node, _RootScores
from cardworks.simulate.tables import TableSpec, build_table
from conftest import FIXTURE_CARDS


def _loop_choice(kids: list[Node], logs: list[float]) -> int:
    """UCB1 with availability over the nodes, every child available once more: ``grow``'s loop for any node."""
    best, best_score = -1, -math.inf
    for index, child in enumerate(kids):
        child.available += 1
        visits = child.visits
        score = child.reward / visits + EXPLORATION * math.sqrt(logs[child.available] / visits) \
            if visits else math.inf
        if score > best_score:
            best, best_score = index, score
    return best


def _kids(rng: random.Random, count: int) -> list[Node]:
    """Children with figures a search reaches, ties included (equal rewards and visits), one unvisited."""
    kids = []
    for n in range(count):
        kid = Node(0)
        kid.visits = 1 + (n % 3 if n % 4 else rng.randrange(6))
        kid.reward = kid.visits * (0.25 if n % 5 == 0 else rng.random())
        kid.available = kid.visits + rng.randrange(4)
        kids.append(kid)
    kids[-1].visits = kids[-1].reward = 0
    return kids


def _follow(scores_class, seed: int) -> tuple[list[int], list[tuple[int, float, int]]]:
    """(each iteration's choice, the nodes' figures at the end) of 300 iterations on two copies of the same
    children: one chosen by the nodes' loop, the other by ``scores_class``, flushed now and then as ``grow``
    does when the root's children are listed another way."""
    rng, logs = random.Random(seed), [0.0] + [math.log(n) for n in range(1, 400)]
    plain, listed = _kids(random.Random(seed), 25), _kids(random.Random(seed), 25)
    scored = None
    choices = []
    for iteration in range(300):
        index = _loop_choice(plain, logs)
        if scored is None:
            scored = scores_class(listed)
        assert scored.choose(logs) == index, iteration
        choices.append(index)
        reward = rng.choice((0.0, 0.25, rng.random()))
        for kids in (plain, listed):
            kids[index].visits += 1
            kids[index].reward += reward
        scored.backed_up()
        if iteration % 37 == 36:
            scored.flush()
            scored = None
    scored.flush()
    figures = [(k.visits, k.reward, k.available) for k in listed]
    assert figures == [(k.visits, k.reward, k.available) for k in plain]
    return choices, figures


@pytest.mark.parametrize("seed", range(4))
def test_the_root_scored_as_lists_chooses_as_the_loop_over_its_children(seed: int) -> None:
    choices, _ = _follow(_RootScores, seed)
    assert len(set(choices)) > 5  # the choice moves among the children


class _StaleAvailability(_RootScores):
    """Wrong: forgets that every child is available once more at each iteration."""

    def choose(self, logs):
        self.rounds -= 1
        return super().choose(logs)


class _LastOfTies(_RootScores):
    """Wrong: of equal scores, takes the last (the loop keeps the first)."""

    def choose(self, logs):
        super().choose(logs)
        visits, count = self.visits, len(self.visits)
        if 0 in visits:
            return self.chosen
        scores = [r / v + EXPLORATION * math.sqrt(logs[a + self.rounds] / v)
                  for r, v, a in zip(self.rewards, visits, self.available)]
        self.chosen = count - 1 - scores[::-1].index(max(scores))
        return self.chosen


@pytest.mark.parametrize("wrong", [_StaleAvailability, _LastOfTies])
def test_a_wrong_root_scoring_fails_the_comparison(wrong) -> None:
    with pytest.raises(AssertionError):
        for seed in range(4):
            _follow(wrong, seed)


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
