"""What a page costs when a deck's pages are set, at 150 and 1,500 pages: ``render.pagetree.set_pages`` against
pikepdf's ``pages.append`` (the way it was, which looks through the whole page list at each call).

Run: python bench/pagetree.py [--counts 150,1500] [--rounds 3]
Prints processor microseconds a page for each way and count (the least of the rounds) and each way's ratio of
its largest count to its smallest: set_pages stays near 1 (linear cost), append grows with the count.
"""

from __future__ import annotations

import argparse
import gc
import sys
import time
from pathlib import Path

import pikepdf

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
from cardworks.render.pagetree import set_pages  # noqa: E402


def _append(pdf: pikepdf.Pdf, pages: list[pikepdf.Dictionary]) -> None:
    for page in pages:  # what assemble did: each append and pages[-1] look through the whole page list
        pdf.pages.append(pikepdf.Page(page))
        pdf.pages[-1]


def per_page(count: int, fill) -> float:
    pages = [pikepdf.Dictionary(Type=pikepdf.Name.Page, MediaBox=[0, 0, 10, 10]) for _ in range(count)]
    pdf = pikepdf.new()
    gc.collect()
    start = time.process_time()
    fill(pdf, pages)
    return (time.process_time() - start) / count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--counts", default="150,1500")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    counts = [int(c) for c in args.counts.split(",")]
    for name, fill in (("set_pages", set_pages), ("append", _append)):
        fill(pikepdf.new(), [pikepdf.Dictionary(Type=pikepdf.Name.Page, MediaBox=[0, 0, 9, 9])] * 50)  # warm up
        costs = [min(per_page(count, fill) for _ in range(args.rounds)) for count in counts]
        shown = ", ".join(f"{c:,} pages {cost * 1e6:.1f} µs" for c, cost in zip(counts, costs))
        print(f"{name:>9}: {shown}; a page at {counts[-1]:,} / at {counts[0]:,}: {costs[-1] / costs[0]:.2f}×")


if __name__ == "__main__":
    main()
