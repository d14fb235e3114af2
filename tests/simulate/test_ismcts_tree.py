"""The search grows the very tree the plain search grew: ``grow`` against ``plain_grow``, the search as it
stood before the speed work of session 12 (copied here whole), node by node (key, player, visits, reward and
availability), on the positions of ``test_ismcts_decisions.py``, also when some determinizations offer the
root another list than the searcher's (the root's children then listed afresh, mid-search). Shown failing on
a search that differs by one iteration."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Any

import pytest

from cardworks.engine.core import CHANCE, Playout
from cardworks.simulate.mcts import EXPLORATION, ROLLOUT_STEPS, Node, _count_available, _rollout, grow
from test_ismcts_decisions import TABLES, positions


def plain_grow(table: Any, heuristics: Any, me: int, seen: dict[str, Any], budget: int, rng: random.Random,
               legal: Sequence[Any] = (), rollout_steps: int = ROLLOUT_STEPS) -> Node:
    """The search tree's root after ``budget`` iterations from observation ``seen``.

    Each iteration plays its determinization in place, through one playout for the descent and the
    rollout both: the actions a playout lists are legal by construction, so no step is checked again or
    copies the position (``apply`` would do both, for the same effects and the same chance). ``legal``, the
    searcher's own legal actions, stands for the root's list in every determinization: they depend only on
    what the searcher sees (its hand, the table), so only their number is compared, and a determinization
    offering another number is listed afresh. ``rollout_steps`` other than ``ROLLOUT_STEPS`` is for comparing
    searches (``bench/ismcts_strength.py --rollout-duel``): shorter rollouts play much worse."""
    rules = table.rules
    actor_of = rules.actor
    players = table.spec.players
    sample = heuristics.determinizer(table, seen)  # drawn as states, then thawed by ``table.playout``
    root = Node(me)
    rooted = list(legal)
    root_kids: list[Node] = []
    sqrt, exploration, infinity = math.sqrt, EXPLORATION, math.inf
    # ``math.log`` of each count of availability a child can reach (at most one more an iteration): the same
    # numbers, looked up instead of computed for every child at every step of a descent
    logs = [0.0] + [math.log(n) for n in range(1, budget + 1)]
    for _ in range(budget):
        playout = table.playout(sample(rng))
        choices, play, _ = playout
        position = table.live(playout)
        node, path = root, [root]
        while True:
            actor = actor_of(position())
            if actor is None:
                break
            actions = choices()
            children = node.children
            if actor == CHANCE:
                action = actions[int(rng.random() * len(actions))]
                key = action.notation()
                child = children.get(key)
                if child is None:
                    child = children[key] = Node(CHANCE)
                play(action, rng)
                node = child
                path.append(node)
                continue
            if node is root and len(actions) == len(rooted):
                actions = rooted
                if root_kids:  # every root action has its child: the same children, in the same order
                    for child in root_kids:
                        child.available += 1
                    untried, kids = (), root_kids
                else:
                    untried, kids, actions = _count_available(children, actions)
                    if not untried:
                        root_kids = kids
            else:
                untried, kids, actions = _count_available(children, actions)
            if untried:
                action = untried[int(rng.random() * len(untried))]
                child = children[action.notation()] = Node(actor)
                child.available = 1
                play(action, rng)
                path.append(child)
                break
            # every action has its child (kids[i] is the child of the i-th action): UCB1 with availability
            best, best_score = None, -infinity
            for action, child in zip(actions, kids):
                visits = child.visits
                score = child.reward / visits + exploration * sqrt(logs[child.available] / visits) \
                    if visits else infinity
                if score > best_score:
                    best, node, best_score = action, child, score
            play(best, rng)
            path.append(node)
        rewards = _rollout(table, heuristics, playout, position, rng, players, rollout_steps)
        for visited in path:
            visited.visits += 1
            if visited.player >= 0:
                visited.reward += rewards[visited.player]
    return root


def _tree(node: Node, key: str = "root") -> list[tuple]:
    """Every node of a tree as (key path, player, visits, reward, availability), depth first in key order."""
    found = [(key, node.player, node.visits, node.reward, node.available)]
    for child_key in sorted(node.children):
        found += _tree(node.children[child_key], f"{key} / {child_key}")
    return found


class _ShortRoots:
    """A table whose every third playout offers, at its first listing, one action fewer: the root then lists its
    children afresh in those iterations (any deterministic change will do, played by both searches alike). Its
    ``heuristics`` deal their playouts so too (the search deals its own, the plain search thaws the table's)."""

    def __init__(self, table: Any) -> None:
        self._table, self._made = table, 0
        self.heuristics = _ShortDeals(table.heuristics, self._shortened)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._table, name)

    def playout(self, state: Any) -> Playout:
        return self._shortened(self._table.playout(state))

    def _shortened(self, made: Playout) -> Playout:
        self._made += 1
        if self._made % 3:
            return made
        first = [True]

        def choices() -> Sequence[Any]:
            listed = made.choices()
            if first[0]:
                first[0] = False
                return list(listed)[:-1] if len(listed) > 2 else listed
            return listed

        return Playout(choices, made.play, made.state)


class _ShortDeals:
    """A game's heuristics whose ``determinized_playouts`` are shortened as ``_ShortRoots`` shortens playouts."""

    def __init__(self, heuristics: Any, shortened: Any) -> None:
        self._heuristics, self._shortened = heuristics, shortened

    def __getattr__(self, name: str) -> Any:
        return getattr(self._heuristics, name)

    def determinized_playouts(self, table: Any, seen: dict[str, Any]) -> Any:
        dealt = self._heuristics.determinized_playouts(table, seen)
        return lambda rng: self._shortened(dealt(rng))


BUDGET = 60


@pytest.mark.parametrize("name", list(TABLES))
@pytest.mark.parametrize("short", [False, True], ids=["searcher's list", "some roots listed afresh"])
def test_the_search_grows_the_plain_search_s_tree(name: str, short: bool) -> None:
    compared = 0
    for label, table, seat, seen, legal in positions(name):
        trees = []
        for grower in (grow, plain_grow):
            searched = _ShortRoots(table) if short else table
            trees.append(_tree(grower(searched, searched.heuristics, seat, seen, BUDGET, random.Random(label), legal)))
        assert trees[0] == trees[1], label
        compared += len(trees[0])
    assert compared > 300


def test_a_search_one_iteration_longer_fails_the_comparison() -> None:
    label, table, seat, seen, legal = next(positions("base4"))
    grown = _tree(grow(table, table.heuristics, seat, seen, BUDGET + 1, random.Random(label), legal))
    plain = _tree(plain_grow(table, table.heuristics, seat, seen, BUDGET, random.Random(label), legal))
    assert grown != plain
