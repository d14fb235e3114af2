"""Measure building every rulebook and FAQ index of the shipped database (three locales), and what the FAQ's two
columns cost.

Run: python bench/docs.py [--columns [--rounds N] [--game G] [--locale L]]
Goal: all rulebooks and FAQ indexes for three locales in under 20 s with --jobs 2.
``--columns``: the same FAQ HTML laid out and written three ways in this process, alternated, median processor
seconds of each: in two columns as shipped (one narrow flow, pages paired: ``render/docs/columns.py``), in one
column across the page (the flow's class taken off), and in WeasyPrint's own ``columns: 2`` (the layout before
round 9). Goal (issue 47 item 2): two columns at most 1.3x one column.
"""

from __future__ import annotations

import argparse
import io
import statistics
import tempfile
import time
from pathlib import Path

from cardworks.render.build import BuildOptions, build

REPO = Path(__file__).resolve().parents[1]

WEASYPRINT_COLUMNS = "<style>.faq-columns, .faq-indexes ul { columns: 2; column-gap: 7mm; }</style></head>"


def faq_variants(html: str) -> dict[str, str]:
    """The FAQ's HTML as shipped, in one column, and in WeasyPrint's columns."""
    one = html.replace(" column-flow", "")
    assert one != html, "the FAQ has no column flow to take off"
    return {"two columns": html, "one column": one, "weasyprint columns": one.replace("</head>", WEASYPRINT_COLUMNS)}


def columns(game: str, locale: str, rounds: int) -> None:
    from cardworks.loading import load_database
    from cardworks.render.docs.documents import _layout, faq_html

    db = load_database(REPO / "cards" / game)
    variants = faq_variants(faq_html(db, locale))
    seconds: dict[str, list[float]] = {name: [] for name in variants}
    pages: dict[str, int] = {}
    _layout(variants["one column"], db.game.root).write_pdf(io.BytesIO())  # imports and first font loads
    for _ in range(rounds):
        for name, html in variants.items():
            start = time.process_time()
            document = _layout(html, db.game.root)
            document.write_pdf(io.BytesIO())
            seconds[name].append(time.process_time() - start)
            pages[name] = len(document.pages)
    assert all(len(times) == rounds for times in seconds.values())
    median = {name: statistics.median(times) for name, times in seconds.items()}
    for name in variants:
        print(f"{game} {locale} FAQ, {name}: {pages[name]} pages, {median[name]:.2f} s processor "
              f"(median of {rounds}; {min(seconds[name]):.2f}-{max(seconds[name]):.2f}), "
              f"{median[name] / pages[name]:.3f} s a page")
    print(f"two columns / one column: {median['two columns'] / median['one column']:.2f}x the document "
          f"(goal 1.3x); weasyprint columns / one column: {median['weasyprint columns'] / median['one column']:.2f}x; "
          f"two columns / weasyprint columns: {median['two columns'] / median['weasyprint columns']:.2f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--columns", action="store_true", help="measure the FAQ's two columns against one column")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--game", default="fallera")
    parser.add_argument("--locale", default="en")
    options = parser.parse_args()
    if options.columns:
        columns(options.game, options.locale, options.rounds)
        return
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
