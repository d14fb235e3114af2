"""Measure what a build with nothing changed costs, against what validation costs (issue 47 item 1).

Run: python bench/noop_build.py [--rounds 5] [--against CHECKOUT]
Builds the shipped database once into a temporary folder, then alternates a no-op ``cardworks build`` and a
``cardworks validate`` (each a fresh process; processor time, user + system, of the child) and prints each
pair and the median ratio. Goal: a no-op build costs at most 1.2x validation. With ``--against``, the same is
measured for another checkout's ``src`` in the same rounds, so the two ratios come from one run.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
GOAL = 1.2


def cpu(args: list[str], src: Path) -> float:
    """Processor seconds (user + system) of ``python -m cardworks ARGS`` run with ``src`` first on the path."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, "-m", "cardworks", *args], cwd=REPO, check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, env={**os.environ, "PYTHONPATH": str(src)})
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def measure(src: Path, out: Path, rounds: int, label: str) -> float:
    cpu(["build", "--out", str(out)], src)  # the build a no-op follows
    ratios = []
    for k in range(rounds):
        build, validate = cpu(["build", "--out", str(out)], src), cpu(["validate"], src)
        ratios.append(build / validate)
        print(f"{label} round {k + 1}: no-op build {build:.2f} s, validate {validate:.2f} s, ratio {ratios[-1]:.2f}")
    return statistics.median(ratios)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--against", type=Path, help="another checkout, measured in the same run")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="cardworks-noop-") as tmp:
        here = measure(REPO / "src", Path(tmp) / "here", args.rounds, "this tree")
        there = measure(args.against / "src", Path(tmp) / "there", args.rounds, str(args.against)) \
            if args.against else None
    print(f"no-op build / validate, median: {here:.2f} (goal <= {GOAL})" + (
        f"; {args.against}: {there:.2f}" if there is not None else ""))


if __name__ == "__main__":
    main()
