"""A piece's title is the game's name, a colon and a subtitle that follows the locale's rule after a colon, the
same in every title: the French dice net printed "Calavera : dés à découper et plier" beside "Calavera : Bloc de
score" (issue 45). French, Catalan, Spanish and Dutch write no capital after a colon; English titles do."""

from __future__ import annotations

import re

from markupsafe import Markup

from cardworks.loading import load_database
from cardworks.render.docs.texts import DocTexts
from cardworks.render.jinja import subtitle
from cardworks.render.piecepdf import piece_html
from conftest import REPO


def test_subtitle_follows_the_locale() -> None:
    fr, en = {"lang": "fr"}, {"lang": "en"}
    assert subtitle(fr, "dés à découper et plier") == "dés à découper et plier"
    assert subtitle(fr, "Bloc de score") == "bloc de score"
    assert subtitle(en, "score pad") == "Score pad"
    assert subtitle(fr, "PDF sheet") == "PDF sheet"  # an abbreviation keeps its capitals
    assert subtitle(fr, Markup('<span class="fallback">Dice net</span>')) == '<span class="fallback">dice net</span>'
    assert subtitle(fr, "") == ""


def test_a_piece_title_after_the_game_follows_each_locale() -> None:
    db = load_database(REPO / "cards" / "calavera")
    checked = 0
    for locale in ("fr", "nl", "en", "ca", "es"):
        page = piece_html("stickers.html.j2", DocTexts(db, locale), coins=[], size=10.0, paper=None, game="Calavera")
        title = re.search(r'<h1 class="piece-title">(.*?)</h1>', page, re.S).group(1)
        after = re.sub(r"<[^>]+>", "", title).split(":", 1)[1].strip(" \u202f")
        assert after[:1].isupper() if locale == "en" else after[:1].islower(), (locale, title)
        checked += 1
    assert checked == 5
