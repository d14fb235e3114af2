"""Random steps played in place, for searches' rollouts: what a loop over ``choices`` and ``_play_listed``
does, with the steps most rollouts are made of played without building their list or their action.

A rollout step picks ``choices(draft)[int(rng.random() * len(choices(draft)))]`` and plays it. Most steps of
a deck without battle windows are a battle called and its defence, an almoina or a sale: for those, the number
of choices is counted and the chosen step played from the instance numbers, and the action's end and the turn
passed in line while nothing unusual happens (a win within reach, a card whose extra action or turn-start
effect has a condition to read, a mark in play); anything else goes through ``choices`` and the rules' own
effects. The
same random numbers are drawn, in the same order, so the same game is played (``tests/simulate/test_random_steps.py``
compares the two step by step).
"""

from __future__ import annotations

import hashlib
import importlib
import os
import random
from bisect import insort
from functools import partial
from pathlib import Path
from typing import Any, Callable, ClassVar

from ...engine.core import Playout
from .state import Draft, frozen

try:  # the same loop compiled (``_rollouts.c``), where the install built it (by name: ``from . import`` would
    # read as importing the package, whose modules import this one)
    _compiled = importlib.import_module("._rollouts", __package__)
except ImportError:
    _compiled = None


def _built_from(source: Path, compiled: Any) -> None:
    """Refuses a compiled module built from another ``source`` than the one beside it (a checkout or an editable
    install whose ``_rollouts.c`` changed since it was built), which would play other steps than the source says.
    An installed wheel ships no source: nothing to compare."""
    if compiled is not None and source.exists():
        if hashlib.sha256(source.read_bytes()).hexdigest() != compiled.SOURCE_SHA256:
            raise ImportError(f"{compiled.__file__} was not built from {source.name} as it is now: build it again "
                              "(pip install -e ., or python setup.py build_ext --inplace)")


_built_from(Path(__file__).with_name("_rollouts.c"), _compiled)

END_ACTION = ("end-action",)
KERNEL: Any = None if os.environ.get("CARDWORKS_PURE_PYTHON") else _compiled
"""What plays ``random_steps``: the compiled loop where it is built, else (or with ``CARDWORKS_PURE_PYTHON`` set)
None, the Python loop below. Both play the same steps (``tests/simulate/test_random_steps.py`` runs each)."""


def kernel() -> Any:
    """``KERNEL`` as it is now (tests choose it): what the determinizations' shuffle and the plain evaluation
    (``heuristics``) use as well."""
    return KERNEL


class Rollouts:
    """The part of ``FalleraRules`` that plays random steps fast."""

    _effect_of: ClassVar[dict[type, Callable[..., Any]]]
    """Each action type's effect (``rules`` sets the table once every part of the rules is defined)."""
    _plain_battles: bool
    """No card answers a battle or a treasure changing hands, nothing happens as a card is used, no battle
    card returns to its hand or allows another battle, no terreta adds to a battle: a battle is its cards'
    printed values alone (``FalleraRules.__post_init__``)."""

    def random_steps(self, draft: Draft, steps: int, rng: random.Random) -> None:
        """Up to ``steps`` steps on ``draft``, each the action at ``int(rng.random() * n)`` of the ``n`` that
        ``choices`` lists (none left: the game is over), played with its chance drawn from ``rng``.

        One loop, the common steps written in line (a call per step was a large share of one): a turn's battle
        (``TurnChoices`` with no special to play, no Queen to move, no mark in play, then ``_play_attack``
        with no window), its almoina (``_play_almoina``'s draw of one card) or sale (``_sold`` with no window
        and no use), and a defence (``_play_defence`` and ``_resolve`` for printed values and no window); then
        one tail for the action's end (``_end_action``, ``_another_action`` from ``Facts.actions_allowed``,
        ``_next_turn``, a lone turn-start draw from ``Facts.start_draw``). Each is left to the rules as soon as
        its unusual case arises."""
        facts = draft.facts
        kept = _PREPARED.get(id(facts))
        if kept is None or kept[0] is not facts or kept[1] is not self:
            kept = self._prepared(facts)
        if KERNEL is not None:
            KERNEL.random_steps(self, draft, steps, rng, kept)
            return
        random_ = rng.random
        draft.rng = rng
        (_, _, plain, playable, battle, all_battle, in_number_order, rank_of, is_battle, attack_points, defence_points,
         more, turn_start, rivals, allowed_by, start_draw, more_actions, turn_starts, simple_start, effects, discord,
         treasures, weight, sellable, is_sellable, defs, unsorted, loose, granting, starters) = kept
        fast = plain and not draft.spaces  # no Kingdom map: no Queen to move (``spaces`` never changes in a game)
        log = draft.log
        limit = 4 if draft.foods else 5  # valid ingredients that may win (``foods`` are dealt once, never changed)
        hands, counters, weights, sellables = draft.hands, draft.counters, draft.weights, draft.sellables
        # changed in place, never replaced
        for _ in range(steps):
            ended = False  # the turn's action is over: ``_end_action`` is next
            if fast and draft.takes is None and not draft.marks:
                phase = draft.phase
                if phase == "turn":
                    me = draft.current
                    weapons = hands[me]
                    if playable is None or not any(map(playable.__getitem__, weapons)):  # no special to play
                        if not all_battle and not loose.isdisjoint(weapons):
                            weapons = [*filter(is_battle, weapons)]
                        battles = (draft.on_counters - len(counters[me])) * len(weapons)
                        index = int(random_() * (1 + battles + draft.sellables[me]))
                        if draft.again is not None or not index and (
                                not draft.deck or discord and len(draft.deck) == 1):  # an almoina's unusual draw
                            action = self.choices(draft)[index] if index else facts.almoina[me]
                            effects[type(action)](self, draft, action)
                            continue
                        if index > battles:  # a sale (``_sold``, no window, no use): ``_unplace`` in line, the draw
                            sold = sorted(filter(is_sellable, counters[me]), key=rank_of)[index - battles - 1]
                            counters[me].remove(sold)
                            weights[me] -= weight[sold]
                            sellables[me] -= 1
                            draft.on_counters -= 1
                            draft.cemetery.append(sold)
                            if self.draw_cards(draft, me, defs[sold].sell):
                                self.schedule(draft, END_ACTION)
                                continue
                            ended = True
                        elif index:
                            loot, weapon = divmod(index - 1, len(weapons))
                            for target in rivals[me]:
                                counter = counters[target]
                                if loot < len(counter):
                                    break
                                loot -= len(counter)
                            if not in_number_order:  # a list holding none of ``unsorted`` is in notation order
                                if not unsorted.isdisjoint(counter):
                                    counter = sorted(counter, key=rank_of)
                                if not unsorted.isdisjoint(weapons):
                                    weapons = sorted(weapons, key=rank_of)
                            weapon = weapons[weapon]
                            hands[me].remove(weapon)
                            draft.phase, draft.battle = "defend", (me, target, counter[loot], weapon)
                            continue
                        else:  # the almoina: ``draw_cards`` of one card, ``receive`` in line
                            drawn = draft.deck.pop(0)
                            if treasures[drawn]:
                                insort(counters[me], drawn)
                                log.append(("placed", drawn))
                                weights[me] += weight[drawn]
                                sellables[me] += sellable[drawn]
                                draft.on_counters += 1
                                if weights[me] >= limit and self.check_victory(draft):
                                    self.schedule(draft, END_ACTION)
                                    continue
                            else:
                                insort(hands[me], drawn)
                            ended = True
                elif phase == "defend":
                    attacker, target, treasure, attack = draft.battle
                    hand = hands[target]
                    weapons = hand if all_battle or loose.isdisjoint(hand) else [*filter(is_battle, hand)]
                    index = int(random_() * (len(weapons) + 1))
                    if draft.pending:
                        draft.pending = ()
                    if index < len(weapons):
                        defence = (weapons if in_number_order or unsorted.isdisjoint(weapons)
                                   else sorted(weapons, key=rank_of))[index]
                        hand.remove(defence)
                        steals = attack_points[attack] > defence_points[defence]
                        draft.cemetery += (attack, defence)
                    else:
                        steals = True
                        draft.cemetery.append(attack)
                    draft.battle, draft.phase = None, "turn"
                    if steals:  # ``_unplace`` from the target (if it still holds it), ``receive`` on the attacker
                        lost = counters[target]
                        if treasure in lost:
                            lost.remove(treasure)
                            weights[target] -= weight[treasure]
                            sellables[target] -= sellable[treasure]
                            draft.on_counters -= 1
                        insort(counters[attacker], treasure)
                        log.append(("placed", treasure))
                        weights[attacker] += weight[treasure]
                        sellables[attacker] += sellable[treasure]
                        draft.on_counters += 1
                        if max(weights) >= limit and self.check_victory(draft):
                            self.schedule(draft, END_ACTION)
                            continue
                    ended = True
            if not ended:
                legal = self.choices(draft)
                count = len(legal)
                if not count:
                    return
                action = legal[int(random_() * count)]
                effects[type(action)](self, draft, action)
                continue
            if max(weights) >= limit and self.check_victory(draft):  # ``_end_action``
                self.schedule(draft, ("next-turn",))
                continue
            if more_actions or draft.actions < 0:  # ``_another_action``, read from ``Facts.actions_allowed``
                allowed = 1
                if not granting.isdisjoint(counters[draft.current]):
                    for instance in counters[draft.current]:
                        if more[instance]:
                            most = allowed_by[instance]
                            if most is None:
                                allowed = None
                                break
                            if most > allowed:
                                allowed = most
                if self._another_action(draft) if allowed is None else draft.actions + 1 < allowed:
                    draft.actions += 1
                    continue
            draft.current = current = (draft.current + 1) % len(hands)  # ``_next_turn``
            draft.turn += 1
            draft.actions = 0
            if draft.marks:
                self._turn_marks(draft)
            if not turn_starts:
                continue
            if not simple_start:
                self._start_turn(draft)
                continue
            if starters.isdisjoint(counters[current]):
                continue
            starting = [*filter(turn_start.__getitem__, counters[current])]
            drawing = start_draw[starting[0]] if len(starting) == 1 and not draft.pending else None
            if drawing is None:
                self._start_turn(draft)
                continue
            # one card acts, drawing (``Facts.start_draw``): ``_after_burn``'s queue step played in line
            instance, (index, count) = starting[0], drawing
            log += (("trigger", instance), ("draw", instance))
            if self.draw_cards(draft, current, count):
                self.schedule(draft, ("verbs", current, instance, index, "", 1))

    def in_place(self, draft: Draft) -> Playout:
        """``playout`` of a draft already made (a search's determinization is dealt as one): the game from
        ``draft`` played in place, ``draft`` itself changed."""
        return Playout(partial(self.choices, draft), partial(self._play_listed, draft), partial(frozen, draft))

    def _prepared(self, facts: Any) -> tuple[Any, ...]:
        """What ``random_steps`` reads of the deck (``facts``) and of these rules, looked up once per deck (a
        search plays thousands of rollouts on one): the facts and rules themselves first, to tell it is theirs."""
        if len(_PREPARED) >= 64:  # many decks (sweeps): start afresh rather than grow
            _PREPARED.clear()
        battle = facts.battle
        kept = _PREPARED[id(facts)] = (
            facts, self, self._plain_battles and not facts.modifiers, facts.playable if facts.any_playable else None,
            battle, facts.hands_all_battle, facts.in_number_order, facts.rank_of, battle.__getitem__,
            facts.points["attack"], facts.points["defence"], facts.more_actions, facts.turn_start, facts.rivals,
            facts.actions_allowed, facts.start_draw, self._more_actions, self._turn_starts,
            not (self.discord or self.burning or self._starts), self._effect_of, self.discord,
            facts.treasure, facts.weight, facts.sellable, facts.sellable.__getitem__, facts.defs,
            # sets of the few instances each flag marks: ``isdisjoint`` with a hand or counter is one call in C
            *_marked(facts))
        return kept


_PREPARED: dict[int, tuple[Any, ...]] = {}
"""``Rollouts._prepared`` of each deck's ``Facts`` (by identity; the facts are kept in it, so the identity is theirs)."""
_MARKED: dict[int, tuple[Any, tuple[frozenset[int], ...]]] = {}


def _marked(facts: Any) -> tuple[frozenset[int], ...]:
    """Per deck (``facts``), the instances that are: out of notation order (ranked otherwise than some other
    instance's number says: a list of instances in number order holding none of them is in notation order too),
    not a battle card (a hand holding none is its own list of weapons), granting more actions (``more_actions``), acting as a turn starts
    (``turn_start``). Worked out once per deck: a search plays thousands of rollouts on one."""
    kept = _MARKED.get(id(facts))
    if kept is None or kept[0] is not facts:
        if len(_MARKED) >= 64:  # many decks (sweeps): start afresh rather than grow
            _MARKED.clear()
        rank, unsorted, highest = facts.rank, set(), -1
        for instance, position in enumerate(rank):
            # in order with every other instance: exactly the instances before it rank before it
            if position != instance or highest > instance:
                unsorted.add(instance)
            highest = max(highest, position)
        flags = (unsorted,
                 {i for i, battle in enumerate(facts.battle) if not battle},
                 {i for i, more in enumerate(facts.more_actions) if more},
                 {i for i, starts in enumerate(facts.turn_start) if starts})
        kept = _MARKED[id(facts)] = (facts, tuple(map(frozenset, flags)))
    return kept[1]
