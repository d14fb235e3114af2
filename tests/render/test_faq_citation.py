"""The FAQ cites its sources as a printed FAQ does (issue 45, item 3): the rulebook and its section, in the
reader's language and naming that language's rulebook; the source file's line numbers only in the proof (the
developers' view), where a range takes the plural label."""

from __future__ import annotations

import html
import re

from cardworks.i18n.plurals import counted, is_several
from cardworks.loading import load_database
from cardworks.render.docs.documents import faq_html
from conftest import REPO

CARDS = REPO / "cards"
LINE = {"en": r"\blines?\b", "ca": r"\bl[ií]ni(?:a|es)\b", "es": r"\bl[ií]neas?\b"}


def _metas(page: str) -> list[str]:
    return [html.unescape(re.sub(r"<[^>]+>", "", m)) for m in re.findall(r'<p class="meta">(.*?)</p>', page, re.S)]


def test_a_printed_faq_cites_rulebook_and_section_without_line_numbers() -> None:
    db = load_database(CARDS / "fallera")
    checked = 0
    for locale in ("en", "ca", "es"):
        metas = _metas(faq_html(db, locale))
        assert len(metas) > 100
        for meta in metas:
            assert not re.search(LINE[locale], meta), (locale, meta)
            assert not re.search(r"\d+\s*[-–]\s*\d+", meta), (locale, meta)
            checked += 1
        if locale != "en":  # the locale's own rulebook, not "the English translation"
            assert not [m for m in metas if re.search(r"tradu(?:cció|cción) (?:anglesa|inglesa)", m)], locale
    assert checked > 300


def test_the_proof_faq_keeps_line_numbers_with_the_plural_for_a_range() -> None:
    db = load_database(CARDS / "fallera")
    metas = _metas(faq_html(db, "ca", proof=True))
    ranges = [m for m in metas if re.search(r"\d+-\d+", m)]
    singles = [m for m in metas if re.search(r"línia \d+(?!-)", m)]
    assert ranges and singles
    assert all("línies " in m and "línia " not in m for m in ranges), ranges[:3]
    assert not [m for m in singles if "línies" in m]


def test_counted_takes_the_plural_for_ranges_and_lists() -> None:
    labels = {"line": "line", "lines": "lines"}.__getitem__
    assert counted(labels, "line", "46") == "line 46"
    assert counted(labels, "line", "46-47") == "lines 46-47"
    assert counted(labels, "line", "5 and 26") == "lines 5 and 26"
    assert is_several("3, 7") and not is_several("131")
