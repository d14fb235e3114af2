"""The pieces' layout cache: a page's layout is reused only for the same HTML and the same bytes of every file
it names; anything else is laid out again."""

from __future__ import annotations

import io
from pathlib import Path

import pikepdf
import pytest
from pypdf import PdfReader

from cardworks.render.piecepdf import layout_cache, piece_pdf
from conftest import SVG

pytestmark = pytest.mark.slow


def _text(data: bytes) -> str:
    return " ".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)


def test_a_layout_is_reused_only_for_the_same_html_and_files(tmp_path: Path) -> None:
    game = tmp_path / "game"
    icon = game / "icons" / "x.svg"
    icon.parent.mkdir(parents=True)
    icon.write_text(SVG, encoding="utf-8")
    cache = tmp_path / "layouts"

    def page(words: str) -> str:
        return f'<html><body><p>{words} <img src="{icon.as_uri()}" width="10"></p></body></html>'

    with layout_cache(cache):
        assert "Hello" in _text(piece_pdf(page("Hello"), game))
        [kept] = cache.glob("*.pdf")
        marker = pikepdf.new()  # stands in for the kept layout: served again means the cache answered
        marker.add_blank_page()
        marker.add_blank_page()
        marked = io.BytesIO()
        marker.save(marked)
        kept.write_bytes(marked.getvalue())
        assert piece_pdf(page("Hello"), game) == marked.getvalue()

        assert "Goodbye" in _text(piece_pdf(page("Goodbye"), game)), "other HTML must be laid out"
        assert len(list(cache.glob("*.pdf"))) == 2

        icon.write_text(SVG.replace("<svg", "<svg data-edited='1'", 1), encoding="utf-8")
        again = piece_pdf(page("Hello"), game)
        assert again != marked.getvalue() and "Hello" in _text(again), "an edited icon must be laid out again"
        assert len(list(cache.glob("*.pdf"))) == 3
    assert "Hello" in _text(piece_pdf(page("Hello"), game))  # outside the block: nothing kept, nothing read
    assert len(list(cache.glob("*.pdf"))) == 3
