"""Counting games so that any split of them sums to the same totals, and the intervals drawn from them.

A ``Tally`` holds integers only (wins are counted in ``WIN_UNIT`` parts so a shared
win splits exactly), and ``merge`` adds them: the totals, and every figure computed
from them, do not depend on which worker played which game or in which order
results came back. Intervals are 95%: Wilson's score interval for a rate,
Newcombe's hybrid score interval (his method 10) for a difference of two rates,
and the normal interval for a mean.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from statistics import NormalDist
from typing import Any

Z = 1.959963984540054
"""The standard normal quantile for a two-sided 95% interval."""
WIN_UNIT = 60
"""Parts of one win: a win shared by 2, 3, 4, 5 or 6 players splits into whole parts."""
ANY_PACK_CARD = "(any pack card)"
STALL = "step-limit"
"""How a game that reached the step cap ended."""
KEPT_STALLS = 20
"""The per-card key of players who drew at least one of the packs' cards."""


@dataclass
class GameRecord:
    """What one game contributes to the figures."""

    index: int
    """The game's number in its run (its seed's spawn key)."""
    seats: tuple[str, ...]
    """The agent of each seat."""
    winners: tuple[int, ...]
    reason: str
    steps: int
    turns: int
    rounds: int
    held: tuple[frozenset[str], ...] = ()
    """Per seat, the designs the player held at some point."""
    played: tuple[tuple[str, int], ...] = ()
    """(design, times) put to use by any player."""
    cause: tuple[str, str] | None = None
    """(the design that ended the game, how: ``effect`` or ``completed``), None for a rule alone."""
    events: tuple[tuple[tuple[str, str], int], ...] = ()
    """((what, design), times): cards placed, effects triggered, verbs that acted (the game's ``credits``)."""


@dataclass
class Tally:
    """Integer totals of many games (see the module docstring)."""

    players: int
    games: int = 0
    decided: int = 0
    seat_wins: list[int] = field(default_factory=list)
    agent_seats: Counter = field(default_factory=Counter)
    agent_wins: Counter = field(default_factory=Counter)
    endings: Counter = field(default_factory=Counter)
    steps: Counter = field(default_factory=Counter)
    turns: Counter = field(default_factory=Counter)
    rounds: Counter = field(default_factory=Counter)
    held: Counter = field(default_factory=Counter)
    """Design → player-games in which the player held it."""
    held_wins: Counter = field(default_factory=Counter)
    """Design → win parts of those player-games."""
    played: Counter = field(default_factory=Counter)
    stalled: list[int] = field(default_factory=list)
    """The smallest numbers (at most ``KEPT_STALLS``) of games that reached the step cap, to replay them."""
    decided_by: Counter = field(default_factory=Counter)
    """(design, how) → games that card ended (see ``GameRecord.cause``)."""
    events: Counter = field(default_factory=Counter)
    """(what, design) → times over all games."""
    pairs: Counter = field(default_factory=Counter)
    """(design, won the real game, won its twin with the card made plain) → holder-games (paired games)."""
    unchanged: Counter = field(default_factory=Counter)
    """Design → those holder-games whose twin is the real game itself: the card's definition never could
    change a step (``runner._diverging``)."""

    def __post_init__(self) -> None:
        if not self.seat_wins:
            self.seat_wins = [0] * self.players

    def add(self, record: GameRecord, pack_cards: frozenset[str] = frozenset()) -> None:
        self.games += 1
        self.endings[record.reason] += 1
        if record.reason == STALL:
            self.stalled = sorted({*self.stalled, record.index})[:KEPT_STALLS]
        self.steps[record.steps] += 1
        self.turns[record.turns] += 1
        self.rounds[record.rounds] += 1
        share = WIN_UNIT // len(record.winners) if record.winners else 0
        self.decided += bool(record.winners)
        for seat, agent in enumerate(record.seats):
            self.agent_seats[agent] += 1
            won = share if seat in record.winners else 0
            self.seat_wins[seat] += won
            self.agent_wins[agent] += won
            if record.held:
                held = record.held[seat]
                if pack_cards:
                    held = held | ({ANY_PACK_CARD} if held & pack_cards else frozenset())
                for design in held:
                    self.held[design] += 1
                    self.held_wins[design] += won
        for design, times in record.played:
            self.played[design] += times
        if record.cause is not None:
            self.decided_by[record.cause] += 1
        for key, times in record.events:
            self.events[key] += times

    def merge(self, other: "Tally") -> "Tally":
        """The sum of two tallies (a new one): commutative and associative."""
        total = Tally(self.players)
        total.games, total.decided = self.games + other.games, self.decided + other.decided
        total.seat_wins = [a + b for a, b in zip(self.seat_wins, other.seat_wins)]
        for name in ("agent_seats", "agent_wins", "endings", "steps", "turns", "rounds", "held", "held_wins", "played",
                     "decided_by", "events", "pairs", "unchanged"):
            setattr(total, name, getattr(self, name) + getattr(other, name))
        total.stalled = sorted({*self.stalled, *other.stalled})[:KEPT_STALLS]
        return total

    @property
    def win_parts(self) -> int:
        """Every win part handed out (a decided game hands out ``WIN_UNIT``)."""
        return self.decided * WIN_UNIT


def merged(tallies: list[Tally], players: int) -> Tally:
    total = Tally(players)
    for tally in tallies:
        total = total.merge(tally)
    return total


# --- intervals -------------------------------------------------------------------------------------

def z_for(alpha: float) -> float:
    """The two-sided normal quantile of a ``1 - alpha`` interval (``Z`` for 0.05)."""
    return Z if alpha == 0.05 else NormalDist().inv_cdf(1 - alpha / 2)


def wilson(successes: float, trials: int, z: float = Z) -> tuple[float, float]:
    """Wilson's score interval for a rate, 95% unless ``z`` says otherwise (``(0, 1)`` with no trials)."""
    if trials <= 0:
        return 0.0, 1.0
    p = successes / trials
    z2 = z * z
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / (1 + z2 / trials)
    return max(0.0, centre - half), min(1.0, centre + half)


def rate(successes: float, trials: int, z: float = Z) -> dict[str, Any]:
    """A rate with its Wilson interval (95% unless ``z`` says otherwise), as the report writes it."""
    low, high = wilson(successes, trials, z)
    return {"rate": _r(successes / trials if trials else 0.0), "low": _r(low), "high": _r(high), "n": trials}


def difference(a: float, n: int, b: float, m: int) -> dict[str, Any]:
    """Rate a/n minus rate b/m with Newcombe's 95% interval; ``significant`` when it excludes 0."""
    if not n or not m:
        return {"difference": None, "low": None, "high": None, "significant": False}
    p, q = a / n, b / m
    (l1, u1), (l2, u2) = wilson(a, n), wilson(b, m)
    d = p - q
    low = d - math.sqrt((p - l1) ** 2 + (u2 - q) ** 2)
    high = d + math.sqrt((u1 - p) ** 2 + (q - l2) ** 2)
    return {"difference": _r(d), "low": _r(low), "high": _r(high), "significant": low > 0 or high < 0}


def distribution(histogram: Counter) -> dict[str, Any]:
    """Mean with its 95% interval, spread and quantiles of a histogram of whole numbers."""
    n = sum(histogram.values())
    if not n:
        return {"n": 0}
    values = sorted(histogram)
    total = sum(v * c for v, c in histogram.items())
    squares = sum(v * v * c for v, c in histogram.items())
    mean = total / n
    variance = (squares - n * mean * mean) / (n - 1) if n > 1 else 0.0
    sd = math.sqrt(max(variance, 0.0))
    half = Z * sd / math.sqrt(n)

    def quantile(q: float) -> int:
        rank, seen = q * (n - 1), 0
        for value in values:
            seen += histogram[value]
            if seen > rank:
                return value
        return values[-1]

    return {"n": n, "mean": _r(mean), "low": _r(mean - half), "high": _r(mean + half), "sd": _r(sd),
            "min": values[0], "p10": quantile(0.1), "median": quantile(0.5), "p90": quantile(0.9), "max": values[-1]}


def mean_difference(a: dict[str, Any], b: dict[str, Any]) -> dict[str, Any]:
    """Mean of ``a`` minus mean of ``b`` (two ``distribution`` results) with Welch's normal 95% interval."""
    if not a.get("n") or not b.get("n"):
        return {"difference": None, "low": None, "high": None, "significant": False}
    d = a["mean"] - b["mean"]
    half = Z * math.sqrt(a["sd"] ** 2 / a["n"] + b["sd"] ** 2 / b["n"])
    return {"difference": _r(d), "low": _r(d - half), "high": _r(d + half), "significant": abs(d) > half}


def _r(value: float) -> float:
    """Rounded for the report: stable text, no false precision."""
    return round(value, 6)


# --- paired games ----------------------------------------------------------------------------------

def paired_difference(both: int, first: int, second: int, neither: int, z: float = Z) -> dict[str, Any]:
    """Rate of success in the first of each pair minus in the second, from the four counts of pairs (both
    succeeded, only the first, only the second, neither): Newcombe's hybrid score interval for paired
    proportions (his 1998 method 10, Wilson's intervals joined with the pairs' phi correlation), and the
    exact McNemar p-value (the discordant pairs against an even split)."""
    n = both + first + second + neither
    if not n:
        return {"difference": None, "low": None, "high": None, "p": 1.0, "pairs": 0}
    p1, p2 = (both + first) / n, (both + second) / n
    (l1, u1), (l2, u2) = wilson(both + first, n, z), wilson(both + second, n, z)
    rows = (both + first) * (second + neither) * (both + second) * (first + neither)
    phi = (both * neither - first * second) / math.sqrt(rows) if rows else 0.0
    d = p1 - p2
    below = math.sqrt(max(0.0, (p1 - l1) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2) + (u2 - p2) ** 2))
    above = math.sqrt(max(0.0, (u1 - p1) ** 2 - 2 * phi * (u1 - p1) * (p2 - l2) + (p2 - l2) ** 2))
    return {"difference": _r(d), "low": _r(max(-1.0, d - below)), "high": _r(min(1.0, d + above)),
            "p": _r(mcnemar(first, second)), "pairs": n}


def mcnemar(first: int, second: int) -> float:
    """The exact two-sided McNemar p-value: twice the smaller tail of Binomial(first + second, 1/2)."""
    n = first + second
    if not n:
        return 1.0
    tail = sum(math.comb(n, k) for k in range(min(first, second) + 1)) / 2 ** n
    return min(1.0, 2 * tail)


def benjamini_hochberg(pvalues: dict[str, float]) -> dict[str, float]:
    """Benjamini-Hochberg adjusted p-values (the false discovery rate across all the tests given)."""
    ranked = sorted(pvalues.items(), key=lambda kv: (kv[1], kv[0]))
    m, adjusted, smallest = len(ranked), {}, 1.0
    for rank in range(m, 0, -1):
        key, p = ranked[rank - 1]
        smallest = min(smallest, p * m / rank)
        adjusted[key] = _r(smallest)
    return adjusted
