"""Measure the engine: complete random games per second per configuration (one core, no checks).

Run: python bench/engine.py [--games 200]
Goal: at least 300 four-player base games per second.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from pathlib import Path

from cardworks.engine.fallera_game import configurations, new_game
from cardworks.engine.playouts import play_one
from cardworks.loading import load_database

REPO = Path(__file__).resolve().parents[1]
GOAL = 300
"""Four-player base games a second (issue 4)."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--only", action="append", metavar="LABEL", help="measure only this configuration (base/4p…)")
    args = parser.parse_args()
    db = load_database(REPO / "cards" / "fallera")
    configs, later = configurations(db)
    rates = {}
    print(f"{'configuration':<14} {'games/s':>8} {'steps/game':>11} {'steps/s':>9} {'step-limit':>11}")
    for config in configs:
        if args.only and config.label not in args.only:
            continue
        steps, unfinished = [], 0
        start = time.perf_counter()
        for seed in range(args.games):
            rules, state = new_game(db, config, random.Random(seed))
            final, log, _ = play_one(rules, state, seed, config.label, check=False)
            steps.append(len(log))
            unfinished += rules.result(final)[1] is None
        seconds = time.perf_counter() - start
        rates[config.label] = args.games / seconds
        print(f"{config.label:<14} {args.games / seconds:>8.0f} {statistics.mean(steps):>11.0f} {sum(steps) / seconds:>9.0f} {unfinished:>11}")
    if "base/4p" in rates:
        met = "met" if rates["base/4p"] >= GOAL else "not met"
        print(f"goal: {GOAL} four-player base games/s on one core: {rates['base/4p']:.0f}, {met}")
    if later:
        print(f"not measured (not modelled yet): {', '.join(later)}")


if __name__ == "__main__":
    main()
