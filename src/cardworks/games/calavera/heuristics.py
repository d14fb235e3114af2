"""Calavera for agents: a greedy player, determinizations and a position's value.

Everything in Calavera is public but dice still rolling, and a player decides only
after they land: a determinization is the observed position itself. The greedy
player marks the choice that adds most to its score (a row scores the number under
its last ticked box), rerolls the dice that do not help when the best mark adds
little and rolls are left, and passes a skull's gift only when no mark adds anything.
"""

from __future__ import annotations

import math
import random
from typing import Any, Sequence

from ...engine.core import player_index

GOOD_ENOUGH = 0.6
"""Mark without rerolling when the best mark reaches this share of the largest single-row gain seen."""


def _gain(rules: Any, sheet: Sequence[int], colour: str, count: int) -> float:
    row = rules.colours.index(colour)
    values = rules.values[row]
    before = values[sheet[row] - 1] if sheet[row] else 0
    after = values[min(len(values), sheet[row] + count) - 1]
    return after - before + 0.01 * count


def greedy(table: Any, me: int, seen: dict[str, Any], legal: Sequence[Any], rng: random.Random) -> Any:
    rules = table.rules
    marks = [a for a in legal if type(a).__name__ == "Mark"]
    if not marks:
        rerolls = [a for a in legal if type(a).__name__ == "Reroll"]
        return max(rerolls, key=lambda a: len(a.dice)) if rerolls else legal[0]
    sheet = seen["sheets"][me]
    best = max(marks, key=lambda a: (_gain(rules, sheet, a.colour, a.count), a.notation()))
    gain = _gain(rules, sheet, best.colour, best.count)
    rerolls = {a.dice: a for a in legal if type(a).__name__ == "Reroll"}
    if seen["phase"] == "passive":
        return best if gain > 0 else next(a for a in legal if type(a).__name__ == "Pass")
    biggest = max((max(v) for v in rules.values), default=1)
    if rerolls and gain < GOOD_ENOUGH * biggest / 3:
        keep = {best.colour, "joker", "calavera"}
        dice = tuple(d for d, face in enumerate(seen["dice"]) if face not in keep and not seen["aside"][d])
        if dice in rerolls:
            return rerolls[dice]
    return best


def determinize(table: Any, seen: dict[str, Any], rng: random.Random) -> Any:
    """The observed position (nothing is hidden from a deciding player), its players turned back into seats."""
    data = {k: v for k, v in seen.items() if k != "you"}
    data.update(first=player_index(seen["first"]), current=player_index(seen["current"]),
                passive=None if seen["passive"] is None else player_index(seen["passive"]),
                winners=list(map(player_index, seen["winners"])))
    return table.rules.load(data)


def evaluate(table: Any, state: Any) -> list[float]:
    """Chances from the scores so far (a softmax), or the result once the game is over."""
    rules = table.rules
    if state.phase == "over":
        return [1.0 / len(state.winners) if p in state.winners else 0.0 for p in range(state.players)]
    scores = [rules.score(state, p) for p in range(state.players)]
    spread = max(1.0, max(max(v) for v in rules.values) / 2)
    top = max(scores)
    weights = [math.exp((s - top) / spread) for s in scores]
    total = sum(weights)
    return [w / total for w in weights]
