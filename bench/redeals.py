"""How many shuffles a La Fallera Calavera setup takes: the margin under ``deal.MAX_REDEALS``.

A deal that puts three or more ingredients on a counter is dealt again (``redeal-ingredients``), and with
expansion 3 the map's first cards are drawn again while they hold two or more (``max-ingredients-on-map-setup``);
past ``MAX_REDEALS`` tries of either the setup is refused. This deals ``--seeds`` new games of every configuration
the engine plays, counting the shuffles each setup made (the deals and map draws together, so each loop's own count
is at most this), and prints the largest and how often a setup needed more than one.

    PYTHONPATH=src python3 bench/redeals.py [--seeds 3000]
"""

from __future__ import annotations

import argparse
import random
from collections import Counter
from pathlib import Path

from cardworks.games.fallera.deal import MAX_REDEALS
from cardworks.games.fallera.game import configurations, new_game
from cardworks.loading import load_database

REPO = Path(__file__).resolve().parents[1]


class CountingRandom(random.Random):
    """A seeded rng that counts its shuffles (the same draws as ``random.Random``)."""

    shuffles = 0

    def shuffle(self, x) -> None:  # type: ignore[override]
        self.shuffles += 1
        super().shuffle(x)


def shuffles_per_setup(seeds: int) -> dict[str, Counter]:
    """Configuration label → how many setups took each number of shuffles."""
    db = load_database(REPO / "cards" / "fallera")
    found, _ = configurations(db)
    counts: dict[str, Counter] = {}
    for config in found:
        counts[config.label] = Counter()
        for seed in range(seeds):
            rng = CountingRandom(seed)
            new_game(db, config, rng)
            counts[config.label][rng.shuffles] += 1
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=3000, help="setups dealt per configuration (seeds 0..N-1)")
    args = parser.parse_args()
    counts = shuffles_per_setup(args.seeds)
    for label, counter in counts.items():
        more = sum(n for shuffles, n in counter.items() if shuffles > 1)
        print(f"{label:14} most shuffles {max(counter):3d}; {more} of {args.seeds} setups shuffled more than once")
    worst = max(max(counter) for counter in counts.values())
    print(f"all {len(counts)} configurations x {args.seeds} seeds: at most {worst} shuffles in one setup "
          f"(MAX_REDEALS {MAX_REDEALS} per loop)")


if __name__ == "__main__":
    main()
