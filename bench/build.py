"""Compare the default ``cardworks build`` of another checkout with this tree's, back to back in the same run.

Run: python bench/build.py OTHER [--also OTHER2 ...] [--rounds 2] [-- BUILD ARGS...]
OTHER is a checkout folder or a git revision of this repository (exported to a temporary folder); ``--also``
adds more, each compared with this tree in the same rounds (an old revision and today's main in one run). Each
round builds OTHER (then each ``--also``), then this tree, each as a whole command (``python -m cardworks build``) from its own checkout
into a fresh temporary out folder with a fresh user cache, cold. Prints, per run and as medians: wall time,
processor time (the command and its worker processes), files and pages written; the seconds the build reports
per output summed by kind (rulebook, faq, cards, standees ...: each output's wall time inside its worker, so
only their shares and ratios mean something); then this tree's ratios to OTHER, and every output file (the
cache left out) whose bytes differ from OTHER's of the same round, or that only one of them wrote, and of those
PDFs whether pdfium draws every page with the same pixels (150 dpi). The machine may be shared: only the
ratios of one run mean something.
"""

from __future__ import annotations

import argparse
import re
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pikepdf

KIND = re.compile(r"^\s*([0-9.]+) s  (\S+)$")
"""A line the build prints as each output is written: its seconds and its path (cli/output.py)."""

REPO = Path(__file__).resolve().parents[1]


def checkout(spec: str, tmp: Path, name: str = "other") -> Path:
    """A folder holding the checkout ``spec``: itself when it is a folder, else the git revision exported (into
    ``tmp / name``)."""
    folder = Path(spec)
    if (folder / "src" / "cardworks").is_dir():
        return folder.resolve()
    target = tmp / name
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


def kind_of(path: str) -> str:
    """The kind of an output by its file name: ``rulebook``, ``faq``, ``cards``, ``standees`` ... (``fallera/en/
    cards-expert-a4.pdf`` is ``cards``; a print-shop file is ``print-shop``)."""
    parts = path.split("/")
    if "print-shop" in parts:
        return "print-shop"
    return re.split(r"[-.]", parts[-1])[0]


def seconds_by_kind(stderr: str) -> dict[str, float]:
    """The seconds the build reported per output (its ``  4.2 s  path`` lines), summed by :func:`kind_of`."""
    kinds: dict[str, float] = {}
    for line in stderr.splitlines():
        found = KIND.match(line)
        if found:
            kinds[kind_of(found[2])] = kinds.get(kind_of(found[2]), 0.0) + float(found[1])
    return kinds


def differing(one: Path, two: Path) -> list[str]:
    """The output files (the cache left out) whose bytes differ between two out folders, or that only one of
    them holds, relative to the folder."""
    def files(out: Path) -> dict[str, Path]:
        return {str(p.relative_to(out)): p for p in sorted(out.rglob("*"))
                if p.is_file() and ".cache" not in p.relative_to(out).parts}

    first, second = files(one), files(two)
    return sorted(name for name in first.keys() | second.keys()
                  if name not in first or name not in second or first[name].read_bytes() != second[name].read_bytes())


def pages_differing(one: Path, two: Path, dpi: int = 150) -> list[int] | None:
    """The pages (from 1) of two PDFs that pdfium draws with any pixel different at ``dpi``; None when their page
    counts differ. Outputs whose bytes differ must still print the same pages."""
    import pypdfium2

    first, second = pypdfium2.PdfDocument(one), pypdfium2.PdfDocument(two)
    try:
        if len(first) != len(second):
            return None
        return [n + 1 for n in range(len(first))
                if _pixels(first[n], dpi) != _pixels(second[n], dpi)]
    finally:
        first.close()
        second.close()


def _pixels(page, dpi: int) -> tuple[tuple[int, int], bytes]:
    image = page.render(scale=dpi / 72).to_pil().convert("RGB")
    return image.size, image.tobytes()


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
    kinds = {f"kind {k}": v for k, v in seconds_by_kind(done.stderr).items()}
    return {"wall": wall, "cpu": cpu, "files": files, "pages": pages, **kinds}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("other", help="a checkout folder or a git revision")
    parser.add_argument("--also", action="append", default=[], help="another checkout or revision to compare")
    parser.add_argument("--rounds", type=int, default=2, help="rounds of (other, this); medians are reported")
    parser.add_argument("build_args", nargs="*", help="arguments for both builds (after --)")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="cardworks-bench-build-") as name:
        tmp = Path(name)
        specs = {"other": options.other, **{f"also-{n}": spec for n, spec in enumerate(options.also, start=1)}}
        trees = {**{label: checkout(spec, tmp, label) for label, spec in specs.items()}, "this": REPO}
        for label, spec in specs.items():
            print(f"{label}: {spec}", flush=True)
        results: dict[str, list[dict[str, float]]] = {label: [] for label in trees}
        differ: set[str] = set()
        unlike: set[str] = set()  # PDFs whose pages do not draw the same pixels
        for round_ in range(options.rounds):
            for label, tree in trees.items():
                result = run(tree, tmp / f"out-{label}-{round_}", options.build_args)
                results[label].append(result)
                print(f"round {round_ + 1} {label}: {result['wall']:.1f} s wall, {result['cpu']:.1f} s processor, "
                      f"{result['files']} files, {result['pages']} pages (load {os.getloadavg()[0]:.1f})", flush=True)
            for label in specs:
                found = differing(tmp / f"out-{label}-{round_}", tmp / f"out-this-{round_}")
                print(f"round {round_ + 1}: {len(found)} output files differ from {label}'s byte for byte"
                      + (f": {', '.join(found)}" if found else ""), flush=True)
                differ.update(f"{label}: {name}" for name in found)
                for name in (n for n in found if n.endswith(".pdf")):
                    paths = [tmp / f"out-{side}-{round_}" / name for side in (label, "this")]
                    pages = pages_differing(*paths) if all(p.is_file() for p in paths) else None
                    drawn = "is missing on one side or has another page count" if pages is None else \
                        f"draws pages {pages} differently" if pages else "draws every page with the same pixels"
                    print(f"  {name}: {drawn}", flush=True)
                    if pages != []:
                        unlike.add(f"{label}: {name}")
            for label in trees:
                shutil.rmtree(tmp / f"out-{label}-{round_}")
        keys = {k for runs in results.values() for r in runs for k in r}
        median = {label: {k: statistics.median(r.get(k, 0.0) for r in runs) for k in sorted(keys)}
                  for label, runs in results.items()}
        for label in trees:
            m = median[label]
            print(f"median {label}: {m['wall']:.1f} s wall, {m['cpu']:.1f} s processor, "
                  f"{m['files']:.0f} files, {m['pages']:.0f} pages")
        for label in specs:
            ratio = {k: median["this"][k] / median[label][k] for k in ("wall", "cpu", "files", "pages")}
            print(f"this / {label}: wall {ratio['wall']:.2f}x, processor {ratio['cpu']:.2f}x, "
                  f"files {ratio['files']:.2f}x, pages {ratio['pages']:.2f}x")
            print(f"seconds per kind of output (medians, worker wall time), {label} -> this:")
            for key in sorted(k for k in keys if k.startswith("kind ")):
                before, now = median[label][key], median["this"][key]
                print(f"  {key[5:]:<14} {before:6.1f} -> {now:6.1f} s" + (f"  {now / before:.2f}x" if before else ""))
        print(f"output files differing from another tree's in any round: {len(differ)}"
              + (f" ({', '.join(sorted(differ))})" if differ else " (every output byte-identical)"))
        print(f"PDFs among them whose pages draw other pixels (150 dpi): {len(unlike)}"
              + (f" ({', '.join(sorted(unlike))})" if unlike else ""))


if __name__ == "__main__":
    main()
