"""Measure what the overflow checks cost in a cold build of the shipped expert deck (English, cards only).

Run: python bench/overflow.py [--base REF] [--rounds 2]

Two figures, both from this run:
1. the time spent reading the layout (``render.measure.measure``: every text part of every face, and the
   placeholder art boxes) as a share of the whole cold build, in one process;
2. cold builds of this tree against ``--base`` (a git ref, exported with ``git archive``; default ``HEAD``),
   alternated, each in a fresh process with an empty build folder: the median ratio.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
BUILD = ("build", "--game", "fallera", "--set", "expert", "--locale", "en", "--no-docs", "--jobs", "1")


def measured_share(out: Path) -> tuple[float, float, int]:
    """(seconds measuring, seconds in all, faces) for one cold in-process build."""
    import cardworks.render.faces as faces
    from cardworks.render.build import BuildOptions, build

    spent = [0.0, 0]
    original = faces.measure

    def timed(document, colours):
        start = time.perf_counter()
        try:
            return original(document, colours)
        finally:
            spent[0] += time.perf_counter() - start
            spent[1] += len(document.pages)

    faces.measure = timed
    try:
        start = time.perf_counter()
        build(REPO / "cards", BuildOptions(out=out, game="fallera", selection="expert", locales=["en"], jobs=1,
                                           documents=False))
        total = time.perf_counter() - start
    finally:
        faces.measure = original
    return spent[0], total, spent[1]


def cold_build(src: Path, out: Path) -> float:
    """Wall seconds of ``cardworks build`` from the package in ``src`` into the empty folder ``out``."""
    command = [sys.executable, "-c", "import sys; sys.path.insert(0, sys.argv[1]); from cardworks.cli.main import main; "
               "sys.argv = ['cardworks'] + sys.argv[2:]; main()", str(src), "--cards", str(REPO / "cards"), *BUILD,
               "--out", str(out)]
    start = time.perf_counter()
    subprocess.run(command, check=True, capture_output=True)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--base", default="HEAD", help="git ref to compare with (default: HEAD)")
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="cardworks-overflow-") as tmp:
        folder = Path(tmp)
        measuring, total, pages = measured_share(folder / "share")
        print(f"cold build, expert deck, en, 1 job: {total:.2f} s; reading the layout of {pages} face pages: "
              f"{measuring * 1000:.0f} ms ({measuring / total:.1%} of the build)")
        base = folder / "base"
        base.mkdir()
        archive = subprocess.run(["git", "-C", str(REPO), "archive", args.base, "src", "templates"], check=True, capture_output=True)
        subprocess.run(["tar", "-x", "-C", str(base)], input=archive.stdout, check=True)
        times: dict[str, list[float]] = {"base": [], "this tree": []}
        for number in range(args.rounds):
            for label, src in (("base", base / "src"), ("this tree", REPO / "src")):
                times[label].append(cold_build(src, folder / f"out-{label.replace(' ', '-')}-{number}"))
        base_s, this_s = statistics.median(times["base"]), statistics.median(times["this tree"])
        print(f"cold build, whole command, median of {args.rounds}: {args.base} {base_s:.2f} s, this tree {this_s:.2f} s "
              f"(ratio {this_s / base_s:.3f})")


if __name__ == "__main__":
    main()
