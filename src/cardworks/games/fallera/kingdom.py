"""The Kingdom map (expansion 3): where the Calavera Queen may go, her move and the card she takes, and the
refill of an emptied map (the player lays the cards drawn)."""

from __future__ import annotations

from .actions import FalleraAction, Lay, Move
from .effects import MoveEndsTurn
from .facts import Facts
from .registry import REGISTRY
from .state import Draft, State
from .turns import reshuffle

NOTHING_LEFT = "map-refill-nothing-left"
"""The code of the error raised when an emptied map has nothing left to refill it (``Kingdom.deal_map``)."""


class Kingdom:
    """The part of ``FalleraRules`` that plays the Kingdom map."""

    def _queen_moves(self, state: State, facts: Facts, me: int) -> tuple[FalleraAction, ...]:
        """The Queen's moves from where she stands, in notation order (there is a map)."""
        key = (state.queen, state.spaces)
        spaces = self._moves.get(key)
        if spaces is None:
            spaces = self._moves[key] = tuple(sorted(self._reachable(state)))
        return facts.plains(Move, me, spaces)

    def _reachable(self, state: State) -> tuple[str, ...]:
        if not state.spaces:
            return ()
        return state.spaces if state.queen == "start" else self.board[state.queen]

    def _play_move(self, draft: Draft, action: Move) -> None:
        if "queen-moving" in self._response_events:  # a card of the deck answers the Queen about to move
            self._queen_window(draft, action)
            return
        self._move_queen(draft, action.player, action.space)

    def _move_queen(self, draft: Draft, me: int, space: str) -> bool:
        """The Queen moves and the card of her terreta is taken: a win is looked for at that instant (the
        card taken, or the Queen entering a terreta, may make one), before an emptied map is refilled. True
        when the flow stopped."""
        slot = draft.spaces.index(space)
        taken = draft.map[slot]
        draft.queen, draft.map[slot] = space, -1
        if taken >= 0:
            self.receive(draft, me, taken)
        realm = taken >= 0 and "realm" in draft.facts.defs[taken].icons
        if self.check_victory(draft):
            self.schedule(draft, ("refill", realm))
            return True
        return self._refill(draft, realm)

    @REGISTRY.bind(MoveEndsTurn, "trigger", reads=("counter", "terreta"), plays=("acts",),
                   modes="with expansion 3's Kingdom map")
    def _end_move(self, draft: Draft, realm: bool) -> bool:
        """The rest of a move, once the map holds cards: the Realm's extra action, or what acts when a move
        ends the turn (the Interior's coin, expert mode), then the next turn. A move that is not the last
        action the player may take this turn (``actions-per-turn``) ends only that action: a Realm card
        taken then gives nothing (rulebook 3, line 116)."""
        if (self._more_actions or draft.actions < 0) and self._another_action(draft):
            return self._end_action(draft)
        if realm:  # a Realm card taken by the last action grants another action
            draft.phase = "turn"
            return False
        steps = self._triggered(draft, "move-ends-turn", draft.current)
        if not steps:
            return self._next_turn(draft)
        draft.pending = steps + (("next-turn",),) + draft.pending
        return self._resume(draft)

    def _refill(self, draft: Draft, realm: bool) -> bool:
        """An emptied map is refilled at once: a card is drawn for each terreta, and the player lays them as
        they wish (phase ``lay``; rulebook 3, lines 106-108); then the move ends."""
        if any(slot >= 0 for slot in draft.map):
            return self._end_move(draft, realm)
        if self.deal_map(draft) == "over":
            return True
        self.schedule(draft, ("end-move", realm))
        return True

    def deal_map(self, draft: Draft) -> str:
        """An emptied map's refill is drawn (rulebook 3, lines 106-108): ``lay`` (the player lays the cards;
        fewer than the terretes when fewer are left) or ``over`` (the deck ran out, with expansion 2).

        Raises RuntimeError ``map-refill-nothing-left`` when the deck and the cemetery are both empty: the map
        may never be left empty (line 108) and the rulebooks say nothing of this case, so no game goes on with
        an empty map as if it had been refilled."""
        if not draft.deck and not draft.cemetery:
            raise RuntimeError(f"[{NOTHING_LEFT}] the Kingdom map was emptied with no card left in the deck or the "
                               "cemetery to refill it; the map may never be left empty (fallera-3 line 108) and the "
                               "rulebooks do not say what happens then")
        drawn: list[int] = []
        while len(drawn) < len(draft.spaces) and (draft.deck or draft.cemetery):
            if not draft.deck:  # only in the base game: with expansion 2 the game ended when it ran out
                reshuffle(draft)
            drawn.append(draft.deck.pop(0))
            if self.discord and not draft.deck:  # the game ends the moment the deck runs out (rulebook 2, line 34)
                draft.laying = tuple(drawn)  # drawn, and never laid
                self._deck_exhausted(draft)
                return "over"
        draft.laying, draft.phase = tuple(drawn), "lay"
        return "lay"

    def _play_lay(self, draft: Draft, action: Lay) -> None:
        instance = action.card.number
        draft.map[draft.spaces.index(action.space)] = instance
        draft.laying = tuple(i for i in draft.laying if i != instance)
        if draft.laying:
            return
        draft.phase = "turn"  # every card laid: the move goes on
        self._resume(draft)
