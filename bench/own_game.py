"""Measure a game without rules made from a sheet: `cardworks new`, `validate`, and a sheet import adding one card,
for sheets of N cards (plain text cards, three numbers and a choice each).

Run: python bench/own_game.py [--cards 1000 10000]
Goal: a 1,000-card sheet made and validated in under 5 s each; a 100,000-row sheet refused in under 5 s.
"""

from __future__ import annotations

import argparse
import csv
import tempfile
import time
from pathlib import Path

from click.testing import CliRunner

from cardworks.cli.main import cli

HEADER = ["name", "type", "cost:number:0-9", "power:number:0-9", "speed:number:0-9", "colour:choice", "text", "quantity"]


def sheet(path: Path, cards: int, bad_last: bool = False) -> Path:
    rows = [[f"Card {n}", ("Unit", "Spell", "Place")[n % 3], n % 10, (n * 7) % 10, (n * 3) % 10,
             ("Red", "Blue")[n % 2], f"Deal {n % 5} damage.", 1 + n % 3] for n in range(cards)]
    if bad_last:
        rows[-1][2] = "x"
    with path.open("w", newline="", encoding="utf-8") as handle:
        csv.writer(handle).writerows([HEADER, *rows])
    return path


def timed(*args: str) -> tuple[float, int]:
    start = time.perf_counter()
    result = CliRunner().invoke(cli, list(args))
    return time.perf_counter() - start, result.exit_code


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--cards", type=int, nargs="+", default=[1000, 10000])
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="cardworks-own-") as tmp:
        here = Path(tmp)
        for count in args.cards:
            game = here / f"g{count}"
            made, code = timed("new", str(game), "--from", str(sheet(here / f"c{count}.csv", count)))
            assert code == 0
            checked, code = timed("--cards", str(game), "validate")
            assert code == 0
            exported = here / f"e{count}.csv"
            timed("--cards", str(game), "sheet", "export", "--out", str(exported))
            with exported.open("a", newline="", encoding="utf-8") as handle:
                csv.writer(handle).writerow(["cards", "", "Brand New", "unit", "1", "", "", "red", "New.", "1"])
            imported, code = timed("--cards", str(game), "sheet", "import", str(exported))
            assert code == 0
            print(f"{count:>7} cards: new {made:.2f} s, validate {checked:.2f} s, sheet import adding one {imported:.2f} s")
        refused, code = timed("new", str(here / "big"), "--from", str(sheet(here / "big.csv", 100_000, bad_last=True)))
        assert code == 1 and not (here / "big").exists()
        print(f"100,000 rows, one bad cell in the last: refused in {refused:.2f} s, nothing written")


if __name__ == "__main__":
    main()
