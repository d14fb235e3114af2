"""Measure rendering: milliseconds per physical card, with one and two jobs, and rebuild times.

Run: python bench/render.py [--sizes 50,200,800] [--copies 3] [--edit-loop] [--generated-only]
Decks of generated designs (real card texts, real templates, fitted text) with
3 copies each give about 150, 600 and 2,400 physical cards; the shipped expert
deck is measured too. Times are wall-clock for the whole build of one locale.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from cardworks.loading import load_database
from cardworks.render.build import BuildOptions, build
from cardworks.render.deck import build_deck
from cardworks.render.impose import SheetLayout

REPO = Path(__file__).resolve().parents[1]
GOAL_MS = 3
"""Milliseconds per physical card with two jobs on the expert deck (issue 5)."""


BEHAVIOUR = ("effects",)
"""Fields a generated design leaves out: effects tie a card to the engine and to the terreta bonuses that name it
by id (a copy would fail validation with ``bonus-mismatch``), and a face prints none of them."""


def make_database(folder: Path, designs: int, copies: int) -> Path:
    """A copy of the shipped database plus a generated set ``bench`` of ``designs`` designs: real names, texts,
    types and stats, without the engine's behaviour fields (:data:`BEHAVIOUR`)."""
    cards_root = folder / "cards"
    shutil.copytree(REPO / "cards", cards_root)
    real = [c for f in sorted((cards_root / "fallera/sets").glob("*.json"))
            for c in json.loads(f.read_text(encoding="utf-8"))["cards"] if not c.get("optional")]
    generated = []
    for i in range(designs):
        card = {key: value for key, value in real[i % len(real)].items() if key not in BEHAVIOUR}
        card.update(id=f"bench-{i:05d}", quantity=copies)
        card["name"] = f"{card['name']} {i}"
        generated.append(card)
    bench = {"$schema": "../../../schema/set.schema.json", "id": "bench", "name": "Bench", "order": 9, "cards": generated}
    (cards_root / "fallera/sets/bench.json").write_text(json.dumps(bench, ensure_ascii=False), encoding="utf-8")
    return cards_root


def timed_build(cards_root: Path, out: Path, selection: str, jobs: int, layout: SheetLayout | None = None,
                locales: tuple[str, ...] = ("en",), report: list | None = None) -> float:
    options = BuildOptions(out=out, game="fallera", selection=selection, locales=list(locales), jobs=jobs, documents=False,
                           layout=layout or SheetLayout())
    start = time.perf_counter()
    result = build(cards_root, options)
    elapsed = time.perf_counter() - start
    assert result.outcomes, "nothing built"
    if report is not None:
        report.extend(result.outcomes)
    return elapsed


def edit_loop(folder: Path, jobs: int = 2) -> None:
    """The designer's edit loop on the expert deck, against a cold build of the same in this run.

    One card's rules text edited: the English outputs are rebuilt from the face cache (one face laid out).
    One string of the Valencian translation changed (as ``i18n import`` would): only Valencian faces.
    """
    cards_root = folder / "cards-edit"
    shutil.copytree(REPO / "cards", cards_root)
    translation = cards_root / "fallera/i18n/ca.json"
    outcomes: list = []
    timed_build(cards_root, folder / "out-i18n", "expert", jobs, locales=("en", "ca"))
    data = json.loads(translation.read_text(encoding="utf-8"))
    card_id = next(k for k, v in data["entries"].items() if "rules" in v)
    data["entries"][card_id]["rules"]["text"] += " "
    data["entries"][card_id]["rules"]["text"] = data["entries"][card_id]["rules"]["text"].strip() + "!"
    translation.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    seconds = timed_build(cards_root, folder / "out-i18n", "expert", jobs, locales=("en", "ca"), report=outcomes)
    faces = {o.locale: len(o.faces) for o in outcomes}
    print(f"one-string translation change (ca, card {card_id}): rebuilt in {seconds:.2f} s; faces laid out: "
          f"en {faces.get('en', 0)}, ca {faces.get('ca', 0)}")
    cold = timed_build(cards_root, folder / "out-edit", "expert", jobs)
    sets = cards_root / "fallera/sets/base.json"
    data = json.loads(sets.read_text(encoding="utf-8"))
    card = next(c for c in data["cards"] if c.get("rules"))
    card["rules"] += " Edited."
    sets.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    outcomes.clear()
    edited = timed_build(cards_root, folder / "out-edit", "expert", jobs, report=outcomes)
    print(f"edit one card's rules text ({card['id']}), expert deck, English, {jobs} jobs: cold build {cold:.2f} s, "
          f"rebuild {edited:.2f} s ({sum(len(o.faces) for o in outcomes)} face laid out): "
          f"{edited / cold:.0%} of the cold build (goal: at most 15%)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", default="50,200,800")
    parser.add_argument("--copies", type=int, default=3)
    parser.add_argument("--edit-loop", action="store_true", help="Only measure the edit loop (edit one card, one string).")
    parser.add_argument("--generated-only", action="store_true",
                        help="Only the generated decks and the WeasyPrint floor (no shipped expert deck): the quick run "
                             "tests/render/test_render_bench.py makes, so the script cannot break unnoticed.")
    args = parser.parse_args()
    weasyprint_floor(1)  # warm up: imports and font loading are not part of the first build's time
    if args.edit_loop:
        with tempfile.TemporaryDirectory(prefix="cardworks-edit-") as tmp:
            edit_loop(Path(tmp))
        return
    print(f"{'deck':>12} {'designs':>8} {'cards':>6} {'jobs':>5} {'seconds':>8} {'ms/card':>8} {'ms/design':>10}")
    with tempfile.TemporaryDirectory(prefix="cardworks-render-") as tmp:
        tmp_path = Path(tmp)
        cases = [] if args.generated_only else [("expert", REPO / "cards", "expert", None)]
        for size in (int(s) for s in args.sizes.split(",")):
            cases.append((f"bench-{size}", make_database(tmp_path / f"db{size}", size, args.copies), "bench", size))
        for label, cards_root, selection, size in cases:
            deck = build_deck(load_database(cards_root / "fallera"), selection)
            for jobs in (1, 2):
                seconds = timed_build(cards_root, tmp_path / f"out-{label}-{jobs}", selection, jobs)
                print(f"{label:>12} {len(deck.cards):>8} {deck.physical_cards:>6} {jobs:>5} {seconds:>8.2f} "
                      f"{seconds / deck.physical_cards * 1000:>8.1f} {seconds / len(deck.cards) * 1000:>10.1f}")
        if args.generated_only:
            print(f"WeasyPrint floor, one process: {weasyprint_floor():.1f} ms for a page with a title and a paragraph")
            return
        edit_loop(tmp_path)
        out = tmp_path / "out-expert-2"
        relayout = timed_build(REPO / "cards", out, "expert", 2, SheetLayout(paper="letter", gutter=3))
        print(f"sheet-layout change (letter, 3 mm gutters) on the expert deck: {relayout:.2f} s, no face re-rendered")
        command = [sys.executable, "-m", "cardworks", "--cards", str(REPO / "cards"), "build", "--out", str(out),
                   "--locale", "en", "--paper", "letter", "--gutter", "3"]
        best = min(_wall(command) for _ in range(3))
        print(f"no-op rebuild, whole command with process start: {best:.2f} s")
    expert = build_deck(load_database(REPO / "cards" / "fallera"), "expert")
    budget = GOAL_MS * expert.physical_cards * 2 / (len(expert.cards) + 1)  # two cores; the back is a face too
    print(f"WeasyPrint floor, one process: {weasyprint_floor():.1f} ms for a page with a title and a paragraph; "
          f"the goal of {GOAL_MS} ms per card leaves at most {budget:.1f} ms of CPU per face of the expert deck")


def weasyprint_floor(pages: int = 32) -> float:
    """Milliseconds per page for the simplest face WeasyPrint can lay out: a title and a paragraph, no images."""
    import io

    from weasyprint import HTML

    paragraph = "<p>" + "Rules text that wraps over several lines of the card's text box. " * 4 + "</p>"
    body = "".join(f"<section><h1>Card {i}</h1>{paragraph}</section>" for i in range(pages))
    html = (f"<html><head><style>@page {{ size: 69mm 94mm; margin: 0 }} section {{ break-after: page }} "
            f"h1, p {{ font: 8pt 'DejaVu Sans' }}</style></head><body>{body}</body></html>")
    HTML(string=html).write_pdf(io.BytesIO())  # warm up fonts and caches
    start = time.perf_counter()
    HTML(string=html).write_pdf(io.BytesIO())
    return (time.perf_counter() - start) / pages * 1000


def _wall(command: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(command, check=True, capture_output=True)
    return time.perf_counter() - start


if __name__ == "__main__":
    main()
