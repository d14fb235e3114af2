"""Invariants of a Fallera position beyond the ones ``Views.invariants`` states itself.

Kept apart from the rules they check, so a planted bug in the rules (``bench/mutants.py``) is caught by
code it did not touch. Every legal action belongs to the player ``actor`` says is to act (chance
outcomes aside), and must be written in a notation that parses back to it: scenarios
and saved failures are read through that notation, so an action that does not round-trip would replay as
another one.

They come in two sets (``Views.invariants`` checks both): ``step_invariants``, cheap enough for every step of
``check``, and ``costly_invariants``, checked at the steps ``check``'s schedule checks in full.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from ...engine.core import CHANCE
from .actions import player

_PARSED: dict[str, Any] = {}
"""Notation → parsed action (or the error), so each notation is parsed once per process."""
_ROUND_TRIPPED: dict[int, Any] = {}
"""id → an action whose notation parsed back to it. Actions are immutable and the deck's tables hand out the
same objects step after step, so one seen to round-trip needs no second look; holding it keeps its id from
being reused by another object."""
KEPT_ACTIONS = 200_000


def step_invariants(rules: Any, state: Any) -> list[str]:
    """The invariants cheap enough for every step of ``check``'s default schedule (``playouts.Schedule``): a
    few fields read, no legal action listed, no counter counted in full (empty when they hold). Each is read
    the cheapest way that says the same: a game not over has no win to check, an empty queue no shape, and
    ``min`` finds a slot below -1 without a loop written in Python."""
    over = state.phase == "over"
    broken = unearned_wins(rules, state) if over else []
    if state.map and min(state.map) < -1:
        broken.append("a map slot holds neither a card instance nor -1 (empty)")
    if rules.discord and not state.deck and not over:
        broken.append("the deck is empty in a game with expansion 2 that goes on: the last card leaving it ends "
                      "the game (fallera-2 line 34)")
    if state.turn < 0:
        broken.append(f"the turn count is {state.turn}: turns count from 1, and 0 is before the first")
    return broken + queue_shape(state.pending) if state.pending else broken


_TREASURES: list[Any] = [None, frozenset()]
"""The last deck's ``Facts``, and the instances of its treasures."""


def treasure_instances(facts: Any) -> frozenset[int]:
    """The instances ``facts.treasure`` marks as treasures, as a set made once per deck (a game's positions share
    their deck): the zone checks at every step ask it of a hand or a counter in one call."""
    if _TREASURES[0] is not facts:
        _TREASURES[:] = [facts, frozenset(i for i, treasure in enumerate(facts.treasure) if treasure)]
    return _TREASURES[1]


def costly_invariants(rules: Any, state: Any) -> list[str]:
    """The invariants checked only at the steps checked in full: every counter counted in full, the deck's
    quick tables against their slow answers, every legal action listed, its player and notation checked."""
    counted: dict[int, tuple[int, bool, int]] = {}

    def ingredients(who: int) -> tuple[int, bool, int]:
        """``rules.ingredients`` of ``who``'s counter, counted once for both checks that read it."""
        found = counted.get(who)
        if found is None:
            found = counted[who] = rules.ingredients(state, who)
        return found

    broken = unnoticed_paellas(rules, state, ingredients) + quick_tables(rules, state, ingredients)
    actor = rules.actor(state)
    checked = _ROUND_TRIPPED
    listed = rules.legal_actions(state)
    broken += lazy_listing(rules.choices(state), listed)
    for action in listed:
        if actor is not None and actor != CHANCE and getattr(action, "player", actor) != actor:
            broken.append(f"the legal action {action.notation()!r} is not {player(actor)}'s, who is to act")
        if checked.get(id(action)) is action:  # this very action was seen to parse back to itself
            continue
        text = action.notation()
        if text not in _PARSED:
            try:
                _PARSED[text] = rules.parse(text)
            except ValueError as exc:
                _PARSED[text] = exc
        if _PARSED[text] != action:
            broken.append(f"the legal action {text!r} does not parse back to itself")
        else:
            if len(checked) >= KEPT_ACTIONS:
                checked.clear()
            checked[id(action)] = action
    return broken


def unnoticed_paellas(rules: Any, state: Any, ingredients: Callable[[int], tuple[int, bool, int]] | None = None
                      ) -> list[str]:
    """A complete paella the game has not acted on: the slow twin of the quick bounds and early checks that
    spare counting ingredients (``Victory.check_victory`` and its callers).

    A win comes at the instant of 5 valid ingredients, or 4 with the Queen in the holder's territorial
    terreta (fallera-3 lines 120-122): so in a game still going, nobody may hold one, unless its seafood
    coin tosses are under way (``toss``, ``take``) or it is the very paella the coin refused, which waits for
    its holder's next turn (expansion 2). Every counter is counted in full here, with no bound (``ingredients``:
    ``rules.ingredients`` of a counter, unless told)."""
    if ingredients is None:
        ingredients = partial(rules.ingredients, state)
    if state.phase in ("over", "toss", "take") or state.toss is not None or state.takes is not None:
        return []
    broken = []
    for who, counter in enumerate(state.counters):
        if who < len(state.refused) and state.refused[who] == tuple(counter):  # a short list: step_invariants says so
            continue
        count, blocked, _ = ingredients(who)
        territorial = bool(state.foods) and count >= 4 and state.queen == state.foods[who]
        if (count >= 5 or territorial) and not blocked:
            broken.append(f"{player(who)} holds a complete paella ({count} valid ingredients) but the game goes on")
    return broken


PAELLA_WINS = ("five-ingredients", "five-ingredients-seafood", "four-ingredients-territorial")


def unearned_wins(rules: Any, state: Any) -> list[str]:
    """A paella win whose winner does not hold a complete paella: 5 valid ingredients, or 4 with the Queen in
    the winner's territorial terreta (fallera-3 lines 120-122), and no forbidden ingredient blocking it under
    expansion 2. Counted in full, as ``unnoticed_paellas`` does: the other side of the same rule."""
    if state.phase != "over" or state.reason not in PAELLA_WINS:
        return []
    who = state.winner
    if who is None:
        return [f"the game ended by {state.reason} with no winner"]
    count, blocked, _ = rules.ingredients(state, who)
    territorial = bool(state.foods) and count >= 4 and state.queen == state.foods[who]
    if blocked or not (count >= 5 or territorial):
        return [f"{player(who)} won by {state.reason} holding {count} valid ingredients"
                + (", one forbidden ingredient blocking" if blocked else "")
                + ("" if territorial or not state.foods else ", the Queen not in their territorial terreta")]
    return []


PASSING_STEPS = frozenset({"end-action", "next-turn", "end-move", "refill", "burn"})
"""Queue steps that end the action or move the turn on (each may play a whole turn start of its own)."""


def queue_shape(pending: tuple[tuple[Any, ...], ...]) -> list[str]:
    """What is wrong with the shape of the queue of pending steps. A step that ends the action or passes the
    turn waits only last (what follows it would be played in the next player's turn), so a flag that tells
    the callers of ``TurnFlow._resume`` to stop never has steps behind it; a draw left waiting draws at least
    a card."""
    broken = []
    for k, step in enumerate(pending):
        name = step[0]
        if name in PASSING_STEPS and k != len(pending) - 1:
            broken.append(f"the step {name!r} waits in the queue before {len(pending) - 1 - k} more: it must be last")
        if name == "draw" and step[2] < 1:
            broken.append(f"a draw of {step[2]} cards waits in the queue: what is left of a draw is at least a card")
    return broken


def quick_tables(rules: Any, state: Any, ingredients: Callable[[int], tuple[int, bool, int]] | None = None
                 ) -> list[str]:
    """The deck's quick tables agree with the slow answers they stand for. ``Facts.hands_all_battle`` lets a
    hand be listed as weapons unfiltered, and ``Facts.plain_count`` with ``all_plain`` lets the simulation's
    rollouts and evaluation count valid ingredients without reading effects; ``check`` plays neither reader
    of the last two, so a wrong table would show nowhere else. Without marks or terreta bonuses, a counter
    whose cards all have a plain count holds that many valid ingredients (counted in full); under
    ``all_plain`` every card has one. A card that asks for a cemetery card is one ``takes_back`` lists (the
    simulation reads the cemetery's cards only while such a card is in a hand or asks). ``ingredients``:
    ``rules.ingredients`` of a counter, unless told."""
    if ingredients is None:
        ingredients = partial(rules.ingredients, state)
    facts = rules.facts(state)
    broken = []
    asked = state.asked
    if state.phase == "choose" and asked is not None and asked[1] == "cemetery" and type(asked[2]) is int \
            and asked[2] not in facts.takes_back:
        broken.append(f"{facts.labels[asked[2]]} asks for a cemetery card, but the deck does not list it among the "
                      "cards that take one back (takes_back)")
    if facts.hands_all_battle:
        for who, hand in enumerate(state.hands):
            if not all(map(facts.battle.__getitem__, hand)):
                broken.append(f"{player(who)}'s hand holds a card that is no battle card, but the deck says every "
                              "hand is a list of weapons (hands_all_battle)")
    if state.marks or rules.bonuses:
        return broken
    plain = facts.plain_count
    for who, counter in enumerate(state.counters):
        values = [plain[i] for i in counter]
        if None in values:
            if facts.all_plain:
                broken.append(f"{player(who)}'s counter holds a card whose effects change a count, but the deck "
                              "says none does (all_plain)")
            continue
        count = ingredients(who)[0]
        if sum(values) != count:
            broken.append(f"{player(who)}'s counter adds up to {sum(values)} valid ingredients by its plain "
                          f"counts, but holds {count} counted in full")
    return broken


def lazy_listing(choices: Any, listed: list[Any]) -> list[str]:
    """The sequence of legal actions a playout indexes (``rules.choices``, built only where it is looked at)
    agrees with their list: the same length, and its last action read by position and from the end (a
    negative index) is the list's last. The list is sorted by notation, as ``rules.choices`` promises: a
    seeded playout picks by position, so another order would play another game from the same seed."""
    notations = [action.notation() for action in listed]
    if notations != sorted(notations):
        return ["the legal actions are not sorted by notation"]
    if len(choices) != len(listed):
        return [f"the legal actions number {len(listed)} listed but {len(choices)} indexed"]
    if not listed:
        return []
    try:
        ends = (choices[len(listed) - 1], choices[-1], choices[-len(listed)])
    except IndexError as exc:
        return [f"the legal actions cannot be indexed as a sequence ({exc!r})"]
    if ends != (listed[-1], listed[-1], listed[0]):
        return ["the legal actions read by position differ from their list"]
    return []
