"""Invariants of a Fallera position beyond the ones ``Views.invariants`` states itself.

Kept apart from the rules they check, so a planted bug in the rules (``bench/mutants.py``) is caught by
code it did not touch. Every legal action belongs to the player ``actor`` says is to act (chance
outcomes aside), and must be written in a notation that parses back to it: scenarios
and saved failures are read through that notation, so an action that does not round-trip would replay as
another one.
"""

from __future__ import annotations

from typing import Any

from ...engine.core import CHANCE
from .actions import player

_PARSED: dict[str, Any] = {}
"""Notation → parsed action (or the error), so each notation is parsed once per process."""


def more_invariants(rules: Any, state: Any) -> list[str]:
    """What is broken in ``state`` (empty when it is sound)."""
    broken = unnoticed_paellas(rules, state)
    if any(slot < -1 for slot in state.map):
        broken.append("a map slot holds neither a card instance nor -1 (empty)")
    actor = rules.actor(state)
    for action in rules.legal_actions(state):
        text = action.notation()
        if actor is not None and actor != CHANCE and getattr(action, "player", actor) != actor:
            broken.append(f"the legal action {text!r} is not {player(actor)}'s, who is to act")
        if text not in _PARSED:
            try:
                _PARSED[text] = rules.parse(text)
            except ValueError as exc:
                _PARSED[text] = exc
        if _PARSED[text] != action:
            broken.append(f"the legal action {text!r} does not parse back to itself")
    return broken


def unnoticed_paellas(rules: Any, state: Any) -> list[str]:
    """A complete paella the game has not acted on: the slow twin of the quick bounds and early checks that
    spare counting ingredients (``Victory._check_victory`` and its callers).

    A win comes at the instant of 5 valid ingredients, or 4 with the Queen in the holder's territorial
    terreta (fallera-3 lines 120-122): so in a game still going, nobody may hold one, unless its seafood
    coin tosses are under way (``toss``, ``take``) or it is the very paella the coin refused, which waits for
    its holder's next turn (expansion 2). Every counter is counted in full here, with no bound."""
    if state.phase in ("over", "toss", "take") or state.toss is not None or state.takes is not None:
        return []
    broken = []
    for who, counter in enumerate(state.counters):
        if state.refused and state.refused[who] == tuple(counter):
            continue
        count, blocked, _ = rules.ingredients(state, who)
        territorial = bool(state.foods) and count >= 4 and state.queen == state.foods[who]
        if (count >= 5 or territorial) and not blocked:
            broken.append(f"{player(who)} holds a complete paella ({count} valid ingredients) but the game goes on")
    return broken
