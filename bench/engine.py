"""Measure the engine: complete random games per second and steps per second per configuration (one core,
no checks), against another tree of the project (main) in the same run.

Run: python bench/engine.py [--games 200] [--against /work/main] [--rounds 3] [--cpu]

Games get shorter as more cards are modelled, so steps/s is the figure that says whether a step got
slower; games/s says what a user waits for. With ``--against``, the same measurement runs in a separate
process on that tree's sources (``PYTHONPATH=<tree>/src``), alternating with this tree round by round
so both see the same load on a shared machine; the best round of each is compared. With ``--cpu`` the
rates are per second of the worker's processor time instead of wall-clock time: on a machine other
sessions keep busy, waiting for a core then no longer counts (contention for caches still does).
Goal: steps/s at least main's in the same run (ratio >= 1.00), and 300 four-player base games/s.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
GOAL = 300
"""Four-player base games a second (issue 4)."""
CONFIGS = ("base/4p", "base-2/4p", "base-3/4p", "expert/4p")


def measure(games: int, only: list[str], decks: dict[str, list[str]] | None = None) -> dict[str, dict[str, Any]]:
    """games/s, steps/s and steps/game of each configuration, in this process's ``cardworks``, with the designs
    each deck held. With ``decks`` (label → designs), the decks keep only those designs: the same games as
    the tree that played them, so steps/s compares the engines and not the card data."""
    try:
        from cardworks.games.fallera.game import configurations, new_game, rules_for
    except ImportError:  # an older checkout, compared with --against, kept its games under engine/
        from cardworks.engine.fallera_game import configurations, new_game, rules_for
    from cardworks.engine.playouts import play_one
    from cardworks.loading import load_database

    db = load_database(Path(os.environ.get("BENCH_CARDS", REPO / "cards")) / "fallera")
    configs, _ = configurations(db)
    found: dict[str, dict[str, Any]] = {}
    for config in configs:
        if config.label not in only:
            continue
        rules, _ = rules_for(db, config)
        if decks is not None:  # rules are built once per configuration and shared: narrow them in place
            for design in set(rules.defs) - set(decks[config.label]):
                del rules.defs[design]
            rules._deck = None
            if hasattr(rules, "__post_init__"):  # what the rules worked out from the designs
                rules.__post_init__()
        steps = 0
        clock = time.process_time if os.environ.get("BENCH_CLOCK") == "cpu" else time.perf_counter
        start = clock()
        for seed in range(games):
            rules, state = new_game(db, config, random.Random(seed))
            _, log, _ = play_one(rules, state, seed, config.label, check=False)
            steps += len(log)
        seconds = clock() - start
        found[config.label] = {"games/s": games / seconds, "steps/s": steps / seconds, "steps/game": steps / games,
                               "designs": sorted(rules.defs)}
    return found


def _run(tree: Path, games: int, only: list[str], decks: dict[str, list[str]] | None = None) -> dict[str, dict[str, Any]]:
    """``measure`` in a fresh process on ``tree``'s sources and data."""
    env = dict(os.environ, PYTHONPATH=str(tree / "src"), BENCH_CARDS=str(tree / "cards"),
               BENCH_DECKS=json.dumps(decks) if decks else "")
    out = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--worker", "--games", str(games),
                          *[f"--only={label}" for label in only]],
                         env=env, cwd=tree, capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def _best(rounds: list[dict[str, dict[str, float]]]) -> dict[str, dict[str, float]]:
    """Per configuration, the round with the most steps/s (the least disturbed by other work)."""
    return {label: max((r[label] for r in rounds), key=lambda m: m["steps/s"]) for label in rounds[0]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--only", action="append", metavar="LABEL", help=f"configurations (default {', '.join(CONFIGS)})")
    parser.add_argument("--against", type=Path, help="another tree to compare with, e.g. /work/main")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--cpu", action="store_true", help="rates per second of processor time, not of wall-clock time")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.cpu:
        os.environ["BENCH_CLOCK"] = "cpu"  # the workers, on every tree, read it
    only = args.only or list(CONFIGS)
    if args.worker:
        decks = os.environ.get("BENCH_DECKS")
        print(json.dumps(measure(args.games, only, json.loads(decks) if decks else None)))
        return
    ours, theirs, same = [], [], []
    for _ in range(args.rounds):  # alternate, so a burst of load on the machine hits both
        ours.append(_run(REPO, args.games, only))
        if args.against:
            theirs.append(_run(args.against, args.games, only))
            same.append(_run(REPO, args.games, only, {k: v["designs"] for k, v in theirs[-1].items()}))
    mine = _best(ours)
    other = _best(theirs) if theirs else {}
    print("shipped data of each tree (games differ as more cards are played):")
    print(f"{'configuration':<14} {'games/s':>8} {'steps/game':>11} {'steps/s':>9}"
          + (f" {'main steps/s':>13} {'ratio':>6} {'main games/s':>13}" if other else ""))
    for label, m in mine.items():
        line = f"{label:<14} {m['games/s']:>8.0f} {m['steps/game']:>11.0f} {m['steps/s']:>9.0f}"
        if label in other:
            o = other[label]
            line += f" {o['steps/s']:>13.0f} {m['steps/s'] / o['steps/s']:>6.2f} {o['games/s']:>13.0f}"
        print(line)
    if other:
        like = _best(same)
        print(f"\nthe same decks as {args.against} plays (its playable designs only): the same games, so the")
        print("ratio compares the engines step for step")
        print(f"{'configuration':<14} {'steps/game':>11} {'steps/s':>9} {'main steps/s':>13} {'ratio':>6}")
        for label, m in like.items():
            o = other[label]
            print(f"{label:<14} {m['steps/game']:>11.0f} {m['steps/s']:>9.0f} {o['steps/s']:>13.0f} "
                  f"{m['steps/s'] / o['steps/s']:>6.2f}")
        worst = min(m["steps/s"] / other[label]["steps/s"] for label, m in like.items())
        print(f"goal: steps/s on the same games at least {args.against}'s in the same run: lowest ratio {worst:.2f}, "
              f"{'met' if worst >= 1.0 else 'not met'}")
    if "base/4p" in mine:
        rate = mine["base/4p"]["games/s"]
        print(f"goal: {GOAL} four-player base games/s on one core: {rate:.0f}, {'met' if rate >= GOAL else 'not met'}")


if __name__ == "__main__":
    main()
