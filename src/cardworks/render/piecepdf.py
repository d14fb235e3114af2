"""One printable piece's page: its template rendered to HTML with the pieces' stylesheet, then laid out by
WeasyPrint with only the templates, the game and the fonts readable. Shared by every kind of piece (tiles,
dice nets, boards, cut-outs, the contents page), so none of them reaches into another's module."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from .docs.texts import DocTexts, Labels
from .fetcher import refusal_error, safe_fetcher
from .fonts import font_face_css, font_folders
from .jinja import environment, templates_dir
from .typography import typeset

TILE_BLEED_MM = 3.0
"""Bleed around a tile or a cut-out card: our layout choice, not a fact about the game."""


def piece_html(template: str, texts: DocTexts, **context: Any) -> str:
    """``pieces/<template>`` rendered in the locale of ``texts``."""
    css = (templates_dir() / "pieces" / "pieces.css").as_uri()
    return typeset(environment().get_template(f"pieces/{template}").render(
        lang=texts.locale, font_css=font_face_css(), css_url=css, t=Labels(texts), **context), texts.locale)


def piece_pdf(html: str, game_root: Path) -> bytes:
    """``html`` laid out as a PDF; a file the fetcher refused is a DataError naming it."""
    from weasyprint import HTML

    fetcher = safe_fetcher([templates_dir(), game_root, *font_folders()])
    out = io.BytesIO()
    HTML(string=html, base_url=templates_dir().as_uri() + "/", url_fetcher=fetcher).write_pdf(out)
    if fetcher.refused:
        raise refusal_error(fetcher.refused, "a printable piece")
    return out.getvalue()
