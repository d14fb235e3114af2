"""One printable piece's page: its template rendered to HTML with the pieces' stylesheet, then laid out by
WeasyPrint with only the templates, the game and the fonts readable. Shared by every kind of piece (tiles,
dice nets, boards, cut-outs, the contents page), so none of them reaches into another's module."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from ..errors import CardworksError
from ..fileio import write_bytes_atomic

from .docs.texts import DocTexts, Labels
from .fonts import font_face_css
from .jinja import environment, templates_dir
from .typography import typeset

TILE_BLEED_MM = 3.0
"""Bleed around a tile or a cut-out card: our layout choice, not a fact about the game."""


def piece_html(template: str, texts: DocTexts, **context: Any) -> str:
    """``pieces/<template>`` rendered in the locale of ``texts``."""
    css = (templates_dir() / "pieces" / "pieces.css").as_uri()
    return typeset(environment().get_template(f"pieces/{template}").render(
        lang=texts.locale, font_css=font_face_css(), css_url=css, t=Labels(texts), **context), texts.locale)


_layouts: Path | None = None
"""Folder of laid-out pages by :func:`.docs.inputs.html_key` while :func:`layout_cache` is on, else None."""
_cached_only = False
"""True while :func:`layout_cache` may only reuse pages: a page not in it raises :class:`NotLaidOut`."""


class NotLaidOut(CardworksError):
    """A page that ``layout_cache(folder, cached_only=True)`` does not hold: it must be laid out (elsewhere)."""


@contextmanager
def layout_cache(folder: Path | None, cached_only: bool = False) -> Iterator[None]:
    """Within this block, :func:`piece_pdf` reuses a page laid out before from the same HTML and files.

    A piece is drawn from many records of its game and cannot be keyed by what it prints before it is drawn;
    drawing it is cheap, laying its HTML out is not. So the build draws every piece again and WeasyPrint
    lays out only the HTML it has not seen (an edited card lays out no board or standee). With
    ``cached_only``, a page the cache lacks raises :class:`NotLaidOut` instead of being laid out: the build
    draws here the pieces whose pages are all cached and sends only the others to worker processes."""
    global _layouts, _cached_only
    before, _layouts = (_layouts, _cached_only), folder
    _cached_only = cached_only and folder is not None
    try:
        yield
    finally:
        _layouts, _cached_only = before


PIECE = "a printable piece"
"""What a piece's refused file is reported as part of."""


def piece_pdf(html: str, game_root: Path, sample: str | None = None, copies: bool = False) -> bytes:
    """``html`` laid out as a PDF (from the layout cache when it is on and has it); a file the fetcher refused
    is a DataError naming it. With ``sample``, ``html`` is the frame of a stamped sheet and ``sample`` its one
    copy of each kind; with ``copies``, each section marked ``data-copies`` prints its pages that many times
    (:mod:`.stamps`)."""
    kept, layouts, cached_only = None, _layouts, _cached_only  # read once: a thread may leave its block meanwhile
    if layouts is not None:
        from .docs.inputs import html_key

        marked = f"{html}\0copied pages" if copies else html if sample is None else f"{html}\0stamped with\0{sample}"
        key = html_key(marked, game_root)
        kept = layouts / f"{key}.pdf"
        if kept.is_file():
            return kept.read_bytes()
        if cached_only:
            raise NotLaidOut(kept.name)
    from .stamps import copied_pages, lay_out, stamp

    document = lay_out(html, game_root, PIECE)
    if copies:
        data = copied_pages(document)
    elif sample is None:
        data = document.write_pdf()
    else:
        data = stamp(document, lay_out(sample, game_root, PIECE))
    if kept is not None:
        write_bytes_atomic(kept, data)
    return data
