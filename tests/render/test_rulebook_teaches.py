"""The Diables rulebook teaches as its source does: every worked example beside its rule, every designer's note
as an aside, the components with their counts per colour, the Firebot's like in place of a colla action.

Read from the rulebook's HTML in each locale (the PDF's boxes are checked by the slow document tests)."""

from __future__ import annotations

import re

import pytest

from cardworks.loading.database import Database, load_game
from cardworks.render.docs.documents import rulebook_html
from cardworks.render.docs.markdown import render_markdown
from conftest import REPO
from own_words import html_blocks

NOTE = {"en": "Designer’s note.", "ca": "Nota del dissenyador.", "es": "Nota del diseñador."}
EXAMPLES = [  # the chapter each example of the source illustrates, and the source's figures it keeps
    ("06-performance", ["Leo", "Column 1", "columns 4 and 5", "column 3", "whistling"]),
    ("06-performance", ["2 + 2 + 1 = 5 sound points"]),
    ("06-performance", ["4 tabalers in his top row", "only 3 in his bottom row", "left action"]),
    ("07-actions", ["colorful firecracker", "reorganizes", "two prepare moves", "small beast cards"]),
    ("07-actions", ["whistling firecracker", "photo", "like"]),
    ("07-actions", ["carretillada", "costs 2", "2 followers"]),
    ("07-actions", ["12 sound points", "3 thrilled crowd icons", "tabalada"]),
    ("08-passage-of-time", ["3 in all", "5 in all", "5 × 4 = 20\u00a0FP", "3 × 3 = 9\u00a0FP"]),
    ("08-passage-of-time", ["4 figures", "icon for 3", "6\u00a0FP", "4\u00a0FP", "3\u00a0FP", "6 + 4 + 3 = 13\u00a0FP"]),
    ("08-passage-of-time", ["7 likes", "4 social media icons", "7 × 4 = 28\u00a0FP"]),
    ("11-solo-mode", ["ball parlat", "tabalada", "whistling firecracker", "2 spaces", "character"]),
    ("11-solo-mode", ["trobada de bèsties", "3 performers", "2 × 3 × 4 = 24\u00a0FP"]),
]
NOTES = {"04-player-setup": 1, "06-performance": 2, "07-actions": 3, "08-passage-of-time": 3}


@pytest.fixture(scope="module")
def diables() -> Database:
    return Database(game=load_game(REPO / "cards/diables"))


def _boxes(html: str, kind: str) -> list[tuple[str, str]]:
    """(chapter, text) of every ``kind`` box, in order."""
    found = []
    for chapter in html.split('<section class="chapter')[1:]:
        name = re.search(r'<h1 id="([^"]+)"', chapter).group(1)
        for box in re.findall(rf'<div class="{kind}">(.*?)</div>', chapter, re.DOTALL):
            found.append((name, " ".join(html_blocks(box))))
    return found


@pytest.mark.parametrize("locale", ["en", "ca", "es"])
def test_every_example_and_designers_note_of_the_source_is_in_its_chapter(diables, locale) -> None:
    html = rulebook_html(diables, locale, "all")
    examples = _boxes(html, "example")
    assert [chapter for chapter, _ in examples] == [chapter for chapter, _ in EXAMPLES]
    notes = [chapter for chapter, text in _boxes(html, "note") if text.startswith(NOTE[locale])]
    assert {chapter: notes.count(chapter) for chapter in notes} == NOTES  # the source's 9 designer's notes
    if locale == "en":
        for (chapter, text), (_, figures) in zip(examples, EXAMPLES):
            assert text.startswith("Example.") and all(f in text for f in figures), (chapter, text)


def test_components_give_the_counts_per_colour_and_per_pavement_row(diables) -> None:
    table = rulebook_html(diables, "en", "all").split('class="generated components"')[1].split("</table>")[0]
    pairs = {re.sub(r"<[^>]+>", "", name): count  # a name sits in its never-hyphenated span
             for name, count in re.findall(r'<td>(.*?)</td><td class="num">(.*?)</td>', table)}
    assert pairs["Camera tokens"] == "24 (6 of each colour)"
    assert pairs["Tabaler figures"] == "52 (13 of each colour)"
    assert pairs["– Upper pavement"] == "24" and pairs["– Lower pavement"] == "24"


def test_the_firebot_gains_a_like_in_place_of_a_colla_action(diables) -> None:
    text = " ".join(html_blocks(rulebook_html(diables, "en", "all")))
    assert "In place of each colla action the Firebot gains a like" in text
    assert "puts a like token on that action" not in text


def test_example_and_note_boxes_render_and_a_stray_fence_stays_text() -> None:
    html, _ = render_markdown("# T\n\n::: example\n**Example.** One.\n:::\n\n::: aside\nNot a box.\n:::\n", "t", {},
                              lambda name: "")
    assert '<div class="example">\n<p><strong>Example.</strong> One.</p>\n</div>' in html
    assert "<p>::: aside\nNot a box.\n:::</p>" in html
