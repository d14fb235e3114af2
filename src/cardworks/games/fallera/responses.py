"""Special cards played from the hand, response windows, and the verbs that ask a player to decide.

A special with a ``played`` effect is played as the turn's action (``pN play card#n``). Windows are steps of
the state's queue: ``("window", event, actor, subject, seats)`` offers the players of ``seats`` (in seat order
from the actor's left) who hold a special answering ``event`` the chance to play it (``pN respond card#n``) or
to pass (``pN pass``); ``State.asked`` says whose decision it is. A window is queued only when some card of the
deck answers its event, so a game without such cards pays nothing. What a response may cancel follows the
rank table (fallera-base lines 39-50): a card answers only one of its own rank or lower. A cancel drops the
queue up to ``("guard-end", subject)``, which closes what the window guards (the defence of a battle, the
verbs of a special).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from ...engine.core import IllegalActionError
from .actions import Discard, Pass, Play, Respond, Target, player
from .effects import AgainstYou, BattleCalled, Cancel, CardPlayed, Discard as DiscardVerb, Played, Steal
from .handler_context import VerbContext
from .interpreter import holds
from .registry import REGISTRY
from .state import Draft
from .turns import END_ACTION
from .verbs import ASKED, amount, discard_chosen, protected


@lru_cache(maxsize=256)
def _after(actor: int, players: int) -> tuple[int, ...]:
    """The other seats in turn from ``actor``'s left, made once (a window is queued at most steps)."""
    return tuple((actor + k) % players for k in range(1, players))


class Responses:
    """The part of ``FalleraRules`` that plays specials from the hand and asks players to decide."""

    # --- which cards may answer ------------------------------------------------------------------------
    def _answers(self, draft: Any, who: int, event: str, subject: int) -> list[int]:
        """The cards of ``who``'s hand that may answer ``event`` about ``subject`` now (in number order);
        ``draft`` may be a state."""
        facts = draft.facts if type(draft) is Draft else self.facts(draft)
        hand, answering = draft.hands[who], facts.answering(event)
        if not any(map(answering.__getitem__, hand)):
            return []
        defs, found = facts.defs, []
        for instance in hand:
            if not answering[instance]:
                continue
            card = defs[instance]
            for _, effect in card.triggered(event):
                if not holds(effect.while_, draft, who, None):
                    continue
                if event == "card-played" and any(type(v) is Cancel for v in effect.do):
                    other = defs[subject]
                    if other.rank > card.rank:
                        continue  # a higher rank prevails (fallera-base line 39)
                    if other.rank == card.rank and other.id != card.id:  # validate refuses such decks
                        raise RuntimeError(f"{card.id} (n{card.rank}) would answer {other.id} of the same rank: "
                                           "the rulebooks do not say which prevails (cancel-same-rank)")
                found.append(instance)
                break
        return found

    def _window(self, event: str, actor: int, subject: int, players: int) -> tuple[tuple[Any, ...], ...]:
        """The window step for ``event`` (none when no card of the deck answers it)."""
        if event not in self._response_events:
            return ()
        return (("window", event, actor, subject, _after(actor, players)),)

    def _open_window(self, draft: Draft, event: str, actor: int, subject: int, seats: tuple[int, ...]) -> bool:
        """A queue step: ask the first of ``seats`` who holds an answer (phase ``respond``), or go on."""
        answerers, hands = draft.facts.answerers(event), draft.hands
        for k, seat in enumerate(seats):
            if answerers.isdisjoint(hands[seat]):  # most hands hold no card answering it
                continue  # (``_answers`` finds none at once)
            draft.subject = (event, subject)  # what the conditions read (``windows.yours``)
            try:
                answers = self._answers(draft, seat, event, subject)
            finally:
                draft.subject = None
            if answers:
                draft.phase, draft.asked = "respond", (seat, event, actor, subject)
                draft.pending = (("window", event, actor, subject, seats[k + 1:]),)
                return True
        return False

    # --- the actions ------------------------------------------------------------------------------------
    @REGISTRY.bind(Played, "trigger", reads=("hand",), plays=("acts",))
    def _play_play(self, draft: Draft, action: Play) -> None:
        """The special leaves the hand for the cemetery; once its window passes, its verbs act; the action ends."""
        me, card = action.player, action.card.number
        draft.hands[me].remove(card)
        draft.cemetery.append(card)
        verbs = tuple(("verbs", me, card, i, "", 0) for i, effect in draft.facts.defs[card].triggered("played")
                      if holds(effect.while_, draft, me, None))
        draft.pending = self._window("card-played", me, card, draft.players) + verbs + (("guard-end", card), END_ACTION)
        self._resume(draft)

    @REGISTRY.bind(CardPlayed, "trigger", reads=("hand",), plays=("acts",))
    def _play_respond(self, draft: Draft, action: Respond) -> None:
        """The response leaves the hand; its own window comes first, then its verbs, then the window it
        answered goes on with the players after the responder."""
        me, card = action.player, action.card.number
        _, event, _, subject = draft.asked
        draft.hands[me].remove(card)
        draft.cemetery.append(card)
        draft.asked, draft.phase = None, "turn"
        draft.pending = self._window("card-played", me, card, draft.players) + (
            ("answer", me, card, event, subject), ("guard-end", card)) + draft.pending
        self._resume(draft)

    @REGISTRY.bind(BattleCalled, "trigger", reads=("hand",), plays=("acts",))
    def _battle_called(self, draft: Draft, attacker: int) -> None:
        """A battle was called: its window (if a card of the deck answers one), then the defence; a cancel
        drops the defence and ends the attacker's action."""
        treasure = draft.battle[2]  # the battle's subject: its treasure, public (the attack card may be face down)
        draft.pending = self._window("battle-called", attacker, treasure, draft.players) + (
            ("defend-now",), ("guard-end", treasure), END_ACTION) + draft.pending
        draft.phase = "turn"
        self._resume(draft)

    def _play_pass_window(self, draft: Draft) -> None:
        draft.asked, draft.phase = None, "turn"
        self._resume(draft)

    def _answer(self, draft: Draft, who: int, card: int, event: str, subject: int) -> Any:
        """A queue step: the response's effects of ``event`` play, ``subject`` being what they answer."""
        for index, effect in draft.facts.defs[card].triggered(event):
            draft.subject = (event, subject)  # what ``cancel`` and ``yours`` read
            try:
                done = holds(effect.while_, draft, who, None) and self._verbs(draft, who, card, index, "", 0)
            finally:
                draft.subject = None
            if done:
                return done
        return False

    def _defend_now(self, draft: Draft) -> bool:
        """A queue step: the battle's window has passed; the defender decides."""
        draft.phase = "defend"
        return True

    def _guard_end(self, draft: Draft, subject: Any, *after_cancel: str) -> bool:
        """A queue step: nothing (it marks where what a cancel drops ends; ``after_cancel`` is played only then)."""
        return False

    def _play_target(self, draft: Draft, action: Target) -> None:
        """The chosen treasure moves onto the chooser's counter (after its window, if a card answers one); the
        verbs after the steal go on."""
        draft.asked, draft.phase = None, "turn"
        draft.pending = self._treasure_window(draft, action.owner, action.player, action.card.number) + draft.pending
        self._resume(draft)  # a win as it moves ends the game: nothing waits then

    def _play_discard(self, draft: Draft, action: Discard) -> None:
        """The card goes to the cemetery; the same player discards again, or the next one, or the flow goes on."""
        me, left, rest, count = draft.asked
        draft.hands[me].remove(action.card.number)
        draft.cemetery.append(action.card.number)
        if left > 1 and draft.hands[me]:
            draft.asked = (me, left - 1, rest, count)
            return
        draft.asked, draft.phase = None, "turn"
        if not self.ask_discard(draft, rest, count):
            self._resume(draft)

    def ask_discard(self, draft: Draft, players: tuple[int, ...], count: int) -> bool:
        """Ask the first of ``players`` with a card in hand to discard (phase ``discard``)."""
        for k, who in enumerate(players):
            wanted = amount(count, len(draft.hands[who]))  # ``half``: rounded down (fallera-3 line 134)
            if wanted:
                draft.phase, draft.asked = "discard", (who, wanted, players[k + 1:], count)
                return True
        return False

    # --- the checks -------------------------------------------------------------------------------------
    def _check_play(self, draft: Draft, action: Play) -> None:
        self._need_phase(draft, action, "turn")
        card = self._instance(draft, action.card, draft.hands[action.player], action, "play-from-hand", "in your hand")
        if not draft.facts.defs[card].triggered("played"):
            raise IllegalActionError(action.notation(), "play-special", f"{action.card} is not played as an action")

    def _check_respond(self, draft: Draft, action: Respond) -> None:
        self._need_phase(draft, action, "respond")
        card = self._instance(draft, action.card, draft.hands[action.player], action, "respond-from-hand",
                              "in your hand")
        _, event, _, subject = draft.asked
        if card not in self._answers(draft, action.player, event, subject):
            raise IllegalActionError(action.notation(), "respond-may-answer",
                                     f"{action.card} cannot answer this {event} window")

    def _check_target(self, draft: Draft, action: Target) -> None:
        self._need_phase(draft, action, "target")
        if action.owner == action.player:
            raise IllegalActionError(action.notation(), "target-rival", "the treasure must be on a rival's counter")
        card = self._instance(draft, action.card, draft.counters[action.owner], action, "target-on-counter",
                              "on {}'s counter", action.owner)
        if card in protected(draft):
            raise IllegalActionError(action.notation(), "target-protected", f"{action.card} is protected")

    def _check_discard(self, draft: Draft, action: Discard) -> None:
        self._need_phase(draft, action, "discard")
        self._instance(draft, action.card, draft.hands[action.player], action, "discard-from-hand", "in your hand")

    # --- the choices --------------------------------------------------------------------------------------
    def _asked_choices(self, state: Any, facts: Any) -> list[Any]:
        """The legal actions of phases ``respond``, ``target`` and ``discard``, in notation order."""
        phase, who = state.phase, state.asked[0]
        if phase == "respond":
            _, event, _, subject = state.asked
            responses = [facts.row(Respond, who)[i] for i in facts.in_order(self._answers(state, who, event, subject))]
            return sorted(responses + [facts.plain(Pass, who)], key=lambda a: a.notation())
        if phase == "target":
            covered = protected(state)
            return sorted((facts.row(Target, who, owner)[i] for owner in facts.rivals[who]
                           for i in state.counters[owner] if i not in covered), key=lambda a: a.notation())
        discards = facts.row(Discard, who)
        return [discards[i] for i in facts.in_order(state.hands[who])]


@REGISTRY.bind(AgainstYou, "condition", reads=("hand",))
def against_you(condition: Any, state: Any, who: int, instance: int | None) -> bool:
    """A battle is being called against the holder."""
    return state.battle is not None and state.battle[1] == who


# --- do: the verbs that ask or cancel ---------------------------------------------------------------------
@REGISTRY.bind(Steal, "acts")
def steal(rules: VerbContext, draft: Draft, who: int, source: Any, index: int, path: str, k: int, verb: Steal) -> bool | None:
    """Stop for the acting player's choice of a rival's treasure (phase ``target``); nothing to steal, nothing."""
    covered = protected(draft)
    if not any(i not in covered for p in range(draft.players) if p != who for i in draft.counters[p]):
        return None
    draft.phase, draft.asked = "target", (who, source, index, path, k)
    rules.schedule(draft, ("verbs", who, source, index, path, k + 1))
    return True


@REGISTRY.bind(DiscardVerb, "acts")
def discard(rules: VerbContext, draft: Draft, who: int, source: Any, index: int, path: str, k: int,
            verb: DiscardVerb) -> bool | None:
    """Stop for the first discard due (phase ``discard``; chance's and the acting player's picks:
    ``verbs.discard_chosen``); with no cards to discard, nothing."""
    if verb.players == "chosen":
        chosen = rules.player_for(draft, who, source, index, path, k)
        if chosen is ASKED:
            return True
        players: tuple[int, ...] = (chosen,)
    else:
        players = (who,) if verb.players == "you" else tuple((who + n) % draft.players for n in range(1, draft.players))
    if verb.chosen_by != "own" and verb.players != "you":
        return discard_chosen(rules, draft, who, source, index, path, k, verb, players)
    if not rules.ask_discard(draft, players, verb.count):
        return None
    rules.schedule(draft, ("verbs", who, source, index, path, k + 1))
    return True


@REGISTRY.bind(Cancel, "acts")
def cancel(rules: VerbContext, draft: Draft, who: int, source: Any, index: int, path: str, k: int, verb: Cancel) -> tuple[str, int]:
    """Cancel what the response answers: a battle's attack card goes to the cemetery; the queue drops what
    the window guards (``TurnFlow._resume`` reads the returned ``("cancel", subject)``)."""
    if draft.subject is None:
        raise RuntimeError(f"{player(who)}'s cancel answers nothing: it is played only in a response")
    event, subject = draft.subject
    if event == "battle-called" and draft.battle is not None and draft.battle[2] == subject:
        draft.cemetery.append(draft.battle[3])  # a battle's window answers its treasure
        draft.battle = None
        if draft.marks:
            rules.battle_over(draft)
    rules.cancel_use(draft, event, subject)
    draft.log.append(("cancelled", subject))
    return ("cancel", subject)

