"""Hostile text in templates: tokens where no icon may go, and proof marks that must not be escaped twice.

Rendering PDFs costs seconds; these check the HTML the renderer is given, which is where both defects were.
"""

from __future__ import annotations

import html
import re

from markupsafe import Markup

from corpus import judge_output

FAMILY = "templates/svg"
ICONS = {"treasure": ("file:///icons/treasure.svg", "treasure"), "battle": ("file:///icons/battle.svg", "battle")}


def test_tokens_in_link_titles_and_alt_texts_stay_text() -> None:
    from cardworks.render.docs.markdown import render_markdown

    source = ('Take a {treasure} and [see {treasure}](#cards "about {treasure}").\n\n'
              '![a {battle} icon](map.svg "the {battle} map")\n\n`{treasure}` in code')
    body, _ = render_markdown(source, "s", ICONS, lambda name: Markup(""))
    attributes = re.findall(r'(?:title|alt)="([^"]*)"', str(body))
    wrong = None
    if "about {treasure}" not in attributes or "a {battle} icon" not in attributes or "the {battle} map" not in attributes:
        wrong = f"a token inside an attribute was replaced: {attributes}"
    elif str(body).count('<img class="icon"') != 2:
        wrong = "the tokens in the text did not become icons"
    elif "<code>{treasure}</code>" not in str(body):
        wrong = "a token inside code became an icon"
    judge_output("{token} in a Markdown link title and image alt text", FAMILY, wrong)


def test_proof_fallback_is_not_escaped_twice() -> None:
    from cardworks.render.jinja import markup_html

    marked = Markup('<span class="fallback" data-locale="en">{}</span>').format("Rob's {treasure} & more")
    out = str(markup_html(marked, ICONS))
    shown = html.unescape(re.sub(r"<[^>]+>", "", out))
    wrong = None
    if not out.startswith('<span class="fallback" data-locale="en">') or "&lt;span" in out or "&amp;#39;" in out:
        wrong = f"the proof mark was escaped again: {out}"
    elif shown != "Rob's  & more" or '<img class="icon"' not in out:
        wrong = f"the text inside the proof mark is not rendered once: {out}"
    judge_output("--proof fallback text through markup_html", FAMILY, wrong)
