"""Measure validation time: the shipped database, and generated packs up to 10,000 designs.

Run: python bench/validate.py [--sizes 1000,2500,5000,10000]
Prints wall times; the goal is under 1 s for the whole shipped-database command
and under 5 s for 10,000 designs with translations in 3 locales, growing linearly.
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

from cardworks.i18n import source_hash
from cardworks.validate import validate

REPO = Path(__file__).resolve().parents[1]
LOCALES = ["ca", "es", "fr"]


def _card(i: int) -> dict:
    kind = i % 3
    card = {"id": f"card-{i:05d}", "quantity": 1 + i % 3, "name": f"Card {i}",
            "rules": f"Steal one {{treasure}} and draw {i % 4} cards.", "flavour": f"Saying number {i}.",
            "sources": [{"doc": "rules", "section": "Cards", "lines": str(1 + i % 90), "facts": ["quantity"]}]}
    if kind == 0:
        card.update(types=["treasure"], attributes={"treasure-kind": "ingredient"})
    elif kind == 1:
        card.update(types=["battle"], stats={"attack": i % 7, "defence": (i * 3) % 7})
    else:
        card.update(types=["special"], stats={"rank": 1 + i % 8})
    return card


def write_game(folder: Path, designs: int) -> None:
    """A synthetic game with ``designs`` cards and translations in three locales."""
    def dump(relative: str, data: dict) -> None:
        path = folder / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")

    dump("game.json", {
        "$schema": "game.schema.json", "id": "bench", "name": "Bench", "source_locale": "en", "locales": ["en", *LOCALES],
        "players": {"min": 2, "max": 5}, "documents": [{"id": "rules", "title": "Rules"}],
        "card_types": [{"id": t, "name": t.title(), "icon": t} for t in ("treasure", "battle", "special")],
        "attributes": [{"id": "treasure-kind", "name": "Kind", "applies_to": ["treasure"],
                        "values": [{"id": "ingredient", "name": "Ingredient"}]}],
        "stats": [{"id": "attack", "name": "A", "applies_to": ["battle"], "min": 0, "max": 10},
                  {"id": "defence", "name": "D", "applies_to": ["battle"], "min": 0, "max": 10},
                  {"id": "rank", "name": "n", "applies_to": ["special"], "min": 1, "max": 8, "default": 1}],
    })
    (folder / "icons").mkdir(parents=True, exist_ok=True)
    for name in ("treasure", "battle", "special"):
        (folder / "icons" / f"{name}.svg").write_text("<svg xmlns='http://www.w3.org/2000/svg'/>")
    dump("icons.json", {"$schema": "icons.schema.json", "icons": [
        {"id": n, "svg": f"icons/{n}.svg", "alt": n} for n in ("treasure", "battle", "special")]})
    cards = [_card(i) for i in range(designs)]
    dump("sets/big.json", {"$schema": "set.schema.json", "id": "big", "name": "Big",
                           "totals": {"designs": designs}, "cards": cards})
    for locale in LOCALES:
        entries = {c["id"]: {field: {"text": f"[{locale}] {c[field]}", "source_hash": source_hash(c[field])}
                             for field in ("name", "rules", "flavour")} for c in cards}
        dump(f"i18n/{locale}.json", {"$schema": "translations.schema.json", "game": "bench", "locale": locale,
                                     "entries": entries})


def timed(fn, repeat: int = 3) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", default="1000,2500,5000,10000")
    parser.add_argument("--cold", action="store_true",
                        help="an empty language-verdict cache for every run (the first validate on a machine)")
    args = parser.parse_args()

    shipped = REPO / "cards"
    in_process = timed(lambda: validate(shipped))
    command = timed(lambda: subprocess.run([sys.executable, "-m", "cardworks", "--cards", str(shipped), "validate"],
                                           capture_output=True, check=True), repeat=5)
    print(f"shipped database: validate() {in_process * 1000:.0f} ms in-process; "
          f"'python -m cardworks validate' {command * 1000:.0f} ms wall (process start included, best of 5)")

    print(f"{'designs':>8} {'strings':>8} {'size MB':>8} {'seconds':>8} {'us/design':>10}")
    for size in (int(s) for s in args.sizes.split(",")):
        folder = Path(tempfile.mkdtemp(prefix="cardworks-bench-"))
        try:
            write_game(folder / "bench", size)
            megabytes = sum(p.stat().st_size for p in folder.rglob("*.json")) / 1e6
            report = None

            def run() -> None:
                nonlocal report
                if args.cold:
                    import os

                    from cardworks.i18n import qa

                    os.environ["CARDWORKS_CACHE"] = tempfile.mkdtemp(prefix="cardworks-cache-")
                    qa.VERDICTS.table = None
                report = validate(folder)

            seconds = timed(run, repeat=2)
            assert report is not None and not report.errors, [p.text() for p in report.errors[:5]]
            strings = size * 3 * (1 + len(LOCALES))
            print(f"{size:>8} {strings:>8} {megabytes:>8.1f} {seconds:>8.2f} {seconds / size * 1e6:>10.0f}")
        finally:
            shutil.rmtree(folder)


if __name__ == "__main__":
    main()
