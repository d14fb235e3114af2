"""The FAQ is a reference: each ruling once, numbered, under its topic, and indexes of topics and of card names
that give ruling numbers. Checked here on the FAQ's HTML (fast, every game and locale) and on the readers of
its PDF (``faq_pages``) with small made-up pages that show each check failing; the built PDFs are read in
``test_documents.py`` and ``test_documents_diables.py``."""

from __future__ import annotations

import html
import re

import pytest

from cardworks.i18n import Localizer
from cardworks.loading import load_database
from cardworks.loading.records import Index
from cardworks.render.docs.documents import faq_html, number_ranges
from cardworks.render.typography import curly
from conftest import REPO
from faq_pages import Line, entry_numbers, expand, index_entries, stranded_headings

CARDS = REPO / "cards"


def test_number_ranges() -> None:
    assert number_ranges([1, 2, 3, 7, 9, 10]) == ["1\u20133", "7", "9", "10"]
    assert number_ranges([4]) == ["4"] and number_ranges([]) == []
    assert expand("1\u20133, 7, 9, 10") == {1, 2, 3, 7, 9, 10}


def _typeset(text: str, locale: str) -> str:
    """``text`` (a database string) as the FAQ prints it: curly quotes and apostrophes (docs/typography.md)."""
    return curly(html.unescape(text), locale, " ")


def _items(page: str, css_class: str) -> list[tuple[str, set[int]]]:
    """(name, numbers) of each item of the index list ``css_class`` in the FAQ's HTML."""
    block = re.search(rf'<ul class="{css_class}">(.*?)</ul>', page, re.S).group(1)
    found = []
    for item in re.findall(r"<li>(.*?)</li>", block, re.S):
        name, numbers = item.split('<span class="numbers">')
        plain = html.unescape(re.sub(r"<[^>]+>", "", name)).strip()
        found.append((plain, expand(html.unescape(re.sub(r"<[^>]+>", "", numbers)).strip())))
    return found


def test_each_ruling_is_printed_once_numbered_under_its_topic_and_indexed() -> None:
    """The shipped games' FAQ pages, in each locale: a test about their real rulings, one load per game."""
    checked = []
    for game in ("fallera", "diables"):
        db = load_database(CARDS / game)
        for locale in ("en", "ca", "es"):
            _each_ruling_is_printed_once_numbered_under_its_topic_and_indexed(db, locale)
            checked.append((game, locale))
    assert len(checked) == 6


def _each_ruling_is_printed_once_numbered_under_its_topic_and_indexed(db, locale: str) -> None:
    index = Index(db)
    page = faq_html(db, locale)
    rulings = index.of_kind("ruling")
    topics = [t.id for t in db.game_doc.faq_topics]
    # the numbering the FAQ promises: topics in the game's order, rulings in file order within a topic
    expected = [r.id for t in topics for r in rulings if r.model.topic == t]
    assert sorted(expected) == sorted(r.id for r in rulings)  # every ruling has a topic of the game
    printed = re.findall(r'<div class="ruling" id="ruling-([^"]+)" data-number="(\d+)">', page)
    assert [ruling_id for ruling_id, _ in printed] == expected
    assert [int(n) for _, n in printed] == list(range(1, len(expected) + 1))
    sections = re.findall(r'<section class="topic" id="topic-([^"]+)">(.*?)</section>', page, re.S)
    assert [t for t, _ in sections] == topics
    number_of = {ruling_id: int(n) for ruling_id, n in printed}
    for topic, body in sections:  # each ruling sits in its own topic's section
        assert {r.model.topic for r in rulings if f'id="ruling-{r.id}"' in body} == {topic}

    words = Localizer(db, locale)
    topic_index = _items(page, "topic-index")
    assert len(topic_index) == len(topics)
    for topic in db.game_doc.faq_topics:
        name, _ = words.text(db.game_doc.id, f"faq_topics/{topic.id}/name", topic.name)
        assert (_typeset(name, locale), {number_of[r.id] for r in rulings if r.model.topic == topic.id}) in topic_index

    cards = _items(page, "name-index")
    keys = [" ".join(name.casefold().split()) for name, _ in cards]
    assert len(keys) == len(set(keys)), [k for k in keys if keys.count(k) > 1]  # one entry per name
    by_name = dict(cards)
    for ruling in rulings:
        for card in ruling.model.cards:
            name, _ = words.text(card, "name", index.by_id[card].model.name)
            printed = _typeset(name, locale)  # an index entry begins with a capital (docs/typography.md)
            assert number_of[ruling.id] in by_name[printed[:1].upper() + printed[1:]], (card, ruling.id)


def test_catalan_index_merges_names_that_differ_only_in_case() -> None:
    """The Catalan index printed "jugada reial" and "Jugada reial" (a name and an other name of one card)
    and "fideuà de l'apocalipsi" twice; now each is one entry."""
    page = faq_html(load_database(CARDS / "fallera"), "ca")
    names = [name.casefold() for name, _ in _items(page, "name-index")]
    assert names.count("jugada reial") == 1 and names.count(_typeset("fideuà de l'apocalipsi", "ca")) == 1


def _line(page: int, top: float, text: str, size: float = 9.0, bold: bool = False, right: bool = False) -> Line:
    return Line(page, 300.0 if right else 50.0, top, size, bold, text, right)


def test_a_heading_at_the_foot_of_a_column_is_found() -> None:
    page = [_line(2, 100, "Battles", 11.5, True), _line(2, 120, "1. Who wins?", bold=True), _line(2, 130, "The attacker."),
            _line(2, 140, "Source, line 3"), _line(2, 700, "Map and its refills", 11.5, True),
            _line(2, 100, "2. And then?", bold=True, right=True), _line(2, 110, "Nothing.", right=True)]
    assert stranded_headings([[], page]) == [(2, "Map and its refills")]
    assert stranded_headings([[], page[:4] + page[5:]]) == []
    icon = _line(2, 790, "II", 32.0, True)  # an inline icon's SVG text is no heading
    assert stranded_headings([[], page[:4] + page[5:] + [icon]]) == []


def test_entry_numbers_skip_a_question_that_wraps_at_a_number() -> None:
    page = [_line(2, 100, "1. Leo has reached the icon for", bold=True), _line(2, 110, "3. What does he score?", bold=True),
            _line(2, 120, "Three."), _line(2, 130, "2. Is it once?", bold=True), _line(2, 140, "Yes."),
            _line(2, 150, "2. Is it once?", bold=True)]
    assert entry_numbers([page]) == [1, 2, 2]  # the repeated entry shows; the wrapped line does not


def test_index_entries_join_wrapped_lines() -> None:
    page = [_line(2, 90, "Index", 18.0, True), _line(2, 100, "Map of the Kingdom"), _line(2, 100, "1, 4\u20139, 12,"),
            _line(2, 110, "15"), _line(2, 120, "Territorial foods and winning with four"),
            _line(2, 130, "ingredients 20\u201322"), _line(2, 140, "conill 3")]
    assert index_entries([page], "Index", None) == [("Map of the Kingdom", "1, 4\u20139, 12, 15"),
                                                     ("Territorial foods and winning with four ingredients", "20\u201322"),
                                                     ("conill", "3")]


def _diables_copy(tmp_path, change) -> object:
    """A copy of the Diables database with ``change(game, rulings)`` applied to its JSON."""
    import json
    import shutil

    root = tmp_path / "diables"
    shutil.copytree(CARDS / "diables", root)
    game_file, rulings_file = root / "game.json", root / "rulings" / "rulebook.json"
    game, rulings = json.loads(game_file.read_text()), json.loads(rulings_file.read_text())
    change(game, rulings["rulings"])
    game_file.write_text(json.dumps(game, ensure_ascii=False))
    rulings_file.write_text(json.dumps(rulings, ensure_ascii=False))
    return load_database(root)


def test_a_ruling_under_an_unknown_topic_fails_the_faq(tmp_path) -> None:
    from cardworks.errors import DataError

    db = _diables_copy(tmp_path, lambda game, rulings: rulings[3].update(topic="ghost"))
    with pytest.raises(DataError) as failed:
        faq_html(db, "en")
    assert "rulebook.json:/rulings/3" in str(failed.value) and "'ghost'" in str(failed.value)
    assert [p.code for p in failed.value.problems] == ["dangling-ref"]


def test_a_game_without_topics_prints_its_rulings_numbered_under_the_faq_heading(tmp_path) -> None:
    def untopical(game, rulings):
        del game["faq_topics"]
        for ruling in rulings:
            del ruling["topic"]

    page = faq_html(_diables_copy(tmp_path, untopical), "en")
    numbers = [int(n) for n in re.findall(r'class="ruling" id="ruling-[^"]+" data-number="(\d+)"', page)]
    assert numbers == list(range(1, 22))
    assert 'class="topic-index"' not in page and "<h2>" not in page and 'class="name-index"' in page
