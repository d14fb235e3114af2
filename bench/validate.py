"""Measure validation time: the shipped database, and generated packs up to 10,000 designs.

Run: python bench/validate.py [--sizes 1000,5000,10000] [--cold [--baseline CHECKOUT]] [--repeat N]
Prints wall times (and, cold, the command's CPU seconds; with a baseline, its figures and the ratios, from runs
alternating with this checkout's). Goals: under 1 s for the whole shipped-database command, and
under 5 s for a cold ``cardworks validate`` (a fresh process, an empty
language-verdict cache) of 10,000 designs with translations in 3 locales,
growing linearly. Every generated rules text and flavour is distinct and long
enough to be language-checked (bench/phrases.py), so detection runs on each.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from phrases import flavour, rules  # noqa: E402

from cardworks.i18n import source_hash  # noqa: E402
from cardworks.validate import validate  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
LOCALES = ["ca", "es", "fr"]
GOAL_DESIGNS, GOAL_SECONDS = 10_000, 5.0


def _card(i: int) -> dict:
    kind = i % 3
    card = {"id": f"card-{i:05d}", "quantity": 1 + i % 3, "name": f"Card {i}", "rules": rules(i, "en"),
            "flavour": flavour(i, "en"),
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
        entries = {}
        for i, c in enumerate(cards):
            texts = {"name": f"[{locale}] {c['name']}", "rules": rules(i, locale), "flavour": flavour(i, locale)}
            entries[c["id"]] = {field: {"text": text, "source_hash": source_hash(c[field])}
                                for field, text in texts.items()}
        dump(f"i18n/{locale}.json", {"$schema": "translations.schema.json", "game": "bench", "locale": locale,
                                     "entries": entries})


def timed(fn, repeat: int = 3) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def _children_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def cold_command(cards: Path, source: Path | None = None) -> tuple[float, float, dict]:
    """``cardworks validate`` in a fresh process with an empty verdict cache: wall and CPU seconds (CPU time
    says more than wall time on a machine shared with other work) and the cache it left. ``source``: another
    checkout's ``src`` folder to run instead of this one."""
    cache = Path(tempfile.mkdtemp(prefix="cardworks-cache-"))
    env = {**os.environ, "CARDWORKS_CACHE": str(cache)}
    if source is not None:
        env["PYTHONPATH"] = str(source)
    try:
        cpu = _children_cpu()
        start = time.perf_counter()
        done = subprocess.run([sys.executable, "-P", "-m", "cardworks", "--cards", str(cards), "validate", "--format",
                               "json"], capture_output=True, env=env)
        seconds, cpu = time.perf_counter() - start, _children_cpu() - cpu
        problems = json.loads(done.stdout or "[]")
        assert done.returncode == 0, [p for p in problems if p["severity"] == "error"][:5] or done.stderr[-2000:]
        verdicts = json.loads((cache / "language.json").read_text()) if (cache / "language.json").exists() else {}
        return seconds, cpu, {"verdicts": verdicts, "problems": problems}
    finally:
        shutil.rmtree(cache)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", default="1000,5000,10000")
    parser.add_argument("--cold", action="store_true",
                        help="also time 'cardworks validate' cold: a fresh process with an empty language-verdict "
                             "cache (the first validate of a pack on a machine)")
    parser.add_argument("--repeat", type=int, default=2, help="runs per figure; the best is shown (default 2)")
    parser.add_argument("--baseline", type=Path, metavar="CHECKOUT",
                        help="with --cold: also time another checkout (e.g. a worktree of main), its runs "
                             "alternating with this one's, and print the ratios")
    args = parser.parse_args()
    if args.baseline and not (args.baseline / "src" / "cardworks").is_dir():
        parser.error(f"{args.baseline} holds no src/cardworks")
    os.environ["CARDWORKS_CACHE"] = tempfile.mkdtemp(prefix="cardworks-cache-")  # never the user's own cache

    shipped = REPO / "cards"
    validate(shipped)  # fills the verdict cache: the figures below are for a machine that ran validate before
    in_process = timed(lambda: validate(shipped))
    command = timed(lambda: subprocess.run([sys.executable, "-m", "cardworks", "--cards", str(shipped), "validate"],
                                           capture_output=True, check=True), repeat=5)
    print(f"shipped database: validate() {in_process * 1000:.0f} ms in-process; "
          f"'python -m cardworks validate' {command * 1000:.0f} ms wall (process start included, best of 5)")

    print(f"{'designs':>8} {'strings':>8} {'size MB':>8} {'warm s':>8}"
          + (f" {'base s':>8} {'base cpu':>8} {'ratio':>7} {'cpu r.':>7}" if args.cold and args.baseline else "")
          + (f" {'cold s':>8} {'cold cpu':>8} {'us/design':>10} {'judged':>8} {'warnings':>8}" if args.cold else ""))
    print("  warm: validate() in-process, language verdicts already cached; cold: the whole command, "
          "fresh process and empty cache (wall, and CPU seconds of all its processes); judged: strings the "
          "detector gave a verdict on (texts the screen in i18n/screen.py accepts are not given to it); "
          "base: the --baseline checkout, cold, and how many times longer it took (best of each)")
    for size in (int(s) for s in args.sizes.split(",")):
        folder = Path(tempfile.mkdtemp(prefix="cardworks-bench-"))
        try:
            write_game(folder / "bench", size)
            megabytes = sum(p.stat().st_size for p in folder.rglob("*.json")) / 1e6
            strings = size * 3 * (1 + len(LOCALES))
            line = f"{size:>8} {strings:>8} {megabytes:>8.1f}"
            report = validate(folder)
            assert not report.errors, [p.text() for p in report.errors[:5]]
            line += f" {timed(lambda: validate(folder), repeat=args.repeat):>8.2f}"
            if args.cold:
                runs, base = [], []
                for _ in range(args.repeat):  # alternating, so both see the same machine
                    if args.baseline:
                        base.append(cold_command(folder, args.baseline / "src"))
                    runs.append(cold_command(folder))
                seconds, cpu = min(s for s, _, _ in runs), min(c for _, c, _ in runs)
                if base:
                    base_seconds, base_cpu = min(s for s, _, _ in base), min(c for _, c, _ in base)
                    line += (f" {base_seconds:>8.2f} {base_cpu:>8.2f} {base_seconds / seconds:>6.2f}x"
                             f" {base_cpu / cpu:>6.2f}x")
                verdicts = runs[0][2]["verdicts"]
                judged = sum(1 for v in verdicts.values() if v)
                line += (f" {seconds:>8.2f} {cpu:>8.2f} {seconds / size * 1e6:>10.0f} {judged:>8} "
                         f"{len(runs[0][2]['problems']):>8}")
                if size == GOAL_DESIGNS:
                    verdict = "met" if seconds < GOAL_SECONDS else "NOT met"
                    line += f"   goal: under {GOAL_SECONDS:.0f} s cold -> {verdict}"
            print(line, flush=True)
        finally:
            shutil.rmtree(folder)
    shutil.rmtree(os.environ["CARDWORKS_CACHE"], ignore_errors=True)


if __name__ == "__main__":
    main()
