"""Issue 44, read back from the written files: one product per card size for each shop, PDF/X pages flattened only
where transparency needs it (pdffonts per page), and refusals that name the card, its set and its art file."""

from __future__ import annotations

import csv
import json
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pikepdf
import pytest
from PIL import Image

from cardworks.render.impose import MM
from conftest import REPO, run_cli

pytestmark = pytest.mark.slow

CARDS = REPO / "cards"
SCHEMA = "../../../schema/set.schema.json"
SOURCE = [{"doc": "designer-notes", "certainty": "stated"}]


def _card(card_id: str, art: str | None = None) -> dict:
    card = {"id": card_id, "quantity": 2, "types": ["battle"], "stats": {"attack": 2, "defence": 1},
            "name": card_id.replace("-", " "), "rules": "Win a battle against a rival.", "sources": SOURCE}
    if art:
        card["art"] = art
    return card


def _pack(folder: Path, sets: dict[str, tuple[float, float] | None]) -> Path:
    """The example pack (poker cards) plus one two-card set per entry of ``sets`` (its size, or the game's)."""
    shutil.copytree(REPO / "examples" / "fallera-pack", folder)
    manifest = json.loads((folder / "pack.json").read_text(encoding="utf-8"))
    manifest["documents"] = [{"id": "designer-notes", "title": "The designer's own notes"}]
    (folder / "pack.json").write_text(json.dumps(manifest), encoding="utf-8")
    for order, (set_id, size) in enumerate(sets.items(), start=12):
        document = {"$schema": SCHEMA, "id": set_id, "name": set_id, "order": order,
                    "cards": [_card(f"{set_id}-a"), _card(f"{set_id}-b")]}
        if size:
            document["card_size"] = {"width_mm": size[0], "height_mm": size[1]}
        (folder / "sets" / f"{set_id}.json").write_text(json.dumps(document), encoding="utf-8")
    return folder


SIZES = {"mini": (44.45, 63.5), "square": (70, 70)}


@pytest.fixture(scope="module")
def pack(tmp_path_factory) -> Path:
    return _pack(tmp_path_factory.mktemp("sizes") / "pack", SIZES)


def _export(pack: Path, profile: str, out: Path, *args: str):
    return run_cli("--cards", str(CARDS), "export", "print-shop", str(pack), "--profile", profile, "--locale", "en",
                   "--out", str(out), *args)


def _trim_and_bleed(page: pikepdf.Page) -> tuple[tuple[float, float], list[float]]:
    trim = [float(v) / MM for v in page.TrimBox]
    bleed = [float(v) / MM for v in page.BleedBox]
    return (trim[2] - trim[0], trim[3] - trim[1]), [trim[0] - bleed[0], trim[1] - bleed[1], bleed[2] - trim[2],
                                                    bleed[3] - trim[3]]


def test_drivethrucards_writes_one_pdf_per_size_with_each_sizes_boxes(pack: Path, tmp_path: Path) -> None:
    out = tmp_path / "dtc"
    run = _export(pack, "drivethrucards", out)
    assert run.exit_code == 0, run.output
    record = json.loads((out / "export.json").read_text(encoding="utf-8"))
    products = {p["size"]: p for p in record["products"]}
    assert set(products) == {"poker", "mini", "square"}
    wanted = {"poker": (63, 88), "mini": SIZES["mini"], "square": SIZES["square"]}
    for size, product in products.items():
        assert product["files"] == [f"fallera-example-set+mini+square-en-{size}.pdf"], product["files"]
        assert product["bleed_mm"] == pytest.approx(3.175) and product["format"] == "pdf-x1a"
        assert product["colour"] == "CMYK" and product["source"]
        pdf = pikepdf.open(out / product["files"][0])
        assert len(pdf.pages) == 2 * product["cards"]  # front and back of every card of that size
        for page in pdf.pages:
            trim, sides = _trim_and_bleed(page)
            assert trim == pytest.approx(wanted[size], abs=0.01), (size, trim)
            assert sides == pytest.approx([3.175] * 4, abs=0.01)
    assert products["mini"]["unverified"] and products["poker"]["unverified"] is None  # poker is the shop's own page
    assert "mini (44.45 × 63.5 mm)" in run.output and "unverified: DriveThruCards' list" in run.output
    with (out / "quantities.csv").open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert {row["product"] for row in rows} == {"poker", "mini", "square"}
    assert all(row["file"].endswith(f"-{row['product']}.pdf") for row in rows)


def test_the_game_crafter_writes_a_folder_of_pngs_per_size_at_its_canvas(pack: Path, tmp_path: Path) -> None:
    out = tmp_path / "tgc"
    run = _export(pack, "thegamecrafter", out)
    assert run.exit_code == 0, run.output
    canvases = {"poker": (825, 1125), "mini": (600, 825), "euro-square": (900, 900)}
    record = json.loads((out / "export.json").read_text(encoding="utf-8"))
    assert {p["size"] for p in record["products"]} == set(canvases)
    for size, canvas in canvases.items():
        pngs = sorted((out / "png" / size).glob("*.png"))
        assert len(pngs) >= 3, size  # two designs (the poker set has more) and the size's back
        for path in pngs:
            with Image.open(path) as image:
                assert image.size == canvas, (path.name, image.size)


def test_a_size_the_shop_does_not_sell_is_refused_by_name(pack: Path, tmp_path: Path) -> None:
    run = _export(pack, "makeplayingcards", tmp_path / "mpc")
    assert run.exit_code == 2, run.output
    assert "set 'square' is 70 × 70 mm" in run.output and "mini" not in run.output.split("it takes")[0]
    assert not (tmp_path / "mpc").exists()
    smaller = _pack(tmp_path / "pack", {"mini": SIZES["mini"]})
    run = _export(smaller, "makeplayingcards", tmp_path / "mpc")
    assert run.exit_code == 0, run.output
    pngs = sorted((tmp_path / "mpc" / "png" / "mini").glob("*.png"))
    assert pngs
    for path in pngs:
        with Image.open(path) as image:
            assert image.size == (597, 822)
    assert "mini (44.45 × 63.5 mm)" in run.output and "unverified: inferred" in run.output


def _art_pack(folder: Path) -> Path:
    """A pack with PNG art (one opaque, one with an alpha channel, one card without art) and a small stylesheet."""
    _pack(folder, {})
    (folder / "art").mkdir()
    rng = np.random.default_rng(3)
    rgb = rng.integers(0, 255, (700, 700, 3), dtype=np.uint8)
    Image.fromarray(rgb, "RGB").save(folder / "art" / "opaque.png", dpi=(300, 300))
    alpha = np.zeros((700, 700), dtype=np.uint8)
    alpha[100:600, 100:600], alpha[300:400] = 255, 128
    Image.fromarray(np.dstack([rgb, alpha]), "RGBA").save(folder / "art" / "alpha.png", dpi=(300, 300))
    (folder / "templates" / "fallera").mkdir(parents=True)
    (folder / "templates" / "fallera" / "cards.css").write_text(
        ":root { --back-colour: #203040; --back-accent: #e8b923; }\n.name { letter-spacing: 0.02em; }\n",
        encoding="utf-8")
    document = {"$schema": SCHEMA, "id": "art-set", "name": "Art set", "order": 11,
                "cards": [_card("art-1", "art/opaque.png"), _card("art-2", "art/alpha.png"), _card("art-3")]}
    for card in document["cards"]:
        card["quantity"] = 1
    (folder / "sets" / "art.json").write_text(json.dumps(document), encoding="utf-8")
    return folder


def _fonts_on(path: Path, page: int) -> list[str]:
    return subprocess.run(["pdffonts", "-f", str(page), "-l", str(page), str(path)], capture_output=True, text=True,
                          check=True).stdout.splitlines()[2:]


def _images_on(path: Path) -> dict[int, int]:
    rows = subprocess.run(["pdfimages", "-list", str(path)], capture_output=True, text=True,
                          check=True).stdout.splitlines()[2:]
    counts: dict[int, int] = {}
    for row in rows:
        counts[int(row.split()[0])] = counts.get(int(row.split()[0]), 0) + 1
    return counts


def test_pdfx_flattens_only_the_page_whose_art_has_alpha(tmp_path: Path) -> None:
    out = tmp_path / "dtc"
    run = _export(_art_pack(tmp_path / "pack"), "drivethrucards", out, "--set", "art-set")
    assert run.exit_code == 0, run.output
    record = json.loads((out / "export.json").read_text(encoding="utf-8"))
    path = out / record["files"][0]
    cards = record["page_cards"][record["files"][0]]
    assert cards == ["art-1", "back", "art-2", "back", "art-3", "back"]
    assert record["flattened"] == [{"file": record["files"][0], "page": 3, "card": "art-2",
                                    "why": ["an image with an alpha channel"]}]
    assert "flattened: 1 page(s) into images" in run.output and "an image with an alpha channel: art-2" in run.output
    images = _images_on(path)
    for number, card in enumerate(cards, 1):
        fonts = _fonts_on(path, number)
        if card == "art-2":  # one image of the whole page: its text is in the picture
            assert fonts == [] and images.get(number) == 1
        else:
            assert fonts and all(row.split()[-5] == "yes" for row in fonts), (number, card, fonts)
        if card == "back":
            assert number not in images  # a plain back stays vector
    assert images.get(1, 0) >= 1  # the opaque art stays an image of its own, under vector text


def test_low_resolution_art_is_refused_naming_card_set_and_file(tmp_path: Path) -> None:
    pack = _pack(tmp_path / "pack", {})
    (pack / "art").mkdir()
    Image.fromarray(np.random.default_rng(1).integers(0, 255, (240, 420, 3), dtype=np.uint8), "RGB").save(
        pack / "art" / "low.png", dpi=(300, 300))
    document = {"$schema": SCHEMA, "id": "low-set", "name": "Low set", "order": 20, "cards": [_card("low-1", "art/low.png")]}
    (pack / "sets" / "low.json").write_text(json.dumps(document), encoding="utf-8")
    run = _export(pack, "pdf", tmp_path / "out", "--set", "low-set")
    assert run.exit_code == 1, run.output
    assert "page 1 (card low-1, set low-set, art art/low.png): 420 × 240 px image at 196.6 ppi" in run.output
    assert not (tmp_path / "out").exists()
