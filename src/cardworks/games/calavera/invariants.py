"""Invariants of a Calavera position beyond the sheet's own (``CalaveraRules.invariants`` adds these).

Kept apart from the rules they check, so a planted bug in the rules (``bench/mutants.py``) is caught by
code it did not touch: who may act, how many rolls a phase allows, jokers counted only when a die shows one, skulls owed only while a passive
player decides, the outcome agreeing with the state, and the printed sheet the scores are read from.
"""

from __future__ import annotations

from typing import Any

from .actions import JOKER


def more_invariants(rules: Any, state: Any) -> list[str]:
    """What is broken in ``state`` (empty when it is sound)."""
    broken = []
    players = state.players
    if not (0 <= state.first < players and 0 <= state.current < players):
        broken.append("the first or the active player is not a player of the game")
    if state.passive is not None and not 0 <= state.passive < players:
        broken.append("the deciding passive player is not a player of the game")
    if state.round < 1:
        broken.append(f"round {state.round}: rounds count from 1")
    if state.phase in ("first", "roll", "over") and (state.rolls or state.dice or state.pending):
        broken.append(f"{state.rolls} rolls and dice on the table before the turn's first roll")
    if state.phase in ("dice", "choose", "passive") and not 1 <= state.rolls <= rules.rolls:
        broken.append(f"{state.rolls} rolls after a roll was made")
    if state.dice and len(state.dice) != rules.dice:
        broken.append(f"{len(state.dice)} dice on the table, the game has {rules.dice}")
    if state.credits < 0 or (state.phase != "passive" and state.credits):
        broken.append(f"{state.credits} skulls owed outside a passive player's decision")
    if state.phase == "first" and (state.round != 1 or any(map(any, state.sheets))):
        broken.append("the first player is drawn before the first round, on empty sheets")
    if (state.jokers_used or state.passive_jokers) and JOKER not in state.dice:
        broken.append("jokers were counted, but no die shows a joker")
    broken += _sheet(rules)
    outcome = rules.outcome(state)
    if (outcome is None) != (state.phase != "over"):
        broken.append("the game has an outcome exactly when it is over")
    if outcome is not None and (tuple(outcome.winners) != tuple(state.winners) or outcome.termination != state.reason):
        broken.append("the outcome differs from the winners and reason the state records")
    return broken


def _sheet(rules: Any) -> list[str]:
    """The printed sheet the scores are read from: a zone for every box, and each row ending in its danger
    zone ("une zone de danger ... au bout de chaque ligne", calavera-rules line 5). Checked once per rules."""
    key = ("sheet-broken",)
    if key not in rules._cache:
        broken = []
        for colour, zones, values in zip(rules.colours, rules.zones, rules.values):
            if len(zones) != len(values):
                broken.append(f"the {colour} row has {len(values)} boxes and {len(zones)} zones")
            elif "danger" not in zones or any(z != "danger" for z in zones[zones.index("danger"):]):
                broken.append(f"the {colour} row does not end in its danger zone")
        rules._cache[key] = broken
    return list(rules._cache[key])
