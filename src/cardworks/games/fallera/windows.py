"""The response windows opened in the middle of an action: a battle about to resolve, a treasure about to
change hands, the Queen about to move, a card about to be used (sold, or played in defence).

Each moment splits its action in two: the window (``responses``), then a queue step that plays the rest of the
action, then ``("guard-end", subject[, step])`` where a cancel stops dropping; ``step`` (``"end-action"``) is
played only after a cancel, so a cancelled move or sale still spends the action. Each is opened only when
some card of the deck answers its event (``_response_events``): a game without such cards plays its actions
as before, straight through.
"""

from __future__ import annotations

from bisect import insort
from typing import Any

from .actions import Move, Sell
from .effects import BattleResolving, CardBeingUsed, QueenMoving, TreasureChangingHands, Yours
from .registry import REGISTRY
from .state import Draft


class Windows:
    """The part of ``FalleraRules`` that opens the windows inside an action, and plays what follows them."""

    @REGISTRY.bind(CardBeingUsed, "trigger", reads=("hand",), plays=("acts",))
    def _sell_window(self, draft: Draft, action: Sell) -> None:
        """A sale about to happen: its window, then the sale; a cancel keeps the treasure and spends the action."""
        me, instance = action.player, action.card.number
        draft.pending = self._window("card-being-used", me, instance, draft.players) + (
            ("sell", me, instance), ("guard-end", instance, "end-action"))
        self._resume(draft)

    def _sell_step(self, draft: Draft, me: int, instance: int) -> bool:
        """A queue step: the sale the window let through (``TurnFlow._play_sell``'s own effect)."""
        return self._sold(draft, me, instance)

    @REGISTRY.bind(BattleResolving, "trigger", reads=("hand",), plays=("acts",))
    def _resolving_windows(self, draft: Draft, defence: int | None) -> None:
        """The defence is chosen: it waits in the battle (public with the revealed attack, fallera-base line 28)
        while the defence's window (``card-being-used``) and the battle's (``battle-resolving``) are open."""
        attacker, target, treasure, attack = draft.battle
        draft.battle = (attacker, target, treasure, attack, defence)
        players = draft.players
        used = () if defence is None else self._window("card-being-used", target, defence, players) + (
            ("guard-end", defence),)
        draft.pending = used + self._window("battle-resolving", attacker, treasure, players) + (
            ("resolve",), ("guard-end", treasure, "end-action"))
        draft.phase = "turn"
        self._resume(draft)

    def _resolve_step(self, draft: Draft) -> bool:
        """A queue step: the battle resolves with the defence that waited in it (None: none, or it was cancelled)."""
        attacker, target, treasure, attack, defence = draft.battle
        draft.battle = (attacker, target, treasure, attack)
        return self._resolve(draft, defence)

    @REGISTRY.bind(TreasureChangingHands, "trigger", reads=("hand",), plays=("acts",))
    def _treasure_window(self, draft: Draft, owner: int, taker: int, treasure: int) -> tuple[tuple[Any, ...], ...]:
        """The steps that move ``treasure`` from ``owner`` to ``taker``: its window first, when a card answers one."""
        return self._window("treasure-changing-hands", taker, treasure, draft.players) + (
            ("move-treasure", owner, taker, treasure), ("guard-end", treasure))

    def _move_treasure(self, draft: Draft, owner: int, taker: int, treasure: int) -> bool:
        """A queue step: the treasure changes counters; a win is looked for at that instant."""
        if treasure in draft.counters[owner]:
            self._unplace(draft, owner, treasure)
        self.receive(draft, taker, treasure)
        return self.check_victory(draft)

    @REGISTRY.bind(QueenMoving, "trigger", reads=("hand",), plays=("acts",), modes="with expansion 3's Kingdom map")
    def _queen_window(self, draft: Draft, action: Move) -> None:
        """A move about to happen: its window, then the move; a cancel keeps the Queen and spends the action."""
        draft.pending = self._window("queen-moving", action.player, action.space, draft.players) + (
            ("move-queen", action.player, action.space), ("guard-end", action.space, "end-action"))
        self._resume(draft)

    def cancel_use(self, draft: Draft, event: str, subject: Any) -> None:
        """What a cancel undoes in the windows of this module before the queue drops what they guard."""
        if event == "battle-resolving" and draft.battle is not None and draft.battle[2] == subject:
            attacker, target, _, attack, defence = draft.battle
            draft.cemetery += (attack,) if defence is None else (attack, defence)
            draft.battle = None
        elif event == "card-being-used" and draft.battle is not None and len(draft.battle) == 5 \
                and draft.battle[4] == subject:  # a defence: back to the hand, the battle undefended
            insort(draft.hands[draft.battle[1]], subject)
            draft.battle = draft.battle[:4] + (None,)


def _about(state: Any) -> Any:
    """What the window being answered is about: set on a draft while a response is weighed or played, else
    read from the decision asked (phase ``respond``)."""
    subject = getattr(state, "subject", None) if type(state) is Draft else None
    if subject is not None:
        return subject[1]
    return state.asked[3] if state.phase == "respond" else None  # (player, event, actor, subject)


@REGISTRY.bind(Yours, "condition", reads=("hand",))
def yours(condition: Any, state: Any, who: int, instance: int | None) -> bool:
    """The window's subject is a card on the holder's counter."""
    return _about(state) in state.counters[who]
