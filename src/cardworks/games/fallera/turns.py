"""The flow of a Fallera turn: the action's end, the next turn and what acts at its start (a refused paella
offered again, the expert burn, turn-start effects), draws, the deck running out, and the queue of pending
steps.

A step that stops for a decision or a chance outcome returns True, having left what remains of itself in
``draft.pending``; its caller then adds what remains of its own (``schedule``), and ``_resume`` plays them in
order once the decision or outcome is given.
"""

from __future__ import annotations

from bisect import insort
from typing import Any, Callable, ClassVar

from .actions import Almoina, Burn, First, Sell
from .effects import ActionsPerTurn, DeckRunsOut, TurnStart, Win
from .interpreter import GRANTED, holds
from .registry import REGISTRY
from .state import Draft

END_ACTION = ("end-action",)
END_ACTION_STEPS = (END_ACTION,)
TURN_ENDS = frozenset({"end-action", "next-turn"})
"""Queue steps that end the turn: an extra action granted drops them."""


class TurnFlow:
    """The part of ``FalleraRules`` that moves a game from action to action, and the queue of pending steps."""

    _steps: ClassVar[dict[str, Callable[..., Any]]]
    """The steps that may wait in ``pending``, by name: each takes the rules, the draft and its arguments
    (``rules`` sets the table once every part of the rules is defined: steps of every part may wait)."""

    def _play_first(self, draft: Draft, action: First) -> None:
        draft.current, draft.candidates, draft.turn = action.player, (), 1
        self._start_turn(draft)

    def _play_almoina(self, draft: Draft, action: Almoina) -> None:
        if self.draw_cards(draft, action.player, 1):
            self.schedule(draft, END_ACTION)
            return
        self._end_action(draft)

    def _play_sell(self, draft: Draft, action: Sell) -> None:
        if "card-being-used" in self._response_events:  # a card of the deck answers a card about to be used
            self._sell_window(draft, action)
            return
        self._sold(draft, action.player, action.card.number)

    def _sold(self, draft: Draft, me: int, instance: int) -> bool:
        """The sale: the treasure goes to the cemetery, its seller draws. True when the flow stopped."""
        self._unplace(draft, me, instance)
        draft.cemetery.append(instance)
        if draft.marks:  # the cards attached to it go with it (``verbs``)
            self._detach(draft, instance)
        used = self._used(draft, me, instance)  # selling is using it
        if self.draw_cards(draft, me, draft.facts.defs[instance].sell):
            self.schedule(draft, *used, END_ACTION)
            return True
        if not used:
            return self._end_action(draft)
        draft.pending = used + END_ACTION_STEPS
        return self._resume(draft)

    def _play_burn(self, draft: Draft, action: Burn) -> None:
        instance = action.card.number
        draft.hands[action.player].remove(instance)
        draft.cemetery.append(instance)
        self._after_burn(draft)

    def schedule(self, draft: Draft, *steps: tuple[Any, ...]) -> None:
        """``steps`` wait in the queue after those already there (nothing waits once the game is over)."""
        if draft.phase != "over":
            draft.pending += steps

    def _resume(self, draft: Draft) -> bool:
        """Play the steps waiting in the queue, in order, until one stops again (True) or none is left. A
        step that grants another action drops the end of the turn waiting after it; with none waiting, the
        turn's action is still to come (the grant came as the turn started), so the turn allows one action
        more (``actions`` goes below 0)."""
        steps, draft.pending = draft.pending, ()
        while steps:
            (name, *args), steps = steps[0], steps[1:]
            done = self._steps[name](self, draft, *args)
            if done == GRANTED:
                kept = tuple(s for s in steps if s[0] not in TURN_ENDS)
                if len(kept) == len(steps):
                    draft.actions -= 1
                steps = kept
            elif type(done) is tuple:  # a cancel: drop what its window guards, through ("guard-end", subject)
                ends = [j for j, step in enumerate(steps) if step[0] == "guard-end" and step[1] == done[1]]
                if ends:  # a guard may name a step played only after a cancel (a cancelled move spends the action)
                    steps = tuple((name,) for name in steps[ends[0]][2:]) + steps[ends[0] + 1:]
            elif done:
                if name != "window" and steps and steps[0][0] == "guard-end":
                    steps = steps[1:]  # the step it guards has begun: no cancel can reach it any more
                self.schedule(draft, *steps)
                return True
        return False

    def _grant(self, draft: Draft) -> str:
        """A queue step: the extra action an effect granted before one of its later verbs stopped the flow."""
        return GRANTED

    def _end_action(self, draft: Draft) -> bool:
        """After a turn's action (a battle's after its defence): a winner, the coin, another action the
        player's counter allows (``actions-per-turn``), or the next turn."""
        if max(draft.weights) >= (4 if draft.foods else 5) and self.check_victory(draft):  # seldom: most
            self.schedule(draft, ("next-turn",))  # wins were found at the change that made them
            return True
        if (self._more_actions or draft.actions < 0) and self._another_action(draft):
            draft.actions += 1
            draft.phase = "turn"
            return False
        return self._next_turn(draft)

    @REGISTRY.bind(ActionsPerTurn, "stands", reads=("counter",))
    def _another_action(self, draft: Draft) -> bool:
        """Whether the action ending is not the last the current player may take this turn: a card on their
        counter lets them take more (the allioli persistent, while they have it: checked as each action ends)."""
        me, allowed = draft.current, 1
        facts = draft.facts
        counter, more = draft.counters[me], facts.more_actions
        if not any(map(more.__getitem__, counter)):  # most counters allow nothing more: one action a turn
            return draft.actions < 0
        defs = facts.defs
        for instance in counter:
            if not more[instance]:
                continue
            for effect, verb in defs[instance].doing("actions-per-turn"):
                if verb.count > allowed and holds(effect.while_, draft, me, instance):
                    allowed = verb.count
        return draft.actions + 1 < allowed

    def _next_turn(self, draft: Draft) -> bool:
        draft.current = (draft.current + 1) % len(draft.hands)
        draft.turn += 1
        draft.phase = "turn"
        draft.actions = 0
        if draft.marks:  # what a verb left for the turn (``verbs``)
            self._turn_marks(draft)
        if self._turn_starts:  # else nothing happens at the start of a turn
            return self._start_turn(draft)
        return False

    def _start_turn(self, draft: Draft) -> bool:
        me = draft.current
        if self.discord and self._may_win(draft, me):  # a refused paella is offered again: the turn is the tosses
            count, blocked, seafood = self.ingredients(draft, me)
            territorial = bool(draft.foods) and count >= 4 and draft.queen == draft.foods[me]
            if (count >= 5 or territorial) and not blocked and seafood:
                draft.phase, draft.toss = "toss", (me, seafood, True)
                self.schedule(draft, ("next-turn",))
                return True
        if self.burning:  # draw one, then discard a hand card (none to discard: nothing more)
            draft.phase = "turn"
            if self.draw_cards(draft, me, 1):
                self.schedule(draft, ("burn",))
                return True
            return self._burn(draft)
        return self._after_burn(draft)

    def _burn(self, draft: Draft) -> bool:
        """Expert mode's burn, once its card is drawn: a hand card to discard, if there is one."""
        if draft.hands[draft.current]:
            draft.phase = "burn"
            return True
        return self._after_burn(draft)

    @REGISTRY.bind(TurnStart, "trigger", reads=("counter", "terreta"), plays=("acts",))
    def _after_burn(self, draft: Draft) -> bool:
        """What acts at the start of the turn (the gamba's coin, the taronger's card…), then the action."""
        draft.phase = "turn"
        if not any(map(draft.facts.turn_start.__getitem__, draft.counters[draft.current])) and not self._starts:
            return False
        steps = self._triggered(draft, "turn-start", draft.current)
        if not steps:
            return False
        draft.pending = steps + draft.pending
        return self._resume(draft)

    def draw_cards(self, draft: Draft, who: int, count: int) -> bool:
        """``who`` draws ``count`` cards, one at a time from the top, a win looked for as each arrives: the
        cemetery is reshuffled into an empty deck (base game), or the game ends when the deck runs out
        (expansion 2; the last card leaving the deck ends it). True when the draw stopped (the rest waits)."""
        deck = draft.deck
        for k in range(count):
            if not deck:
                if self.discord:
                    self._deck_exhausted(draft)
                    return True
                if not draft.cemetery:
                    return False
                reshuffle(draft)
                deck = draft.deck
            self.receive(draft, who, deck.pop(0))
            if self.discord and not deck:
                self._deck_exhausted(draft)
                return True
            # only ``who``'s counter changed: nobody else can have reached a paella
            if draft.weights[who] >= (4 if draft.foods else 5) and self.check_victory(draft):
                if k + 1 < count:
                    self.schedule(draft, ("draw", who, count - k - 1))
                return True
        return False

    @REGISTRY.bind(DeckRunsOut, "trigger", reads=("counter",), plays=("acts",), only=("win",),
                   modes="with expansion 2, where the deck running out ends the game")
    def _deck_exhausted(self, draft: Draft) -> None:
        """The game ends as the deck runs out (expansion 2): a card on a counter that wins then wins (the
        fideuà). Only cards on counters are read, and only their ``win`` is played (a terreta has no holder to
        win, and the game is over for anything else)."""
        draft.phase, draft.winner, draft.reason = "over", None, "deck-exhausted"
        draft.pending = ()
        for holder, source, index, effect, _ in self._effects(draft, "deck-runs-out", 0):
            if type(source) is not int:
                continue
            if holds(effect.while_, draft, holder, source) and any(type(v) is Win for v in effect.do):
                draft.winner, draft.reason = holder, "deck-exhausted-holder"
                draft.log.append(("ended", source))
                return

    def receive(self, draft: Draft, who: int, instance: int) -> None:
        """``instance`` reaches ``who``: a treasure goes onto the counter, any other card into the hand
        (both kept in number order)."""
        facts = draft.facts
        if facts.treasure[instance]:
            insort(draft.counters[who], instance)
            draft.log.append(("placed", instance))
            draft.weights[who] += facts.weight[instance]
            draft.sellables[who] += facts.sellable[instance]
            draft.on_counters += 1
        else:
            insort(draft.hands[who], instance)

    def _unplace(self, draft: Draft, who: int, instance: int) -> None:
        """``instance`` leaves ``who``'s counter (the only way a counter loses a card)."""
        facts = draft.facts
        draft.counters[who].remove(instance)
        draft.weights[who] -= facts.weight[instance]
        draft.sellables[who] -= facts.sellable[instance]
        draft.on_counters -= 1


def reshuffle(draft: Draft) -> None:
    """The base game's deck exhaustion: the cemetery, shuffled with the step's rng, becomes the deck."""
    if draft.rng is None:
        raise RuntimeError("the deck must be reshuffled from the cemetery: pass rng=")
    draft.rng.shuffle(draft.cemetery)
    draft.deck, draft.cemetery = draft.cemetery, []
