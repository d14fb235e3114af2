"""Measure building every rulebook and FAQ index of the shipped database (three locales), and what the FAQ's two
columns cost.

Run: python bench/docs.py [--columns | --layout] [--rounds N] [--game G] [--locale L]
Goal: all rulebooks and FAQ indexes for three locales in under 20 s with --jobs 2.
``--columns``: the same FAQ HTML laid out and written three ways in this process, alternated, median processor
seconds of each: in two columns as shipped (one narrow flow, pages paired: ``render/docs/columns.py``), in one
column across the page (the flow's class taken off), and in WeasyPrint's own ``columns: 2`` (the layout before
round 9). Goal (issue 47 item 2): two columns at most 1.3x one column.
``--layout``: the game's largest rulebook and its FAQ laid out and written four ways in this process, alternated,
median processor seconds of each: as shipped (the cycle collector paused during the layout, WeasyPrint's
user-agent stylesheet scoped: ``collector.py``, ``render/docs/useragent.py``), with the collector
running, with WeasyPrint's own stylesheet, and with both (the layout before round 12); and whether all four wrote
the same bytes.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
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


def layout(game: str, locale: str, rounds: int) -> None:
    import gc
    from unittest import mock

    from cardworks.loading import load_database
    from cardworks.render.docs import useragent
    from cardworks.render.docs.build import doc_tasks
    from cardworks.collector import collected_after
    from cardworks.render.docs.documents import render_pdf

    db = load_database(REPO / "cards" / game)
    tasks = doc_tasks(db, [locale], [s.id for s in db.game_doc.selections] or ["all"], False, False)
    made = {}
    for task in tasks:  # the longest rulebook, the FAQ
        html = task.html(db)
        if task.kind not in made or len(html.html) > len(made[task.kind].html):
            made[task.kind] = html
    ways = {"shipped": (True, True), "collector running": (False, True), "own stylesheet": (True, False),
            "before (both)": (False, False)}
    seconds: dict[tuple[str, str], list[float]] = {}
    written: dict[tuple[str, str], bytes] = {}

    def lay_out(kind: str, way: str) -> float:
        paused, scoped = ways[way]
        gc.collect()
        with mock.patch.object(useragent, "scoped_fits", useragent.scoped_fits if scoped else lambda *_: False):
            start = time.process_time()
            with collected_after() if paused else contextlib.nullcontext():
                written[kind, way] = render_pdf(made[kind].html, db.game.root, made[kind].asked_by)
            return time.process_time() - start

    for kind in made:  # imports, fonts and hyphenation dictionaries loaded
        lay_out(kind, "shipped")
    for _ in range(rounds):
        for kind in made:
            for way in ways:
                seconds.setdefault((kind, way), []).append(lay_out(kind, way))
    for kind in made:
        before = statistics.median(seconds[kind, "before (both)"])
        for way in ways:
            median = statistics.median(seconds[kind, way])
            print(f"{game} {locale} {kind}, {way}: {median:.2f} s processor (median of {rounds}), "
                  f"{median / before:.2f}x before")
        same = len({written[kind, way] for way in ways}) == 1
        print(f"{game} {locale} {kind}: {'the same bytes' if same else 'DIFFERENT bytes'} all four ways")
    print(f"load average {os.getloadavg()[0]:.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--columns", action="store_true", help="measure the FAQ's two columns against one column")
    parser.add_argument("--layout", action="store_true", help="measure the collector pause and the scoped stylesheet")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--game", default="fallera")
    parser.add_argument("--locale", default="en")
    options = parser.parse_args()
    if options.columns:
        columns(options.game, options.locale, options.rounds)
        return
    if options.layout:
        layout(options.game, options.locale, options.rounds)
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
