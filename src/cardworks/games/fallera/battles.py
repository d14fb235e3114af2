"""Fallera's battles: a battle card's attack and defence (with what the Queen's terreta and the user's
counter add), calling a battle, and its end, defended or not."""

from __future__ import annotations

from typing import Any

from .actions import Attack, Defend, NoDefence
from .interpreter import holds
from .state import Draft, State
from .turns import END_ACTION, END_ACTION_STEPS


class Battles:
    """The part of ``FalleraRules`` that plays battles."""

    def terreta_doing(self, state: State, verb: str) -> list[Any]:
        """The ``verb``s of the standing effects of the terreta where the Queen stands (expert mode)."""
        if not self.bonuses or state.queen not in self.bonuses:
            return []
        return [v for e in self.bonuses[state.queen] if e.when.event == "always" for v in e.do if v.verb == verb]

    def value(self, state: State, instance: int, stat: str, user: int | None = None) -> int:
        """A battle card's attack or defence, with what the Queen's terreta and the user's counter add."""
        facts = self.facts(state)
        if not self.bonuses and not facts.modifiers:
            return facts.points[stat][instance]
        design = state.designs[instance]
        extra = sum(getattr(v, stat) for v in self.terreta_doing(state, "modify-stat") if design in v.cards)
        if user is not None and facts.modifiers:
            for holder in state.counters[user]:
                for effect, verb in facts.defs[holder].doing("modify-stat"):
                    if design in verb.cards and holds(effect.while_, state, user, holder):
                        extra += getattr(verb, stat)
        return getattr(facts.defs[instance], stat) + extra

    def _play_attack(self, draft: Draft, action: Attack) -> None:
        attack = action.card.number
        draft.hands[action.player].remove(attack)
        draft.phase, draft.battle = "defend", (action.player, action.target, action.treasure.number, attack)

    def _play_defence(self, draft: Draft, action: Defend | NoDefence) -> None:
        """The end of a battle, defended (``Defend``) or not (``NoDefence``): the effect of both. A win is
        looked for as the treasure changes hands, before any card the terreta's bonus draws."""
        attacker, target, treasure, attack = draft.battle
        if type(action) is NoDefence:
            steals, defence = True, None
        else:
            defence = action.card.number
            draft.hands[action.player].remove(defence)
            facts = draft.facts
            if self.bonuses or facts.modifiers:
                steals = self.value(draft, attack, "attack", attacker) > self.value(draft, defence, "defence", target)
            else:  # printed values only: most games
                steals = facts.points["attack"][attack] > facts.points["defence"][defence]
            used = (attack, defence)
        used = tuple(step for who, card in ((attacker, attack), (target, defence)) if card is not None
                     for step in self._used(draft, who, card)) if self._uses else ()
        draft.battle, draft.phase = None, "turn"
        draft.cemetery += (attack,) if defence is None else (attack, defence)
        if steals:
            if treasure in draft.counters[target]:
                self._unplace(draft, target, treasure)
            self._place(draft, attacker, treasure)
            if max(draft.weights) >= (4 if draft.foods else 5) and self._check_victory(draft):
                self._later(draft, *used, END_ACTION)
                return
        if not used:
            self._end_action(draft)
            return
        draft.pending = used + END_ACTION_STEPS  # what using these cards does (a terreta's draws), on or off turn
        self._resume(draft)
