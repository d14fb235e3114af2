"""Rulebooks and FAQ indexes laid out with WeasyPrint's user-agent stylesheet scoped (render.docs.useragent):
the shipped documents print the same bytes as with WeasyPrint's own stylesheet; a document that may give an
element other than ``li`` a marker, a footnote or a note gets WeasyPrint's own, and the checks that send it
there are shown to matter."""

from __future__ import annotations

import pytest
from conftest import REPO

from cardworks.loading import load_database
from cardworks.render.docs import documents, useragent
from cardworks.render.fonts import font_folders
from cardworks.render.jinja import templates_dir

pytestmark = pytest.mark.slow  # lays out PDFs

GAME = REPO / "cards" / "diables"


def _roots() -> list:
    return [templates_dir(), GAME, *font_folders()]


def test_the_installed_weasyprint_has_the_six_universal_rules() -> None:
    assert useragent.scoped_stylesheet() is not None


@pytest.mark.parametrize("kind", ["rulebook", "faq"])
def test_shipped_documents_print_the_same_bytes(kind: str, monkeypatch: pytest.MonkeyPatch) -> None:
    db = load_database(GAME)
    html = documents.rulebook_html(db, "en", "all") if kind == "rulebook" else documents.faq_html(db, "en")
    assert useragent.scoped_fits(html, _roots())
    scoped = documents.render_pdf(html, GAME)
    monkeypatch.setattr(useragent, "scoped_fits", lambda html, roots: False)
    assert documents.render_pdf(html, GAME) == scoped


PAGE = ('<!DOCTYPE html><html><head><meta charset="utf-8"><style>{css}</style></head><body>'
        '<ul><li>one</li><li><p>two</p></li></ul><div class="item">three</div></body></html>')


def test_a_document_naming_list_item_gets_weasyprints_own() -> None:
    assert useragent.scoped_fits(PAGE.format(css="li { color: red }"), _roots())
    for css in ("div.item { display: list-item }", "div { DISPLAY: LIST-ITEM }", "div { float: footnote }",
                "div { position: note(x) }", '@import url("x.css");'):
        assert not useragent.scoped_fits(PAGE.format(css=css), _roots()), css


def test_a_linked_stylesheet_is_read_for_those_words(tmp_path) -> None:
    sheet = tmp_path / "look.css"
    sheet.write_text("div.item { display: list-item }", encoding="utf-8")
    page = PAGE.format(css="").replace("</head>", f'<link rel="stylesheet" href="{sheet.as_uri()}"></head>')
    assert not useragent.scoped_fits(page, [*_roots(), tmp_path])
    sheet.write_text("div.item { color: red }", encoding="utf-8")
    assert useragent.scoped_fits(page, [*_roots(), tmp_path])
    assert not useragent.scoped_fits(page, _roots())  # a link outside the allowed folders: the fetcher's to refuse
    other = page.replace('<link rel="stylesheet" href', '<link href')
    assert not useragent.scoped_fits(other, [*_roots(), tmp_path])  # a link of another form is not read


def test_a_marker_beyond_list_items_is_laid_out_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """``display: inherit`` under a list item makes a paragraph a list item without naming one: its marker is
    found after the layout, and the document is laid out again with WeasyPrint's own stylesheet."""
    page = PAGE.format(css="li > p { display: inherit } ul { list-style-type: lower-alpha; text-transform: uppercase }")
    assert useragent.scoped_fits(page, _roots())
    laid_out = documents.render_pdf(page, GAME)
    monkeypatch.setattr(useragent, "scoped_fits", lambda html, roots: False)
    own = documents.render_pdf(page, GAME)
    assert laid_out == own
    monkeypatch.setattr(useragent, "scoped_fits", lambda html, roots: True)
    monkeypatch.setattr(useragent, "markers_beyond_list_items", lambda document: False)
    # without the check, the paragraph's marker prints "C." where WeasyPrint's own prints "c."
    assert documents.render_pdf(page, GAME) != own


def test_card_faces_print_the_same_bytes(monkeypatch: pytest.MonkeyPatch) -> None:
    import dataclasses

    from cardworks.render.deck import build_deck
    from cardworks.render.faces import build_job, render_pass

    db = load_database(REPO / "cards" / "fallera")
    job = build_job(db, build_deck(db, "base"), "en")
    job = dataclasses.replace(job, faces=job.faces[:6])
    fits, asked = useragent.scoped_fits, []
    monkeypatch.setattr(useragent, "scoped_fits", lambda html, roots: asked.append(fits(html, roots)) or asked[-1])
    scoped = render_pass(job).pdf
    assert asked == [True]
    monkeypatch.setattr(useragent, "scoped_fits", lambda html, roots: False)
    assert render_pass(job).pdf == scoped


def test_the_pieces_small_print_class_is_not_the_word(tmp_path) -> None:
    """Printable pieces name their small print ``footnote`` (a class, which makes no footnote), and their
    stylesheet says the word in a comment: they fit; the word anywhere else still sends a document away."""
    pieces_css = (templates_dir() / "pieces" / "pieces.css").as_uri()
    page = PAGE.format(css="").replace("</head>", f'<link rel="stylesheet" href="{pieces_css}"></head>')
    assert "footnote" in (templates_dir() / "pieces" / "pieces.css").read_text(encoding="utf-8")
    assert useragent.scoped_fits(page.replace("<body>", '<body><p class="footnote">small</p>'), _roots())
    for css in ("p.note { float: footnote }", "::footnote-call { color: red }", ".footnote-call { color: red }",
                "p.footnote { float: left } @footnote { margin: 0 }"):
        assert not useragent.scoped_fits(PAGE.format(css=css), _roots()), css
    for body in ('<p class="footnote big">', "<p>a footnote</p>"):
        assert not useragent.scoped_fits(PAGE.format(css="").replace("<body>", f"<body>{body}"), _roots()), body
    sheet = tmp_path / "look.css"  # a comment of a linked stylesheet says nothing; its rules do
    sheet.write_text("/* a footnote */ div { color: red }", encoding="utf-8")
    linked = PAGE.format(css="").replace("</head>", f'<link rel="stylesheet" href="{sheet.as_uri()}"></head>')
    assert useragent.scoped_fits(linked, [*_roots(), tmp_path])
    sheet.write_text("/* a note */ div { float: footnote }", encoding="utf-8")
    assert not useragent.scoped_fits(linked, [*_roots(), tmp_path])


@pytest.mark.parametrize("kind", ["counters", "tiles", "player-aid", "standees"])
def test_shipped_pieces_print_the_same_bytes(kind: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from cardworks.render.impose import SheetLayout
    from cardworks.render.pieces import PieceTask

    task = PieceTask(str(GAME), "diables", "en", kind, SheetLayout())
    checked: list[bool] = []
    fits = useragent.scoped_fits
    monkeypatch.setattr(useragent, "scoped_fits", lambda html, roots: checked.append(fits(html, roots)) or checked[-1])
    scoped, _, _ = task.render()
    assert checked and all(checked)
    monkeypatch.setattr(useragent, "scoped_fits", lambda html, roots: False)
    assert task.render()[0] == scoped
