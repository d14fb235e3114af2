"""Random steps played in place, for searches' rollouts: what a loop over ``choices`` and ``_play_listed``
does, with the steps most rollouts are made of played without building their list or their action.

A rollout step picks ``choices(draft)[int(rng.random() * len(choices(draft)))]`` and plays it. Most steps of
a deck without battle windows are a battle called and its defence: for those, the number of choices is
counted and the chosen battle or defence played from the instance numbers, the defence's battle resolved and
the turn passed in line while nothing unusual happens (a win within reach, another action, a card acting at
the turn's start, a mark in play); anything else goes through ``choices`` and the rules' own effects. The
same random numbers are drawn, in the same order, so the same game is played (``tests/simulate/test_random_steps.py``
compares the two step by step).
"""

from __future__ import annotations

import random
from typing import Any, Callable, ClassVar

from .state import Draft


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
        ``choices`` lists (none left: the game is over), played with its chance drawn from ``rng``."""
        facts = draft.facts
        random_ = rng.random
        draft.rng = rng
        plain = self._plain_battles and not facts.modifiers
        playable = facts.playable if facts.any_playable else None
        all_battle, in_number_order = facts.hands_all_battle, facts.in_number_order
        attack_points, defence_points = facts.points["attack"], facts.points["defence"]
        more, turn_start = facts.more_actions, facts.turn_start
        more_actions, turn_starts = self._more_actions, self._turn_starts
        simple_start = not (self.discord or self.burning or self._starts)
        effects = self._effect_of
        for _ in range(steps):
            phase = draft.phase
            if plain and draft.takes is None and not draft.marks and not draft.spaces:
                if phase == "turn":
                    if playable is None or not any(map(playable.__getitem__, draft.hands[draft.current])):
                        self._random_turn(draft, random_(), all_battle, in_number_order)
                        continue
                elif phase == "defend":
                    self._random_defence(draft, random_(), all_battle, in_number_order, attack_points,
                                         defence_points, more, more_actions, turn_start, turn_starts, simple_start)
                    continue
            legal = self.choices(draft)
            count = len(legal)
            if not count:
                return
            action = legal[int(random_() * count)]
            effects[type(action)](self, draft, action)

    def _random_turn(self, draft: Draft, drawn: float, all_battle: bool, in_number_order: bool) -> None:
        """The turn's action at ``drawn`` of the current player's choices (``TurnChoices``, with no special
        to play, no Queen to move and no mark in play): a battle called in line, anything else by the rules."""
        facts = draft.facts
        me, counters = draft.current, draft.counters
        own, weapons = counters[me], draft.hands[me]
        if not all_battle:
            weapons = [i for i in weapons if facts.battle[i]]
        battles = (draft.on_counters - len(own)) * len(weapons)
        index = int(drawn * (1 + battles + draft.sellables[me]))
        if not 0 < index <= battles or draft.again is not None:
            action = self.choices(draft)[index]
            self._effect_of[type(action)](self, draft, action)
            return
        loot, weapon = divmod(index - 1, len(weapons))
        for target in facts.rivals[me]:
            counter = counters[target]
            if loot < len(counter):
                break
            loot -= len(counter)
        if not in_number_order:
            counter, weapons = facts.in_order(counter), facts.in_order(weapons)
        weapon = weapons[weapon]
        draft.hands[me].remove(weapon)  # ``_play_attack``, no window open as a battle is called
        draft.phase, draft.battle = "defend", (me, target, counter[loot], weapon)

    def _random_defence(self, draft: Draft, drawn: float, all_battle: bool, in_number_order: bool,
                        attack_points: Any, defence_points: Any, more: Any, more_actions: bool, turn_start: Any,
                        turn_starts: bool, simple_start: bool) -> None:
        """The defence at ``drawn`` of the defender's choices (their battle cards, then none), and the
        battle's end: ``_play_defence``, ``_resolve``, ``_end_action`` and ``_next_turn`` for printed values
        and no window, each left to the rules as soon as its unusual case arises."""
        facts = draft.facts
        attacker, target, treasure, attack = draft.battle
        hand = draft.hands[target]
        weapons = hand if all_battle else [i for i in hand if facts.battle[i]]
        index = int(drawn * (len(weapons) + 1))
        if draft.pending:
            draft.pending = ()
        if index < len(weapons):
            defence = (weapons if in_number_order else facts.in_order(weapons))[index]
            hand.remove(defence)
            steals = attack_points[attack] > defence_points[defence]
            draft.cemetery += (attack, defence)
        else:
            defence, steals = None, True
            draft.cemetery.append(attack)
        draft.battle, draft.phase = None, "turn"
        weights = draft.weights
        if steals:
            if treasure in draft.counters[target]:
                self._unplace(draft, target, treasure)
            self._place(draft, attacker, treasure)
            if max(weights) >= (4 if draft.foods else 5) and self._check_victory(draft):
                self._later(draft, ("end-action",))
                return
        if max(weights) >= (4 if draft.foods else 5) and self._check_victory(draft):  # ``_end_action``
            self._later(draft, ("next-turn",))
            return
        if more_actions or draft.actions < 0:
            me = draft.current
            another = self._another_action(draft) if any(map(more.__getitem__, draft.counters[me])) \
                else draft.actions < 0
            if another:
                draft.actions += 1
                draft.phase = "turn"
                return
        draft.current = (draft.current + 1) % len(draft.hands)  # ``_next_turn``
        draft.turn += 1
        draft.actions = 0
        if draft.marks:
            self._turn_marks(draft)
        if not turn_starts:
            return
        if not simple_start or any(map(turn_start.__getitem__, draft.counters[draft.current])):
            self._start_turn(draft)

