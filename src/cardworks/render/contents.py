"""The contents page that opens every card-sheet PDF: the box's components against what the kit prints.

Rows come from :func:`.kit.contents`; this module only names them in the
reader's language and lays the page out. A row whose printed count differs
from the box's (or whose box count no source gives) says why, in words.
"""

from __future__ import annotations

import io
import re
from typing import Any

from markupsafe import Markup, escape

import pikepdf

from ..loading.database import Database
from ..loading.records import Index
from .docs.texts import DocTexts, Labels, fallen_back
from .kit import ContentRow
from .marks import NOT_STATED, Edition, legend, used_marks
from .owner_values import owner_rows
from .piecepdf import piece_html, piece_pdf


def _file(row: ContentRow, deck_label: str, paper: str) -> str:
    if row.piece is None:
        return ""
    if row.piece == "cards":
        return f"cards-{deck_label}-{paper}.pdf"
    if row.piece == "board":
        return f"board-{paper}.pdf, board-a3.pdf"
    return f"{row.piece}-{paper}.pdf"


def _options_unbroken(text: str) -> Markup:
    """``text`` with each command-line option it names (``--with-optional``) kept on one line, so the reader
    copies it as the command spells it, never broken at its hyphens."""
    return Markup(re.sub(r"(--[a-z][a-z-]*)", r'<span class="option">\1</span>', str(escape(text))))


def page_rows(db: Database, texts: DocTexts, rows: list[ContentRow], deck_label: str, paper: str) -> list[dict[str, Any]]:
    """The rows as the page prints them: localized name, counts (unknown in words), file, reasons."""
    index = Index(db)
    sets = {r.id: r.model for r in index.of_kind("set")}
    labels = Labels(texts)
    out = []
    for row in rows:
        model = index.by_id[row.id].model
        name = texts.text(row.id, "name", model.name)
        if row.kind == "cards":
            name = f"{name} ({labels.contents_cards})"
        where = texts.text(row.set, "name", sets[row.set].name) if row.set in sets and row.kind != "cards" else ""
        out.append({"id": row.id, "name": name, "set": where,
                    "box": labels.unknown if row.box is None else row.box,
                    "printed": f"{row.printed}{NOT_STATED}" if row.stand_in else str(row.printed),
                    "file": _file(row, deck_label, paper),
                    "why": _options_unbroken("; ".join(str(texts.label(f"reason_{code}")) for code in row.reasons))})
    return out


def contents_pdf(db: Database, locale: str, rows: list[ContentRow], deck_label: str, paper: str, duplex: bool,
                 allow_fallback: bool = False, edition: Edition = "fact",
                 fallbacks: list[str] | None = None) -> tuple[pikepdf.Pdf, list[dict[str, str]]]:
    """The contents page(s) on ``paper``, saying which edition the file is (and so how it counts a design
    whose quantity no source gives); padded with a blank page to an even count when sheets print duplex,
    so the fronts and backs that follow stay on their own sides of the paper.

    ``fallbacks`` are the faces' strings that came from another locale (``--allow-fallback``); the page lists
    them with its own, so a reader of the printed kit sees which texts are not in its language. Returns the
    PDF and those strings as records (see :func:`.docs.texts.fallen_back`)."""
    from ..errors import DataError
    from ..i18n.pseudo import PSEUDO_LOCALE

    texts = DocTexts(db, locale, allow_fallback or locale == PSEUDO_LOCALE)  # the pseudo-locale has no labels of its own
    shown = page_rows(db, texts, rows, deck_label, paper)
    listed: list[dict[str, str]] = []
    while True:  # the page's own labels (those of the list too) may fall back: lay it out until the list holds still
        html = piece_html("contents.html.j2", texts, rows=shown, paper=paper, fallbacks=listed,
                          game=texts.text(db.game_doc.id, "name", db.game_doc.name),
                          edition=texts.label(f"contents_edition_{edition}"), owner=owner_rows(db, texts),
                          legend=legend(texts.label, used_marks(*(row["printed"] for row in shown)), edition))
        found = [] if locale == PSEUDO_LOCALE else fallen_back([*(fallbacks or []), *texts.fallbacks])
        if found == listed:
            break
        listed = found
    if texts.missing:
        raise DataError(f"{db.game_doc.id} {locale} contents page: {len(texts.missing)} missing translation(s): "
                        f"{', '.join(texts.missing[:5])}; build with --allow-fallback")
    pdf = pikepdf.open(io.BytesIO(piece_pdf(html, db.game.root)))
    if duplex and len(pdf.pages) % 2:
        pdf.add_blank_page(page_size=(pdf.pages[0].mediabox[2], pdf.pages[0].mediabox[3]))
    return pdf, listed
