"""Information-Set Monte Carlo Tree Search (Cowling, Powley & Whitehouse 2012), single observer.

Each iteration draws a determinization: a full position consistent with what the
searching player observed (``rules.observe``), its hidden part sampled by the game's
heuristics module; the searcher never reads the true state. The iteration then
descends one tree shared by every determinization, choosing among the actions legal
in *this* determinization by UCB1 with availability counts (a child's exploration
term uses how often it was available, not its parent's visits). Every player's moves
are in the tree, each node scored for the player who moved into it; chance outcomes
are drawn uniformly. A leaf is valued by a short random rollout, then the game's
evaluation of the position reached (each player's chances, summing to 1), so a
budget of a few hundred iterations is enough to play with purpose.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from typing import Any

from ..engine.core import CHANCE
from .tables import Table, winners

EXPLORATION = 0.7
ROLLOUT_STEPS = 12
"""Random steps after a leaf before the position is evaluated."""


class Node:
    __slots__ = ("children", "visits", "available", "reward", "player")

    def __init__(self, player: int) -> None:
        self.children: dict[str, Node] = {}
        self.visits = 0
        self.available = 0
        self.reward = 0.0
        self.player = player
        """Who moved into this node (the one whose reward it keeps)."""


def search(table: Table, heuristics: Any, me: int, seen: dict[str, Any], legal: Sequence[Any], budget: int,
           rng: random.Random, rollout_steps: int = ROLLOUT_STEPS) -> Any:
    """The action ``me`` plays after ``budget`` iterations from observation ``seen`` (``rollout_steps``: see
    ``grow``)."""
    if len(legal) == 1:
        return legal[0]
    root = grow(table, heuristics, me, seen, budget, rng, legal, rollout_steps)
    choices = {action.notation(): action for action in legal}
    ranked = sorted(((child.visits, child.reward, key) for key, child in root.children.items() if key in choices),
                    reverse=True)
    return choices[ranked[0][2]] if ranked else legal[0]


def grow(table: Table, heuristics: Any, me: int, seen: dict[str, Any], budget: int, rng: random.Random,
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
    dealt = _playouts(table, heuristics, seen)
    root = Node(me)
    rooted = list(legal)
    root_kids: list[Node] = []
    rounds = 0  # iterations each of ``root_kids`` was available in and not yet counted on it (``_flush``)
    sqrt, exploration, infinity = math.sqrt, EXPLORATION, math.inf
    # ``math.log`` of each count of availability a child can reach (at most one more an iteration): the same
    # numbers, looked up instead of computed for every child at every step of a descent
    logs = [0.0] + [math.log(n) for n in range(1, budget + 1)]
    for _ in range(budget):
        playout = dealt(rng)
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
                if root_kids:  # every root action has its child: the same children, in the same order, each
                    rounds += 1  # available once more (counted on them by ``_flush``)
                    best, best_score = None, -infinity
                    for action, child in zip(rooted, root_kids):  # the loop below, availability counted
                        visits = child.visits
                        score = child.reward / visits + exploration * sqrt(logs[child.available + rounds] / visits) \
                            if visits else infinity
                        if score > best_score:
                            best, node, best_score = action, child, score
                    play(best, rng)
                    path.append(node)
                    continue
                else:
                    untried, kids, actions = _count_available(children, actions)
                    if not untried:
                        root_kids = kids
            elif not children:  # a node's first visit: every action untried, none built but the one drawn
                untried = actions
            else:
                if node is root:
                    rounds = _flush(root_kids, rounds)
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
    _flush(root_kids, rounds)
    return root


def _flush(kids: list[Node], rounds: int) -> int:
    """``rounds`` more availability counted on each of ``kids``; none left to count."""
    if rounds:
        for child in kids:
            child.available += rounds
    return 0


def _count_available(children: dict[str, Node], actions: Sequence[Any]) -> tuple[list[Any], list[Node], list[Any]]:
    """(actions without a child yet, children of the others in the actions' order, those others), each child
    found counted as available once more (the actions are listed once: a game may build them as they are
    looked at)."""
    get = children.get
    untried, kids, tried = [], [], []
    for action in actions:
        child = get(action.notation())
        if child is None:
            untried.append(action)
        else:
            child.available += 1
            kids.append(child)
            tried.append(action)
    return untried, kids, tried


def _playouts(table: Table, heuristics: Any, seen: dict[str, Any]) -> Callable[[random.Random], Any]:
    """Draws determinizations of ``seen``, each as a playout in place: the game's ``determinized_playouts``
    when it deals them so, else ``table.playout`` of its ``determinizer``'s draws (which prepares what every
    draw shares once per search), else of its ``determinize`` called afresh."""
    playouts = getattr(heuristics, "determinized_playouts", None)
    if playouts is not None:
        return playouts(table, seen)
    prepare = getattr(heuristics, "determinizer", None)
    sample = prepare(table, seen) if prepare is not None else lambda rng: heuristics.determinize(table, seen, rng)
    playout = table.playout
    return lambda rng: playout(sample(rng))


def _rollout(table: Table, heuristics: Any, playout: Any, position: Callable[[], Any], rng: random.Random,
             players: int, steps: int) -> list[float]:
    """Up to ``steps`` random steps on the iteration's playout, then the position's value."""
    rules = table.rules
    if rules.actor(position()) is not None:
        table.random_steps(playout, steps, rng)
    state = position()
    if rules.actor(state) is None:
        won = winners(rules.result(state)[0])
        if not won:
            return [1.0 / players] * players
        return [1.0 / len(won) if p in won else 0.0 for p in range(players)]
    return heuristics.evaluate(table, state)
