"""WeasyPrint's user-agent stylesheet for rulebooks, FAQ indexes, card faces and printable pieces, with its six
rules that style a pseudo-element of every element scoped to the elements that have one.

WeasyPrint's own stylesheet (``weasyprint/css/html5_ua.css``) styles ``::marker``, ``::footnote-call``,
``::footnote-marker``, ``::note-call``, ``::note-marker`` and ``::note-callback`` with no element named, so
each of a document's elements gets six pseudo-element styles cascaded and computed: about 80 % of the cascade
of a FAQ's 2,300 elements, a tenth of its processor time (a sixth of a document of card faces). Only a list
item has a marker, and only an element floated as a footnote or placed as a note has the other five. A document
whose HTML and stylesheets never say ``list-item``, ``footnote`` or ``note(`` has no list items but its ``li``
elements (the user agent makes them list items) and neither footnotes nor notes: it is laid out with the rules
scoped (``li::marker``, the other five left out) and prints the same bytes. Any other document, or one where an
element other than ``li`` turns out to have a marker (``display: inherit`` under a list item), is laid out with
WeasyPrint's own stylesheet. Printable pieces are laid out the same way: their small print's class ``footnote``
(:data:`FOOTNOTE_CLASS`) is not taken for the word.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

UNIVERSAL_RULE = re.compile(
    r"^::(marker|footnote-call|footnote-marker|note-call|note-marker|note-callback) \{[^}]*\}\n", re.MULTILINE)
"""A rule of WeasyPrint's stylesheet that styles a pseudo-element of every element."""

UNSCOPED_WORDS = ("list-item", "footnote", "note(", "@import")
"""Words of a document (its HTML or a stylesheet it links) that may give an element other than ``li`` a marker,
a footnote or a note (or hide a stylesheet from :func:`scoped_fits`): such a document gets WeasyPrint's own
stylesheet."""

FOOTNOTE_CLASS = re.compile(r'(?<![\w.-])\.footnote(?![\w-])|class="footnote"')
"""The one use of the word ``footnote`` that makes no footnote: the class of the printable pieces' small print
(``templates/pieces/pieces.css``: ``.footnote { ... }``, ``<p class="footnote">``), a class selector and a class
attribute naming that class alone. Taken out before the words are looked for; ``float: footnote``, ``::footnote-call``
or a class named otherwise still send a document to WeasyPrint's own stylesheet. The comments of a linked
stylesheet are taken out too (pieces.css says "footnote" in one)."""

CSS_COMMENT = re.compile(r"/\*.*?\*/", re.DOTALL)

STYLESHEET_LINK = re.compile(r'<link rel="stylesheet" href="([^"]+)">')


@lru_cache(maxsize=1)
def scoped_stylesheet() -> Any:
    """WeasyPrint's user-agent stylesheet with its six universal pseudo-element rules scoped, parsed once per
    process; None when the installed WeasyPrint's stylesheet does not hold exactly those six rules (another
    version: its documents are laid out with its own stylesheet, and tests/render/test_user_agent.py fails)."""
    from weasyprint import CSS
    from weasyprint.css.counters import CounterStyle
    from weasyprint.html import UA

    rules = UNIVERSAL_RULE.findall(UA)
    if sorted(rules) != sorted(["marker", "footnote-call", "footnote-marker", "note-call", "note-marker",
                                "note-callback"]):
        return None
    text = UNIVERSAL_RULE.sub(lambda rule: "li" + rule[0] if rule[1] == "marker" else "", UA)
    # its @counter-style rules go to a throwaway table: WeasyPrint gives every document its own copy of the same
    return CSS(string=text, counter_style=CounterStyle())


def scoped_fits(html: str, roots: list[Path]) -> bool:
    """True when the document ``html`` can be laid out with :func:`scoped_stylesheet`: none of
    :data:`UNSCOPED_WORDS` in its HTML or in a stylesheet it links, and every link a file under ``roots``
    (others are the fetcher's to refuse)."""
    from ..fetcher import allowed

    links = STYLESHEET_LINK.findall(html)
    if scoped_stylesheet() is None or html.count("<link") != len(links):
        return False
    texts = [html]
    for url in links:
        if not allowed(url, roots) or urlparse(url).scheme != "file":
            return False
        try:
            texts.append(CSS_COMMENT.sub("", Path(unquote(urlparse(url).path)).read_text(encoding="utf-8",
                                                                                         errors="replace")))
        except OSError:
            return False
    return not any(word in FOOTNOTE_CLASS.sub("", text).lower() for text in texts for word in UNSCOPED_WORDS)


def html_class(scoped: bool) -> type:
    """WeasyPrint's ``HTML``, or one laid out with :func:`scoped_stylesheet` when ``scoped``."""
    from weasyprint import HTML

    return _scoped_html() if scoped else HTML


@lru_cache(maxsize=1)
def _scoped_html() -> type:
    from weasyprint import HTML

    class ScopedHTML(HTML):
        """A document whose user-agent stylesheet is :func:`scoped_stylesheet` (forms keep WeasyPrint's)."""

        def _ua_stylesheets(self, forms: bool = False) -> list[Any]:
            return super()._ua_stylesheets(forms) if forms else [scoped_stylesheet()]

    return ScopedHTML


def markers_beyond_list_items(document: Any) -> bool:
    """True when a laid-out ``document`` has a marker on an element other than ``li`` (then the scoped
    stylesheet did not style it as WeasyPrint's would)."""
    stack = [page._page_box for page in document.pages]
    while stack:
        box = stack.pop()
        tag = getattr(box, "element_tag", "") or ""
        if tag.endswith("::marker") and tag != "li::marker":
            return True
        stack.extend(getattr(box, "children", []))
    return False


def lay_out_scoped(html: str, roots: list[Path], render: Callable[[type], Any]) -> Any:
    """``render(html_type)``: the document ``html`` laid out by WeasyPrint's ``HTML`` or one of its own kind,
    with the scoped stylesheet when :func:`scoped_fits` says it fits (``roots``: the folders its fetcher
    allows), laid out again with WeasyPrint's own when a marker turns up on an element other than ``li``."""
    scoped = scoped_fits(html, roots)
    document = render(html_class(scoped))
    if scoped and markers_beyond_list_items(document):
        document = render(html_class(False))
    return document
