"""A verdict per pack card (in line, strong, weak, decides games) against the base deck's own cards of its type.

Thresholds (documented in docs/simulate.md, where the reasoning is):

- *strength* is a card's paired effect: its holders' win rate in the real games minus in the same games
  replayed with the card played as a plain card of its type. The base cards of a type span a band
  ``[min(0, lowest), max(0, highest)]`` of point estimates (a plain card's effect is 0 by construction).
- *strong*: the effect is significant after Benjamini-Hochberg across every measured card (adjusted p
  below ``ALPHA``) and its whole 95% interval lies above the band; *weak*: likewise below it.
- *decides games*: the lower end of the interval of the share of games its own effect ended lies more
  than ``DECIDES_MARGIN`` above the largest such share among the base cards of its type.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..loading.paths import read_text_inside

ALPHA = 0.05
"""The false discovery rate allowed across all the cards measured."""
DECIDES_MARGIN = 0.05
"""How far (a share of all games) a card's own endings must lie above its type's base cards' to decide games."""
FLAGS = ("strong", "weak", "decides")
"""What ``--fail-on`` may name (``decides`` is the verdict "decides games")."""


def verdicts(cards: list[dict[str, Any]], paired: bool) -> dict[str, Any]:
    """The thresholds, each type's band among the base cards, and every pack card's verdict with why."""
    bands: dict[str, list[float]] = {}
    decides: dict[str, float] = {}
    for card in cards:
        kind = card.get("type")
        if card["pack"] or kind is None:
            continue
        value = _effect(card)
        band = bands.setdefault(kind, [0.0, 0.0])
        if value is not None:
            band[0], band[1] = min(band[0], value), max(band[1], value)
        decides[kind] = max(decides.get(kind, 0.0), card["decided_by_effect"]["rate"])
    result = {}
    for card in cards:
        if not card["pack"]:
            continue
        kind = card.get("type")
        low, high = bands.get(kind, [0.0, 0.0])
        flags, why = [], []
        strength = card.get("strength") or {}
        if strength.get("difference") is not None:
            why.append(f"effect {_pts(strength['difference'])} [{_pts(strength['low'])}, {_pts(strength['high'])}], "
                       f"adjusted p {strength['p_adjusted']:.3g}, base {kind} cards {_pts(low)} to {_pts(high)}")
            if strength["p_adjusted"] < ALPHA and strength["low"] > high:
                flags.append("strong")
            elif strength["p_adjusted"] < ALPHA and strength["high"] < low:
                flags.append("weak")
        elif strength.get("plain"):
            why.append(f"a plain {kind} card: no effect of its own")
        elif not paired:
            why.append("strength not measured (no paired games)")
        own, most = card["decided_by_effect"], decides.get(kind, 0.0)
        if own["low"] > most + DECIDES_MARGIN:
            flags.append("decides")
        if own["rate"]:
            why.append(f"its effect ended {100 * own['rate']:.1f}% of games [{100 * own['low']:.1f}, "
                       f"{100 * own['high']:.1f}], base {kind} cards at most {100 * most:.1f}%")
        result[card["card"]] = {"type": kind, "verdict": flags or ["in line"], "why": "; ".join(why)}
    return {"thresholds": {"alpha": ALPHA, "correction": "benjamini-hochberg", "decides_margin": DECIDES_MARGIN},
            "bands": {kind: {"low": round(b[0], 6), "high": round(b[1], 6), "decides_at_most": round(decides[kind], 6)}
                      for kind, b in sorted(bands.items())},
            "cards": result}


def label(flags: list[str]) -> str:
    """``strong, decides games``: a verdict as the text and HTML reports write it."""
    return ", ".join("decides games" if f == "decides" else f for f in flags)


def _effect(card: dict[str, Any]) -> float | None:
    strength = card.get("strength") or {}
    return 0.0 if strength.get("plain") else strength.get("difference")


def _pts(value: float) -> str:
    return f"{100 * value:+.1f} pts"


def flagged(report: dict[str, Any], packs: tuple[Path, ...], fail_on: tuple[str, ...]) -> list[str]:
    """``file:/cards/N: [verdict] card: why`` for every pack card whose verdict ``fail_on`` names, pointing at
    the card in its pack's set file (what ``--fail-on`` prints before exiting 1)."""
    where = {}
    for pack in packs:
        for path in sorted((Path(pack) / "sets").glob("*.json")):
            for index, card in enumerate(json.loads(read_text_inside(Path(pack), path)).get("cards", [])):
                where.setdefault(card.get("id"), f"{path}:/cards/{index}")
    lines = []
    for card, verdict in sorted(report.get("verdicts", {}).get("cards", {}).items()):
        for flag in verdict["verdict"]:
            if flag in fail_on:
                lines.append(f"{where.get(card, card)}: [{flag}] {card}: {label([flag])} ({verdict['why']})")
    return lines
