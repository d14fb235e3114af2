"""Compare the default ``cardworks build`` of another checkout with this tree's, back to back in the same run.

Run: python bench/build.py OTHER [--rounds 2] [--jobs N] [-- BUILD ARGS...]
OTHER is a checkout folder or a git revision of this repository (exported to a temporary folder). Each round
builds OTHER, then this tree, each as a whole command (``python -m cardworks build``) from its own checkout
into a fresh temporary out folder with a fresh user cache, cold. Prints, per run and as medians: wall time,
processor time (the command and its worker processes), files and pages written; then this tree's ratios to
OTHER. The machine may be shared: only the ratios of one run mean something.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pikepdf

REPO = Path(__file__).resolve().parents[1]


def checkout(spec: str, tmp: Path) -> Path:
    """A folder holding the checkout ``spec``: itself when it is a folder, else the git revision exported."""
    folder = Path(spec)
    if (folder / "src" / "cardworks").is_dir():
        return folder.resolve()
    target = tmp / "other"
    target.mkdir()
    archive = subprocess.run(["git", "-C", str(REPO), "archive", spec], check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(target)], input=archive, check=True)
    return target


def outputs(out: Path) -> tuple[int, int]:
    """Files written (the cache left out) and the pages of the PDFs among them."""
    files = [p for p in out.rglob("*") if p.is_file() and ".cache" not in p.relative_to(out).parts]
    pages = 0
    for path in files:
        if path.suffix == ".pdf":
            with pikepdf.open(path) as pdf:
                pages += len(pdf.pages)
    return len(files), pages


def run(tree: Path, out: Path, args: list[str]) -> dict[str, float]:
    """One cold build as a whole command: wall seconds, processor seconds (children included), files, pages.
    Cold: a fresh out folder (so no ``build/.cache``) and a fresh user cache (``CARDWORKS_CACHE``) beside it."""
    cache = out.with_name(out.name + "-user-cache")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "cardworks", "build", "--out", str(out), *args], cwd=tree,
                          env={**os.environ, "PYTHONPATH": str(tree / "src"), "CARDWORKS_CACHE": str(cache)},
                          capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        sys.exit(f"build in {tree.name} failed ({done.returncode}):\n{done.stderr[-2000:]}")
    files, pages = outputs(out)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {"wall": wall, "cpu": cpu, "files": files, "pages": pages}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("other", help="a checkout folder or a git revision")
    parser.add_argument("--rounds", type=int, default=2, help="rounds of (other, this); medians are reported")
    parser.add_argument("build_args", nargs="*", help="arguments for both builds (after --)")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="cardworks-bench-build-") as name:
        tmp = Path(name)
        trees = {"other": checkout(options.other, tmp), "this": REPO}
        results: dict[str, list[dict[str, float]]] = {"other": [], "this": []}
        for round_ in range(options.rounds):
            for label, tree in trees.items():
                result = run(tree, tmp / f"out-{label}-{round_}", options.build_args)
                results[label].append(result)
                print(f"round {round_ + 1} {label}: {result['wall']:.1f} s wall, {result['cpu']:.1f} s processor, "
                      f"{result['files']} files, {result['pages']} pages", flush=True)
        median = {label: {k: statistics.median(r[k] for r in runs) for k in runs[0]} for label, runs in results.items()}
        for label in trees:
            m = median[label]
            print(f"median {label}: {m['wall']:.1f} s wall, {m['cpu']:.1f} s processor, "
                  f"{m['files']:.0f} files, {m['pages']:.0f} pages")
        ratio = {k: median["this"][k] / median["other"][k] for k in ("wall", "cpu", "files", "pages")}
        print(f"this / other: wall {ratio['wall']:.2f}x, processor {ratio['cpu']:.2f}x, "
              f"files {ratio['files']:.2f}x, pages {ratio['pages']:.2f}x")


if __name__ == "__main__":
    main()
