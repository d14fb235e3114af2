"""The renderer, end to end on the shipped database: PDFs read back, not trusted."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import pikepdf
import pytest
from pypdf import PdfReader

from cardworks.loading import load_database
from cardworks.render.deck import build_deck
from cardworks.render.impose import MM, SheetLayout
from cardworks.render.typography import curly
from conftest import REPO, run_cli

pytestmark = pytest.mark.slow  # every test here builds the shipped Fallera deck (PDFs, PNGs) or a copy of it

CARDS = REPO / "cards"
A4 = (210 * MM, 297 * MM)


def _build(out: Path, *args: str) -> dict:
    run = run_cli("--cards", str(CARDS), "build", "--out", str(out), "--game", "fallera", "--no-docs", *args)
    assert run.exit_code == 0, run.output
    return {r["kind"] + ":" + (r["locale"] or ""): r for r in json.loads((out / "manifest.json").read_text())["outputs"]}


@pytest.fixture(scope="module")
def base_build(tmp_path_factory) -> tuple[Path, dict]:
    out = tmp_path_factory.mktemp("build")
    return out, _build(out, "--set", "base", "--locale", "en", "--png", "--jobs", "1")


def _placements(page: pikepdf.Page) -> tuple[list[tuple[str, float, float]], list[tuple[float, float, float, float]]]:
    """Form XObjects drawn on a sheet (name, x, y of the trim corner in mm) and mark segments in mm."""
    placed, segments, cm, point = [], [], None, None
    for operands, operator in pikepdf.parse_content_stream(page):
        op = str(operator)
        if op == "cm":
            cm = [float(v) for v in operands]
        elif op == "Do":
            placed.append((str(operands[0]), cm[4] / MM + 3.0, cm[5] / MM + 3.0))
        elif op == "m":
            point = [float(v) / MM for v in operands]
        elif op == "l":
            end = [float(v) / MM for v in operands]
            segments.append((*point, *end))
    return placed, segments


def test_manifest_lists_every_output_with_hash_and_pages(base_build) -> None:
    out, records = base_build
    sheet = records["cards:en"]
    data = (out / sheet["path"]).read_bytes()
    assert sheet["sha256"] == hashlib.sha256(data).hexdigest()
    assert sheet["pages"] == len(PdfReader(out / sheet["path"]).pages)
    assert sheet["selection"] == "base" and sheet["paper"] == "a4"


def test_sheets_are_a4_with_fronts_and_mirrored_backs(base_build) -> None:
    out, records = base_build
    pdf = pikepdf.open(out / records["cards:en"]["path"])
    deck = build_deck(load_database(CARDS / "fallera"), "base")
    sheets = -(-deck.physical_cards // 9)
    opening = records["cards:en"]["contents_pages"]
    assert opening == 2, "the contents page and a blank, so that fronts stay on the front side when printed duplex"
    assert len(pdf.pages) == opening + 2 * sheets
    for page in pdf.pages:
        assert [float(v) for v in page.mediabox] == pytest.approx([0, 0, *A4], abs=0.01)
    layout = SheetLayout()
    fronts, _ = _placements(pdf.pages[opening])
    backs, back_marks = _placements(pdf.pages[opening + 1])
    assert len(fronts) == len(backs) == 9 and back_marks == []
    assert len({name for name, _, _ in backs}) == 1
    for i, (_, x, y) in enumerate(fronts):
        cols = 3
        row, col = divmod(i, cols)
        _, bx, by = backs[i]
        assert (bx, by) == pytest.approx(layout.cells()[row * cols + (cols - 1 - col)], abs=0.01)
        assert (x, y) == pytest.approx(layout.cells()[i], abs=0.01)


def test_crop_marks_sit_on_card_edges(base_build) -> None:
    out, records = base_build
    pdf = pikepdf.open(out / records["cards:en"]["path"])
    placed, marks = _placements(pdf.pages[records["cards:en"]["contents_pages"]])
    xs = {round(v, 3) for _, x, _ in placed for v in (x, x + 63)}
    ys = {round(v, 3) for _, _, y in placed for v in (y, y + 88)}
    assert marks
    for x1, y1, x2, y2 in marks:
        if x1 == pytest.approx(x2, abs=1e-6):  # vertical tick: on a vertical cut line
            assert min(abs(x1 - x) for x in xs) < 0.1
        else:
            assert y1 == pytest.approx(y2, abs=1e-6) and min(abs(y1 - y) for y in ys) < 0.1
    for x1, y1, x2, y2 in marks:  # no mark over a card
        for _, x, y in placed:
            assert not (min(x1, x2) < x + 63 - 0.01 and max(x1, x2) > x + 0.01
                        and min(y1, y2) < y + 88 - 0.01 and max(y1, y2) > y + 0.01)


def test_every_card_appears_as_often_as_its_copies(base_build) -> None:
    out, records = base_build
    pdf = pikepdf.open(out / records["cards:en"]["path"])
    shop = pikepdf.open(out / records["cards-print-shop:en"]["path"])
    deck = build_deck(load_database(CARDS / "fallera"), "base")
    counts: dict[str, int] = {}
    for page in pdf.pages[records["cards:en"]["contents_pages"]::2]:
        for name, _, _ in _placements(page)[0]:
            counts[name] = counts.get(name, 0) + 1
    assert sorted(counts.values()) == sorted(c.copies for c in deck.cards)
    # and each placed form is the face whose print-shop page names that card
    reader = PdfReader(out / records["cards-print-shop:en"]["path"])
    for index, entry in enumerate(deck.cards):
        text = re.sub(r"\s+", " ", reader.pages[index].extract_text())
        assert counts[f"/F{index}"] == entry.copies
        assert entry.card.name.split()[0] in text, (entry.card.id, text[:80])
    assert len(shop.pages) == len(deck.cards) + 1


def test_print_shop_pages_have_trim_and_bleed_boxes(base_build) -> None:
    out, records = base_build
    reader = PdfReader(out / records["cards-print-shop:en"]["path"])
    assert reader.pages
    for page in reader.pages:
        media = [float(v) / MM for v in page.mediabox]
        trim = [float(v) / MM for v in page.trimbox]
        assert media == pytest.approx([0, 0, 69, 94], abs=0.01)
        assert trim == pytest.approx([3, 3, 66, 91], abs=0.01)
        assert [float(v) / MM for v in page.bleedbox] == pytest.approx(media, abs=0.01)


def test_pngs_are_300_dpi(base_build) -> None:
    from PIL import Image

    out, records = base_build
    pngs = [r for r in json.loads((out / "manifest.json").read_text())["outputs"] if r["kind"] == "card-png"]
    assert pngs
    with Image.open(out / pngs[0]["path"]) as image:
        assert image.size == (815, 1110)


def test_placeholder_art_fills_only_the_art_box(base_build) -> None:
    """The art is painted after layout: many tints inside the art box, one picture per card, paper beside it."""
    from PIL import Image

    out, _ = base_build
    panel = 3 + 2.6 + 0.35  # bleed, panel inset, panel border: the panel's paper starts here (mm)
    art_left, art_top = panel + 1.6 + 0.25, panel + 9.4 + 0.25  # inside the art box's border

    def region(card: str, left: float, top: float, right: float, bottom: float) -> Image.Image:
        with Image.open(out / f"fallera/en/print-shop/png-base/{card}.png") as image:
            return image.convert("RGB").crop(tuple(round(v * 300 / 25.4) for v in (left, top, right, bottom)))

    arts = [region(card, art_left + 0.5, art_top + 0.5, 69 - art_left - 0.5, art_top + 30.5)
            for card in ("aeroport-fantasma", "aigua-de-valencia")]
    for art in arts:
        assert len(set(art.getdata())) > 20, "the art box is empty"
    assert arts[0].tobytes() != arts[1].tobytes(), "two cards drew the same picture"
    beside = region("aeroport-fantasma", panel + 0.3, art_top, art_left - 0.6, art_top + 30)
    assert set(beside.getdata()) == {(0xFB, 0xF7, 0xEE)}, "the art spilled out of its box"


def test_rules_text_and_no_assumed_value_on_faces(base_build) -> None:
    out, records = base_build
    reader = PdfReader(out / records["cards-print-shop:en"]["path"])
    deck = build_deck(load_database(CARDS / "fallera"), "base")
    by_id = {entry.card.id: i for i, entry in enumerate(deck.cards)}
    moro = reader.pages[by_id["el-capita-moro"]].extract_text()
    assert "4" in moro and "1" in moro
    sangonera = reader.pages[by_id["el-tio-sangonera"]].extract_text()
    assert not re.search(r"\d", sangonera.split("Sangonera", 1)[1].split("Just like")[0]), sangonera  # A/D unknown: none printed
    paella = re.sub(r"\s+", " ", reader.pages[by_id["paella-protectora"]].extract_text())
    assert "paella protectora 2" in paella and "n2" not in paella  # the rank once: the icon reads "n", then 2


def test_two_player_deck_has_no_ii_cards(tmp_path: Path) -> None:
    _build(tmp_path, "--set", "base", "--locale", "en", "--players", "2")
    deck = build_deck(load_database(CARDS / "fallera"), "base", players=2)
    assert set(deck.removed) == {"cabeca-d-alls", "el-butoni", "la-riua", "lluna-de-valencia", "dansa-de-la-magrana"}
    pages = PdfReader(tmp_path / "fallera/en/print-shop/cards-base-2p.pdf").pages
    starts = [" ".join(page.extract_text().split()) for page in pages[:-1]]
    assert len(starts) == len(deck.cards)
    for text, entry in zip(starts, deck.cards):
        name = curly(entry.card.name, "en")  # as the card prints it: "Batalla d’Almansa" (docs/typography.md)
        assert text.startswith(name), (text[:40], name)
    assert not [t for t in starts if t.startswith(("El Butoni", "Dansà de la Magrana", "La Riuà"))]


def test_two_builds_are_byte_identical_and_a_rebuild_is_a_no_op(base_build, tmp_path: Path) -> None:
    out, records = base_build
    again = _build(tmp_path, "--set", "base", "--locale", "en", "--png", "--jobs", "1")
    for key in ("cards:en", "cards-print-shop:en"):
        assert again[key]["sha256"] == records[key]["sha256"]
    run = run_cli("--cards", str(CARDS), "build", "--out", str(tmp_path), "--game", "fallera", "--set", "base",
                  "--locale", "en", "--png", "--no-docs")
    assert "unchanged" in run.output and "rendered" not in run.output


def test_layout_change_re_imposes_without_rendering_faces(tmp_path: Path) -> None:
    first = _build(tmp_path, "--set", "base", "--locale", "en")
    shop = tmp_path / first["cards-print-shop:en"]["path"]
    stamp = shop.stat().st_mtime_ns
    args = ["--set", "base", "--locale", "en", "--paper", "letter", "--gutter", "4", "--back-offset", "0.5,-1"]
    run = run_cli("--cards", str(CARDS), "build", "--out", str(tmp_path), "--game", "fallera", "--no-docs", *args)
    assert "re-imposed" in run.output and "rendered" not in run.output
    assert shop.stat().st_mtime_ns == stamp  # the faces file was not written again
    second = {r["kind"] + ":" + (r["locale"] or ""): r for r in json.loads((tmp_path / "manifest.json").read_text())["outputs"]
              if r["paper"] != "a4"}
    pdf = pikepdf.open(tmp_path / second["cards:en"]["path"])
    assert [float(v) for v in pdf.pages[0].mediabox] == pytest.approx([0, 0, 215.9 * MM, 279.4 * MM], abs=0.01)
    opening = second["cards:en"]["contents_pages"]
    fronts, _ = _placements(pdf.pages[opening])
    backs, _ = _placements(pdf.pages[opening + 1])
    layout = SheetLayout(paper="letter", gutter=4, offset_x=0.5, offset_y=-1)
    assert (backs[0][1], backs[0][2]) == pytest.approx(layout.back_cell(0), abs=0.01)
    assert fronts[1][1] - fronts[0][1] == pytest.approx(63 + 4, abs=0.01)


def test_failed_build_keeps_the_previous_pdf(tmp_path: Path) -> None:
    import shutil

    cards = tmp_path / "cards"
    shutil.copytree(CARDS, cards)
    run = run_cli("--cards", str(cards), "build", "--out", str(tmp_path / "out"), "--set", "base", "--locale", "en",
                  "--no-docs")
    assert run.exit_code == 0
    sheet = tmp_path / "out/fallera/en/cards-base-a4.pdf"
    before = sheet.read_bytes()
    broken = cards / "fallera/sets/base.json"
    broken.write_text(broken.read_text().replace('"name": "conill"', '"name": 7'))
    run = run_cli("--cards", str(cards), "build", "--out", str(tmp_path / "out"), "--set", "base", "--locale", "en",
                  "--no-docs")
    assert run.exit_code == 1
    assert sheet.read_bytes() == before
    assert not [p for p in (tmp_path / "out").rglob("*.tmp")]


def test_unknown_selection_or_player_count_is_usage_error(tmp_path: Path) -> None:
    assert run_cli("--cards", str(CARDS), "build", "--out", str(tmp_path), "--set", "nope").exit_code == 2
    assert run_cli("--cards", str(CARDS), "build", "--out", str(tmp_path), "--set", "base", "--players", "6").exit_code == 2


def test_two_jobs_give_the_same_cards(base_build, tmp_path: Path) -> None:
    out, records = base_build
    parallel = _build(tmp_path, "--set", "base", "--locale", "en", "--jobs", "2")
    assert parallel["cards-print-shop:en"]["sha256"] == records["cards-print-shop:en"]["sha256"]  # byte-identical
    assert parallel["cards:en"]["sha256"] == records["cards:en"]["sha256"]
    assert pikepdf.open(tmp_path / parallel["cards-print-shop:en"]["path"]).Root.Lang == "en"


def test_locales_are_built_with_their_translations(tmp_path: Path) -> None:
    records = _build(tmp_path, "--set", "base", "--locale", "es")
    reader = PdfReader(tmp_path / records["cards-print-shop:es"]["path"])
    text = " ".join(" ".join(p.extract_text().split()) for p in reader.pages)
    assert "Véndelo" in text or "mostrador" in text
    assert pikepdf.open(tmp_path / records["cards-print-shop:es"]["path"]).Root.Lang == "es"
