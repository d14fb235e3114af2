"""``export print-shop``: files read back (pikepdf, pdffonts, Pillow, Ghostscript), not trusted."""

from __future__ import annotations

import csv
import json
import shutil
import subprocess
from pathlib import Path

import pikepdf
import pytest
from PIL import Image

from cardworks.export.ink import colour_ink
from cardworks.export.printshop import ExportResult, export_print_shop
from cardworks.loading import load_database
from cardworks.render.deck import build_deck
from cardworks.render.impose import MM
from conftest import REPO, run_cli, snapshot

pytestmark = pytest.mark.slow

CARDS = REPO / "cards"
DECK = {"game": "fallera", "selection": "discordia", "locale": "en"}
"""Expansion 2 alone (17 designs): a real deck of the shipped database, small enough to export quickly."""


@pytest.fixture(scope="module")
def shop_exports(tmp_path_factory) -> dict[str, ExportResult]:
    """The deck exported for three profiles."""
    root = tmp_path_factory.mktemp("exports")
    return {name: export_print_shop(CARDS, name, out=root / name, jobs=2, **DECK)
            for name in ("drivethrucards", "thegamecrafter", "pdf")}


def _deck():
    return build_deck(load_database(CARDS / "fallera"), DECK["selection"])


def _quantities(folder: Path) -> list[dict[str, str]]:
    with (folder / "quantities.csv").open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


def test_drivethrucards_is_pdfx_cmyk_with_trim_inside_eighth_inch_bleed(shop_exports) -> None:
    result = shop_exports["drivethrucards"]
    deck = _deck()
    pdf = pikepdf.open(result.folder / result.files[0])
    intents = pdf.Root.OutputIntents
    assert intents[0].S == "/GTS_PDFX" and int(intents[0].DestOutputProfile.N) == 4
    assert str(pdf.trailer.Info.GTS_PDFXVersion) == "PDF/X-1a:2003"
    assert len(pdf.pages) == 2 * deck.physical_cards  # front and back of every physical card
    for page in pdf.pages:
        trim = [float(v) / MM for v in page.TrimBox]
        bleed = [float(v) / MM for v in page.BleedBox]
        assert trim[2] - trim[0] == pytest.approx(63, abs=0.01) and trim[3] - trim[1] == pytest.approx(88, abs=0.01)
        assert [trim[0] - bleed[0], trim[1] - bleed[1], bleed[2] - trim[2], bleed[3] - trim[3]] == \
            pytest.approx([3.175] * 4, abs=0.01)
        operators = {str(op) for _, op in pikepdf.parse_content_stream(page)}
        assert "k" in operators and not operators & {"rg", "RG", "g", "G"}  # CMYK colours only
    assert colour_ink(pdf) <= 2.4 + 1e-6
    fonts = subprocess.run(["pdffonts", str(result.folder / result.files[0])], capture_output=True, text=True).stdout
    rows = fonts.splitlines()[2:]
    assert rows and all(row.split()[-5] == "yes" for row in rows)  # every font embedded


def test_drivethrucards_pages_alternate_front_and_back(shop_exports) -> None:
    result = shop_exports["drivethrucards"]
    pdf = pikepdf.open(result.folder / result.files[0])
    text = subprocess.run(["pdftotext", "-layout", str(result.folder / result.files[0]), "-"],
                          capture_output=True, text=True).stdout.split("\f")
    title = "La Fallera Calavera"
    backs = [i for i, page in enumerate(text[: len(pdf.pages)]) if title in page and len(page.split()) <= 6]
    assert backs == list(range(1, len(pdf.pages), 2))


def test_preflight_passes_on_every_export_and_is_recorded(shop_exports) -> None:
    for name, result in shop_exports.items():
        assert result.reports and all(r.ok for r in result.reports), name
        run = run_cli("preflight", str(result.folder))
        assert run.exit_code == 0, run.output
        assert "FAIL" not in run.output
    record = json.loads((shop_exports["drivethrucards"].folder / "export.json").read_text())
    assert record["profile"] == "drivethrucards" and record["unverified"]["page_order"]


def test_thegamecrafter_pngs_are_825_by_1125_rgb_at_300_dpi(shop_exports) -> None:
    result = shop_exports["thegamecrafter"]
    deck = _deck()
    assert len(result.files) == len(deck.cards) + 1
    for relative in result.files:
        with Image.open(result.folder / relative) as image:
            assert image.size == (825, 1125) and image.mode == "RGB"
            assert image.info["dpi"] == pytest.approx((300, 300), abs=0.01)


def test_quantities_list_matches_the_deck(shop_exports) -> None:
    deck = _deck()
    copies = {entry.card.id: entry.copies for entry in deck.cards}
    for name, result in shop_exports.items():
        rows = _quantities(result.folder)
        assert {row["card_id"]: int(row["copies"]) for row in rows if row["card_id"] != "back"} == copies, name
        assert all((result.folder / row["file"]).is_file() for row in rows)
        back = next(row for row in rows if row["card_id"] == "back")
        assert int(back["copies"]) == deck.physical_cards
    pngs = {row["card_id"]: row["file"] for row in _quantities(shop_exports["thegamecrafter"].folder)}
    assert all(path == f"png/poker/{card}.png" for card, path in pngs.items())


def test_preflight_rejects_an_rgb_file_for_drivethrucards(shop_exports) -> None:
    plain = shop_exports["pdf"]
    run = run_cli("preflight", str(plain.folder / plain.files[0]), "--profile", "drivethrucards")
    assert run.exit_code == 1
    for failed in ("page boxes", "colour space", "output intent", "total ink"):
        assert f"FAIL {failed}" in run.output
    assert "bleed 3.00 mm, DriveThruCards wants 3.175 mm" in run.output


def test_bad_profile_missing_ghostscript_and_foreign_folder_write_nothing(tmp_path: Path, monkeypatch) -> None:
    run = run_cli("--cards", str(CARDS), "export", "print-shop", "--profile", "kinkos", "--out", str(tmp_path / "a"))
    assert run.exit_code == 2 and "'kinkos' is not one of 'drivethrucards', 'makeplayingcards', 'pdf'" in run.output
    monkeypatch.setenv("CARDWORKS_GS", str(tmp_path / "no-gs"))
    run = run_cli("--cards", str(CARDS), "export", "print-shop", "--profile", "drivethrucards", "--game", "fallera",
                  "--out", str(tmp_path / "b"))
    assert run.exit_code == 2 and "Ghostscript" in run.output
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("keep me")
    monkeypatch.delenv("CARDWORKS_GS")
    run = run_cli("--cards", str(CARDS), "export", "print-shop", "--game", "fallera", "--set", "discordia",
                  "--out", str(mine))
    assert run.exit_code == 2 and "not written by a cardworks export" in run.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mine"] and snapshot(mine) == {"notes.txt": b"keep me"}


def test_a_deck_of_another_card_size_is_refused(tmp_path: Path) -> None:
    cards = tmp_path / "cards"
    shutil.copytree(CARDS / "fallera", cards / "fallera")
    game = json.loads((cards / "fallera" / "game.json").read_text())
    game["card_size"] = {"width_mm": 44, "height_mm": 68}
    (cards / "fallera" / "game.json").write_text(json.dumps(game, indent=2, ensure_ascii=False) + "\n")
    run = run_cli("--cards", str(cards), "export", "print-shop", "--profile", "thegamecrafter", "--game", "fallera",
                  "--out", str(tmp_path / "out"))
    assert run.exit_code == 2 and "44 × 68 mm" in run.output
    assert not (tmp_path / "out").exists()


def test_drivethrucards_keeps_every_page_of_the_shipped_deck_vector(shop_exports) -> None:
    """No page of the shipped (art-less) deck needs transparency: none is flattened, each has its fonts."""
    result = shop_exports["drivethrucards"]
    assert result.flattened == []
    path = result.folder / result.files[0]
    pages = len(pikepdf.open(path).pages)
    for number in range(1, pages + 1):
        rows = subprocess.run(["pdffonts", "-f", str(number), "-l", str(number), str(path)], capture_output=True,
                              text=True, check=True).stdout.splitlines()[2:]
        assert rows and all(row.split()[-5] == "yes" for row in rows), (number, rows)
    assert pages > 0
    images = subprocess.run(["pdfimages", "-list", str(path)], capture_output=True, text=True).stdout.splitlines()[2:]
    assert images == []  # no page became a picture
