"""One WeasyPrint font configuration per process (render/fonts.py ``shared_font_config``): the bundled fonts are
loaded once for every document the process lays out, a forked worker makes its own, and a document laid out
with the shared configuration prints the bytes it printed with one of its own."""

from __future__ import annotations

import io

import pytest

from cardworks.render import fonts
from cardworks.render.fonts import font_face_css, shared_font_config

pytestmark = pytest.mark.slow

HTML = ("<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><style>{fonts}\n@page {{ size: 60mm 40mm; }}"
        "body {{ font-family: CardSans; hyphens: auto; }} b {{ font-family: CardCondensed; }}</style></head>"
        "<body><p>Each <b>treasure</b> card counts once towards the goal, whatever its value.</p></body></html>")


def test_one_configuration_per_process_and_a_new_one_in_a_forked_worker(monkeypatch) -> None:
    first = shared_font_config()
    assert shared_font_config() is first
    monkeypatch.setattr(fonts.os, "getpid", lambda: -12345)
    monkeypatch.setattr(fonts, "_CONFIGS", dict(fonts._CONFIGS))
    assert shared_font_config() is not first


def test_documents_laid_out_with_the_shared_configuration_print_the_same_bytes() -> None:
    from weasyprint import HTML as Page
    from weasyprint.text.fonts import FontConfiguration

    def pdf(text: str, config: object) -> bytes:
        out = io.BytesIO()
        Page(string=text).write_pdf(out, font_config=config)
        return out.getvalue()

    first, second = HTML.format(fonts=font_face_css()), HTML.format(fonts=font_face_css()).replace("treasure", "battle")
    own = [pdf(first, FontConfiguration()), pdf(second, FontConfiguration())]
    shared = [pdf(first, shared_font_config()), pdf(second, shared_font_config())]
    assert shared == own
