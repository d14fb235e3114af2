"""``simulate --games auto``: play in looks until every pack card is decided, or a budget runs out.

A group-sequential design with a fixed schedule of looks and alpha spent by halves (documented in
docs/simulate.md, with the reasoning). The looks are fixed before any game is played: the last at
``--max-games``, each earlier one at half the next, down to ``MIN_LOOK`` games and at most ``MOST_LOOKS``
of them (3,200 games: 50, 100, 200, 400, 800, 1,600, 3,200). Look *k* of *K* judges with error rate
``ALPHA / 2 ** (K - k + 1)`` (the last look ``ALPHA / 2``, the one before ``ALPHA / 4``, ...): whatever
look a run stops at, the chance that any claim it made at any look is wrong is at most the sum,
``ALPHA * (1 - 2 ** -K)``, below ``ALPHA`` (a union bound over the looks, so no assumption about how the
looks' statistics are correlated is needed).

Each look plays only the games after the previous one (numbered on, same seeds) and adds their tally to the
earlier one: a tally is a sum of integers, so the figures at a look are those of one run of that many
games, on one process, several or a Dask cluster. The run stops at the first look where every pack card is
decided (in line, out of line, or not judged: a card the agents do not play will not be played with more
games), where the games decided nothing (too many without a winner), or at the last look. ``--max-minutes``
is checked after each look: a run stopped by it names the look, and its figures are those of that look (the
same on any machine; only where it stops depends on the machine's speed).
"""

from __future__ import annotations

import time
from typing import Any, Callable

from .stats import Tally
from .verdicts import ALPHA

MIN_LOOK = 50
"""The first look plays at least this many games (fewer decide nothing and cost the later looks alpha)."""
MOST_LOOKS = 7
"""At most this many looks: each halves the alpha of the one after it."""
MAX_GAMES = 3200
"""The default ``--max-games``: 50, 100, 200, 400, 800, 1,600 and 3,200 games."""


def schedule(max_games: int) -> list[int]:
    """The games played by each look, the last at ``max_games``, each earlier one at half the next."""
    looks = [max_games]
    while len(looks) < MOST_LOOKS and looks[0] // 2 >= MIN_LOOK:
        looks.insert(0, looks[0] // 2)
    return looks


def spending(looks: int, alpha: float = ALPHA) -> list[float]:
    """The error rate of each of ``looks`` looks: halves, the last ``alpha / 2``; they sum to less than ``alpha``."""
    return [alpha / 2 ** (looks - k + 1) for k in range(1, looks + 1)]


def open_cards(fig: dict[str, Any]) -> list[str]:
    """The pack cards a look left not decided (none when its games decided nothing: more games will not help)."""
    found = fig.get("verdicts")
    if not found or found.get("games"):
        return []
    return sorted(card for card, v in found["cards"].items() if v["verdict"] == ["not decided"])


def play_until_decided(play: Callable[[int, int], Tally], judge: Callable[[Tally, float], dict[str, Any]],
                       max_games: int, minutes: float | None = None,
                       clock: Callable[[], float] = time.monotonic) -> dict[str, Any]:
    """The figures of the look the run stopped at, with ``sequential`` saying which look, why, and what each
    look left open. ``play(games, offset)`` plays that many games from the run's ``offset``-th (any executor);
    ``judge(tally, alpha)`` gives the figures with intervals at ``1 - alpha``."""
    looks = schedule(max_games)
    alphas = spending(len(looks))
    started, tally, done, history = clock(), None, 0, []
    stopped = "games budget"
    for k, (games, alpha) in enumerate(zip(looks, alphas), start=1):
        part = play(games - done, done)
        tally = part if tally is None else tally.merge(part)
        done = games
        fig = judge(tally, alpha)
        still = open_cards(fig)
        history.append({"look": k, "games": games, "alpha": alpha, "not_decided": still})
        if not still:
            stopped = "decided" if not (fig.get("verdicts") or {}).get("games") else "games decided nothing"
            break
        if minutes is not None and k < len(looks) and clock() - started >= 60 * minutes:
            stopped = "time budget"
            break
    fig["sequential"] = {"rule": "group-sequential: fixed looks, alpha spent by halves", "alpha": ALPHA,
                         "max_games": max_games, "max_minutes": minutes, "schedule": looks, "looks": history,
                         "stopped": stopped}
    return fig
