"""Fallera's battles: a battle card's attack and defence (with what the Queen's terreta and the user's
counter add), calling a battle, and its end, defended or not."""

from __future__ import annotations

from bisect import insort
from typing import Any

from .actions import Attack, Defend, NoDefence, Pass
from .effects import BattleAgain, ModifyStat, ReturnToHand
from .interpreter import holds
from .registry import REGISTRY
from .state import Draft, State
from .turns import END_ACTION, END_ACTION_STEPS


class Battles:
    """The part of ``FalleraRules`` that plays battles."""

    def terreta_doing(self, state: State, verb: str) -> list[Any]:
        """The ``verb``s of the standing effects of the terreta where the Queen stands (expert mode)."""
        if not self.bonuses or state.queen not in self.bonuses:
            return []
        return [v for e in self.bonuses[state.queen] if e.when.event == "always" for v in e.do if v.verb == verb]

    @REGISTRY.bind(ModifyStat, "stands", reads=("counter", "terreta"))
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
        if draft.again is not None:  # the battle a card allowed once more: it ends the action in its turn
            draft.again, draft.pending = None, ()
        draft.hands[action.player].remove(attack)
        draft.phase, draft.battle = "defend", (action.player, action.target, action.treasure.number, attack)
        if "battle-called" in self._response_events:  # else no card can answer: the defender decides at once
            self._battle_called(draft, action.player)

    def _play_defence(self, draft: Draft, action: Defend | NoDefence) -> None:
        """The end of a battle, defended (``Defend``) or not (``NoDefence``): the effect of both. A win is
        looked for as the treasure changes hands, before any card the terreta's bonus draws."""
        if draft.pending:  # what the battle's window guarded (a cancel's marker, the action's end): this defence ends it
            draft.pending = ()
        if type(action) is NoDefence:
            defence = None
        else:
            defence = action.card.number
            draft.hands[action.player].remove(defence)
        if self._resolving:  # a card of the deck answers the defence or the battle about to resolve
            self._resolving_windows(draft, defence)
            return
        self._resolve(draft, defence)

    @REGISTRY.bind(BattleAgain, "stands", reads=("battle",))
    def _resolve(self, draft: Draft, defence: int | None) -> bool:
        """The battle resolves: the cards are compared, the treasure may change hands, the cards go. True when
        the flow stopped for a decision or a chance outcome (the rest waits in the queue)."""
        attacker, target, treasure, attack = draft.battle
        if defence is None:
            steals = True
        else:
            facts = draft.facts
            if draft.marks:  # a verb set or swapped this battle's values (``verbs``)
                steals = self._fought(draft, attack, defence, attacker, target)
            elif self.bonuses or facts.modifiers:
                steals = self.value(draft, attack, "attack", attacker) > self.value(draft, defence, "defence", target)
            else:  # printed values only: most games
                steals = facts.points["attack"][attack] > facts.points["defence"][defence]
        used = tuple(step for who, card in ((attacker, attack), (target, defence)) if card is not None
                     for step in self._used(draft, who, card)) if self._uses else ()
        if self._again and attacker == draft.current and any(
                holds(effect.while_, draft, attacker, None) for effect, _ in draft.facts.defs[attack].doing("battle-again")):
            used += (("again", attacker, target),)  # after what using the cards does
        draft.battle, draft.phase = None, "turn"
        if draft.marks:
            self.battle_over(draft)
        if self._returns:  # a battle card may go back to its user's hand instead (the capità cristià)
            self._discard_used(draft, ((attacker, attack), (target, defence)))
        else:
            draft.cemetery += (attack,) if defence is None else (attack, defence)
        if steals:
            if "treasure-changing-hands" in self._response_events:  # the treasure's window comes first
                draft.pending = self._treasure_window(draft, target, attacker, treasure) + used + END_ACTION_STEPS
                return self._resume(draft)
            if treasure in draft.counters[target]:
                self._unplace(draft, target, treasure)
            self.receive(draft, attacker, treasure)
            if max(draft.weights) >= (4 if draft.foods else 5) and self.check_victory(draft):
                self.schedule(draft, *used, END_ACTION)
                return True
        if not used:
            return self._end_action(draft)
        draft.pending = used + END_ACTION_STEPS  # what using these cards does (a terreta's draws), on or off turn
        return self._resume(draft)

    @REGISTRY.bind(ReturnToHand, "stands", reads=("battle",))
    def _discard_used(self, draft: Draft, used: tuple[tuple[int, int | None], ...]) -> None:
        """The battle's cards, (user, card) in turn, go to the cemetery, except each whose ``return-to-hand``
        effect holds now: that one goes back to its user's hand, won or lost (rulebook 3, lines 58, 184)."""
        defs = draft.facts.defs
        for user, card in used:
            if card is None:
                continue
            if any(holds(effect.while_, draft, user, None) for effect, _ in defs[card].doing("return-to-hand")):
                insort(draft.hands[user], card)
            else:
                draft.cemetery.append(card)

    def _offer_again(self, draft: Draft, attacker: int, target: int) -> bool:
        """A queue step: the attacker may call one more battle against ``target`` (phase ``again``), if they
        hold a battle card and ``target`` a treasure; else the action goes on to its end."""
        battle = draft.facts.battle
        if not draft.counters[target] or not any(battle[i] for i in draft.hands[attacker]):
            return False
        draft.phase, draft.again = "again", target
        return True

    def _play_pass(self, draft: Draft, action: Pass) -> None:
        """The player declines the battle a card allowed once more (the action ends), or a response window."""
        if draft.phase == "respond":
            self._play_pass_window(draft)
            return
        draft.again, draft.phase = None, "turn"
        self._resume(draft)
