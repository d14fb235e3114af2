"""Battles of several: one attack against several rivals at once (``several-battles``, the revolta de les
Germanies, fallera-2 lines 35-40).

The battle is played in phase ``several``; ``State.asked`` says whose decision it is:
``(attacker, "call", source, index, path, position)`` while the attacker names rivals and treasures
(``pN call pM card#n``) and then places the attack face down (``pN attack-with card#n``);
``(defender, "defend", source, index, path, position)`` while each rival called, in seat order from the
attacker's left, defends (``pN defend card#n``) or surrenders (``pN no-defence``). What is on the table waits
in ``State.marks``: ``("called", attacker, rival, treasure)``, ``("face-down", attacker, card)`` (the attack:
``public_marks`` hides which card it is), ``("shown", attacker, card)`` once revealed, ``("defence", rival,
card)``, ``("surrender", rival)``, and ``("several-lost",)`` once the attack lost one of its battles. Only the
attack is hidden: the rulebooks place the attack face down (fallera-base line 25, fallera-2 line 36) and say
nothing of hiding a defence, which in an ordinary battle is shown as it is chosen (fallera-base line 28). Once every
defence is down, the queue compares the attack with each defence in turn (``several-battle`` steps) and
ends with the attack card's use (``several-end``).
"""

from __future__ import annotations

from bisect import insort
from typing import Any

from ...engine.core import IllegalActionError
from .actions import AttackWith, Call, Defend, NoDefence
from .effects import SeveralBattles
from .handler_context import VerbContext
from .interpreter import holds
from .registry import REGISTRY
from .state import Draft
from .verbs import protected

_TABLE = frozenset({"called", "face-down", "shown", "defence", "surrender", "several-lost"})
"""The marks a battle of several leaves while it is played."""


def _callable(state: Any, who: int, called: set[int]) -> list[tuple[int, int]]:
    """(rival, treasure) pairs ``who`` may still call, rivals in seat order from ``who``'s left."""
    covered = protected(state)
    players = len(state.hands)
    return [(rival, treasure) for n in range(1, players) for rival in ((who + n) % players,)
            if rival not in called for treasure in state.counters[rival] if treasure not in covered]


def face_down_cards(marks: Any) -> list[int]:
    """The cards of a battle of several on the table (a zone of their own: ``invariants``)."""
    return [m[2] for m in marks if m[0] == "face-down" or m[0] == "shown" or m[0] == "defence"]


@REGISTRY.bind(SeveralBattles, "acts")
def several_battles(rules: VerbContext, draft: Draft, who: int, source: Any, index: int, path: str, k: int,
                    verb: SeveralBattles) -> bool | None:
    """Stop for the attacker's calls (phase ``several``); with nothing to battle with or for, nothing."""
    if not any(draft.facts.battle[i] for i in draft.hands[who]) or not _callable(draft, who, set()):
        return None
    draft.phase, draft.asked = "several", (who, "call", source, index, path, k)
    rules.schedule(draft, ("verbs", who, source, index, path, k + 1))
    return True


class SeveralBattlesRules:
    """The part of ``FalleraRules`` that plays battles of several."""

    def _several_options(self, state: Any, facts: Any) -> list[Any]:
        """The legal actions of phase ``several``, in notation order."""
        who, kind = state.asked[0], state.asked[1]
        if kind == "defend":
            weapons = [i for i in facts.in_order(state.hands[who]) if facts.battle[i]]
            return [Defend(who, facts.refs[i]) for i in weapons] + [NoDefence(who)]
        called = {m[2] for m in state.marks if m[0] == "called"}
        options: list[Any] = [Call(who, rival, facts.refs[t]) for rival, t in _callable(state, who, called)]
        if called:
            options += [AttackWith(who, facts.refs[i]) for i in state.hands[who] if facts.battle[i]]
        return sorted(options, key=lambda a: a.notation())

    def _check_several(self, draft: Draft, action: Any, kind: str) -> None:
        self._need_phase(draft, action, "several")
        if draft.asked[1] != kind:
            raise IllegalActionError(action.notation(), "several-step",
                                     f"the battle of several asks for a {draft.asked[1]} now, not a {kind}")
        if action not in self._several_options(draft, draft.facts):
            raise IllegalActionError(action.notation(), "several-option",
                                     f"{action.notation()} is not among the choices offered")

    def _check_call(self, draft: Draft, action: Call) -> None:
        self._check_several(draft, action, "call")

    def _check_attackwith(self, draft: Draft, action: AttackWith) -> None:
        self._check_several(draft, action, "call")

    def _play_call(self, draft: Draft, action: Call) -> None:
        draft.marks += (("called", action.player, action.target, action.treasure.number),)

    def _play_attackwith(self, draft: Draft, action: AttackWith) -> None:
        """The attack goes face down; the first rival called (from the attacker's left) defends."""
        me, card = action.player, action.card.number
        draft.hands[me].remove(card)
        draft.marks += (("face-down", me, card),)
        draft.asked = (self._next_defender(draft, me),) + ("defend",) + draft.asked[2:]

    def _next_defender(self, draft: Draft, attacker: int) -> int | None:
        """The next rival called who has neither defended nor surrendered, in seat order from the attacker's
        left."""
        done = {m[1] for m in draft.marks if m[0] in ("defence", "surrender")}
        called = {m[2] for m in draft.marks if m[0] == "called"}
        players = len(draft.hands)
        for n in range(1, players):
            rival = (attacker + n) % players
            if rival in called and rival not in done:
                return rival
        return None

    def _play_several_defence(self, draft: Draft, action: Defend | NoDefence) -> None:
        """The defence is presented (or the rival surrenders); after the last, the attack is revealed and the
        battles are fought."""
        me = action.player
        if type(action) is NoDefence:
            draft.marks += (("surrender", me),)
        else:
            draft.hands[me].remove(action.card.number)
            draft.marks += (("defence", me, action.card.number),)
        attacker = next(m[1] for m in draft.marks if m[0] == "called")
        following = self._next_defender(draft, attacker)
        if following is not None:
            draft.asked = (following,) + draft.asked[1:]
            return
        draft.asked, draft.phase = None, "turn"
        draft.marks = tuple(("shown",) + m[1:] if m[0] == "face-down" else m for m in draft.marks)  # revealed
        attack = next(m[2] for m in draft.marks if m[0] == "shown")
        defences = {m[1]: m[2] for m in draft.marks if m[0] == "defence"}
        steps: tuple[tuple[Any, ...], ...] = ()
        players = len(draft.hands)
        calls = {m[2]: m[3] for m in draft.marks if m[0] == "called"}
        for n in range(1, players):
            rival = (attacker + n) % players
            if rival in calls:
                defence = defences.get(rival, -1)
                steps += (("several-battle", attacker, rival, calls[rival], attack, defence),)
                if defence >= 0:
                    steps += self._used(draft, rival, defence)
        steps += (("several-end", attacker, attack),) + self._used(draft, attacker, attack)
        draft.pending = steps + draft.pending
        self._resume(draft)

    def _several_battle(self, draft: Draft, attacker: int, rival: int, treasure: int, attack: int,
                        defence: int) -> bool:
        """A queue step: the attack compared with one defence; a battle won moves its treasure."""
        if defence < 0:
            steals = True
            draft.marks = tuple(m for m in draft.marks if m != ("surrender", rival))
        else:
            steals = self.value(draft, attack, "attack", attacker) > self.value(draft, defence, "defence", rival)
            draft.marks = tuple(m for m in draft.marks if m != ("defence", rival, defence))
            if self._returns:
                self._discard_used(draft, ((rival, defence),))
            else:
                draft.cemetery.append(defence)
        if not steals:
            if ("several-lost",) not in draft.marks:
                draft.marks += (("several-lost",),)
            return False
        if treasure in draft.counters[rival]:
            self._unplace(draft, rival, treasure)
            self.receive(draft, attacker, treasure)
        return max(draft.weights) >= (4 if draft.foods else 5) and self.check_victory(draft)

    def _several_end(self, draft: Draft, attacker: int, attack: int) -> bool:
        """A queue step: the attack card, used once, leaves the table (back to the hand only when its
        ``return-to-hand`` holds and it lost none of the battles, fallera-2 line 39)."""
        lost = ("several-lost",) in draft.marks
        draft.marks = tuple(m for m in draft.marks if m[0] not in _TABLE)
        if not lost and self._returns and any(holds(effect.while_, draft, attacker, None)
                                              for effect, _ in draft.facts.defs[attack].doing("return-to-hand")):
            insort(draft.hands[attacker], attack)
        else:
            draft.cemetery.append(attack)
        return False
