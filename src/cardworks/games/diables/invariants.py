"""Invariants of a Diables scoring position beyond the ones ``DiablesRules.invariants`` states itself.

Kept apart from the rules they check, so a planted bug in the rules (``bench/mutants.py``) is caught by
code it did not touch: who acts, the outcome agreeing with the phase, counts that cannot go negative or
past their quota, and every legal action written in a notation that parses back to it.
"""

from __future__ import annotations

from typing import Any

from .actions import SHOWS

OVER = ("round-over", "over")
"""Phases after which the scoring this engine covers has nothing left to do."""


def more_invariants(rules: Any, state: Any) -> list[str]:
    """What is broken in ``state`` (empty when it is sound)."""
    broken = []
    actor, outcome, (_, why) = rules.actor(state), rules.outcome(state), rules.result(state)
    if actor != (None if state.phase in OVER else 0):
        broken.append(f"actor {actor} in phase {state.phase}: the table (0) scores, nobody once scoring is over")
    if (outcome is None) == (state.phase in OVER) or (why == "game-over") != (state.phase == "over"):
        broken.append("the outcome or result disagrees with the phase")
    elif state.phase == "over" and outcome.winners != (state.winner,):
        broken.append("the outcome names another winner than the state")
    if not 1 <= state.round <= len(rules.params["shows-scored-per-round"]):
        broken.append(f"round {state.round} does not exist")
    quota = rules.params["shows-scored-per-round"]
    for seat, name in enumerate(state.seats):
        if state.thrills[seat] < 0 or state.sound[seat] < 0:
            broken.append(f"{name} has negative thrilled crowd actions or sound")
        if not 0 <= state.shows_now[seat] <= quota[min(state.round, len(quota)) - 1]:
            broken.append(f"{name} scored {state.shows_now[seat]} shows this round")
    if any(post.likes < 0 for post in state.wall):
        broken.append("a post holds a negative number of likes")
    if state.firebot_show is not None and state.firebot_show not in SHOWS:
        broken.append(f"the Firebot's chosen token is on {state.firebot_show!r}, not a show")
    for action in [] if broken else rules.legal_actions(state):  # (a broken state may have none to list)
        try:
            back = rules.parse(action.notation())
        except ValueError:
            back = None
        if back != action:
            broken.append(f"the legal action {action.notation()!r} does not parse back to itself")
    return broken
