"""The print-and-play kit is complete and honest: every component printed or accounted for, read back from PDFs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pypdf import PdfReader

from cardworks.loading import load_database
from cardworks.loading.records import Index
from cardworks.render.boardpiece import A3, OVERLAP_MM, tile_grid
from cardworks.render.deck import build_deck
from cardworks.render.impose import MM, SheetLayout
from cardworks.render.kit import contents, printing
from cardworks.render.pieces import piece_tasks
from conftest import REPO, run_cli

CARDS = REPO / "cards"


def _rows(game: str, selection: str | None = None) -> dict[str, object]:
    db = load_database(CARDS / game)
    return {row.id: row for row in contents(db, build_deck(db, selection))}


def _component(game: str, component_id: str):
    return Index(load_database(CARDS / game)).by_id[component_id].model


# What the kit prints, decided from the data ------------------------------------------------------


def test_every_fallera_component_is_printed_or_has_a_reason() -> None:
    rows = _rows("fallera")
    for food in ("interior", "nord", "muntanyes-centrals", "xuquer-turia", "sud"):
        row = rows[f"territorial-food-{food}"]
        assert (row.piece, row.printed, row.reasons) == ("component-cards", 1, ())
    assert (rows["kingdom-map"].piece, rows["kingdom-map"].printed) == ("board", 1)
    assert (rows["calavera-queen-pawn"].piece, rows["calavera-queen-pawn"].printed) == ("standees", 1)
    assert (rows["humour-coin"].piece, rows["humour-coin"].printed) == ("stickers", 1)
    assert rows["misteri-d-elx"].reasons == ("optional",), "the optional card is accounted for, not silently absent"
    assert rows["rules-summary-card"].reasons == ("contents-unknown",)
    for row in rows.values():
        assert row.printed == row.box or row.reasons, f"{row.id}: {row.printed} printed, {row.box} in the box, no reason"


def test_a_base_selection_says_the_expansions_are_left_out_by_set() -> None:
    rows = _rows("fallera", "base")
    for left_out in ("discordia", "mes-enlla", "humour-coin", "kingdom-map", "territorial-food-sud"):
        assert rows[left_out].printed == 0 and rows[left_out].reasons == ("left-out-by-set",), left_out


def test_diables_tokens_are_counters_with_the_rulebook_counts() -> None:
    rows = _rows("diables")
    expected = {"like-tokens": 21, "thrilled-crowd-tokens": 20, "regular-firework-tokens": 62,
                "whistling-firework-tokens": 42, "colorful-firework-tokens": 42, "camera-tokens": 24,
                "tabaler-leader-tokens": 8, "fame-points-tokens": 4, "200-300-fame-points-tokens": 4,
                "sound-tokens": 8, "follower-tokens": 16}
    for token, count in expected.items():
        assert (rows[token].piece, rows[token].printed, rows[token].box) == ("counters", count, count), token
    assert rows["main-board"].reasons == ("contents-unknown",), "the main board's layout is not in the data"


def test_a_component_whose_count_no_source_gives_is_not_printed_as_if_known() -> None:
    token = _component("diables", "like-tokens")
    assert printing(token).count == 21
    unknown = token.model_copy(update={"quantity": None})
    assert (printing(unknown).piece, printing(unknown).reason) == (None, "quantity-unknown")
    described = _component("fallera", "territorial-food-sud")
    blank = described.model_copy(update={"items": []})
    assert printing(blank).reason == "contents-unknown", "a card whose printed lines no source gives is not drawn"
    pencil = _component("calavera", "pencils")
    assert printing(pencil).reason == "not-printable"


# Pieces and the contents page, read back --------------------------------------------------------


def _text(path: Path) -> str:
    return " ".join(" ".join((page.extract_text() or "").replace("\u2010\n", "").split())
                    for page in PdfReader(path).pages)


@pytest.fixture(scope="module")
def fallera(tmp_path_factory) -> tuple[Path, dict[str, dict]]:
    out = tmp_path_factory.mktemp("kit")
    run = run_cli("--cards", str(CARDS), "build", "--out", str(out), "--game", "fallera", "--locale", "en",
                  "--jobs", "2")
    assert run.exit_code == 0, run.output
    return out, {r["path"]: r for r in json.loads((out / "manifest.json").read_text())["outputs"]}


@pytest.mark.slow
def test_board_is_one_a3_page_per_side_and_tiles_with_overlap(fallera) -> None:
    out, records = fallera
    a3 = PdfReader(out / "fallera/en/board-a3.pdf")
    db = load_database(CARDS / "fallera")
    sides = sum(len(r.model.sides) for r in Index(db).of_kind("board"))
    assert len(a3.pages) == sides == records["fallera/en/board-a3.pdf"]["pages"]
    for page in a3.pages:
        assert abs(float(page.mediabox.width) - A3[0] * MM) < 1 and abs(float(page.mediabox.height) - A3[1] * MM) < 1
    text = _text(out / "fallera/en/board-a3.pdf")
    for name in ("Interior", "Nord", "Muntanyes Centrals", "Xúquer-Túria", "Sud"):
        assert name in text
    assert "our layout" in text and "no rulebook gives" in text, "the legend says what is plain layout and unknown"
    cols, rows, usable_w, usable_h = tile_grid("a4")
    assert (cols - 1) * (usable_w - OVERLAP_MM) + usable_w >= A3[0] and (rows - 1) * (usable_h - OVERLAP_MM) + usable_h >= A3[1]
    tiled = PdfReader(out / "fallera/en/board-a4.pdf")
    assert len(tiled.pages) == 1 + sides * cols * rows, "an assembly page, then every tile of every side"
    assert "red crosses" in (tiled.pages[0].extract_text() or "")
    assert "A1" in (tiled.pages[1].extract_text() or "") and f"{chr(64 + rows)}{cols}" in (tiled.pages[cols * rows].extract_text() or "")
    for page in tiled.pages[1:]:
        assert abs(float(page.mediabox.width) - 297 * MM) < 1 and abs(float(page.mediabox.height) - 210 * MM) < 1


@pytest.mark.slow
def test_standee_stickers_and_food_cards_are_printed(fallera) -> None:
    out, _ = fallera
    assert "Calavera Queen pawn" in _text(out / "fallera/en/standees-a4.pdf")
    stickers = _text(out / "fallera/en/stickers-a4.pdf")
    assert "contented fallera (green)" in stickers and "angry fallera (red)" in stickers
    cards = PdfReader(out / "fallera/en/component-cards-a4.pdf")
    assert len(cards.pages) == 2, "one sheet of five food cards and its back"
    front = cards.pages[0].extract_text()
    for food in ("olla xurra", "coent de Borriana", "pericana", "allipebre d'anguila", "torró d'Alacant"):
        assert food in front
    back = " ".join(cards.pages[1].extract_text().split())
    assert "més enllà de la paella" in back and "olla xurra" not in back, "the back names the box, never the card"


@pytest.mark.slow
def test_food_cards_in_every_locale(tmp_path) -> None:
    db = load_database(CARDS / "fallera")
    for task in piece_tasks(db, ["ca", "es"], SheetLayout(), False, False, None):
        if task.kind != "component-cards":
            continue
        data, pages = task.render()
        (tmp_path / "cards.pdf").write_bytes(data)
        text = _text(tmp_path / "cards.pdf")
        assert pages == 2
        assert {"ca": "Menjars territorials", "es": "Comidas territoriales"}[task.locale] in text


@pytest.mark.slow
def test_contents_page_opens_the_card_sheets_and_is_in_the_manifest(fallera) -> None:
    out, records = fallera
    record = records["fallera/en/cards-expert-a4.pdf"]
    sheets = PdfReader(out / record["path"])
    first = sheets.pages[0].extract_text()
    assert "Contents of this kit" in first
    assert "Territorial foods: Sud" in " ".join(first.split())
    assert "the rulebooks do not give how many there are" in " ".join(first.split())
    assert (sheets.pages[1].extract_text() or "").strip() == "", "a blank page keeps the duplex fronts on odd pages"
    rows = {row["id"]: row for row in record["contents"]}
    assert rows["mes-enlla"]["box"] == 50 and rows["mes-enlla"]["printed"] < 50
    assert rows["mes-enlla"]["reasons"] == ["quantity-unknown"]
    assert rows["misteri-d-elx"]["reasons"] == ["optional"]
    assert rows["territorial-food-sud"]["piece"] == "component-cards"


@pytest.mark.slow
def test_a_rulebook_per_box_with_its_own_credits(fallera) -> None:
    out, records = fallera
    texts = {box: _text(out / f"fallera/en/rulebook-{box}.pdf") for box in ("base", "base-2", "base-3", "expert")}
    for box, text in texts.items():
        assert records[f"fallera/en/rulebook-{box}.pdf"]["selection"] == box
        assert "Enric Aguilar" in text and "Esther Mendez" in text and "www.lafalleracalavera.com" in text, box
        assert "Mosatros" in text, box
        assert text.index("Setup") < text.index("Playing a turn"), f"{box}: setup comes before play"
    assert "territorial" not in texts["base"].lower() and "Fideuà" not in texts["base"]
    assert "www.zombipaella.com" in texts["base-3"] and "www.zombipaella.com" not in texts["base-2"]
    assert "Realm" not in texts["base-2"], "the icon legend leaves out the icons of boxes not covered"
    assert "Humour coin" not in texts["base"] and "Humour coin" in texts["base-2"]
    assert "last thing you do" in texts["base-3"] and "When your turn ends" not in texts["expert"]
    assert len(texts["base"]) < len(texts["base-2"]) < len(texts["expert"])
    table = texts["expert"][texts["expert"].index("Components"):]
    assert "Misteri d'Elx" in table and "Map of the Kingdom" in table, "the components table lists every piece"
