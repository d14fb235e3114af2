"""The card index names the outside source of an unstated card name by that source's title in the reader's
language: a ca or es rulebook printed the English title of the fan list although its translation exists."""

from __future__ import annotations

import html

import pytest

from cardworks.loading import load_database
from cardworks.render.docs.documents import rulebook_html
from cardworks.render.docs.texts import DocTexts
from conftest import REPO

DB = load_database(REPO / "cards" / "fallera")


@pytest.mark.parametrize("locale", ["ca", "es"])
def test_the_rulebook_card_index_prints_the_source_title_in_its_own_language(locale: str) -> None:
    page = html.unescape(rulebook_html(DB, locale, "expert"))
    texts = DocTexts(DB, locale)
    checked = 0
    for document in DB.game_doc.documents:
        english = document.title.split(" (", 1)[0]
        own = str(texts.text(DB.game_doc.id, f"documents/{document.id}/title", document.title)).split(" (", 1)[0]
        if own == english:  # a title kept as it is (a Spanish or Valencian source's own name)
            continue
        checked += 1
        assert english not in page, f"{locale}: the English title {english!r} is printed"
    assert checked, "no translated title was checked"
    fan_list = str(texts.text(DB.game_doc.id, "documents/fan-list-guilbard/title", "")).split(" (", 1)[0]
    assert f"{texts.label('certainty_unverified')}: {fan_list}" in page, "the index names the fan list in its own words"
