"""Measure the preview's edit-to-screen time: a card's rules text edited on disk → the new face in the open page.

Run: python bench/serve.py [--rounds 5]
A copy of the shipped database is served (`cardworks serve --game fallera`,
the expert deck, 91 designs) and its deck page opened in Debian's headless
Chromium. Each round edits one card's rules text (a different card each time)
the way an editor saves (a new file renamed over the old one) and polls the
page until that card's image has a new URL and has loaded. The baseline, in
the same run, is the loop before the preview: rebuild the deck (`cardworks
build --set expert --locale en --no-docs`, faces for the changed input) to
see the change in a PDF.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from cardworks.render.build import BuildOptions, build

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))
from browser import chromium, server  # noqa: E402  (the tests' Selenium helper: not part of the product)
GOAL_S = 2.0
"""Edit-to-screen time on the expert deck (issue 19)."""


def save(path: Path, data: dict) -> None:
    temporary = path.with_name(path.name + ".tmp~")
    temporary.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    temporary.replace(path)


def edit_rules(set_file: Path, index: int, round_number: int) -> str:
    """Change the rules text of the ``index``-th card with rules in ``set_file``; its id."""
    data = json.loads(set_file.read_text(encoding="utf-8"))
    card = [c for c in data["cards"] if c.get("rules")][index]
    card["rules"] = card["rules"].rstrip(".") + f", edit {round_number}."
    save(set_file, data)
    return card["id"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        cards_root = work / "cards"
        shutil.copytree(REPO / "cards" / "fallera", cards_root / "fallera")
        set_files = sorted((cards_root / "fallera" / "sets").glob("*.json"))
        times = []
        parts: list[tuple[float, float]] = []
        with server(cards_root, "--game", "fallera") as url, chromium(work / "profile") as driver:
            start = time.perf_counter()
            driver.get(url + "/deck")
            count = driver.execute_script("return document.querySelectorAll('#tiles img.face').length")
            print(f"deck page of the expert deck ({count} faces) first shown after {time.perf_counter() - start:.2f} s "
                  "(every face rendered once)")
            for number in range(args.rounds):
                set_file = set_files[number % len(set_files)]
                card_id = [c for c in json.loads(set_file.read_text(encoding="utf-8"))["cards"] if c.get("rules")][number]["id"]
                selector = f"#tile-{card_id} img.face"
                old = driver.execute_script("return document.querySelector(arguments[0]).getAttribute('src')", selector)
                start = time.perf_counter()
                edit_rules(set_file, number, number)
                while not driver.execute_script(
                        "const img = document.querySelector(arguments[0]);"
                        "return img !== null && img.getAttribute('src') !== arguments[1] && img.complete && img.naturalWidth > 0;",
                        selector, old):
                    if time.perf_counter() - start > 30:
                        sys.exit(f"round {number}: the page did not show the new face of {card_id} within 30 s")
                    time.sleep(0.01)
                elapsed = time.perf_counter() - start
                times.append(elapsed)
                server_side = driver.execute_script("return Object.assign({}, document.getElementById('refresh-timing').dataset)")
                parts.append((float(server_side["read"]), float(server_side["faces"])))
                print(f"round {number + 1}: {card_id} ({set_file.name}) rules edited → new face in the page: {elapsed:.2f} s "
                      f"(server: data read and validated {parts[-1][0]:.2f} s, {server_side['count']} face drawn "
                      f"{parts[-1][1]:.2f} s)")
                time.sleep(0.3)  # let the page settle before the next save
        options = BuildOptions(out=work / "build", game="fallera", selection="expert", locales=["en"], documents=False)
        build(cards_root, options)  # the last good build, as a designer would have it
        edit_rules(set_files[0], 0, 99)
        start = time.perf_counter()
        build(cards_root, options)
        rebuild = time.perf_counter() - start
    median = statistics.median(times)
    print(f"edit to screen: median {median:.2f} s, worst {max(times):.2f} s over {len(times)} edits (goal < {GOAL_S:.0f} s: "
          f"{'met' if max(times) < GOAL_S else 'NOT met'})")
    read, faces = (statistics.median(p[i] for p in parts) for i in (0, 1))
    print(f"median split: reading and validating the data {read:.2f} s, drawing the face {faces:.2f} s, "
          f"the rest (noticing the save, the page fetching itself and the image) {median - read - faces:.2f} s")
    print(f"baseline, same run: rebuilding the deck's PDF after the edit takes {rebuild:.2f} s "
          f"({rebuild / median:.1f}× the preview's median)")


if __name__ == "__main__":
    main()
