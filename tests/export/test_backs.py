"""Exports of a pack whose backs are per card type (issue 14): each card leaves with its own back, read back
from the files (the saved object's back URLs and images, the print-shop PDF's pages)."""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path

import pikepdf
import pytest
from PIL import Image

from conftest import REPO, run_cli

GOLD, NAVY, RED = (230, 180, 20), (16, 32, 96), (170, 20, 30)
BACKS = {"treasure": ("gold", GOLD), "battle": ("navy", NAVY), "special": ("red", RED)}


def _pack(folder: Path) -> Path:
    """The example pack with a back of its own for each card type it holds: gold for treasures, navy for
    battles, red for specials (no common back)."""
    shutil.copytree(REPO / "examples" / "fallera-pack", folder)
    for name, colour in BACKS.values():
        (folder / "art").mkdir(exist_ok=True)
        Image.new("RGB", (830, 1130), colour).save(folder / "art" / f"{name}.png")  # 300 dpi over trim + bleed
    manifest = json.loads((folder / "pack.json").read_text(encoding="utf-8"))
    manifest["backs"] = {kind: {"art": f"art/{name}.png"} for kind, (name, _) in BACKS.items()}
    (folder / "pack.json").write_text(json.dumps(manifest), encoding="utf-8")
    return folder


def _near(pixel: tuple[int, ...], colour: tuple[int, int, int]) -> bool:
    return all(abs(a - b) <= 12 for a, b in zip(pixel, colour))


@pytest.mark.slow
def test_tts_and_print_shop_exports_give_each_card_its_own_back(tmp_path: Path) -> None:
    pack = _pack(tmp_path / "pack")
    types = {c["id"]: c["types"][0] for c in json.loads((pack / "sets/example.json").read_text())["cards"]}
    assert set(types.values()) == set(BACKS), "the pack's card types changed: give each its own back here"
    tts = tmp_path / "tts"
    run = run_cli("--cards", str(REPO / "cards"), "export", "tts", str(pack), "--out", str(tts))
    assert run.exit_code == 0, run.output
    saved = json.loads(next(tts.glob("fallera-*.json")).read_text(encoding="utf-8"))
    decks = saved["ObjectStates"]
    assert len(decks) == len(BACKS)  # one deck object per back
    cards = [card for deck in decks for card in deck["ContainedObjects"]]
    assert {c["GMNotes"] for c in cards} == set(types)
    for card in cards:
        back_url = next(iter(card["CustomDeck"].values()))["BackURL"]
        image = tts / back_url.rsplit("/", 1)[1]
        assert image.name == f"back-type-{types[card['GMNotes']]}.png", card["GMNotes"]
        with Image.open(image) as back:
            expected = BACKS[types[card["GMNotes"]]][1]
            assert _near(back.convert("RGB").getpixel((back.width // 2, back.height // 2)), expected), image.name
    assert not (tts / "back.png").exists()  # no card of this pack has the common back

    shop = tmp_path / "shop"
    run = run_cli("--cards", str(REPO / "cards"), "export", "print-shop", str(pack), "--profile", "pdf", "--out", str(shop))
    assert run.exit_code == 0, run.output
    record = json.loads((shop / "export.json").read_text(encoding="utf-8"))
    pdf = pikepdf.open(shop / record["files"][0])
    assert len(pdf.pages) == len(types) + len(BACKS) and sorted(record["backs"]) == sorted(f"back-type-{t}" for t in BACKS)
    with (shop / "quantities.csv").open(encoding="utf-8", newline="") as handle:
        rows = {row["card_id"]: int(row["copies"]) for row in csv.DictReader(handle)}
    deck = json.loads((pack / "sets/example.json").read_text())["cards"]
    for kind in BACKS:
        assert rows[f"back-type-{kind}"] == sum(c["quantity"] for c in deck if c["types"][0] == kind), kind
