"""What faces and generated tables print for values the rulebooks do not state: ``?`` for an unknown, ``†``
for anything inferred, from an outside source, unverified or a playtest stand-in, with the legend beside it.

These read the real database through the real face and table builders (no PDF); the PDFs themselves are read
back in ``test_marks_pdf``.
"""

from __future__ import annotations

import re

import pytest

from cardworks.loading import load_database
from cardworks.loading.records import Index
from cardworks.render.deck import build_deck
from cardworks.render.docs.generated import Generator
from cardworks.render.docs.texts import DocTexts, icon_urls
from cardworks.render.faces import Face, build_job
from cardworks.render.marks import NOT_STATED, UNKNOWN
from conftest import REPO

DB = load_database(REPO / "cards" / "fallera")
SETS = ["base", "discordia", "mes-enlla"]


def _faces(edition: str, locale: str = "en") -> dict[str, Face]:
    job = build_job(DB, build_deck(DB, "expert", edition=edition), locale)
    return {face.id: face for face in job.faces if isinstance(face, Face)}


@pytest.fixture(scope="module")
def fact() -> dict[str, Face]:
    return _faces("fact")


@pytest.fixture(scope="module")
def playtest() -> dict[str, Face]:
    return _faces("playtest")


def _stat(face: Face, icon: str) -> str:
    return next(s["value"] for s in face.stats if f"/{icon}.svg" in s["url"])


def test_an_unknown_attack_prints_the_unknown_mark_and_a_stated_one_prints_plain(fact) -> None:
    assert (_stat(fact["el-tio-sangonera"], "attack"), _stat(fact["el-tio-sangonera"], "defence")) == (UNKNOWN, UNKNOWN)
    assert (_stat(fact["el-capita-moro"], "attack"), _stat(fact["el-capita-moro"], "defence")) == ("4", "1")
    assert UNKNOWN in fact["el-tio-sangonera"].unverified and "unknown" in fact["el-tio-sangonera"].unverified


def test_the_unknown_mark_is_not_the_game_s_own_question_mark_icon(fact) -> None:
    """"?" is La Fallera Calavera's icon for a treasure with its own effect (fallera-base, Treasure Cards):
    unknown is printed as an empty box, and no face prints a bare "?" of its own."""
    assert UNKNOWN == "\u25a1" and UNKNOWN != "?"
    for face in fact.values():
        printed = [face.name, face.sell or "", *(str(s["value"]) for s in face.stats), *(m.mark + m.text for m in face.marks),
                   face.unverified]
        assert not any("?" in text for text in printed), face.id


def test_a_set_no_source_gives_prints_the_unknown_badge_and_an_unstated_base_set_its_number(fact) -> None:
    """The 10 cards whose set is only where the rulebook that first names them puts them, and el Momo, print
    the unknown mark as their set badge; the 24 base designs whose set no rulebook states print the base set's
    number, marked; a stated base card prints no badge (the real cards have none)."""
    from cardworks.models.certainty import field_certainty

    badges = {face.id: [m for m in face.marks if not m.url] for face in fact.values()}
    index = Index(DB)
    unknown = {r.id for r in index.of_kind("card")
               if r.model.set_certainty != "stated" and field_certainty(r.model.sources, "set") is None}
    assert len(unknown) == 11 and {"l-ofrena", "romer", "illa-de-tabarca", "el-momo"} <= unknown
    for card in unknown:
        assert [(m.text, m.mark) for m in badges[card]] == [(UNKNOWN, "")], card
        assert not any(m.url.endswith(("set-2.svg", "set-3.svg")) for m in fact[card].marks), f"{card}: a guessed set badge"
    unstated_base = {r.id for r in index.of_kind("card")
                     if r.set_id == "base" and r.model.set_certainty != "stated"} - unknown
    assert len(unstated_base) == 23, "24 base designs whose set no rulebook states, el Momo's unknown"
    for card in unstated_base:
        assert [(m.text, m.mark) for m in badges[card]] == [("1", NOT_STATED)], card
    assert badges["el-capita-moro"] == [] and badges["xoric"] == []


def test_a_name_from_a_fan_list_is_marked_and_a_blank_rules_box_says_the_text_is_unknown(fact) -> None:
    bat = fact["rata-penada-cleptomana"]
    assert bat.name_mark == NOT_STATED and NOT_STATED in bat.unverified
    assert fact["el-capita-moro"].name_mark == ""
    blank = [face for face in fact.values() if face.rules_unknown]
    assert len(blank) == 17 and all(face.rules.startswith(UNKNOWN) and "unknown" in face.rules for face in blank)
    assert all(UNKNOWN in face.unverified for face in blank), "the legend explains the mark"
    assert not fact["el-capita-moro"].rules_unknown


def test_an_unknown_sell_value_prints_a_question_mark(fact) -> None:
    assert fact["gaiata-de-la-magdalena"].sell == UNKNOWN
    assert fact["catxerulo"].sell == UNKNOWN, "its missing facts name the sell value"
    assert fact["conill"].sell is None, "an ingredient has no sell value to be unknown"


def test_values_the_rulebooks_do_not_state_carry_the_mark_and_the_legend(fact) -> None:
    espill = fact["espill-lluent"]
    assert espill.rules.startswith(NOT_STATED), "the attack/defence swap is only inferred (fallera-3 lines 174, 194)"
    assert _stat(espill, "rank") == f"1{NOT_STATED}", "n1 is inferred from the rank table"
    assert espill.type_mark == NOT_STATED
    assert "not stated in the rulebooks" in espill.unverified
    for card in ("batalla-d-almansa", "la-geperudeta", "conill"):
        assert fact[card].rules.startswith(NOT_STATED), card
    moro = fact["el-capita-moro"]
    assert not moro.rules.startswith(NOT_STATED) and not moro.type_mark and NOT_STATED not in moro.unverified


def test_a_set_mark_without_a_stated_set_is_marked(fact) -> None:
    marks = {m.url.rsplit("/", 1)[1]: m.mark for m in fact["alcaldessa-destronada"].marks}
    assert marks["set-2.svg"] == NOT_STATED, "its set rests on an outside announcement only"
    assert {m.mark for m in fact["xoric"].marks} == {""}, "the xoriç's set is stated"


def test_the_playtest_edition_prints_marked_stand_ins_and_the_fact_edition_none(fact, playtest) -> None:
    assert _stat(playtest["el-tio-sangonera"], "attack") == f"2{NOT_STATED}"
    assert _stat(playtest["el-tio-sangonera"], "defence") == f"1{NOT_STATED}"
    assert playtest["gaiata-de-la-magdalena"].sell == f"2{NOT_STATED}"
    assert "stand-in" in playtest["el-tio-sangonera"].unverified
    assert _stat(playtest["el-capita-moro"], "attack") == "4", "a stated value stays plain"
    assert {f.edition for f in playtest.values()} == {"playtest"} and {f.edition for f in fact.values()} == {"fact"}


def test_the_playtest_edition_names_its_files_and_keys_its_faces_apart() -> None:
    from cardworks.render.facecache import face_keys

    fact_deck, play_deck = build_deck(DB, "expert"), build_deck(DB, "expert", edition="playtest")
    assert (fact_deck.label, play_deck.label) == ("expert", "expert-playtest")
    moro = [build_job(DB, deck, "en") for deck in (fact_deck, play_deck)]
    keys = [face_keys(job)["el-capita-moro"] for job in moro]
    assert keys[0] != keys[1], "the same face in two editions is cached apart"


@pytest.mark.parametrize("locale", ["ca", "es"])
def test_the_legend_is_translated(locale: str) -> None:
    faces = _faces("fact", locale)
    legend = faces["espill-lluent"].unverified
    assert NOT_STATED in legend and "rulebooks" not in legend and "unknown" not in faces["el-tio-sangonera"].unverified


def _generate(name: str, locale: str = "en", sets: list[str] = SETS) -> str:
    texts = DocTexts(DB, locale)
    index = Index(DB)
    return str(Generator(index, texts, sets, icon_urls(index, texts))(name))


def _unwrapped(cell: str) -> str:
    """``cell`` without the ``proper-name`` spans names are printed in (render/typography.py), other markup kept."""
    out, stack = [], []
    for piece in re.split(r"(</?span\b[^>]*>)", cell):
        if piece.startswith("<span"):
            stack.append(piece.startswith('<span class="proper-name'))
            if stack[-1]:
                continue
        elif piece.startswith("</span") and stack and stack.pop():
            continue
        out.append(piece)
    return "".join(out)


def _rows(html: str) -> list[list[str]]:
    return [[_unwrapped(cell) for cell in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]
            for row in re.findall(r"<tr>(.*?)</tr>", html, re.S) if "<td" in row]


def test_the_player_count_table_removes_a_deck_s_own_cards_only() -> None:
    rows = _rows(_generate("player-variants"))
    five = {row[1]: row[3] for row in rows if row[0] == "5"}
    with_iaia = [decks for decks, removed in five.items() if "iaia dotora" in removed]
    assert with_iaia and all("més enllà" in decks or "expert" in decks for decks in with_iaia), five
    without = [decks for decks, removed in five.items() if "iaia dotora" not in removed]
    assert any(decks.startswith("Base game,") or decks == "Base game" for decks in without), five
    assert all("més enllà" not in decks for decks in without), "iaia dotora is an expansion-3 card"


def test_the_card_index_lists_every_design_with_its_certainty() -> None:
    html = _generate("card-index")
    rows = _rows(html)
    assert len(rows) == len(list(Index(DB).of_kind("card")))
    by_name = {row[0]: row for row in rows}
    assert by_name["el Momo"][2] == UNKNOWN, "no source puts el Momo in a set"
    assert by_name["l&#39;Ofrena"][2] == UNKNOWN, "the rulebook that first names it does not give its set"
    bat = by_name[f"rata penada cleptòmana{NOT_STATED}"]
    assert bat[3] == "unverified" and "outside source" in bat[4], "its name comes from a fan list"
    assert by_name["espill lluent"][1].endswith(NOT_STATED) and by_name["espill lluent"][3] == "unverified"
    assert by_name["el capità moro"][1:4] == ["Battle", "La Fallera Calavera", "stated"]
    assert "optional" in by_name["Misteri d&#39;Elx"][4]
    assert "57 designs; 44 are known" in html
    assert "not stated in the rulebooks" in html.split("<tbody>")[0], "the legend is in the head, repeated on every page"


def test_the_rank_table_marks_a_rank_exactly_when_it_is_not_stated() -> None:
    from cardworks.models.certainty import is_stated

    rows = {row[0]: row[1] for row in _rows(_generate("rank-table"))}
    assert rows["paella protectora"] == "n2"
    cards = {r.model.name.replace("'", "&#39;"): r.model for r in Index(DB).of_kind("card")}
    assert sum(name in cards for name in rows) == len(rows) - 1, "every row but 'all other specials' is a card"
    for name, value in rows.items():
        if name in cards:
            assert value.endswith(NOT_STATED) != is_stated(cards[name].sources, "stats/rank"), name


def test_the_expert_map_marks_its_inferred_access_and_counts() -> None:
    figures = re.findall(r'<figure class="generated map">(.*?)</figure>', _generate("map"), re.S)
    normal, expert = figures
    assert 'class="inferred-access"' not in normal and "†" not in normal.split("<figcaption>")[0]
    svg, caption = expert.split("<figcaption>")
    assert svg.count('class="inferred-access"') == 1 and 'class="access"' not in svg
    counts = re.findall(r'class="count"[^>]*>([^<]+)<', svg)
    assert "2" in counts, "Benidorm's 2 accesses are stated (fallera-3 line 160)"
    assert sum(c.endswith(NOT_STATED) for c in counts) == 5, counts
    assert 'data-key="inferred"' in caption and 'data-key="access"' not in caption


def test_only_the_playtest_edition_prints_assumed_quantities() -> None:
    assumed = {target: value for (target, field), value in Index(DB).assumed().items() if field == "quantity"}
    fact = {e.card.id: e for e in build_deck(DB, "expert").cards}
    play = {e.card.id: e for e in build_deck(DB, "expert", edition="playtest").cards}
    assert (fact["el-tio-sangonera"].copies, fact["el-tio-sangonera"].quantity_source) == (1, "default")
    assert (play["el-tio-sangonera"].copies, play["el-tio-sangonera"].quantity_source) == \
        (assumed["el-tio-sangonera"], "assumed")
    assert "monleonetes" in fact and "monleonetes" not in play, "a card the engine leaves out is not printed"
    assert sum(e.copies for e in fact.values()) == len(fact)


@pytest.mark.parametrize("locale", ["en", "ca", "es"])
def test_the_misteri_d_elx_is_in_its_own_box_with_its_one_card_marked(locale: str) -> None:
    """An optional card is listed in the components table of its own set's box only; the expansion-2 rulebook
    speaks of one card (an inferred count: marked, with the legend)."""
    name = str(DocTexts(DB, locale).text("misteri-d-elx", "name", "Misteri d'Elx")).replace("'", "&#39;")
    base = _rows(_generate("components", locale, ["base"]))
    assert not [row for row in base if name in row[0]], "an expansion-2 card in the base box"
    both = _generate("components", locale, ["base", "discordia"])
    rows = [row for row in _rows(both) if name in row[0]]
    assert [row[1] for row in rows] == [f"1{NOT_STATED}"]
    assert str(DocTexts(DB, locale).label("mark_not_stated")) in both.split("<tbody>")[0]


def test_the_two_player_table_says_the_expansions_ii_cards_are_named_by_no_source() -> None:
    rows = [row for row in _rows(_generate("player-variants")) if row[0] == "2"]
    assert len(rows) == 1, "every deck loses the same named cards: one row"
    removed = rows[0][3]
    assert removed.startswith("cabeça d&#39;alls") and "no source names" in removed
    assert "in a deck with La Fallera Calavera 2" in removed and "La Fallera Calavera 3" in removed
    alone = _rows(_generate("player-variants", sets=["base"]))
    assert not any("no source names" in row[3] for row in alone), "the base game's II cards are all named"


def test_the_diables_solo_tie_is_an_inference_not_a_ruling() -> None:
    """The rulebook says only that more FP than the Firebot wins (diables line 334)."""
    diables = load_database(REPO / "cards" / "diables")
    ruling = next(r.model for r in Index(diables).of_kind("ruling") if r.id == "diables-solo-tie")
    assert ruling.source.certainty == "inferred"
