"""Measure the print-and-play pieces of Diables and Calavera: tiles, dice nets, score sheets, player aids.

Run: python bench/pieces.py
Prints, per game, the pieces written, their pages, and the time of a cold build and of a no-op rebuild
(one job and two; Diables' beast cards are included, no rulebooks).
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from cardworks.render.build import BuildOptions, build

REPO = Path(__file__).resolve().parents[1]


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="cardworks-pieces-") as tmp:
        for game in ("calavera", "diables"):
            for jobs in (1, 2):
                out = Path(tmp) / f"{game}-{jobs}"
                start = time.perf_counter()
                report = build(REPO / "cards", BuildOptions(out=out, game=game, jobs=jobs, documents=False))
                seconds = time.perf_counter() - start
                pieces = [record for _, record, _ in report.documents]
                cards = sum(o.cards for o in report.outcomes)
                print(f"{game} jobs {jobs}: {len(pieces)} piece files ({sum(r.pages for r in pieces)} pages), "
                      f"{cards} deck cards, {seconds:.2f} s")
            start = time.perf_counter()
            build(REPO / "cards", BuildOptions(out=out, game=game, jobs=2, documents=False))
            print(f"{game} no-op rebuild: {time.perf_counter() - start:.2f} s")


if __name__ == "__main__":
    main()
