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
    broken = []
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
