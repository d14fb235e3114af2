"""A verdict per pack card, one of three answers each earned by the games, against the base deck's cards of its type.

Thresholds (documented in docs/simulate.md, where the reasoning is):

- *strength* is a card's paired effect: its holders' win rate in the real games minus in the same games
  replayed with the card played as a plain card of its type. The base cards of a type span a band
  ``[min(0, lowest), max(0, highest)]`` of point estimates (a plain card's effect is 0 by construction), and
  its *edges* carry the base cards' own uncertainty: the top edge is the highest upper end of a base card's
  ``1 - alpha`` interval (0 if none is above 0), the bottom edge the lowest lower end.
- *strong*: the effect is significant after Benjamini-Hochberg across every measured card (adjusted p
  below ``alpha``) and its whole ``1 - alpha`` interval lies above the top edge: the card's lower end above
  every base card's upper end, so it is shown stronger than whichever base card is truly the strongest (a
  non-overlap of intervals: the runs keep each card's pairs apart, so no paired card-minus-base-card
  difference can be formed); *weak*: likewise below the bottom edge.
- *decides games*: the lower end of the interval of the share of games its own effect ended lies more
  than ``DECIDES_MARGIN`` above the largest such share among the base cards of its type.
- *in line*: an equivalence shown by interval inclusion: the whole ``1 - alpha`` interval of the effect lies
  inside the band of point estimates widened by ``EQUIVALENCE_MARGIN`` on each side (two one-sided tests at
  ``alpha / 2`` each). Not widened by the edge cards' intervals: those are widest when the games are fewest,
  so in line would get easier with fewer games (docs/simulate.md says why).
- *not decided*: none of these; with the games the run would need at the spread it saw. Also every card of a
  run whose games too often ended without a winner (``MOST_UNDECIDED_GAMES``), and every card judged against
  a *thin* band (fewer than ``THIN_BAND`` base cards of its type) whose effect is not beyond ``PLAUSIBLE``.
- *not judged*: the agents used the card (played, placed or triggered it) fewer than ``MIN_USES`` times a
  game: its paired effect says nothing about the card, so no gate passes it.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from ..loading.paths import read_text_inside

ALPHA = 0.05
"""The false discovery rate allowed across all the cards measured, and the error rate of each equivalence."""
DECIDES_MARGIN = 0.05
"""How far (a share of all games) a card's own endings must lie above its type's base cards' to decide games."""
EQUIVALENCE_MARGIN = 0.02
"""How far (win rate) beyond its type's band a card's effect may lie and still be in line."""
THIN_BAND = 3
"""A band measured on fewer base cards of a type than this is thin: it cannot show a card in line."""
PLAUSIBLE = 0.10
"""Against a thin band, strong or weak only beyond this effect (either way) as well as beyond the band."""
MIN_USES = 0.05
"""Uses a game (played + placed + triggered) below which a card is not judged: the agents do not play it."""
MOST_UNDECIDED_GAMES = 0.05
"""Share of games without a winner (stalls included) above which no verdict of the run is decided."""
FLAGS = ("strong", "weak", "decides", "undecided")
"""What ``--fail-on`` may name (``decides`` is the verdict "decides games"; ``undecided`` is "not decided" and
"not judged")."""
OUT_OF_LINE = ("strong", "weak", "decides")
ANSWERS = ("in line", "out of line", "not decided")
"""The three answers; "not judged" is a way of not deciding."""


def verdicts(cards: list[dict[str, Any]], paired: bool, alpha: float = ALPHA,
             games: dict[str, Any] | None = None) -> dict[str, Any]:
    """The thresholds, each type's band among the base cards, and every pack card's answer and verdict with why.

    ``games`` holds the run's ``no_winner`` and ``stalls`` rates: a run whose games too often decided nothing
    decides no verdict."""
    bands: dict[str, dict[str, Any]] = {}
    counted: dict[str, int] = {}
    decides: dict[str, float] = {}
    for card in cards:
        kind = card.get("type")
        if card["pack"] or kind is None:
            continue
        band = bands.setdefault(kind, _plain_band())
        counted.setdefault(kind, 0)
        if _widen(band, card):
            counted[kind] += 1
        decides[kind] = max(decides.get(kind, 0.0), card["decided_by_effect"]["rate"])
    stalled = _stalled(games)
    result = {}
    for card in cards:
        if card["pack"]:
            result[card["card"]] = _judge(card, bands.get(card.get("type"), _plain_band()), counted.get(card.get("type"), 0),
                                          decides.get(card.get("type"), 0.0), paired, alpha, stalled,
                                          games["no_winner"]["n"] if games else None)
    return {"thresholds": {"alpha": alpha, "correction": "benjamini-hochberg", "decides_margin": DECIDES_MARGIN,
                           "equivalence_margin": EQUIVALENCE_MARGIN, "thin_band": THIN_BAND, "plausible": PLAUSIBLE,
                           "min_uses_per_game": MIN_USES, "most_undecided_games": MOST_UNDECIDED_GAMES},
            "games": stalled or None,
            "bands": {kind: {"low": round(b["low"], 6), "high": round(b["high"], 6),
                             "strong_above": round(_edge(b, "top"), 6), "strongest": b["top"][2],
                             "weak_below": round(_edge(b, "bottom"), 6), "weakest": b["bottom"][2],
                             "base_cards": counted[kind], "thin": counted[kind] < THIN_BAND,
                             "decides_at_most": round(decides[kind], 6)}
                      for kind, b in sorted(bands.items())},
            "cards": result}


def _plain_band() -> dict[str, Any]:
    """A type's band before any base card: a plain card's effect, exactly 0 with no uncertainty. Each edge is
    (point estimate, half-width towards the outside, the base card it comes from)."""
    return {"low": 0.0, "high": 0.0, "top": (0.0, 0.0, "plain"), "bottom": (0.0, 0.0, "plain")}


def _edge(band: dict[str, Any], which: str) -> float:
    """The top edge (the highest upper end of a base card's interval) or the bottom one (the lowest lower end)."""
    point, half, _ = band[which]
    return point + half if which == "top" else point - half


def _widen(band: dict[str, Any], card: dict[str, Any]) -> bool:
    """Widen ``band`` by one base card's effect and its interval; False when the card was not measured."""
    strength = card.get("strength") or {}
    if strength.get("plain"):
        return True  # its effect is 0 with no uncertainty: inside every band already
    d = strength.get("difference")
    if d is None:
        return False
    band["low"], band["high"] = min(band["low"], d), max(band["high"], d)
    if strength["high"] > _edge(band, "top"):
        band["top"] = (d, strength["high"] - d, card["card"])
    if strength["low"] < _edge(band, "bottom"):
        band["bottom"] = (d, d - strength["low"], card["card"])
    return True


def _stalled(games: dict[str, Any] | None) -> dict[str, Any]:
    """The run's games without a winner when more than ``MOST_UNDECIDED_GAMES`` of them (else empty)."""
    if not games or games["no_winner"]["rate"] <= MOST_UNDECIDED_GAMES:
        return {}
    return {"no_winner": games["no_winner"]["rate"], "stalls": games["stalls"]["rate"], "games": games["no_winner"]["n"]}


def _judge(card: dict[str, Any], band: dict[str, Any], counted: int, most: float, paired: bool, alpha: float,
           stalled: dict[str, Any], played: int | None = None) -> dict[str, Any]:
    kind = card.get("type")
    low, high = band["low"], band["high"]
    below, above = _edge(band, "bottom"), _edge(band, "top")
    thin = counted < THIN_BAND
    flags, why, inside = [], [], False
    need: int | None = None
    strength = card.get("strength") or {}
    measured = strength.get("difference") is not None
    if measured:
        d, lo, hi = strength["difference"], strength["low"], strength["high"]
        outer = (min(below, -PLAUSIBLE), max(above, PLAUSIBLE)) if thin else (below, above)
        why.append(f"effect {_pts(d)} [{_pts(lo)}, {_pts(hi)}], adjusted p {strength['p_adjusted']:.3g}, base {kind} "
                   f"cards {_pts(low)} to {_pts(high)}, with their intervals {_pts(below)} ({band['bottom'][2]}) to "
                   f"{_pts(above)} ({band['top'][2]})"
                   + (f" (a thin band: {counted} base card{'s' * (counted != 1)}, fewer than {THIN_BAND})" if thin else ""))
        if strength["p_adjusted"] < alpha and lo > outer[1]:
            flags.append("strong")
        elif strength["p_adjusted"] < alpha and hi < outer[0]:
            flags.append("weak")
        inside = not thin and low - EQUIVALENCE_MARGIN <= lo and hi <= high + EQUIVALENCE_MARGIN
        need = games_to_decide(d, lo, hi, band, thin, played)
    elif strength.get("plain"):
        why.append(f"a plain {kind} card: no effect of its own")
        inside = True  # exactly the plain card: an effect of 0 by construction, inside every band
    elif not paired:
        why.append("strength not measured (no paired games)")
    else:
        why.append("strength not measured (no player held it)")
    own = card["decided_by_effect"]
    if own["low"] > most + DECIDES_MARGIN:
        flags.append("decides")
    if own["rate"]:
        why.append(f"its effect ended {100 * own['rate']:.1f}% of games [{100 * own['low']:.1f}, "
                   f"{100 * own['high']:.1f}], base {kind} cards at most {100 * most:.1f}%")
    if flags:
        verdict, answer, need = flags, "out of line", None
    elif inside:
        verdict, answer, need = ["in line"], "in line", None
        if measured:
            why.append(f"inside the band widened by {_pts(EQUIVALENCE_MARGIN)[1:]}: "
                       f"{_pts(low - EQUIVALENCE_MARGIN)} to {_pts(high + EQUIVALENCE_MARGIN)}")
    else:
        verdict, answer = ["not decided"], "not decided"
        if measured and need is not None:
            why.append(f"to decide: about {need:,} games at the spread seen")
        elif measured and thin:
            why.append(f"no number of games decides it against a thin band unless its effect lies beyond "
                       f"{_pts(PLAUSIBLE)[1:]} either way: measure at least {THIN_BAND} base {kind} cards")
    uses = _uses(card)
    if uses is not None and uses < MIN_USES:
        verdict, answer, need = ["not judged"], "not decided", None
        why.insert(0, f"not judged: the agents do not play it (played {card['played_per_game']:.2f}, placed "
                      f"{card.get('placed_per_game', 0):.2f}, triggers {card.get('triggers_per_game', 0):.2f} a game, "
                      f"held in {card.get('held', 0)} player-games; at least {MIN_USES:.2f} uses a game are needed)")
    if stalled:
        verdict, answer, need = ["not decided"], "not decided", None
        why.insert(0, f"{100 * stalled['no_winner']:.1f}% of games ended without a winner ({100 * stalled['stalls']:.1f}% "
                      f"stalled), more than {100 * MOST_UNDECIDED_GAMES:.0f}%: the games decided nothing to judge it by")
    return {"type": kind, "answer": answer, "verdict": verdict, "games_to_decide": need, "why": "; ".join(why)}


def games_to_decide(d: float, lo: float, hi: float, band: dict[str, Any], thin: bool, games: int | None) -> int | None:
    """About how many games the run would need to decide the card, every interval shrinking as one over the root
    of the games at the spread seen: the card's and those of the base cards at the band's edges (the edges move
    towards their cards' point estimates). None when no number would.

    Each rule is a slack ``a - s * b`` that must be positive, ``s`` the factor the half-widths shrink by: strong
    needs the card's lower end above the top edge, weak its upper end below the bottom edge, in line both ends
    inside the band of point estimates widened by the margin. The games are ``games / s ** 2`` for the largest
    ``s`` that decides."""
    if not games or hi - lo <= 0:
        return None
    (top, top_half, _), (bottom, bottom_half, _) = band["top"], band["bottom"]
    if thin and top + top_half < PLAUSIBLE:
        top, top_half = PLAUSIBLE, 0.0
    if thin and bottom - bottom_half > -PLAUSIBLE:
        bottom, bottom_half = -PLAUSIBLE, 0.0
    below, above = d - lo, hi - d  # the card's half-widths on each side
    strong = _shrink(d - top, below + top_half)
    weak = _shrink(bottom - d, above + bottom_half)
    upper = _shrink(band["high"] + EQUIVALENCE_MARGIN - d, above)
    lower = _shrink(d - band["low"] + EQUIVALENCE_MARGIN, below)
    in_line = None if thin or upper is None or lower is None else min(upper, lower)
    found = [s for s in (strong, weak, in_line) if s is not None]
    if not found:
        return None
    s = max(found)
    return games + 1 if math.isinf(s) or s >= 1 else max(games + 1, math.ceil(games / s ** 2))


def _shrink(slack: float, half: float) -> float | None:
    """The largest factor ``s`` of the half-widths at which ``slack - s * half`` is positive (infinite: at any),
    None when shrinking the intervals never makes it so."""
    if slack <= 0:
        return None
    return slack / half if half > 0 else math.inf


def _uses(card: dict[str, Any]) -> float | None:
    if "played_per_game" not in card:
        return None
    return card["played_per_game"] + card.get("placed_per_game", 0.0) + card.get("triggers_per_game", 0.0)


def label(flags: list[str]) -> str:
    """``strong, decides games``: a verdict as the text and HTML reports write it."""
    return ", ".join("decides games" if f == "decides" else f for f in flags)


def answer_label(verdict: dict[str, Any]) -> str:
    """A verdict with its answer, as the text and HTML reports write it: ``in line``, ``strong [out of line]``,
    ``not decided [about 2,400 games would decide it]``, ``not judged [not decided]``."""
    flags = verdict["verdict"]
    if flags == ["in line"]:
        return "in line"
    if flags == ["not decided"]:
        need = verdict.get("games_to_decide")
        return f"not decided [about {need:,} games would decide it]" if need else "not decided"
    if flags == ["not judged"]:
        return "not judged [not decided: the agents do not play it]"
    return f"{label(flags)} [out of line]"


def _pts(value: float) -> str:
    return f"{100 * value:+.1f} pts"


def flagged(report: dict[str, Any], packs: tuple[Path, ...], fail_on: tuple[str, ...]) -> list[str]:
    """``file:/cards/N: [verdict] card: why`` for every pack card whose verdict ``fail_on`` names (``undecided``:
    "not decided"), and for every card not judged whatever ``fail_on`` names, pointing at the card in its pack's
    set file (what ``--fail-on`` prints before exiting 1)."""
    where = {}
    for pack in packs:
        for path in sorted((Path(pack) / "sets").glob("*.json")):
            for index, card in enumerate(json.loads(read_text_inside(Path(pack), path)).get("cards", [])):
                where.setdefault(card.get("id"), f"{path}:/cards/{index}")
    lines = []
    for card, verdict in sorted(report.get("verdicts", {}).get("cards", {}).items()):
        if verdict["verdict"] == ["not judged"]:  # no gate passes a card it never saw played
            lines.append(f"{where.get(card, card)}: [not-judged] {card}: {verdict['why']}")
            continue
        for flag in verdict["verdict"]:
            name = "undecided" if flag == "not decided" else flag
            if name in fail_on:
                lines.append(f"{where.get(card, card)}: [{name}] {card}: {label([flag])} ({verdict['why']})")
    return lines
