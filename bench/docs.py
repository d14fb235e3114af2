"""Measure building every rulebook and FAQ index of the shipped database (three locales).

Run: python bench/docs.py
Goal: all rulebooks and FAQ indexes for three locales in under 20 s with --jobs 2.
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from cardworks.render.build import BuildOptions, build

REPO = Path(__file__).resolve().parents[1]


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="cardworks-docs-") as tmp:
        for jobs in (1, 2):
            out = Path(tmp) / f"out{jobs}"
            start = time.perf_counter()
            report = build(REPO / "cards", BuildOptions(out=out, jobs=jobs, cards=False))
            seconds = time.perf_counter() - start
            pages = sum(record.pages for _, record, _ in report.documents)
            print(f"jobs {jobs}: {len(report.documents)} documents, {pages} pages in {seconds:.1f} s")
        start = time.perf_counter()
        build(REPO / "cards", BuildOptions(out=Path(tmp) / "out2", jobs=2, cards=False))
        print(f"no-op rebuild of the documents: {time.perf_counter() - start:.2f} s")


if __name__ == "__main__":
    main()
