"""Helpers of the own-game tests: a small designer's sheet and art, written to a temporary folder."""

from __future__ import annotations

import csv
from pathlib import Path

from PIL import Image

HEADER = ["name", "type", "cost:number", "power:number:0-9", "text", "art", "quantity", "element:choice", "flavour",
          "artist"]
ROWS = [
    ["Fire Drake", "Creature", "3", "5", "Deals 2 damage.", "drake.png", "2", "Fire", "Hot.", "Ana"],
    ["Ice Wall", "Spell", "2", "", "Stops one attack.", "wall.png", "1", "Water", "", ""],
    ["Spark", "Spell", "1", "", "Deal 1.", "spark.png", "3", "Fire", "", ""],
]
SVG = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><circle cx="32" cy="32" r="30"/></svg>\n'


def write_csv(path: Path, header: list[str], rows: list[list[str]]) -> Path:
    with path.open("w", newline="", encoding="utf-8") as handle:
        csv.writer(handle).writerows([header, *rows])
    return path


def art_folder(folder: Path, names: tuple[str, ...] = ("drake", "spark", "wall")) -> Path:
    """PNG art at 300 dpi for a poker art box (about 700 × 450 pixels), one colour each."""
    folder.mkdir(parents=True, exist_ok=True)
    for number, name in enumerate(names):
        Image.new("RGB", (700, 460), (40 * number % 255, 120, 200)).save(folder / f"{name}.png")
    return folder


def designer(tmp_path: Path, header: list[str] | None = None, rows: list[list[str]] | None = None) -> tuple[Path, Path]:
    """(sheet, art folder) of a small designer's game in ``tmp_path``."""
    sheet = write_csv(tmp_path / "cards.csv", header or HEADER, rows if rows is not None else ROWS)
    return sheet, art_folder(tmp_path / "art")
