"""Diables and Calavera print-and-play: tiles, beast cards, dice nets, score sheets, rulebooks, read back."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pypdf import PdfReader

from cardworks.loading import load_database
from cardworks.loading.records import Index
from cardworks.render.impose import MM
from cardworks.render.pieces import NET_CELLS, die_faces, net_geometry
from conftest import REPO, run_cli

CARDS = REPO / "cards"
A4 = (210 * MM, 297 * MM)


def _build(out: Path, game: str, *args: str) -> dict[str, dict]:
    run = run_cli("--cards", str(CARDS), "build", "--out", str(out), "--game", game, "--jobs", "1", *args)
    assert run.exit_code == 0, run.output
    return {r["path"]: r for r in json.loads((out / "manifest.json").read_text())["outputs"]}


@pytest.fixture(scope="module")
def calavera(tmp_path_factory) -> tuple[Path, dict[str, dict]]:
    out = tmp_path_factory.mktemp("calavera")
    return out, _build(out, "calavera")


@pytest.fixture(scope="module")
def diables(tmp_path_factory) -> tuple[Path, dict[str, dict]]:
    out = tmp_path_factory.mktemp("diables")
    return out, _build(out, "diables")


def _text(path: Path) -> list[str]:
    """Each page's text with line breaks as spaces and hyphenated words joined (names wrap inside their boxes)."""
    return [" ".join(page.extract_text().replace("\u2010\n", "").split()) for page in PdfReader(path).pages]


def _size(path: Path, page: int = 0) -> tuple[float, float]:
    box = PdfReader(path).pages[page].mediabox
    return float(box.width), float(box.height)


@pytest.mark.slow  # builds a shipped game's PDFs
def test_calavera_builds_dice_nets_and_rulebooks_in_every_locale(calavera) -> None:
    out, records = calavera
    for locale in ("fr", "nl", "en", "ca", "es"):
        assert f"calavera/{locale}/dice-net-a4.pdf" in records
    assert {p for p in records if "rulebook" in p} == {f"calavera/{locale}/rulebook-all.pdf"
                                                       for locale in ("fr", "nl", "en", "ca", "es")}
    assert not any("faq" in p or "/cards-" in p for p in records), "Calavera has no rulings and no deck cards"
    for path, record in records.items():
        assert record["pages"] == len(PdfReader(out / path).pages)


@pytest.mark.slow  # builds a shipped game's PDFs
def test_dice_net_draws_each_die_of_the_box_with_its_faces_in_the_locale(calavera) -> None:
    out, _ = calavera
    db = load_database(CARDS / "calavera")
    index = Index(db)
    die = next(r.model for r in index.of_kind("component") if r.model.kind == "die")
    faces, assumed = die_faces(index, die)
    assert assumed and len(faces) == 6
    for locale, colour, note in (("fr", "Couleur 1", "hypothèse"), ("nl", "Kleur 1", "gaan uit van")):
        path = out / f"calavera/{locale}/dice-net-{'a4'}.pdf"
        assert abs(_size(path)[0] - A4[0]) < 0.5 and abs(_size(path)[1] - A4[1]) < 0.5
        text = " ".join(_text(path))
        assert text.count(colour) == die.quantity, f"{locale}: one {colour} face per die"
        assert text.count("Joker") == die.quantity
        assert note in text, "the net says its face distribution is assumed"


@pytest.mark.slow  # builds a shipped game's PDFs
def test_dice_net_face_label_breaks_before_its_gloss_never_inside_it(calavera) -> None:
    """The French skull face is too long for one line: it wraps as "Calavera / (tête de mort)", never leaving
    "mort)" alone on a line."""
    out, _ = calavera
    lines = [line.strip() for page in PdfReader(out / "calavera/fr/dice-net-a4.pdf").pages
             for line in page.extract_text().splitlines()]
    dice = sum(r.model.quantity for r in Index(load_database(CARDS / "calavera")).of_kind("component")
               if r.model.kind == "die")
    assert " ".join(lines).count("Calavera (tête de mort)") == dice, "every net prints its skull face"
    glosses = [line for line in lines if "(tête" in line]
    assert len(glosses) == dice and all("(tête de mort)" in line for line in glosses), glosses


def test_net_geometry_has_six_faces_touching_and_seven_tabs_outside_them() -> None:
    cells, tabs = net_geometry(20.0)
    assert len(cells) == len(NET_CELLS) == 6 and len(tabs) == 7
    squares = [(x, y, x + 20, y + 20) for x, y in cells]
    for left, top, width, height in tabs:
        tab = (left, top, left + width, top + height)
        assert not any(tab[0] < s[2] and s[0] < tab[2] and tab[1] < s[3] and s[1] < tab[3] for s in squares)
        assert any(abs(tab[1] - s[3]) < 1e-9 or abs(tab[3] - s[1]) < 1e-9 or abs(tab[0] - s[2]) < 1e-9
                   for s in squares), "every tab sits on a face edge"


@pytest.mark.slow  # builds a shipped game's PDFs
def test_calavera_rulebooks_come_from_one_source_per_locale(calavera) -> None:
    out, _ = calavera
    french = " ".join(_text(out / "calavera/fr/rulebook-all.pdf"))
    dutch = " ".join(_text(out / "calavera/nl/rulebook-all.pdf"))
    assert "Sommaire" in french and "Inhoud" in dutch
    assert "dobbelstenen" in dutch and "dobbelstenen" not in french


@pytest.mark.slow  # builds a shipped game's PDFs
def test_diables_builds_beast_cards_and_tiles_at_their_own_size(diables) -> None:
    out, records = diables
    db = load_database(CARDS / "diables")
    index = Index(db)
    beasts = [r.model for r in index.of_kind("card")]
    shop = out / "diables/en/print-shop/cards-all.pdf"
    assert len(PdfReader(shop).pages) == len(beasts) + 1  # and the back
    names = " ".join(_text(out / "diables/en/cards-all-a4.pdf"))
    for card in beasts:
        assert names.count(card.name) == card.quantity
    tiles = [r.model for r in index.of_kind("component") if r.model.kind == "tile" and r.model.text]
    tile_text = " ".join(_text(out / "diables/en/tiles-a4.pdf"))
    for tile in tiles:
        copies = tile.quantity or index.assumed().get((tile.id, "quantity")) or 1
        assert tile_text.count(tile.name) == copies, tile.id
    assert records["diables/en/tiles-a4.pdf"]["paper"] == "a4"


@pytest.mark.slow  # builds a shipped game's PDFs
def test_building_every_game_with_a_fallera_deck_leaves_the_others_out_with_a_note(tmp_path) -> None:
    run = run_cli("--cards", str(CARDS), "build", "--out", str(tmp_path), "--set", "base-2", "--no-docs",
                  "--locale", "en", "--jobs", "1")
    assert run.exit_code == 0, run.output
    assert "note: diables:" in run.output and "note: calavera:" in run.output
    paths = {r["path"] for r in json.loads((tmp_path / "manifest.json").read_text())["outputs"]}
    assert "fallera/en/cards-base-2-a4.pdf" in paths
    assert not any(p.startswith(("diables/", "calavera/")) for p in paths)


@pytest.mark.slow  # builds a shipped game's PDFs
def test_score_sheets_come_two_per_page_in_every_locale_with_assumed_points_left_blank(calavera) -> None:
    import re

    out, records = calavera
    from cardworks.games.calavera.game import sheet_layout

    rows = sheet_layout(load_database(CARDS / "calavera"))
    assert rows and all("values" in row.assumed for row in rows), "no rulebook gives the points"
    for locale, title, row_name in (("fr", "bloc de score", "Couleur 1"), ("nl", "scoreblok", "Kleur 1"),
                                    ("es", None, None)):
        path = out / f"calavera/{locale}/score-sheet-a4.pdf"
        assert records[f"calavera/{locale}/score-sheet-a4.pdf"]["pages"] == 1
        text = _text(path)[0]
        if title:
            assert text.count(title) == 2 and text.count(row_name) == 2
            assert title.capitalize() not in text, "after the title's colon a component name follows the sentence"
        assert set(re.findall(r"\d+", text)) <= {str(n) for n in range(1, len(rows) + 1)}, \
            "only the row numbers are printed: every point value is blank"


@pytest.mark.slow  # builds a shipped game's PDFs
def test_player_aid_lists_the_round_phases_in_order(diables) -> None:
    out, records = diables
    game = load_database(CARDS / "diables").game_doc
    assert len(game.phases) == next(p.value for p in game.parameters if p.id == "phases-per-round")
    text = _text(out / "diables/en/player-aid-a4.pdf")[0]
    positions = [text.find(f"{number}. {phase.name}") for number, phase in enumerate(game.phases, start=1)]
    assert -1 not in positions and positions == sorted(positions)
    assert records["diables/en/player-aid-a4.pdf"]["pages"] == 1


@pytest.mark.slow  # lays out a shipped game's component cards
def test_a_component_card_title_keeps_a_hyphenated_place_name_on_one_line() -> None:
    """The Spanish title 'Comidas territoriales: Xúquer-Túria' once broke after the name's own hyphen."""
    import io
    import re

    from cardworks.render.impose import SheetLayout
    from cardworks.render.pieces import PieceTask

    names = [entry["name"]["text"] for entry in json.loads((CARDS / "fallera/i18n/es.json").read_text())["entries"].values()
             if "name" in entry and "Xúquer-Túria" in entry["name"]["text"] and ":" in entry["name"]["text"]]
    assert names, "a component card names Xúquer-Túria in its title"
    data, _, _ = PieceTask(str(CARDS / "fallera"), "fallera", "es", "component-cards", SheetLayout()).render()
    text = "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)
    for name in names:
        head, tail = name.split(": ", 1)
        assert re.search(re.escape(head) + r":\s+" + re.escape(tail), text), f"{name!r} is cut inside a word"
