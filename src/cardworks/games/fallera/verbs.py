"""The verbs that choose a target, and what they leave in play (issue 26 items 2 and 3).

A verb that needs a target stops the flow for its acting player's choice (phase ``choose``; ``State.asked``
is ``(player, kind, source, index, path, position, arg)``) and is played again at the same position once the
choice is made: the choice waits in ``State.marks`` as ``("chosen", player, kind, value, source, position)``
until that verb takes it. The kinds and the actions that answer them (each a legal action with a notation
that parses back): ``player`` a rival (``pN choose pM``), ``hand`` a position in a hand the chooser does not see
(``pN pick pM k``, ``arg`` the hand's player), ``battle`` the battle in progress, named by its treasure
(``pN target-battle card#n``), ``map`` a card on the Kingdom map (``pN target-map card#n``), ``terreta`` a
terreta (``pN target-terreta <id>``), ``treasure`` a treasure on a counter (``pN treasure pM card#n``,
``arg`` ``own`` or ``any``).

What a verb leaves in play is public and kept in ``State.marks`` too (a protection, a battle's set or swapped
values, an attached card, a hand looked at, a player chosen); ``_turn_marks`` drops what lasts only a turn.
"""

from __future__ import annotations

from typing import Any

from ...engine.core import IllegalActionError
from .actions import Choose, Pick, TargetBattle, TargetCemetery, TargetMap, TargetTerreta, TargetTreasure, player
from .effects import (Attach, ChoosePlayer, LookAtHand, MoveQueen, Protect, ReturnFromCemetery, SetStat, SwapStats,
                      TakeFromMap)
from .handler_context import VerbContext
from .registry import REGISTRY
from .state import Draft

ASKED = object()
"""What ``player_for`` returns when it stopped the flow to ask for a player."""

TURN_MARKS = frozenset({"player", "chosen", "discarding", "stat", "swap", "seen"})
"""Marks that last until the turn ends, a look at a hand among them, whoever's turn it was (docs/effects.md,
``look-at-hand``; no rulebook says more); a protection says its own end, an attachment lasts."""

KIND_OF = {Choose: "player", Pick: "hand", TargetBattle: "battle", TargetMap: "map", TargetTerreta: "terreta",
           TargetTreasure: "treasure", TargetCemetery: "cemetery"}
"""The kind of choice each choosing action answers."""


def amount(count: Any, hand: int) -> int:
    """How many cards a discard of ``count`` takes from a hand of ``hand`` cards: ``half`` is half rounded
    down (fallera-3 line 134: with an odd number, half of the cards minus one); never more than the hand."""
    return min(hand, hand // 2 if count == "half" else count)


def public_marks(marks: Any) -> list[list[Any]]:
    """``marks`` as every player may see them: a look says who looked at whose hand, not what was in it; a
    card placed face down in a battle of several (``revolta``) says whose it is, not which."""
    return [list(m[:3]) if m[0] == "seen" else list(m[:2]) if m[0] == "face-down" else list(m) for m in marks]


def protected(state: Any) -> frozenset[int]:
    """The treasures a ``protect`` covers now."""
    return frozenset(mark[1] for mark in state.marks if mark[0] == "protect")


class Verbs:
    """The part of ``FalleraRules`` that asks for targets and keeps what verbs leave in play."""

    # --- asking, and the choice made -------------------------------------------------------------------
    def ask(self, draft: Draft, who: int, kind: str, source: Any, index: int, path: str, k: int,
             arg: Any = "") -> bool:
        """Stop for ``who``'s choice of ``kind``; the verb at ``k`` plays again once it is made."""
        draft.phase, draft.asked = "choose", (who, kind, source, index, path, k, arg)
        self.schedule(draft, ("verbs", who, source, index, path, k))
        return True

    def choice_made(self, draft: Draft, who: int, kind: str, source: Any, k: int) -> Any:
        """The ``kind`` chosen for the verb at ``k`` of ``source``'s effect (taken from the marks), or None."""
        for mark in draft.marks:
            if mark[:3] == ("chosen", who, kind) and mark[4] == source and mark[5] == k:
                draft.marks = tuple(m for m in draft.marks if m is not mark)
                return mark[3]
        return None

    def player_for(self, draft: Draft, who: int, source: Any, index: int, path: str, k: int) -> Any:
        """The player an effect of ``source`` chose (asked for here, returning ``ASKED``, if none was)."""
        chosen = self.choice_made(draft, who, "player", source, k)
        if chosen is not None:
            draft.marks += (("player", who, source, chosen),)
            return chosen
        for mark in draft.marks:
            if mark[0] == "player" and mark[1] == who and mark[2] == source:
                return mark[3]
        self.ask(draft, who, "player", source, index, path, k)
        return ASKED

    def _choose_options(self, state: Any, facts: Any) -> list[Any]:
        """The legal actions of phase ``choose``, in notation order."""
        who, kind, *_, arg = state.asked
        if kind == "player":
            options = [facts.plain(Choose, who, p) for p in facts.rivals[who]]
        elif kind == "hand":
            options = [facts.plain(Pick, who, arg, k) for k in range(1, len(state.hands[arg]) + 1)]
        elif kind == "battle":
            options = [] if state.battle is None else [TargetBattle(who, facts.refs[state.battle[2]])]
        elif kind == "map":
            options = [TargetMap(who, facts.refs[i]) for i in state.map if i >= 0]
        elif kind == "cemetery":  # any card there but the one whose effect asks
            source = state.asked[2]
            options = [TargetCemetery(who, facts.refs[i]) for i in state.cemetery if i != source]
        elif kind == "terreta":
            options = [facts.plain(TargetTerreta, who, s) for s in state.spaces if s != state.queen]
        else:  # treasure: on the chooser's own counter, or on any (an ingredient, for an attach ``to`` one)
            owners = (who,) if arg == "own" else range(len(state.counters))
            options = [TargetTreasure(who, owner, facts.refs[i]) for owner in owners for i in state.counters[owner]
                       if arg != "ingredient" or facts.defs[i].kind == "ingredient"]
        return sorted(options, key=lambda a: a.notation())

    def _check_choice(self, draft: Draft, action: Any) -> None:
        self._need_phase(draft, action, "choose")
        kind = KIND_OF[type(action)]
        if draft.asked[1] != kind:
            raise IllegalActionError(action.notation(), "choose-kind",
                                     f"the choice asked is of a {draft.asked[1]}, not of a {kind}")
        if action not in self._choose_options(draft, draft.facts):
            raise IllegalActionError(action.notation(), "choose-option", f"{action.notation()} is not among the "
                                     f"{kind} choices offered")

    def _play_choice(self, draft: Draft, action: Any) -> None:
        """The choice waits in the marks for the verb that asked it, which plays again."""
        who, kind, source, _, _, k, _ = draft.asked
        value = {Choose: lambda a: a.chosen, Pick: lambda a: a.position, TargetTerreta: lambda a: a.space,
                 TargetTreasure: lambda a: a.card.number}.get(type(action), lambda a: a.card.number)(action)
        draft.marks += (("chosen", who, kind, value, source, k),)
        draft.asked, draft.phase = None, "turn"
        self._resume(draft)

    _check_choose = _check_pick = _check_targetbattle = _check_targetmap = _check_targetterreta = \
        _check_targettreasure = _check_targetcemetery = _check_choice
    _play_choose = _play_pick = _play_targetbattle = _play_targetmap = _play_targetterreta = \
        _play_targettreasure = _play_targetcemetery = _play_choice

    # --- what verbs leave in play --------------------------------------------------------------------------
    def _turn_marks(self, draft: Draft) -> None:
        """As a turn starts (``draft.current`` the new player): what lasted the turn ends, and the protections
        that last until their player's next turn start."""
        draft.marks = tuple(m for m in draft.marks if m[0] not in TURN_MARKS and not (
            m[0] == "protect" and (m[3] == "end-of-turn" or m[2] == draft.current)))

    def battle_over(self, draft: Draft) -> None:
        """The battle ended (or was cancelled): its set and swapped values go."""
        draft.marks = tuple(m for m in draft.marks if m[0] not in ("stat", "swap"))

    def _fought(self, draft: Draft, attack: int, defence: int, attacker: int, target: int) -> bool:
        """Whether the attack beats the defence, with what ``set-stat`` and ``swap-stats`` did to this battle."""
        marks = draft.marks
        swap = ("swap",) in marks
        a = self.value(draft, attack, "defence" if swap else "attack", attacker)
        d = self.value(draft, defence, "attack" if swap else "defence", target)
        for mark in marks:
            if mark[0] == "stat":
                a, d = (mark[2], d) if mark[1] == "attack" else (a, mark[2])
        return a > d

    def _detach(self, draft: Draft, host: int) -> None:
        """``host`` went to the cemetery: the cards attached to it go with it."""
        attached = [m for m in draft.marks if m[0] == "attach" and m[2] == host]
        if attached:
            draft.marks = tuple(m for m in draft.marks if m not in attached)
            draft.cemetery += [m[1] for m in attached]

    def _looked(self, state: Any, who: int, label: Any) -> dict[str, list[str]]:
        """The hands ``who`` looked at, as they were then, by player (``observe``'s ``looked``). A state
        rebuilt from another player's observation knows who looked, not what they saw (``public_marks``)."""
        return {player(m[2]): list(map(label, m[3] if len(m) > 3 else ())) for m in state.marks
                if m[0] == "seen" and m[1] == who}


# --- do: the verbs, (rules, draft, who, source, index, path, position, verb) -> None | True -----------------
@REGISTRY.bind(ChoosePlayer, "acts")
def choose_player(rules: VerbContext, draft: Draft, who: int, source: Any, index: int, path: str, k: int,
                  verb: ChoosePlayer) -> bool | None:
    """Stop for the choice of a rival; once made, the verbs after it act on that player."""
    chosen = rules.choice_made(draft, who, "player", source, k)
    if chosen is None:
        return rules.ask(draft, who, "player", source, index, path, k)
    draft.marks = tuple(m for m in draft.marks if not (m[0] == "player" and m[1] == who and m[2] == source))
    draft.marks += (("player", who, source, chosen),)
    return None


@REGISTRY.bind(LookAtHand, "acts")
def look_at_hand(rules: VerbContext, draft: Draft, who: int, source: Any, index: int, path: str, k: int,
                 verb: LookAtHand) -> bool | None:
    """The chosen player's hand, as it is now, joins the acting player's observation until the turn ends
    (kept in the marks, shown to nobody else: ``public_marks``)."""
    victim = rules.player_for(draft, who, source, index, path, k)
    if victim is ASKED:
        return True
    draft.marks = tuple(m for m in draft.marks if m[:3] != ("seen", who, victim))
    draft.marks += (("seen", who, victim, tuple(draft.hands[victim])),)
    return None


@REGISTRY.bind(Protect, "acts")
def protect(rules: VerbContext, draft: Draft, who: int, source: Any, index: int, path: str, k: int,
            verb: Protect) -> bool | None:
    """Stop for the choice of one of the acting player's treasures; once chosen, it is protected."""
    chosen = rules.choice_made(draft, who, "treasure", source, k)
    if chosen is None:
        return rules.ask(draft, who, "treasure", source, index, path, k, "own") if draft.counters[who] else None
    draft.marks += (("protect", chosen, who, verb.until),)
    return None


def _battle_verb(rules: VerbContext, draft: Draft, who: int, source: Any, index: int, path: str, k: int,
                 mark: tuple[Any, ...]) -> bool | None:
    chosen = rules.choice_made(draft, who, "battle", source, k)
    if chosen is None:
        return rules.ask(draft, who, "battle", source, index, path, k) if draft.battle is not None else None
    if draft.battle is not None and draft.battle[2] == chosen:
        draft.marks += (mark,)
    return None


@REGISTRY.bind(SetStat, "acts")
def set_stat(rules: VerbContext, draft: Draft, who: int, source: Any, index: int, path: str, k: int,
             verb: SetStat) -> bool | None:
    """Stop for the choice of the battle in progress; once chosen, its value is set (``Verbs._fought``)."""
    return _battle_verb(rules, draft, who, source, index, path, k, ("stat", verb.stat, verb.value))


@REGISTRY.bind(SwapStats, "acts")
def swap_stats(rules: VerbContext, draft: Draft, who: int, source: Any, index: int, path: str, k: int,
               verb: SwapStats) -> bool | None:
    """Stop for the choice of the battle in progress; once chosen, its cards fight with swapped values."""
    return _battle_verb(rules, draft, who, source, index, path, k, ("swap",))


@REGISTRY.bind(TakeFromMap, "acts")
def take_from_map(rules: VerbContext, draft: Draft, who: int, source: Any, index: int, path: str, k: int,
                  verb: TakeFromMap) -> bool | None:
    """Stop for the choice of a map card; once chosen, the acting player takes it (a win looked for at once,
    an emptied map refilled, the acting player laying the cards), then the verbs after it go on."""
    chosen = rules.choice_made(draft, who, "map", source, k)
    if chosen is None:
        return rules.ask(draft, who, "map", source, index, path, k) if any(i >= 0 for i in draft.map) else None
    draft.map[draft.map.index(chosen)] = -1
    rules.receive(draft, who, chosen)
    rest = ("verbs", who, source, index, path, k + 1)
    if rules.check_victory(draft):
        rules.schedule(draft, rest)
        return True
    if all(slot < 0 for slot in draft.map):
        rules.deal_map(draft)  # the player lays the cards drawn (or the deck ran out): the rest waits
        rules.schedule(draft, rest)
        return True
    return None


@REGISTRY.bind(ReturnFromCemetery, "acts")
def return_from_cemetery(rules: VerbContext, draft: Draft, who: int, source: Any, index: int, path: str, k: int,
                         verb: ReturnFromCemetery) -> bool | None:
    """Stop for the choice of a card in the cemetery (not the one acting); once chosen, it comes back to the acting
    player as a drawn card would (a win looked for at once), then the verbs after it go on."""
    chosen = rules.choice_made(draft, who, "cemetery", source, k)
    if chosen is None:
        if any(i != source for i in draft.cemetery):
            return rules.ask(draft, who, "cemetery", source, index, path, k)
        return None
    draft.cemetery.remove(chosen)
    rules.receive(draft, who, chosen)
    if rules.check_victory(draft):
        rules.schedule(draft, ("verbs", who, source, index, path, k + 1))
        return True
    return None


@REGISTRY.bind(MoveQueen, "acts")
def move_queen(rules: VerbContext, draft: Draft, who: int, source: Any, index: int, path: str, k: int,
               verb: MoveQueen) -> bool | None:
    """Stop for the choice of a terreta; once chosen, the Queen stands there (a territorial win looked for)."""
    chosen = rules.choice_made(draft, who, "terreta", source, k)
    if chosen is None:
        return rules.ask(draft, who, "terreta", source, index, path, k) if len(draft.spaces) > 1 else None
    draft.queen = chosen
    if rules.check_victory(draft):
        rules.schedule(draft, ("verbs", who, source, index, path, k + 1))
        return True
    return None


@REGISTRY.bind(Attach, "acts")
def attach(rules: VerbContext, draft: Draft, who: int, source: Any, index: int, path: str, k: int,
           verb: Attach) -> bool | None:
    """Stop for the choice of a treasure on any counter; once chosen, the special leaves the cemetery and is
    attached to it."""
    if type(source) is not int or source not in draft.cemetery:
        raise RuntimeError(f"{player(who)}'s attach has no special being played to attach (validate refuses it "
                           "outside a card played from the hand)")
    chosen = rules.choice_made(draft, who, "treasure", source, k)
    if chosen is None:
        defs = draft.facts.defs
        hosts = [i for counter in draft.counters for i in counter if verb.to == "treasure" or defs[i].kind == "ingredient"]
        return rules.ask(draft, who, "treasure", source, index, path, k, "any" if verb.to == "treasure"
                          else "ingredient") if hosts else None
    draft.cemetery.remove(source)
    draft.marks += (("attach", source, chosen),)
    if rules.check_victory(draft):  # an ingredient it raises may complete a paella
        rules.schedule(draft, ("verbs", who, source, index, path, k + 1))
        return True
    return None


def discard_chosen(rules: Any, draft: Draft, who: int, source: Any, index: int, path: str, k: int, verb: Any,
                   players: tuple[int, ...]) -> bool | None:
    """A ``discard`` whose cards chance picks (``random``) or the acting player picks blind (``acting-player``),
    for ``players`` in turn (rivals only: ``responses.discard`` leaves the acting player's own discards to their
    own choice). The acting player's picks go one at a time (phase ``choose``, kind ``hand``); what
    is left to pick waits in the marks as ``("discarding", who, source, position, players, left)``."""
    if verb.chosen_by == "random":
        if draft.rng is None:
            raise RuntimeError("a random discard draws with the step's chance: pass rng=")
        for victim in players:
            hand = draft.hands[victim]
            for card in draft.rng.sample(hand, amount(verb.count, len(hand))):
                hand.remove(card)
                draft.cemetery.append(card)
        return None
    left = None
    for mark in draft.marks:
        if mark[0] == "discarding" and mark[1] == who and mark[2] == source and mark[3] == k:
            draft.marks = tuple(m for m in draft.marks if m is not mark)
            players, left = mark[4], mark[5]
            picked = rules.choice_made(draft, who, "hand", source, k)
            hand = draft.hands[players[0]]
            card = hand[picked - 1]
            hand.remove(card)
            draft.cemetery.append(card)
            left -= 1
            if not left:
                players, left = players[1:], None
            break
    for n, victim in enumerate(players):
        wanted = left if left is not None and n == 0 else amount(verb.count, len(draft.hands[victim]))
        wanted = min(wanted, len(draft.hands[victim]))
        if wanted <= 0:
            continue
        draft.marks += (("discarding", who, source, k, tuple(players[n:]), wanted),)
        return rules.ask(draft, who, "hand", source, index, path, k, victim)
    return None
