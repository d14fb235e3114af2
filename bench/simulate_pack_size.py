"""Peak memory of ``cardworks simulate`` (and, for scale, ``validate``) on a pack of many designs.

Run: python bench/simulate_pack_size.py [--designs 100000] [--games 2]

Writes the example pack with ``--designs`` copies of one plain ingredient card (each its own design) into a
temporary folder, runs ``validate`` and ``simulate`` on it as separate processes, and prints each one's exit,
wall time and peak resident memory (``ru_maxrss`` of the child). Simulate refuses a deck of more than
``MAX_DECK_DESIGNS`` designs before dealing (exit 2), so its peak stays that of reading the pack; before that
bound it grew to 23 GB on 100,000 designs (a stand-in table per design, each a copy of the whole deck).
"""

from __future__ import annotations

import argparse
import json
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


PER_SET = 5_000
"""Designs per set file (a data file may hold 16 MB)."""


def write_pack(where: Path, designs: int) -> Path:
    """The example pack whose sets hold ``designs`` plain ingredient cards (``example-orxata`` copied), in set
    files of :data:`PER_SET` designs."""
    pack = where / "pack"
    shutil.copytree(REPO / "examples" / "fallera-pack", pack)
    path = pack / "sets" / "example.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    model = next(card for card in data["cards"] if card["id"] == "example-orxata")
    path.unlink()
    for number, start in enumerate(range(0, designs, PER_SET)):
        count = min(PER_SET, designs - start)
        cards = [{**model, "id": f"example-orxata-{n}", "name": f"orxata {n}", "alt_names": []}
                 for n in range(start, start + count)]
        chunk = {**data, "id": f"example-set-{number}", "name": f"Example set {number}", "order": 10 + number,
                 "totals": {"designs": count, "cards": count, "by_type": {"treasure": count}}, "cards": cards}
        (pack / "sets" / f"example-{number}.json").write_text(json.dumps(chunk, ensure_ascii=False), encoding="utf-8")
    for folder in ("i18n", "rulings", "scenarios"):  # they name the example cards, which are gone
        shutil.rmtree(pack / folder, ignore_errors=True)
    return pack


def measure(args: list[str]) -> tuple[int, float, float]:
    """Exit, seconds and peak resident MB of one command line run as a child process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "cardworks", *args], capture_output=True, text=True)
    seconds = time.monotonic() - started
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss  # the largest child so far, KB
    if peak <= before:
        print("  (peak not above an earlier child's; run one command per process for its own figure)")
    print("  " + (done.stderr.strip().splitlines() or [""])[-1][:300])
    return done.returncode, seconds, peak / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--designs", type=int, default=100_000)
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--only", choices=["validate", "simulate"], default=None)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        pack = write_pack(Path(tmp), options.designs)
        cards = str(REPO / "cards")
        runs = {"validate": ["--cards", cards, "validate", str(pack)],
                "simulate": ["--cards", cards, "simulate", str(pack), "--game", "fallera", "--games", str(options.games),
                             "--workers", "1"]}
        for name, args in runs.items():
            if options.only and name != options.only:
                continue
            code, seconds, peak = measure(args)
            print(f"{name}: {options.designs:,} designs: exit {code}, {seconds:.1f} s, peak {peak:,.0f} MB")


if __name__ == "__main__":
    main()
