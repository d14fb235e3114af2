"""The designer's edit loop, as whole commands: cold builds, one card's rules text edited, the same builds again.

Run: python bench/edit_loop.py [--against REV] [--jobs N] [--whole/--no-whole] [--watch [--edits 3]]
In a temporary copy of the shipped database: a cold ``cardworks build --game fallera --locale en --no-docs``
and (unless --no-whole) a cold whole ``cardworks build``, each into its own out folder; then one card's
rules text is edited and both are run again. Prints wall and processor seconds (the command and its worker
processes) and each rebuild's share of its cold run (goals: 15% and 10%). With --against, the same is done
with another checkout (a folder or a git revision) first, in the same run. The machine may be shared: only
ratios of one run mean something. With --watch, also the warm process: ``build --watch`` (fallera en, no docs)
is started, and the wall time from the edited file's save to the manifest's update (the median of ``--edits``
saves) is printed against the cold command's wall time (goal 15%).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("build_bench", Path(__file__).with_name("build.py"))
_build_bench = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_build_bench)
checkout = _build_bench.checkout
"""A checkout folder or a git revision exported (shared with bench/build.py)."""
GOALS = {"fallera en, no docs": 0.15, "whole build": 0.10}


def command(tree: Path, cards: Path, out: Path, args: list[str]) -> tuple[float, float]:
    """``cardworks build`` of ``tree`` as a whole command: wall and processor seconds (children included)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "cardworks", "--cards", str(cards), "build", "--out", str(out), *args],
                          cwd=tree, env={**os.environ, "PYTHONPATH": str(tree / "src")}, capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"build failed in {tree} ({' '.join(args)}):\n{done.stdout[-2000:]}{done.stderr[-2000:]}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def edit_rules(cards: Path) -> str:
    """Append a sentence to the rules text of the first base-game card that has one, and to its translations
    (each recording the new source, as after a translator's update: a stale one would fail the build);
    returns the card's id."""
    sys.path.insert(0, str(REPO / "src"))
    from cardworks.i18n import source_hash

    path = cards / "fallera" / "sets" / "base.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    card = next(c for c in data["cards"] if c.get("rules"))
    card["rules"] += " Edited."
    path.write_text(json.dumps(data, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    for translation in sorted((cards / "fallera" / "i18n").glob("*.json")):
        strings = json.loads(translation.read_text(encoding="utf-8"))
        entry = strings.get("entries", {}).get(card["id"], {}).get("rules")
        if entry is not None:
            entry.update(text=entry["text"] + " (+).", source=card["rules"], source_hash=source_hash(card["rules"]))
            translation.write_text(json.dumps(strings, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    return card["id"]


def loop(tree: Path, tmp: Path, jobs: int, whole: bool) -> dict[str, tuple[float, float, float, float]]:
    """Cold and edited runs of each build of ``tree``: name → (cold wall, cold cpu, edited wall, edited cpu)."""
    cards = tmp / "cards"
    shutil.copytree(REPO / "cards", cards)
    runs = {"fallera en, no docs": ["--game", "fallera", "--locale", "en", "--no-docs"]}
    if whole:
        runs["whole build"] = []
    cold = {name: command(tree, cards, tmp / f"out{i}", [*args, "--jobs", str(jobs)])
            for i, (name, args) in enumerate(runs.items())}
    edited = edit_rules(cards)
    print(f"  {tree.name}: edited the rules text of {edited}")
    again = {name: command(tree, cards, tmp / f"out{i}", [*args, "--jobs", str(jobs)])
             for i, (name, args) in enumerate(runs.items())}
    return {name: (*cold[name], *again[name]) for name in runs}


def watch_loop(tree: Path, tmp: Path, jobs: int, edits: int = 1) -> tuple[float, list[float]]:
    """(cold command wall, save-to-manifest wall of each of ``edits`` saves in a running ``build --watch``) for
    fallera en, no docs; the saves 1.5 s apart, each once the last rebuild is written."""
    cards = tmp / "cards"
    shutil.copytree(REPO / "cards", cards)
    args = ["--game", "fallera", "--locale", "en", "--no-docs", "--jobs", str(jobs)]
    cold, _ = command(tree, cards, tmp / "cold", args)
    out = tmp / "watched"
    watch = subprocess.Popen([sys.executable, "-m", "cardworks", "--cards", str(cards), "build", "--out", str(out),
                              *args, "--watch"], cwd=tree, env={**os.environ, "PYTHONPATH": str(tree / "src")},
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        manifest = out / "manifest.json"
        _until(lambda: manifest.is_file(), watch)
        time.sleep(1.0)  # the watcher is listening once the first build has said so; a second is plenty
        rebuilt = []
        for _ in range(edits):
            before = manifest.stat().st_mtime_ns
            saved = time.perf_counter()
            edit_rules(cards)
            _until(lambda: manifest.stat().st_mtime_ns != before, watch)
            rebuilt.append(time.perf_counter() - saved)
            time.sleep(1.5)
    finally:
        watch.send_signal(2)
        watch.communicate(timeout=120)
    return cold, rebuilt


def _until(done, process: subprocess.Popen, seconds: float = 600) -> None:
    deadline = time.monotonic() + seconds
    while not done():
        if process.poll() is not None or time.monotonic() > deadline:
            raise SystemExit(f"build --watch ended or stalled: {process.stderr.read() if process.stderr else ''}")
        time.sleep(0.02)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--against", help="Another checkout (folder or git revision) measured first, same run.")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--no-whole", dest="whole", action="store_false", help="Only the Fallera English card build.")
    parser.add_argument("--watch", action="store_true", help="Also measure a rebuild in a running build --watch.")
    parser.add_argument("--edits", type=int, default=3,
                        help="Saves measured one after another in the running build --watch (their median is the "
                             "figure; the first is printed too).")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="cardworks-edit-loop-") as tmp:
        trees = [REPO]
        if args.against:
            trees.insert(0, checkout(args.against, Path(tmp)))
        print(f"{'tree':>12} {'build':>20} {'cold wall':>10} {'cold cpu':>9} {'edit wall':>10} {'edit cpu':>9} "
              f"{'wall %':>7} {'cpu %':>6} {'goal':>5}")
        for number, tree in enumerate(trees):
            label = "this tree" if tree == REPO else (args.against or tree.name)[:12]
            work = Path(tmp) / f"run{number}"
            work.mkdir()
            for name, (cw, cc, ew, ec) in loop(tree, work, args.jobs, args.whole).items():
                print(f"{label:>12} {name:>20} {cw:>10.2f} {cc:>9.2f} {ew:>10.2f} {ec:>9.2f} "
                      f"{ew / cw:>7.1%} {ec / cc:>6.1%} {GOALS[name]:>5.0%}", flush=True)
            if args.watch and tree == REPO:
                (work / "watch").mkdir()
                cold, rebuilt = watch_loop(tree, work / "watch", args.jobs, args.edits)
                middle = statistics.median(rebuilt)
                print(f"{label:>12} {'build --watch':>20} {cold:>10.2f} {'':>9} {middle:>10.2f} {'':>9} "
                      f"{middle / cold:>7.1%} {'':>6} {GOALS['fallera en, no docs']:>5.0%}  (save to manifest, median "
                      f"of {len(rebuilt)} saves: {', '.join(f'{r:.2f}' for r in rebuilt)} s)", flush=True)


if __name__ == "__main__":
    main()
