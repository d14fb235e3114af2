"""The print-and-play kit is complete and honest: every component printed or accounted for, read back from PDFs."""

from __future__ import annotations

import io
import json
import shutil
import subprocess
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
from cardworks.render.typography import curly
from conftest import FIXTURE_CARDS, REPO, run_cli

CARDS = REPO / "cards"


def _rows(game: str, selection: str | None = None, cards: Path = CARDS) -> dict[str, object]:
    db = load_database(cards / game)
    return {row.id: row for row in contents(db, build_deck(db, selection))}


def _component(game: str, component_id: str):
    """A component as the fixture games (tests/fixtures/cards) hold it: the shipped one."""
    return Index(load_database(FIXTURE_CARDS / game)).by_id[component_id].model


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
    rows = _rows("fallera", "base", FIXTURE_CARDS)  # the fixture game keeps Fallera's components
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
    # the boards are printed from what the rulebook says they show, area by area (their unknowns marked)
    assert (rows["main-board"].piece, rows["main-board"].printed, rows["main-board"].reasons) == ("board-sheets", 1, ())
    personal = rows["personal-player-board"]
    assert (personal.piece, personal.reasons, personal.stand_in) == ("board-sheets", ("quantity-unknown",), True)


def test_a_board_the_data_does_not_describe_is_not_printed() -> None:
    board = _component("diables", "main-board")
    assert printing(board).piece == "board-sheets"
    assert printing(board.model_copy(update={"areas": []})).reason == "contents-unknown"


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


def _built(out: Path, game: str) -> tuple[Path, dict[str, dict]]:
    """One game's English build into ``out``, with its manifest records by path."""
    run = run_cli("--cards", str(CARDS), "build", "--out", str(out), "--game", game, "--locale", "en", "--jobs", "2")
    assert run.exit_code == 0, run.output
    return out, {r["path"]: r for r in json.loads((out / "manifest.json").read_text())["outputs"]}


@pytest.fixture(scope="module")
def fallera(tmp_path_factory) -> tuple[Path, dict[str, dict]]:
    return _built(tmp_path_factory.mktemp("kit"), "fallera")


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
    # printed text is typeset: curly apostrophes (docs/typography.md)
    for food in ("olla xurra", "coent de Borriana", "pericana", "allipebre d’anguila", "torró d’Alacant"):
        assert food in front
    back = " ".join(cards.pages[1].extract_text().split())
    assert "més enllà de la paella" in back and "olla xurra" not in back, "the back names the box, never the card"


@pytest.mark.slow
def test_food_cards_in_every_locale(tmp_path) -> None:
    db = load_database(CARDS / "fallera")
    seen = []
    for task in piece_tasks(db, ["ca", "es"], SheetLayout(), False, False, None):
        if task.kind != "component-cards":
            continue
        seen.append(task.locale)
        data, pages, _ = task.render()
        (tmp_path / "cards.pdf").write_bytes(data)
        text = _text(tmp_path / "cards.pdf")
        assert pages == 2
        assert {"ca": "Menjars territorials", "es": "Comidas territoriales"}[task.locale] in text
    assert sorted(seen) == ["ca", "es"]  # the food cards were drawn in both locales


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
    realm = "Cards with the Realm symbol"  # expansion 3's chapter: in its boxes, not in the others
    assert realm in texts["base-3"] and realm in texts["expert"] and realm not in texts["base-2"]
    assert len(texts["base"]) < len(texts["base-2"]) < len(texts["expert"])
    table = texts["expert"][texts["expert"].index("Components"):]
    misteri = curly("Misteri d'Elx", "en")  # as the rulebook prints it: "Misteri d’Elx" (docs/typography.md)
    assert misteri in table and "Map of the Kingdom" in table, "the components table lists every piece"


# The edition on the contents page, stand-in counts marked ------------------------------------------


def test_contents_rows_count_each_edition_and_flag_stand_in_counts() -> None:
    db = load_database(FIXTURE_CARDS / "fallera")
    fact = {row.id: row for row in contents(db, build_deck(db, "base"))}
    playtest = {row.id: row for row in contents(db, build_deck(db, "base", edition="playtest"))}
    one_each = sum(1 for r in Index(db).of_kind("card") if r.set_id == "base" and not r.model.optional)
    stated = sum(r.model.quantity - 1 for r in Index(db).of_kind("card")
                 if r.set_id == "base" and not r.model.optional and r.model.quantity is not None)
    assert fact["base"].printed == one_each + stated, "the fact edition prints one copy of a design of unknown count"
    assert not fact["base"].stand_in
    assert playtest["base"].printed > fact["base"].printed and playtest["base"].stand_in
    assert playtest["base"].record()["stand_in"] is True


@pytest.fixture(scope="module")
def playtest(tmp_path_factory) -> tuple[Path, dict[str, dict]]:
    out = tmp_path_factory.mktemp("playtest")
    run = run_cli("--cards", str(CARDS), "build", "--out", str(out), "--game", "fallera", "--locale", "en",
                  "--set", "base", "--edition", "playtest", "--no-docs", "--jobs", "2")
    assert run.exit_code == 0, run.output
    return out, {r["path"]: r for r in json.loads((out / "manifest.json").read_text())["outputs"]}


def _contents_page(out: Path, record: dict) -> str:
    reader = PdfReader(out / record["path"])
    return " ".join(" ".join((reader.pages[n].extract_text() or "").split()) for n in range(record["contents_pages"]))


@pytest.mark.slow
def test_the_contents_page_says_its_edition(fallera, playtest) -> None:
    out, records = fallera
    fact_record = records["fallera/en/cards-expert-a4.pdf"]
    fact = _contents_page(out, fact_record)
    assert "Rulebook edition" in fact and "is printed once" in fact and "Playtest edition" not in fact
    assert "†" not in fact, "no count in the fact edition is a stand-in"
    base = {row["id"]: row for row in fact_record["contents"]}["base"]
    assert f"Cards of La Fallera Calavera 102 {base['printed']} " in fact
    out, records = playtest
    play_record = records["fallera/en/cards-base-playtest-a4.pdf"]
    assert play_record["edition"] == "playtest"
    play = _contents_page(out, play_record)
    assert "Playtest edition" in play and "Rulebook edition" not in play
    base = {row["id"]: row for row in play_record["contents"]}["base"]
    engine = build_deck(load_database(CARDS / "fallera"), "base", edition="playtest")
    assert base["stand_in"] and base["printed"] == sum(e.copies for e in engine.cards), "the engine's deck, no more"
    assert f"Cards of La Fallera Calavera 102 {base['printed']}† " in play, "a stand-in count carries the mark"
    assert "† stand-in, or not in the rulebooks" in play, "the legend explains the mark on the same page"


@pytest.mark.slow
def test_a_contents_page_that_marks_a_count_explains_the_mark_on_every_page(diables) -> None:
    out, records = diables
    record = records["diables/en/cards-all-a4.pdf"]
    rows = {row["id"]: row for row in record["contents"]}
    assert rows["cart-tile"]["stand_in"], "the cart tiles' count is the assumed one, not a fact"
    reader = PdfReader(out / record["path"])
    pages = [" ".join((reader.pages[n].extract_text() or "").split()) for n in range(record["contents_pages"])]
    assert record["contents_pages"] >= 2 and "Rulebook edition" in pages[0]
    marked = [n for n, page in enumerate(pages) if "†" in page]
    assert marked, "the stand-in count is marked"
    assert [n for n in marked if "† not stated in the rulebooks" not in pages[n]] == [], \
        "the legend is repeated on every page of the contents that shows a mark"


# qpdf over every generated PDF -------------------------------------------------------------------


@pytest.fixture(scope="module")
def diables(tmp_path_factory) -> tuple[Path, dict[str, dict]]:
    return _built(tmp_path_factory.mktemp("diables"), "diables")


@pytest.mark.slow
def test_every_file_a_contents_page_names_is_in_the_manifest(diables) -> None:
    """Diables (cards and pieces): the "printed in" column names the files the build wrote,
    each on one line (issue 49: a wrapped ``standees-`` / ``a4.pdf`` read as two names)."""
    import re

    out, records = diables
    written = {Path(path).name for path in records}
    sheets = [r for r in records.values() if r["kind"] == "cards"]
    assert sheets, "the Diables build wrote no card sheet"
    for record in sheets:
        named = set(re.findall(r"[A-Za-z0-9._-]+\.pdf", _contents_page(out, record)))
        assert named and named <= written, (record["path"], sorted(named - written))
        assert {"tiles-a4.pdf", "counters-a4.pdf", "standees-a4.pdf", Path(record["path"]).name} <= named


def _qpdf_check(path: Path) -> str | None:
    """None when ``qpdf --check`` finds nothing wrong with ``path``, else what it said."""
    found = subprocess.run(["qpdf", "--check", str(path)], capture_output=True, text=True)
    if found.returncode == 0 and "No syntax or stream encoding errors found" in found.stdout:
        return None
    return f"exit {found.returncode}: {(found.stdout + found.stderr).strip()[-400:]}"


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("qpdf") is None, reason="qpdf is not installed (.ci/run installs it)")
def test_every_generated_pdf_passes_qpdf_check(fallera, diables, playtest) -> None:
    kinds: dict[str, set[str]] = {}
    failures = {}
    for out, records in (fallera, diables, playtest):
        for path, record in records.items():
            if not path.endswith(".pdf"):
                continue
            kinds.setdefault(record["game"], set()).add(record["kind"])
            if (problem := _qpdf_check(out / path)) is not None:
                failures[path] = problem
    assert {"cards", "component-cards", "board", "board-a3", "standees", "stickers", "rulebook", "faq",
            "cards-print-shop"} <= kinds["fallera"], kinds["fallera"]
    assert {"cards", "counters", "rulebook", "faq"} <= kinds["diables"], kinds["diables"]
    rulebooks = [p for p, r in fallera[1].items() if r["kind"] == "rulebook"]
    assert len(rulebooks) == 4, "a rulebook per box"
    assert failures == {}


def test_qpdf_check_reports_a_damaged_pdf(tmp_path) -> None:
    if shutil.which("qpdf") is None:
        pytest.skip("qpdf is not installed (.ci/run installs it)")
    import pikepdf

    good = tmp_path / "good.pdf"
    pdf = pikepdf.new()
    pdf.add_blank_page()
    pdf.save(good)
    assert _qpdf_check(good) is None
    data = good.read_bytes()
    start = data.rindex(b"startxref")
    bad = tmp_path / "bad.pdf"
    bad.write_bytes(data[:start] + b"startxref\n999999\n%%EOF\n")  # a cross-reference table where none is
    assert _qpdf_check(bad) is not None, "the check fails on a damaged file"


# The rulebooks say the kit is partial where they promise the whole deck ----------------------------


@pytest.mark.slow
def test_each_rulebook_setup_gives_the_box_count_and_says_the_kit_prints_fewer(fallera) -> None:
    out, _ = fallera
    db = load_database(CARDS / "fallera")
    printed = {sets: (build_deck(db, sets).physical_cards, build_deck(db, sets, edition="playtest").physical_cards)
               for sets in ("base", "base+discordia", "base+mes-enlla", "base+discordia+mes-enlla")}
    texts = {box: _text(out / f"fallera/en/rulebook-{box}.pdf") for box in ("base", "base-2", "base-3", "expert")}

    def note(sets: str, box: int) -> str:
        fact, play = printed[sets]
        assert fact < box
        return f"The kit’s card sheets hold {fact} of these {box} cards ({play} in the playtest edition)"  # as typeset

    base = texts["base"]
    assert base.index("Shuffle all 102 cards") < base.index(note("base", 102)) < base.index("Who goes first")
    assert "their contents page says what is missing and why" in base
    assert base.count("The kit’s card sheets hold") == 1
    assert texts["base-2"].index("deck of 153 cards") < texts["base-2"].index(note("base+discordia", 153))
    assert texts["base-3"].index("Shuffle the 102 base cards together with the 50 normal cards") \
        < texts["base-3"].index(note("base+mes-enlla", 152))
    assert texts["expert"].index("more than 200") < texts["expert"].index(note("base+discordia+mes-enlla", 203))


def _generate(db, directive: str, locale: str = "en") -> str:
    from cardworks.render.docs.generated import Generator
    from cardworks.render.docs.texts import DocTexts, icon_urls

    index, texts = Index(db), DocTexts(db, locale)
    return str(Generator(index, texts, ["base", "discordia", "mes-enlla"], icon_urls(index, texts))(directive))


def test_the_printed_deck_note_is_translated() -> None:
    """In each shipped translation, with the shipped rulebooks' set totals (153 cards in base and discordia)."""
    db = load_database(CARDS / "fallera")
    fact = build_deck(db, "base+discordia").physical_cards
    checked = []
    for locale, words in (("ca", "Els fulls de cartes del kit porten"), ("es", "Las hojas de cartas del kit traen")):
        html = _generate(db, "printed-deck base+discordia", locale).replace("&#39;", "'")
        assert f"{words} {fact} d" in html and " 153 " in html, locale
        checked.append(locale)
    assert checked == ["ca", "es"]


def _copy_with_totals(tmp_path: Path, totals: dict[str, int | None]) -> object:
    """The Fallera fixture game (which gives no set's card total) with the test's own ``totals`` (set → cards,
    None for none)."""
    root = tmp_path / "fallera"
    shutil.copytree(FIXTURE_CARDS / "fallera", root)
    for set_id, cards in totals.items():
        path = root / "sets" / f"{set_id}.json"
        data = json.loads(path.read_text())
        data["totals"].pop("cards", None)
        if cards is not None:
            data["totals"]["cards"] = cards
        path.write_text(json.dumps(data, ensure_ascii=False, indent=2))
    return load_database(root)


def test_the_printed_deck_note_is_left_out_when_the_kit_prints_the_whole_deck(tmp_path) -> None:
    printed = build_deck(load_database(FIXTURE_CARDS / "fallera"), "base").physical_cards
    bigger = _copy_with_totals(tmp_path / "bigger", {"base": printed + 1})
    assert "kit-note" in _generate(bigger, "printed-deck base"), "the box holds a card the kit does not print"
    whole = _copy_with_totals(tmp_path / "whole", {"base": printed})
    assert _generate(whole, "printed-deck base") == "", "nothing to say when both editions print the whole deck"


def test_the_printed_deck_note_refuses_what_it_cannot_count(tmp_path) -> None:
    from cardworks.errors import DataError

    db = _copy_with_totals(tmp_path, {"base": 102, "discordia": None})
    with pytest.raises(DataError, match="names no set 'bogus'"):
        _generate(db, "printed-deck base+bogus")
    with pytest.raises(DataError, match="needs the sets it counts"):
        _generate(db, "printed-deck")
    with pytest.raises(DataError, match="takes no argument"):
        _generate(db, "components base")
    with pytest.raises(DataError, match="no source gives one for discordia"):
        _generate(db, "printed-deck base+discordia")


def test_a_directive_with_an_argument_is_not_translatable_text() -> None:
    from cardworks.i18n.rules import is_text

    assert not is_text("::: generated printed-deck base+discordia")
    assert is_text("::: generated printed-deck base discordia"), "one argument only: anything else is text"


def test_every_board_tile_that_shows_a_mark_explains_it(tmp_path) -> None:
    from cardworks.render.boardpiece import boards, render_board_tiled
    from cardworks.render.docs.texts import DocTexts

    db = load_database(FIXTURE_CARDS / "fallera")  # the fixture game keeps the kingdom map
    path = tmp_path / "board.pdf"
    path.write_bytes(render_board_tiled(db, DocTexts(db, "en"), SheetLayout(), boards(db, None)))
    pages = [" ".join((page.extract_text() or "").split()) for page in PdfReader(path).pages[1:]]
    marked = [n for n, text in enumerate(pages) if "†" in text.replace("† not stated in the rulebooks", "")]
    assert marked, "the expert side draws an inferred access count"
    assert [n for n in marked if "† not stated in the rulebooks" not in pages[n]] == []


@pytest.mark.slow
def test_board_tile_footers_are_text_in_the_embedded_fonts(tmp_path) -> None:
    """The footers used to be drawn in an unembedded Helvetica written straight into each tile's resources (so a
    walk over the file's font objects missed it); now they are laid out in the card fonts, embedded, and print
    what WinAnsi lacks."""
    import subprocess

    from cardworks.export.preflight import preflight
    from cardworks.render.boardpiece import boards, footer_html, render_board_tiled
    from cardworks.render.docs.texts import DocTexts
    from cardworks.render.piecepdf import piece_pdf

    db = load_database(FIXTURE_CARDS / "fallera")
    path = tmp_path / "board.pdf"
    path.write_bytes(render_board_tiled(db, DocTexts(db, "en"), SheetLayout(), boards(db, None)))
    rows = subprocess.run(["pdffonts", str(path)], capture_output=True, text=True, check=True).stdout.splitlines()[2:]
    assert rows and all(row.split()[-5] == "yes" for row in rows), rows
    assert not any("Helvetica" in row for row in rows)
    pages = len(PdfReader(path).pages)
    for number in range(2, pages + 1):  # every tile's own fonts, as pdffonts lists them page by page
        own = subprocess.run(["pdffonts", "-f", str(number), "-l", str(number), str(path)], capture_output=True,
                             text=True, check=True).stdout.splitlines()[2:]
        assert own and all(row.split()[-5] == "yes" for row in own), (number, own)
    assert pages > 2
    fonts = next(c for r in preflight(path) for c in r.checks if c.name == "fonts embedded")
    assert fonts.ok, fonts.message
    laid = PdfReader(io.BytesIO(piece_pdf(footer_html([("1: A1 † [ñötĕ štàtédĕŵ]", [])], 250), db.game.root)))
    assert "ñötĕ štàtédĕŵ" in laid.pages[0].extract_text()

