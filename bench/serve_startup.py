"""Measure the preview's start-up: command started → deck page answered, and → every face drawn.

Run: python bench/serve_startup.py [--rounds 3] [--game fallera --set expert]
By default the multi-size test pack (poker, mini and square sets: tests/multisize.py) is served with
`cardworks serve PACK`; with `--game`, a copy of the shipped game instead. Each round starts the server in its own
process and times the first GET /deck that is answered (the page a browser shows first: at first it says the
data is being checked), the first that lists the cards (faces being drawn), and then polls until the page says
every face is drawn (no tile waits for its face) and fetches every face image. Goal:
the first page within 2 s of start-up (issue 44).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))
from browser import free_port  # noqa: E402  (the tests' helpers: not part of the product)
from multisize import multisize_pack  # noqa: E402

GOAL_S = 2.0


def get(url: str) -> str:
    with urllib.request.urlopen(url, timeout=120) as answer:
        return answer.read().decode("utf-8")


def cpu_seconds(pid: int) -> float:
    """User and system CPU time of one process so far (Linux ``/proc``): on a busy machine, the part of the
    wall time that is the server's own work."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def one_round(cards_root: Path, args: list[str]) -> tuple[float, float, float, int, float]:
    """Seconds to the first deck page (any), to the first listing the cards, to every face drawn and fetched;
    and the faces counted."""
    port = free_port()
    start = time.perf_counter()
    process = subprocess.Popen([sys.executable, "-c", "from cardworks.cli.main import main; main()", "--cards",
                                str(cards_root), "serve", *args, "--port", str(port)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        while True:
            try:
                page = get(base + "/deck")
                break
            except OSError:
                if process.poll() is not None:
                    raise SystemExit(f"the server exited with {process.returncode}")
                time.sleep(0.02)
        first = time.perf_counter() - start
        cpu = cpu_seconds(process.pid)
        while 'data-waiting="loading"' in page:  # the data being checked: the page says so
            time.sleep(0.05)
            page = get(base + "/deck")
        cards = time.perf_counter() - start
        while 'id="progress"' in page and 'data-waiting="0"' not in page:  # faces being drawn: the page counts
            # them (a page without a count, before issue 44, was answered only once every face was drawn)
            time.sleep(0.5)  # as seldom as a browser's page asks (once a batch): the poll takes no drawing time
            page = get(base + "/deck")
        faces = re.findall(r'src="(/faces/[0-9a-f]{64}\.png)"', page)
        for face in faces:
            with urllib.request.urlopen(base + face, timeout=60) as answer:
                answer.read()
        done = time.perf_counter() - start
        return first, cards, done, len(faces), cpu
    finally:
        process.terminate()
        process.wait(10)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--game")
    parser.add_argument("--set", dest="selection")
    options = parser.parse_args()
    load_before = os.getloadavg()[0]  # the machine is shared: every figure comes with the load it was taken at
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        if options.game:
            cards_root = work / "cards"
            shutil.copytree(REPO / "cards" / options.game, cards_root / options.game)
            args = ["--game", options.game, *(["--set", options.selection] if options.selection else [])]
        else:
            cards_root = REPO / "cards"
            args = [str(multisize_pack(work / "pack")), "--locale", "en"]
        rounds = [one_round(cards_root, args) for _ in range(options.rounds)]
    firsts, cards, dones = [r[0] for r in rounds], [r[1] for r in rounds], [r[2] for r in rounds]
    print(f"served: {' '.join(args[:1]) if options.game else 'the multi-size pack'}; {rounds[0][3]} face(s) on the page")
    print(f"load average (1 min): {load_before:.1f} before, {os.getloadavg()[0]:.1f} after, on {os.cpu_count()} cores")
    print(f"first deck page: median {statistics.median(firsts):.2f} s (rounds: {', '.join(f'{t:.2f}' for t in firsts)}); "
          f"goal {GOAL_S:.0f} s")
    cpus = [r[4] for r in rounds]
    print(f"server CPU time up to the first page: median {statistics.median(cpus):.2f} s "
          f"(rounds: {', '.join(f'{t:.2f}' for t in cpus)}; its own work, the rendering process not counted)")
    print(f"first page listing the cards: median {statistics.median(cards):.2f} s "
          f"(rounds: {', '.join(f'{t:.2f}' for t in cards)})")
    print(f"every face drawn and fetched: median {statistics.median(dones):.2f} s "
          f"(rounds: {', '.join(f'{t:.2f}' for t in dones)})")


if __name__ == "__main__":
    main()
