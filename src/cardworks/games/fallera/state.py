"""La Fallera Calavera's positions: the immutable ``State`` the engine's contract shows, and the
mutable ``Draft`` its rules change in place.

The rules are written once, on drafts. ``apply`` thaws a state into a draft, plays
the action on it and freezes the result, so callers only ever see states that do
not change. A playout without checks keeps one draft for a whole game: copying a
state at every step was most of a step's cost.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...engine.codec import Nested


@dataclass(frozen=True)
class State:
    """A position. Card instances are numbers; ``designs[n]`` is the design of instance ``n``."""

    designs: tuple[str, ...]
    hands: tuple[tuple[int, ...], ...]
    counters: tuple[tuple[int, ...], ...]
    deck: tuple[int, ...]
    """Top of the deck first."""
    cemetery: tuple[int, ...]
    current: int
    phase: str
    """``turn``, ``defend``, ``again``, ``toss``, ``effect-coin``, ``burn``, ``lay``, ``first``, ``over``, or a
    decision ``asked`` names (``respond``, ``target``, ``discard``, ``choose``, ``several``)."""
    discord: bool
    """Expansion 2's rules are in play."""
    battle: tuple[int | None, ...] | None = None
    """(attacker, target, treasure, attack card) while a battle waits for its defence; with a fifth, the defence
    card (None: none), while the defence's or the battle's response window is open (``windows``)."""
    toss: tuple[int, int, bool] | None = None
    """(player, tosses left, all heads so far) while a paella with seafood is offered."""
    takes: tuple[int, int, int] | None = None
    """(taker, victim, cards still to take) after tails."""
    candidates: tuple[int, ...] = ()
    """Players tied for first, while the tie-break is pending."""
    winner: int | None = None
    reason: str | None = None
    turn: int = 0
    spaces: tuple[str, ...] = ()
    """Terretes of the Kingdom map in setup order (expansion 3); empty without the map."""
    map: tuple[int, ...] = ()
    """The card on each terreta, ``-1`` where it is empty."""
    queen: str | None = None
    """Where the Calavera Queen stands (``start`` before her first move)."""
    laying: tuple[int, ...] = ()
    """Cards drawn to refill the emptied map, waiting for the player to lay them (phase ``lay``)."""
    foods: tuple[str, ...] = ()
    """Each player's territorial food: the terreta it belongs to (hidden unless revealed)."""
    revealed: tuple[bool, ...] = ()
    refused: tuple[tuple[int, ...], ...] = ()
    """Per player (empty until a paella is refused), the counter whose paella the coin refused: the
    same paella is offered again only at the start of its holder's next turn (rulebook 2, lines 18-19)."""
    actions: int = 0
    """Actions the current player has finished this turn, beside the one being taken, less the extra actions
    granted as the turn started (an ``extra-action`` at ``turn-start`` makes it -1): a card may allow more than
    one (``actions-per-turn``)."""
    again: int | None = None
    """The rival the current player may call one more battle against (phase ``again``: a ``battle-again``
    card such as Queixalets attacked), or None."""
    pending: tuple[tuple[Nested, ...], ...] = ()
    """Steps of the flow waiting while a decision or chance outcome is due, played in order once it is
    given: ``("draw", player, cards)``, ``("end-action",)``, ``("next-turn",)``, ``("refill", realm)``,
    ``("end-move", realm)``, ``("burn",)``, ``("grant",)`` (an extra action an effect granted before one of
    its verbs stopped the flow), ``("verbs", player, source, effect, path, position)`` (an effect's verbs, see
    ``interpreter``), ``("coin", …)`` (an effect's coin, first while it is due), ``("window", event, actor, subject, seats)`` (a
    response window, see ``responses``), ``("answer", player, card, event, subject)`` (a response being
    played), ``("defend-now",)`` and ``("guard-end", subject[, step])`` (where what a cancel drops ends; ``step`` is played
    only after a cancel), ``("sell", player, card)``, ``("resolve",)``, ``("move-treasure", owner, taker, treasure)``
    and ``("move-queen", player, terreta)`` (the rest of an action after its window, see ``windows``) (a win, a coin
    toss or a refill can cut into any of them)."""

    asked: tuple[Nested, ...] | None = None
    """Who must decide in phases ``respond``, ``target``, ``discard`` and ``choose``, first, with what the decision is
    about: ``(player, event, actor, subject)`` for a response window (``subject``: the card played, sold or
    defending, the treasure of the battle or changing hands, the terreta the Queen is moving to: all public);
    ``(player, source, index, path, position)`` for a target (the verb waiting for it); ``(player, count left,
    players still to discard, count)`` for a discard; ``(player, kind, source, index, path, position)`` for a
    choice a verb asks (phase ``choose``: ``kind`` says what is chosen, see ``verbs``)."""

    marks: tuple[tuple[Nested, ...], ...] = ()
    """What verbs leave in play beyond the zones, all public (see ``verbs``): ``("protect", treasure, holder,
    until)``, ``("stat", stat, value)`` and ``("swap",)`` for the battle in progress, ``("attach", card, host)``
    (the card is in play, attached), ``("seen", looker, victim, cards)`` (a hand looked at, as it was, until the turn ends; the cards are
    shown to the looker alone), ``("player",
    who, source, chosen)`` (a player an effect chose) and ``("chosen", who, kind, value, source, position)`` (a
    choice made, waiting for the verb that asked it)."""

    @property
    def players(self) -> int:
        return len(self.hands)


FIELDS = tuple(State.__dataclass_fields__)
"""The state's fields, in order (``dump`` writes them in this order)."""


TALLIES = ("weights", "sellables", "on_counters")
"""A draft's counts of what is on the counters: per counter, its bound of valid ingredients
(``Facts.weight`` summed) and its sellable treasures; and all the cards on counters."""


def tallies(facts: Any, counters: Any) -> tuple[list[int], list[int], int]:
    """``TALLIES`` counted afresh (``Facts.tallies`` keeps them for a state's counters)."""
    return ([sum(map(facts.weight.__getitem__, counter)) for counter in counters],
            [sum(map(facts.sellable.__getitem__, counter)) for counter in counters], sum(map(len, counters)))


class Draft:
    """A position being played: the fields of ``State``, with hands and counters as lists of lists
    (each kept in number order) and the deck, cemetery and map as lists; every other field holds the same
    immutable value a state would, replaced whole when it changes.

    Only the rules change a draft, and only its owner sees it: ``apply``'s own copy, or a
    playout's. Read-only helpers (legal actions, ingredient counts) take a state or a draft.
    Other slots are not fields of the position: ``facts`` keeps the deck's ``Facts`` at hand for the
    rules; ``rng`` is the chance of the step being played (``apply``/``play`` set it as a step starts, ``new_game``
    and ``started`` as they start the first turn,
    None when no chance was given: a reshuffle then fails loudly), so no rule passes it along; and ``TALLIES`` count what is on the counters, kept up to date as cards reach and leave
    them (the rules' ``receive`` and ``_unplace``): looking for a winner is then mostly one ``max``,
    and a turn's number of legal actions needs no counting. ``log`` lists what happened to cards since the
    draft was thawed, as (what, instance or terreta source): ``placed`` (a treasure reached a counter),
    ``trigger`` (an effect began), a verb that acted (``draw``, ``coin``, ``extra-action``, ``win``), and
    ``ended`` (the effect that ended the game); simulations credit cards with it (not part of the position).
    ``subject`` is (event, subject) of the window a response answers, while it is weighed or its verbs play (a
    ``cancel`` and the condition ``yours`` read it).
    """

    __slots__ = FIELDS + ("facts", "rng", "log", "subject") + TALLIES

    @property
    def players(self) -> int:
        return len(self.hands)


def thawed(state: State, facts: Any) -> Draft:
    """A draft of ``state`` (whose deck's facts are ``facts``), sharing nothing mutable with it.

    Field by field, as ``frozen`` (a loop of ``setattr`` took twice as long, and checked playouts
    thaw a state for every action they try)."""
    draft = object.__new__(Draft)
    draft.facts, draft.rng, draft.log, draft.subject = facts, None, [], None
    draft.designs = state.designs
    draft.hands = list(map(list, state.hands))
    draft.counters = list(map(list, state.counters))
    draft.deck, draft.cemetery = list(state.deck), list(state.cemetery)
    draft.current, draft.phase, draft.discord = state.current, state.phase, state.discord
    draft.battle, draft.toss, draft.takes, draft.candidates = state.battle, state.toss, state.takes, state.candidates
    draft.winner, draft.reason, draft.turn = state.winner, state.reason, state.turn
    draft.spaces, draft.map, draft.queen = state.spaces, list(state.map), state.queen
    draft.laying, draft.pending, draft.actions, draft.again = state.laying, state.pending, state.actions, state.again
    draft.foods, draft.revealed, draft.refused = state.foods, state.revealed, state.refused
    draft.asked, draft.marks = state.asked, state.marks
    draft.weights, draft.sellables, draft.on_counters = facts.tallies(state.counters)
    return draft


def frozen(draft: Draft) -> State:
    """The state ``draft`` stands at (later changes to the draft do not reach it)."""
    return built({  # every field, in ``FIELDS`` order
        "designs": draft.designs, "hands": tuple(map(tuple, draft.hands)),
        "counters": tuple(map(tuple, draft.counters)), "deck": tuple(draft.deck), "cemetery": tuple(draft.cemetery),
        "current": draft.current, "phase": draft.phase, "discord": draft.discord, "battle": draft.battle,
        "toss": draft.toss, "takes": draft.takes, "candidates": draft.candidates, "winner": draft.winner,
        "reason": draft.reason, "turn": draft.turn, "spaces": draft.spaces, "map": tuple(draft.map),
        "queen": draft.queen, "laying": draft.laying, "foods": draft.foods,
        "revealed": draft.revealed, "refused": draft.refused, "actions": draft.actions, "again": draft.again,
        "pending": draft.pending, "asked": draft.asked,
        "marks": draft.marks})


def built(fields: dict[str, Any]) -> State:
    """The state with every one of ``fields``, in ``FIELDS`` order (a frozen dataclass: they are set
    all at once, without re-running ``__init__``)."""
    state = object.__new__(State)
    object.__setattr__(state, "__dict__", fields)
    return state
