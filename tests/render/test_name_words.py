"""Names are never broken by a hyphen at a line end, also where running text names a piece by one word of its
name ("the revolta", "la Reina", "Moixent", "el Firebot"): issue 45, item 3. The words come from the database's
names in every locale (render.typography.name_words); common words of names (carta, batalla) still hyphenate."""

from __future__ import annotations

import re

import pytest

from cardworks.loading import load_database
from cardworks.render.typography import database_names, name_words, typeset
from conftest import REPO

CARDS = REPO / "cards"


def test_name_words_are_later_capitals_and_words_of_untranslated_names() -> None:
    words = name_words([["revolta de les Germanies", "revolta de les Germanies"], ["el guerrer de Moixent"],
                        ["La Reina Calavera", "The Calavera Queen"], ["carta de batalla", "battle card"]])
    assert words is not None
    for word in ("revolta", "Revolta", "Germanies", "Moixent", "Reina", "Calavera", "Queen"):
        assert words.fullmatch(word), word
    for word in ("carta", "batalla", "guerrer", "reina", "The", "de"):
        assert not words.fullmatch(word), word


def test_running_text_keeps_name_words_whole_and_names_as_before() -> None:
    names = database_names(load_database(CARDS / "fallera"), "en")
    page = typeset("<p>In a revolta every battle card counts; the Queen moves on.</p>", "en", names)
    assert '<span class="name-word">revolta</span>' in page and '<span class="name-word">Queen</span>' in page
    assert "name-word\">battle" not in page and "name-word\">card" not in page
    whole = typeset("<p>Play the revolta de les Germanies.</p>", "en", names)
    assert 'class="proper-name"' in whole and "name-word" not in whole  # the whole name is one span, as before


def test_a_name_kept_in_english_on_purpose_is_a_name_word() -> None:
    names = database_names(load_database(CARDS / "diables"), "ca")
    assert names.words is not None and names.words.fullmatch("Firebot")


@pytest.mark.slow
def test_no_name_word_is_hyphenated_at_a_line_end_in_any_faq() -> None:
    from pypdf import PdfReader
    import io

    from cardworks.render.docs.documents import faq_pdf

    checked = 0
    for game in ("fallera", "diables"):
        db = load_database(CARDS / game)
        for locale in ("en", "ca", "es"):
            words = database_names(db, locale).words
            reader = PdfReader(io.BytesIO(faq_pdf(db, locale)))
            lines = [line for page in reader.pages for line in (page.extract_text() or "").splitlines()]
            broken = []
            for line, after in zip(lines, lines[1:]):
                end = re.search(r"(\w+)\u2010$", line)
                if end and after.split():
                    word = end.group(1) + re.match(r"[\w'’]*", after.split()[0]).group(0)
                    if words is not None and words.fullmatch(word):
                        broken.append(word)
            assert not broken, (game, locale, broken)
            checked += 1
    assert checked == 6
