"""Winning Fallera: valid ingredients on a counter, the win at the instant a paella is complete (5 valid
ingredients, 4 with the Queen in your territorial food's terreta), and the seafood coin tosses (expansion 2)
that may refuse it."""

from __future__ import annotations

from .actions import Coin, Take
from .effects import CountAsIngredients, ValidIngredient
from .interpreter import holds
from .registry import REGISTRY
from .state import Draft, State


class Victory:
    """The part of ``FalleraRules`` that finds a winner."""

    @REGISTRY.bind(CountAsIngredients, "stands", reads=("ingredient", "attached"))
    @REGISTRY.bind(ValidIngredient, "stands", reads=("counter", "terreta"))
    def ingredients(self, state: State, who: int) -> tuple[int, bool, int]:
        """Valid ingredient count, whether a forbidden ingredient blocks, and seafood count, on a counter."""
        counter = state.counters[who]
        facts = self.facts(state)
        if not state.marks and not (self.bonuses and state.queen in self.bonuses):  # nothing beyond the cards
            kinds = facts.ingredient_kind
            counted = [kinds[instance] for instance in counter]
            if None not in counted:  # no card whose effects must be read: what the loop below finds
                seafood = counted.count(2)
                return counted.count(1) + seafood, self.discord if 3 in counted else False, seafood
        return self.ingredients_in_full(state, who)

    def ingredients_in_full(self, state: State, who: int) -> tuple[int, bool, int]:
        """``ingredients`` with every card's effects read: what its quick path must equal (a test compares them)."""
        counter = state.counters[who]
        defs = self.facts(state).defs
        made_valid = {c for v in self.terreta_doing(state, "valid-ingredient") for c in v.cards}
        for holder in counter:
            for effect, verb in defs[holder].doing("valid-ingredient"):
                if holds(effect.while_, state, who, holder):
                    made_valid.update(verb.cards)
        count, blocked, seafood = 0, False, 0
        for instance in counter:
            card = defs[instance]
            if card.kind != "ingredient":
                continue
            if card.category == "forbidden" and card.id not in made_valid:
                blocked = blocked or self.discord
                continue
            value = 1
            for effect, verb in card.doing("count-as-ingredients"):
                if holds(effect.while_, state, who, instance):
                    value = verb.value
            if state.marks:  # a special attached to it may raise it (the llenya de taronger)
                for mark in state.marks:
                    if mark[0] == "attach" and mark[2] == instance:
                        for effect, verb in defs[mark[1]].doing("count-as-ingredients"):
                            if holds(effect.while_, state, who, instance):
                                value = max(value, verb.value)
            count += value
            seafood += card.category == "seafood"
        return count, blocked, seafood

    def _may_win(self, draft: Draft, who: int) -> bool:
        """Whether ``who`` could have enough valid ingredients to win now: a quick bound (the most each
        counter's cards can add, kept up to date) that spares counting them on most counters."""
        return draft.weights[who] >= (4 if draft.foods and draft.queen == draft.foods[who] else 5)

    def check_victory(self, draft: Draft) -> bool:
        """Victory at the instant of 5 valid ingredients (4 with the Queen in your food's terreta), on or off
        turn; seafood asks the coin first. True when the game is over or the coin is to be tossed. Counters are
        looked at from the current player's in turn order: the rulebooks do not say whose paella comes first when
        one change completes several (the engine's reading, see docs/engine.md)."""
        if max(draft.weights) < (4 if draft.foods else 5):  # no counter can make enough: most of the time
            return False
        counters = draft.counters
        players = len(counters)
        for k in range(players):
            who = (draft.current + k) % players
            if not self._may_win(draft, who):
                continue
            count, blocked, seafood = self.ingredients(draft, who)
            territorial = bool(draft.foods) and count >= 4 and draft.queen == draft.foods[who]
            if (count >= 5 or territorial) and not blocked:
                if self.discord and seafood:
                    if draft.refused and draft.refused[who] == tuple(counters[who]):
                        continue  # this very paella was refused: it is offered again on its holder's turn
                    draft.phase, draft.toss = "toss", (who, seafood, True)
                    return True
                if count < 5:
                    draft.revealed = tuple(r or p == who for p, r in enumerate(draft.revealed))
                    draft.phase, draft.winner, draft.reason = "over", who, "four-ingredients-territorial"
                    return True
                draft.phase, draft.winner, draft.reason = "over", who, "five-ingredients"
                return True
        return False

    def _after_toss(self, draft: Draft) -> None:
        if draft.takes is not None:
            return
        who, left, all_heads = draft.toss
        if left > 0:
            return
        draft.toss, draft.phase = None, "turn"
        if all_heads:
            draft.phase, draft.winner, draft.reason = "over", who, "five-ingredients-seafood"
            draft.pending = ()
            return
        refused = list(draft.refused or [()] * len(draft.counters))
        refused[who] = tuple(draft.counters[who])
        draft.refused = tuple(refused)
        if not self.check_victory(draft):  # another player's paella may be complete too
            self._resume(draft)
        elif draft.phase == "over":  # it was: nothing waits once the game is over (``schedule``)
            draft.pending = ()

    def _play_coin(self, draft: Draft, action: Coin) -> None:
        if draft.phase == "effect-coin":  # an effect's coin: the side it lands on is played, then the rest
            _, who, source, index, path, position = draft.pending[0]
            side = f"{path}.{position}.{'heads' if action.heads else 'tails'}".lstrip(".")
            draft.pending = (("verbs", who, source, index, side, 0),) + draft.pending[1:]
            draft.phase = "turn"
            self._resume(draft)
            return
        who, left, all_heads = draft.toss
        draft.toss = (who, left - 1, all_heads and action.heads)
        if not action.heads and draft.hands[who]:
            draft.takes = (next_player(draft, who), who, 1)
        self._after_toss(draft)

    def _play_take(self, draft: Draft, action: Take) -> None:
        instance = action.card.number
        draft.hands[action.victim].remove(instance)
        draft.takes = None
        self.receive(draft, action.taker, instance)
        self._after_toss(draft)


def next_player(draft: Draft, who: int) -> int:
    """The player after ``who`` in turn order."""
    return (who + 1) % draft.players
