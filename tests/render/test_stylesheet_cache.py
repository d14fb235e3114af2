"""Each stylesheet parsed once per font configuration (render/stylesheets.py): documents print the same bytes as
with WeasyPrint parsing each of their stylesheets; a linked file is still read through each document's fetcher
(so refused where that document may not read it); what parsing adds to a document (page rules, counter
styles) reaches every document that shares the stylesheet; a stylesheet that makes WeasyPrint warn is parsed
again for each document, which warns again."""

from __future__ import annotations

import io
import logging

import pikepdf
import pytest
from conftest import REPO

from cardworks.loading import load_database
from cardworks.render import stylesheets
from cardworks.render.docs import documents
from cardworks.render.fetcher import safe_fetcher
from cardworks.render.fonts import shared_font_config

pytestmark = pytest.mark.slow  # lays out PDFs

GAME = REPO / "cards" / "diables"

PAGE = ('<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">{head}</head><body>'
        '<ol class="x"><li>one</li><li>two</li></ol><p>Some words.</p></body></html>')

SHEET = ("@page { size: 50mm 30mm; margin: 5mm } @counter-style thumbs { system: cyclic; symbols: '*' '+'; "
         "suffix: ' ' } ol.x { list-style: thumbs } p { color: #336699 }")


@pytest.fixture
def weasyprints_own(monkeypatch: pytest.MonkeyPatch):
    """A function that turns the cache off (WeasyPrint parses each stylesheet of each document)."""
    import weasyprint
    import weasyprint.css

    shared_font_config()  # installs the cache
    return lambda: monkeypatch.setattr(weasyprint.css, "CSS", weasyprint.CSS)


def _pdf(html: str, roots: list, base_url: str | None = None) -> tuple[bytes, list[str]]:
    from weasyprint import HTML

    fetcher = safe_fetcher(roots)
    out = io.BytesIO()
    HTML(string=html, base_url=base_url, url_fetcher=fetcher).render(font_config=shared_font_config()).write_pdf(out)
    return out.getvalue(), fetcher.refused


def test_the_installed_weasyprint_is_the_one_the_cache_reproduces() -> None:
    import weasyprint.css

    assert stylesheets.install()
    assert weasyprint.css.CSS is stylesheets._stylesheet


@pytest.mark.parametrize("kind", ["rulebook", "faq"])
def test_shipped_documents_print_the_same_bytes(kind: str, weasyprints_own) -> None:
    db = load_database(GAME)
    html = documents.rulebook_html(db, "en", "all") if kind == "rulebook" else documents.faq_html(db, "en")
    cached = [documents.render_pdf(html, GAME), documents.render_pdf(html, GAME)]  # parsed, then from the cache
    weasyprints_own()
    assert cached == [documents.render_pdf(html, GAME)] * 2


def test_a_linked_file_is_parsed_once_and_its_rules_reach_every_document(tmp_path, weasyprints_own) -> None:
    sheet = tmp_path / "look.css"
    sheet.write_text(SHEET, encoding="utf-8")
    html = PAGE.format(head=f'<link rel="stylesheet" href="{sheet.as_uri()}">')
    kept = shared_font_config().__dict__.setdefault(stylesheets._ATTRIBUTE, {})
    first, _ = _pdf(html, [tmp_path])
    entries = len(kept)
    second, _ = _pdf(html, [tmp_path])
    assert len(kept) == entries and any(key[0] == (sheet.as_uri(), SHEET.encode()) for key in kept)
    with pikepdf.open(io.BytesIO(second)) as pdf:  # the @page rule reached the second document
        assert [round(float(v) / 72 * 25.4) for v in pdf.pages[0].mediabox] == [0, 0, 50, 30]
    weasyprints_own()
    assert _pdf(html, [tmp_path])[0] == first == second  # its counter style too


def test_an_edited_file_is_parsed_again(tmp_path) -> None:
    sheet = tmp_path / "look.css"
    sheet.write_text(SHEET, encoding="utf-8")
    html = PAGE.format(head=f'<link rel="stylesheet" href="{sheet.as_uri()}">')
    before, _ = _pdf(html, [tmp_path])
    sheet.write_text(SHEET.replace("50mm 30mm", "60mm 30mm"), encoding="utf-8")
    with pikepdf.open(io.BytesIO(_pdf(html, [tmp_path])[0])) as pdf:
        assert round(float(pdf.pages[0].mediabox[2]) / 72 * 25.4) == 60


def test_a_document_that_may_not_read_a_parsed_file_is_refused_it(tmp_path) -> None:
    sheet = tmp_path / "look.css"
    sheet.write_text(SHEET, encoding="utf-8")
    html = PAGE.format(head=f'<link rel="stylesheet" href="{sheet.as_uri()}">')
    _, refused = _pdf(html, [tmp_path])
    assert refused == []
    data, refused = _pdf(html, [REPO / "templates"])  # the same file, parsed and kept, from elsewhere
    assert any("look.css" in reason for reason in refused)
    with pikepdf.open(io.BytesIO(data)) as pdf:  # and its rules are not applied
        assert round(float(pdf.pages[0].mediabox[2]) / 72 * 25.4) == 210


def test_a_stylesheet_weasyprint_warns_about_is_parsed_for_each_document(caplog) -> None:
    html = PAGE.format(head="<style>p { color: #336699 } @page { size: 50mm 30mm } }}} p {{ </style>")
    kept = shared_font_config().__dict__.setdefault(stylesheets._ATTRIBUTE, {})
    entries = len(kept)
    with caplog.at_level(logging.WARNING, logger="weasyprint"):
        _pdf(html, [])
        first = len(caplog.records)
        _pdf(html, [])
    assert first and len(caplog.records) == 2 * first
    assert len(kept) == entries
