"""The playtest edition prints what ``check`` plays: for every selection and every player count that changes the
deck, the playtest deck holds exactly the engine's designs and copies, and each design the engine leaves out is
left out and listed, with its reason, on the contents page. The board draws the engine's accesses, marked; a kit
that cannot be played says so.

Expectations come from the engine itself (the game plugin's ``rules_for``, as ``check`` calls it), never from the
renderer; one built kit is read back from its PDFs: which design each placed face shows, and how many times.
"""

from __future__ import annotations

import collections
import io
import json
import re
import shutil
import subprocess
from pathlib import Path

import pikepdf
import pytest
from pypdf import PdfReader

from cardworks.engine.plugins import plugin_for
from cardworks.errors import UsageError
from cardworks.loading import load_database
from cardworks.loading.records import Index
from cardworks.render.deck import build_deck
from cardworks.render.docs.texts import DocTexts
from cardworks.render.boardpiece import board_html, boards, drawn_side
from cardworks.render.contents import left_out_rows, unplayable_sentence
from cardworks.render.kit import contents, play_gaps
from conftest import REPO, run_cli

CARDS = REPO / "cards"
DB = load_database(CARDS / "fallera")
PLUGIN = plugin_for("fallera")
BLANK = ("dansa-de-la-magrana", "rata-penada-cleptomana", "pocio-d-orxata")
"""Base cards whose faces print no rules text: the engine cannot play them, so the playtest deck must not hold them."""

DECKS = [("base", None), ("base", 2), ("base-2", None), ("base-2", 2), ("base-2", 6), ("base-3", None), ("base-3", 2),
         ("base-3", 5), ("expert", None), ("expert", 2), ("expert", 5)]
"""Each selection, without a player count and at every count that removes cards (II at 2, V at 5) or plays a
different configuration."""


def engine(selection: str, players: int | None) -> tuple[dict[str, int], dict[str, str]]:
    """The deck ``check`` plays for the configuration (three players when none is named: nothing is removed at
    three) and the designs it leaves out, with their reasons."""
    configs = [c for c in PLUGIN.configurations(DB)[0] if c.selection == selection and c.players == (players or 3)]
    _, catalogue = PLUGIN.rules_for(DB, configs[0])
    return {card_id: card.copies for card_id, card in catalogue.cards.items()}, dict(catalogue.left_out)


@pytest.mark.parametrize(("selection", "players"), DECKS)
def test_the_playtest_deck_is_the_engine_deck(selection: str, players: int | None) -> None:
    played, left_out = engine(selection, players)
    deck = build_deck(DB, selection, players, edition="playtest")
    assert {e.card.id: e.copies for e in deck.cards} == played, "same designs, same copies"
    optional = {r.id for r in Index(DB).of_kind("card") if r.model.optional}
    listed = {card_id for card_id, _ in deck.left_out} | set(deck.removed)
    assert listed == set(left_out) - optional, "every design the engine leaves out is left out, and said so"
    assert dict(deck.left_out) == {k: v for k, v in left_out.items() if k in dict(deck.left_out)}, "with its reason"
    for card_id in BLANK:
        if card_id in {r.id for r in Index(DB).of_kind("card") if r.set_id == "base"}:
            assert card_id not in played and card_id not in {e.card.id for e in deck.cards}


def test_the_playtest_deck_of_a_set_list_is_its_selections() -> None:
    by_sets = build_deck(DB, "base+discordia", 2, edition="playtest")
    assert {e.card.id: e.copies for e in by_sets.cards} == engine("base-2", 2)[0]


def test_a_selection_the_engine_does_not_play_has_no_playtest_edition() -> None:
    diables = load_database(CARDS / "diables")
    with pytest.raises(UsageError, match="the engine plays no game of this selection"):
        build_deck(diables, edition="playtest")
    assert build_deck(diables).cards, "the fact edition still prints what the rulebook gives"


def test_the_fact_edition_still_prints_every_design() -> None:
    deck = build_deck(DB, "expert")
    assert set(BLANK) <= {e.card.id for e in deck.cards} and not deck.left_out


@pytest.mark.parametrize("locale", ["en", "ca", "es"])
def test_each_left_out_card_is_listed_with_its_reason_in_the_readers_language(locale: str) -> None:
    deck = build_deck(DB, "expert", edition="playtest")
    texts = DocTexts(DB, locale)
    rows = {row["id"]: row["why"] for row in left_out_rows(DB, texts, deck.left_out)}
    assert set(rows) == {card_id for card_id, _ in deck.left_out} and not texts.missing
    said = str(texts.label("left_out_missing")).split("{")[0]
    for card_id in BLANK:
        assert rows[card_id].startswith(said), (card_id, rows[card_id])
    assert "fallera-base" in rows["dansa-de-la-magrana"] and str(texts.label("left_out_fact_types")) in rows["dansa-de-la-magrana"]
    assert "counter-specials" in rows["el-butoni"], "the feature it waits on is named"


def test_a_kit_that_cannot_be_played_says_so_and_one_that_can_does_not() -> None:
    diables = load_database(CARDS / "diables")
    deck = build_deck(diables)
    gaps = play_gaps(diables, deck, contents(diables, deck))
    assert [(g.kind, g.id, g.unknown, g.box) for g in gaps] == [
        ("cards", "base", 108, 124), ("board-values", "main-board", 19, None),
        ("board-values", "personal-player-board", 9, None)]
    sentence = unplayable_sentence(diables, DocTexts(diables, "en"), gaps)
    assert sentence.startswith("This kit cannot be played as printed") and "108 of the 124 cards" in sentence
    assert "docs/owners-copy.md" in sentence and "what the Main board shows (19 values)" in sentence
    for selection in ("base-3", "expert"):
        fact = build_deck(DB, selection)
        assert ("accesses", "kingdom-map") in [(g.kind, g.id) for g in play_gaps(DB, fact, contents(DB, fact))]
        play = build_deck(DB, selection, edition="playtest")
        assert not play_gaps(DB, play, contents(DB, play)), "the playtest kit plays the engine's map and deck"
    assert unplayable_sentence(DB, DocTexts(DB, "en"), ()) == ""


def test_the_playtest_board_draws_the_engine_accesses_each_marked() -> None:
    record = boards(DB, None)[0]
    for side in record.model.sides:
        drawn = drawn_side(DB, record, side, "playtest")
        played = PLUGIN.rules_for(DB, next(c for c in PLUGIN.configurations(DB)[0]
                                           if c.selection == ("expert" if side.id == "expert" else "base-3")))[0].board
        edges = {frozenset(e.between) for e in drawn.edges}
        assert edges == {frozenset((a, b)) for a, ns in played.items() for b in ns}, side.id
        assert all(e.certainty != "stated" or e.source is not None for e in drawn.edges)
        assert drawn_side(DB, record, side, "fact") is side, "the fact edition draws only the data"
    html = board_html(DB, DocTexts(DB, "en"), [record], None, "playtest")
    assert html.count('class="inferred-access"') == 5 + 7, "every access no rulebook states is dashed and marked"
    assert "The engine (and so this kit) lays 6†" in html and "whether Benidorm takes one" in html
    fact = board_html(DB, DocTexts(DB, "en"), [record], None, "fact")
    assert "lays 6" not in fact and "whether Benidorm takes one" in fact
    assert "3†" in fact and "2†" in fact, "the expert side's inferred access counts carry the mark"
    assert "the card xoriç counts as a valid ingredient" in fact and "+2 A and +2 D" in fact


# Read back from a built kit ----------------------------------------------------------------------------------


def _norm(text: str) -> str:
    return re.sub(r"[\s\u00ad\u2010-]", "", text).replace("\u2019", "'").lower()


def _content(stream) -> bytes:
    return b"".join(s.read_bytes() for s in stream) if isinstance(stream, pikepdf.Array) else stream.read_bytes()


def _text_of(form) -> str:
    """The text a placed face (a Form XObject) shows, laid on a page of its own and read back."""
    out = pikepdf.new()
    page = pikepdf.Dictionary(Type=pikepdf.Name.Page, MediaBox=[0, 0, 600, 800],
                              Resources=pikepdf.Dictionary(XObject=pikepdf.Dictionary(X=out.copy_foreign(form))),
                              Contents=out.make_stream(b"/X Do"))
    out.pages.append(pikepdf.Page(page))
    data = io.BytesIO()
    out.save(data)
    return PdfReader(data).pages[0].extract_text()


def printed_copies(sheet: Path) -> collections.Counter[str]:
    """Design → faces placed on the card sheets, each face identified by the card name it shows (the one that
    comes first in its text; a back shows none)."""
    names = {r.id: _norm(r.model.name) for r in Index(DB).of_kind("card")}
    pdf = pikepdf.open(sheet)
    placed: collections.Counter = collections.Counter()
    forms = {}
    for page in pdf.pages:
        xobjects = page.Resources.get("/XObject", {})
        for name in re.findall(rb"(/\w+) Do", _content(page.Contents)):
            form = xobjects[name.decode()]
            placed[form.objgen] += 1
            forms[form.objgen] = form
    copies: collections.Counter[str] = collections.Counter()
    for key, form in forms.items():
        text = _norm(_text_of(form))
        hits = sorted((text.find(n), -len(n), card) for card, n in names.items() if n in text)
        if hits:
            copies[hits[0][2]] += placed[key]
    return copies


@pytest.mark.slow
@pytest.mark.skipif(not shutil.which("pdftotext"), reason="needs poppler-utils")
def test_the_built_playtest_kit_reads_back_as_the_engine_deck(tmp_path: Path) -> None:
    run = run_cli("--cards", str(CARDS), "build", "--out", str(tmp_path), "--game", "fallera", "--set", "expert",
                  "--players", "2", "--locale", "en", "--edition", "playtest", "--no-docs", "--jobs", "2")
    assert run.exit_code == 0, run.output
    records = {r["path"]: r for r in json.loads((tmp_path / "manifest.json").read_text())["outputs"]}
    sheet = tmp_path / "fallera/en/cards-expert-2p-playtest-a4.pdf"
    played, left_out = engine("expert", 2)
    assert dict(printed_copies(sheet)) == played, "every placed face is a card the engine plays, as many times"
    pages = subprocess.run(["pdftotext", "-layout", "-l", str(records[str(sheet.relative_to(tmp_path))]["contents_pages"]),
                            str(sheet), "-"], capture_output=True, text=True, check=True).stdout
    flat = _norm(pages)
    assert _norm("Cards the engine leaves out") in flat
    listed = flat.split(_norm("Cards the engine leaves out"))[1]
    optional = {r.id for r in Index(DB).of_kind("card") if r.model.optional}  # not printed unless asked for
    for card_id in set(left_out) - optional:  # each by its name, those removed at 2 players (the II cards) included
        assert _norm(Index(DB).by_id[card_id].model.name) in listed, card_id
    assert set(BLANK) <= set(left_out)
    assert _norm("left out for this number of players") in listed
    assert "cannot be played as printed" not in pages
    assert {"fallera/en/board-playtest-a4.pdf", "fallera/en/board-playtest-a3.pdf"} <= set(records)
    assert records["fallera/en/board-playtest-a3.pdf"]["edition"] == "playtest"
    assert records["fallera/en/stickers-a4.pdf"].get("edition") is None, "a piece the same in both editions"
    board = subprocess.run(["pdftotext", str(tmp_path / "fallera/en/board-playtest-a3.pdf"), "-"],
                           capture_output=True, text=True, check=True).stdout
    assert "The engine (and so this kit) lays 6†" in board and "□" not in board, "no access left unknown"


@pytest.mark.slow
@pytest.mark.skipif(not shutil.which("pdftotext"), reason="needs poppler-utils")
def test_the_fact_kits_say_they_cannot_be_played(tmp_path: Path) -> None:
    for game, locale in (("diables", "ca"), ("fallera", "es")):
        run = run_cli("--cards", str(CARDS), "build", "--out", str(tmp_path), "--game", game, "--locale", locale,
                      "--no-docs", "--jobs", "2")
        assert run.exit_code == 0, run.output
    texts = {}
    for record in json.loads((tmp_path / "manifest.json").read_text())["outputs"]:
        if record["kind"] == "cards":
            texts[record["game"]] = subprocess.run(["pdftotext", "-l", "1", str(tmp_path / record["path"]), "-"],
                                                   capture_output=True, text=True, check=True).stdout
    diables, fallera = (_norm(texts[g]) for g in ("diables", "fallera"))
    assert _norm("Este kit no es pot jugar tal com està imprés") in diables and _norm("108 de les 124 cartes") in diables
    assert _norm("docs/owners-copy.md") in diables
    assert _norm("Este kit no se puede jugar tal como está impreso") in fallera and _norm("los accesos del") in fallera


def test_the_playtest_map_is_laid_out_without_crossings() -> None:
    import itertools

    from cardworks.render.docs.mapsvg import CENTRE, START_R, _crosses, map_geometry, segment_meets_box

    record = boards(DB, None)[0]
    middle = (CENTRE[0] - START_R, CENTRE[1] - START_R, CENTRE[0] + START_R, CENTRE[1] + START_R)

    def tangles(geometry) -> int:
        drawn = geometry.lines + geometry.inferred
        return sum(_crosses(a, b) for a, b in itertools.combinations(drawn, 2)) + \
            sum(segment_meets_box(s, middle) for s in drawn)

    for side in record.model.sides:
        drawn = drawn_side(DB, record, side, "playtest")
        names = {s.id: s.name for s in side.spaces}
        assert tangles(map_geometry(drawn, names, "start")) == 0, side.id
    expert = drawn_side(DB, record, record.model.sides[1], "playtest")
    import cardworks.render.docs.mapsvg as mapsvg

    kept, mapsvg.untangled = mapsvg.untangled, lambda spaces, edges: spaces  # the data's order, as before
    try:
        assert tangles(map_geometry(expert, {s.id: s.name for s in expert.spaces}, "start")) > 0, \
            "the check sees the tangle the data's order draws"
    finally:
        mapsvg.untangled = kept


def test_a_bonus_the_board_has_no_words_for_is_an_error() -> None:
    from cardworks.errors import DataError
    from cardworks.games.fallera.boardnotes import bonus_text

    space = boards(DB, None)[0].model.sides[1].spaces[1]
    strange = space.model_copy(update={"bonuses": [{"do": [{"verb": "teleport"}]}]})
    with pytest.raises(DataError, match="no words for the bonus 'teleport'"):
        bonus_text(DB, DocTexts(DB, "en"), strange)
