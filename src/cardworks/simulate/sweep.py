"""``simulate --sweep CARD.FIELD=LO..HI[:STEP]``: one pack card's number stepped over a range, the same seeded
games at each value, and its strength and verdict against the value, to find where the card is in line.

Paired games measure the swept card at every value, and the base cards of its type (its band, the yardstick of
its verdict) once, at the first value: their twins were most of a sweep's work, and the band they give does not
depend on which value the swept card has in the real games beyond the noise of measuring it (see docs/simulate.md).
Benjamini-Hochberg then runs over every card the sweep measured: the base cards once, the swept card at each value.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from ..errors import UsageError
from .stats import benjamini_hochberg
from .tables import TableSpec
from .verdicts import verdicts

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


def sweep_specs(spec: TableSpec, card: str, field: str, values: list[int]) -> list[TableSpec]:
    """The table of each value: ``spec`` with the card's number changed and paired games for that card alone, the
    first value's also for the base cards of its type (the band, measured once per sweep)."""
    return [replace(spec, paired=True, adjust=(card, field, value), measure=(card,), band=not k)
            for k, value in enumerate(values)]


def shared_band(card: str, runs: list[tuple[int, dict[str, Any]]]) -> list[tuple[int, dict[str, Any]]]:
    """Each value's figures judged against the band of the base cards measured at the first value, with the swept
    card's ``p_adjusted`` by Benjamini-Hochberg over every card the sweep measured (the base cards once, the card
    at each value): the verdicts of a sweep whose band was measured once (``sweep_specs``)."""
    band = {row["card"]: row["strength"] for row in runs[0][1]["cards"]
            if not row["pack"] and "difference" in (row.get("strength") or {})}
    pvalues = {f"base {design}": s["p"] for design, s in band.items() if s["pairs"]}
    for value, fig in runs:
        strength = _row(fig, card).get("strength") or {}
        if strength.get("pairs"):
            pvalues[f"{card} at {value}"] = strength["p"]
    adjusted = benjamini_hochberg(pvalues)
    judged = []
    for value, fig in runs:
        cards = []
        for row in fig["cards"]:
            if row["card"] in band:
                row = {**row, "strength": {**band[row["card"]], "p_adjusted": adjusted.get(f"base {row['card']}", 1.0)}}
            elif row["card"] == card and "difference" in (row.get("strength") or {}):
                row = {**row, "strength": {**row["strength"], "p_adjusted": adjusted.get(f"{card} at {value}", 1.0)}}
            cards.append(row)
        found = verdicts(cards, paired=True, alpha=fig["verdicts"]["thresholds"]["alpha"],
                         games={"no_winner": fig["no_winner"], "stalls": fig["stalls"]})
        judged.append((value, {**fig, "cards": cards, "verdicts": found}))
    return judged


def _row(fig: dict[str, Any], card: str) -> dict[str, Any]:
    return next(c for c in fig["cards"] if c["card"] == card)
