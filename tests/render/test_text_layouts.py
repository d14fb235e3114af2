"""WeasyPrint's text layouts set up from a Pango context and font description kept per font configuration
(render/textlayouts.py): documents print the same bytes as with WeasyPrint's own ``Layout.setup``, and another
WeasyPrint's ``setup`` is left alone."""

from __future__ import annotations

import io

import pytest
from conftest import REPO

from cardworks.loading import load_database
from cardworks.render import textlayouts
from cardworks.render.docs import documents
from cardworks.render.fonts import font_face_css, shared_font_config

pytestmark = pytest.mark.slow  # lays out PDFs

GAME = REPO / "cards" / "diables"

MIXED = ('<!DOCTYPE html><html lang="ca"><head><meta charset="utf-8"><style>{fonts} @page {{ size: 60mm 80mm }}'
         ' p {{ font-family: CardSans; hyphens: auto }} .u {{ text-decoration: underline }}'
         ' .k {{ font-kerning: none; font-variant-caps: small-caps }}</style></head><body>'
         '<p>Una frase prou llarga per partir-se en diverses línies, amb paraules desproporcionadament llargues.</p>'
         '<p lang="en" class="u" style="font-weight: bold">Underlined English words, hyphenated automatically.</p>'
         '<p lang="es" class="k" style="font-family: CardSerif; font-style: italic; direction: rtl">Palabras '
         'en cursiva.</p><p style="font-family: CardCondensed; font-weight: bold; font-size: 14pt">Títol</p>'
         '</body></html>')


@pytest.fixture
def weasyprints_own(monkeypatch: pytest.MonkeyPatch):
    """A function that puts WeasyPrint's own ``Layout.setup`` back."""
    from weasyprint.text.line_break import Layout

    shared_font_config()  # installs the kept contexts (another test may have already)
    assert Layout.setup is textlayouts._setup
    own = textlayouts._REPLACED[0]
    assert own is not textlayouts._setup
    return lambda: monkeypatch.setattr(Layout, "setup", own)


def _pdf(html: str) -> bytes:
    from weasyprint import HTML

    out = io.BytesIO()
    HTML(string=html).render(font_config=shared_font_config()).write_pdf(out)
    return out.getvalue()


def test_the_installed_weasyprint_is_the_one_reproduced() -> None:
    assert textlayouts.installable()
    assert textlayouts.install()


@pytest.mark.parametrize("kind", ["rulebook", "faq"])
def test_shipped_documents_print_the_same_bytes(kind: str, weasyprints_own) -> None:
    db = load_database(GAME)
    html = documents.rulebook_html(db, "ca", "all") if kind == "rulebook" else documents.faq_html(db, "es")
    kept = [documents.render_pdf(html, GAME), documents.render_pdf(html, GAME)]
    weasyprints_own()
    assert kept == [documents.render_pdf(html, GAME)] * 2


def test_languages_directions_fonts_and_decorations_print_the_same_bytes(weasyprints_own) -> None:
    html = MIXED.format(fonts=font_face_css())
    kept = _pdf(html)
    contexts, descriptions = shared_font_config().__dict__[textlayouts._ATTRIBUTE][__import__("threading").get_ident()]
    assert len(contexts) >= 4 and len(descriptions) >= 4  # ca, en, es and rtl; four fonts
    weasyprints_own()
    assert _pdf(html) == kept


def test_another_weasyprint_s_setup_is_left_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    from weasyprint.text.line_break import Layout

    before = Layout.setup
    monkeypatch.setattr(textlayouts, "COPIED_SETUP", "0" * 64)
    monkeypatch.setattr(textlayouts, "_INSTALLED", [])
    monkeypatch.setattr(Layout, "setup", lambda self, style: before(self, style))  # another source
    own = Layout.setup
    assert not textlayouts.install()
    assert Layout.setup is own
