"""Draw Lantern Market's art: one picture per card, named as the card's id (its name in lowercase with hyphens,
the way `cardworks new` mints ids), and the lantern icon.

Run it from this folder: `python3 make_art.py` writes `art/`. Every picture is made from the card's name
alone (a night sky, a few lanterns, a stall roof), so the same name always draws the same picture.
"""

from __future__ import annotations

import csv
import hashlib
import re
import unicodedata
from pathlib import Path

from PIL import Image, ImageDraw

HERE = Path(__file__).resolve().parent
SIZE = (720, 480)
"""Pixels: more than 300 dpi across the art box of a poker card (about 55 × 37 mm)."""
COLOURS = {"red": (214, 69, 65), "blue": (66, 120, 201), "green": (72, 160, 98), "gold": (232, 185, 35)}
LANTERN = """<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">
<rect x="26" y="4" width="12" height="8" rx="2" fill="#3b3127"/>
<ellipse cx="32" cy="34" rx="18" ry="22" fill="#e8b923" stroke="#3b3127" stroke-width="4"/>
<rect x="26" y="54" width="12" height="6" rx="2" fill="#3b3127"/>
</svg>
"""


def card_id(name: str) -> str:
    """The id `cardworks new` mints from a name (lowercase ASCII letters and digits, hyphens between)."""
    text = "".join(ch for ch in unicodedata.normalize("NFKD", name) if not unicodedata.combining(ch)).lower()
    return re.sub(r"[^a-z0-9]+", "-", text).strip("-")


def draw(name: str, lantern: str) -> Image.Image:
    seed = hashlib.sha256(name.encode("utf-8")).digest()
    image = Image.new("RGB", SIZE, (24 + seed[0] % 30, 28 + seed[1] % 30, 60 + seed[2] % 50))
    pen = ImageDraw.Draw(image)
    colour = COLOURS[lantern]
    pen.polygon([(60, 330), (360, 190 + seed[3] % 60), (660, 330)], fill=tuple(c // 2 for c in colour))
    pen.rectangle((110, 330, 610, 470), fill=(90, 62, 40))
    for number in range(3 + seed[4] % 4):
        x = 80 + (seed[5 + number] * 7 + number * 150) % 560
        y = 50 + seed[10 + number] % 120
        pen.line((x, 0, x, y), fill=(200, 200, 200), width=3)
        pen.ellipse((x - 26, y, x + 26, y + 64), fill=colour, outline=(250, 240, 200), width=4)
    return image


def main() -> None:
    out = HERE / "art"
    (out / "icons").mkdir(parents=True, exist_ok=True)
    (out / "icons" / "lantern.svg").write_text(LANTERN, encoding="utf-8")
    with (HERE / "cards.csv").open(encoding="utf-8", newline="") as sheet:
        rows = list(csv.DictReader(sheet))
    for row in rows:
        draw(row["name"], row["lantern:choice"].lower()).save(out / f"{card_id(row['name'])}.png", optimize=True)
    print(f"{out}: {len(rows)} pictures and 1 icon")


if __name__ == "__main__":
    main()
