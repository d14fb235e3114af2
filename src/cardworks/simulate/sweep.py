"""``simulate --sweep CARD.FIELD=LO..HI[:STEP]``: one pack card's number stepped over a range, the same seeded
games at each value, and its strength and verdict against the value, to find where the card is in line."""

from __future__ import annotations

import re
from typing import Any

from ..errors import UsageError

PATTERN = re.compile(r"^(?P<card>[a-z0-9][a-z0-9-]*)\.(?P<field>[a-z-]+)=(?P<lo>-?\d+)\.\.(?P<hi>-?\d+)(?::(?P<step>\d+))?$")
MOST_VALUES = 50
"""A sweep plays every game once per value (and per paired card): more values than this is a mistake."""
LIMITS = {"quantity": (1, 99)}
"""The values a field may take in a sweep, where it has its own: a card's quantity is 1 to 99, as in a set file."""
LIMIT = (-999, 999)
"""The values any other field (attack, defence, sell) may take in a sweep: far beyond any card's printed
number, and small enough for every figure the games and the report compute from it."""


def parse_sweep(text: str) -> tuple[str, str, list[int]]:
    """(card, field, values) of ``CARD.FIELD=LO..HI[:STEP]`` (both ends included); UsageError otherwise."""
    found = PATTERN.match(text)
    if not found:
        raise UsageError(f"--sweep {_shown(text)}: write CARD.FIELD=LO..HI or CARD.FIELD=LO..HI:STEP (attack=1..10:1)")
    low, high = LIMITS.get(found["field"], LIMIT)
    bounds = f"{found['field']} runs from {low} to {high}, by a step of 1 to {high - low}"
    if any(len(found[end].lstrip("-0")) > 4 for end in ("lo", "hi", "step") if found[end]):  # before int(): a
        raise UsageError(f"--sweep {_shown(text)}: {bounds}")  # number of 5,000 digits is Python's error, not ours
    lo, hi, step = int(found["lo"]), int(found["hi"]), int(found["step"] or 1)
    if not (low <= lo <= high and low <= hi <= high and step <= high - low):
        raise UsageError(f"--sweep {_shown(text)}: {bounds}")
    if step < 1 or hi < lo:
        raise UsageError(f"--sweep {_shown(text)}: the range must run upwards (LO <= HI) by a step of at least 1")
    values = list(range(lo, hi + 1, step))
    if len(values) > MOST_VALUES:
        raise UsageError(f"--sweep {_shown(text)}: {len(values)} values; sweep at most {MOST_VALUES}")
    return found["card"], found["field"], values


def _shown(text: str) -> str:
    """The option's value as given, cut short when it is too long to read in one line."""
    return repr(text) if len(text) <= 80 else repr(text[:60] + "…" + text[-10:])


def sweep_figures(card: str, field: str, runs: list[tuple[int, dict[str, Any]]]) -> dict[str, Any]:
    """Per value: the card's strength, its type's band, its answer and verdict, the games its effect ended and the
    games without a winner; the values at which it is in line, and those at which the games decided nothing (too
    many stalls or games without a winner: never in line)."""
    rows = []
    for value, fig in runs:
        row = next(c for c in fig["cards"] if c["card"] == card)
        verdict = fig["verdicts"]["cards"][card]
        rows.append({"value": value, "strength": row.get("strength"), "band": fig["verdicts"]["bands"].get(row["type"]),
                     "answer": verdict["answer"], "verdict": verdict["verdict"],
                     "games_to_decide": verdict["games_to_decide"], "why": verdict["why"],
                     "decided_by_effect": row["decided_by_effect"], "played_per_game": row["played_per_game"],
                     "no_winner": fig["no_winner"], "stalls": fig["stalls"],
                     "stalled": fig["verdicts"]["games"] is not None})
    first = runs[0][1]["table"]
    return {"card": card, "field": field, "table": {k: v for k, v in first.items()},
            "values": rows, "in_line": [r["value"] for r in rows if r["verdict"] == ["in line"] and not r["stalled"]],
            "stalled": [r["value"] for r in rows if r["stalled"]]}
