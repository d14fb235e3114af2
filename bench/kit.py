"""Measure the print-and-play kit per product: files, pages, components printed and the build's time.

Run: python bench/kit.py [GAME ...]   (default: fallera diables calavera; English only, two jobs)
Prints, per game, each output with its pages, the components the contents page says are printed against
those the boxes hold, and the time of a cold build. To compare with another checkout, run the same command
there (with its own PYTHONPATH) in the same session.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

from cardworks.render.build import BuildOptions, build

REPO = Path(__file__).resolve().parents[1]


def main(games: list[str]) -> None:
    with tempfile.TemporaryDirectory(prefix="cardworks-kit-") as tmp:
        for game in games:
            out = Path(tmp) / game
            start = time.perf_counter()
            report = build(REPO / "cards", BuildOptions(out=out, game=game, locales=["en"], jobs=2))
            seconds = time.perf_counter() - start
            records = [r for o in report.outcomes for r in o.records] + [r for _, r, _ in report.documents]
            print(f"{game}: cold build {seconds:.1f} s, {len(records)} files, {sum(r.pages for r in records)} pages")
            for record in sorted(records, key=lambda r: r.path):
                print(f"  {record.path}: {record.pages} pages")
            sheets = [r for r in records if r.kind == "cards" and r.contents]
            if sheets:
                rows = sheets[0].contents
                printed = [row for row in rows if row["printed"]]
                print(f"  contents: {len(printed)} of {len(rows)} components printed; "
                      f"{sum(1 for row in rows if row['reasons'])} with a reason for a difference")


if __name__ == "__main__":
    main(sys.argv[1:] or ["fallera", "diables", "calavera"])
