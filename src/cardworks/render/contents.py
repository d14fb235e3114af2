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

from ..i18n.plurals import counted
from ..loading.database import Database
from ..loading.records import Index
from .docs.texts import DocTexts, Labels, fallen_back
from .kit import ContentRow, Gap
from .marks import NOT_STATED, Edition, legend, used_marks
from .owner_values import owner_rows
from .piecepdf import piece_html, piece_pdf


def row_files(row: ContentRow, files: dict[str, list[str]]) -> Markup | str:
    """The files that print ``row``, as the build names them (:func:`.build.contents_files`): a set's cards may
    be on the sheets of several card sizes, a board on its tiled and its A3 file; empty when this build prints
    none (the row's piece is made by another build, or nothing prints it). Each name is kept on one line: a
    reader copies it as the build spells it, never broken at its hyphens."""
    if row.piece is None:
        return ""
    key = row.id if row.piece == "cards" else f"piece:{row.piece}"
    return Markup(", ").join(Markup('<span class="filename">{}</span>').format(name) for name in files.get(key, ()))


def _options_unbroken(text: str) -> Markup:
    """``text`` with each command-line option it names (``--with-optional``) kept on one line, so the reader
    copies it as the command spells it, never broken at its hyphens."""
    return Markup(re.sub(r"(--[a-z][a-z-]*)", r'<span class="option">\1</span>', str(escape(text))))


def page_rows(db: Database, texts: DocTexts, rows: list[ContentRow], files: dict[str, list[str]]) -> list[dict[str, Any]]:
    """The rows as the page prints them: localized name, counts (unknown in words), file, reasons."""
    index = Index(db)
    sets = {r.id: r.model for r in index.of_kind("set")}
    labels = Labels(texts)
    own = bool(db.game_doc.card_fields)
    out = []
    for row in rows:
        model = index.by_id[row.id].model
        name = texts.text(row.id, "name", model.name)
        if row.kind == "cards" and not own:  # a designer's own set is named as they named it ("Cards", "Events")
            name = escape(labels.contents_cards).format(set=name)  # "Cards of" and the set's name
        where = texts.text(row.set, "name", sets[row.set].name) if row.set in sets and row.kind != "cards" else ""
        out.append({"id": row.id, "name": name, "set": where,
                    "box": labels.unknown if row.box is None else row.box,
                    "printed": f"{row.printed}{NOT_STATED}" if row.stand_in else str(row.printed),
                    "file": row_files(row, files),
                    "why": _options_unbroken("; ".join(str(texts.label(reason_label(code, own)))
                                                       for code in row.reasons if not (own and code in SHEET_GIVES)))})
    return out


SHEET_GIVES = frozenset({"contents-unknown"})
"""Reasons a designer's own game never has: its sheet gives what each card prints."""


def reason_label(code: str, own: bool) -> str:
    """The label of a reason: the card sheet, not the rulebooks, is what an own game's count comes from."""
    return f"reason_{code}_sheet" if own and code == "quantity-unknown" else f"reason_{code}"


# What the engine leaves out, and what keeps a kit from being played ---------------------------------------


def left_out_rows(db: Database, texts: DocTexts, left_out: tuple[tuple[str, str], ...],
                  removed: tuple[str, ...] = ()) -> list[dict[str, str]]:
    """The designs the engine leaves out of the playtest deck, each with its reason in the reader's language:
    the facts no source gives (with where the sources stop), the engine features it waits on, an optional card;
    the engine's own words only when the card records none of these. Then the designs ``removed`` for the
    number of players (their markers), which the engine leaves out too."""
    index = Index(db)
    game = db.game_doc
    names = {f"stats/{s.id}": (f"stats/{s.id}/name", s.name) for s in game.stats}
    names |= {f"attributes/{a.id}": (f"attributes/{a.id}/name", a.name) for a in game.attributes}
    label = texts.label
    out = []
    for card_id, engine_reason in left_out:
        card = index.by_id[card_id].model
        parts = [str(label("left_out_optional"))] if card.optional else []
        facts: list[str] = []
        cites: list[str] = []
        for fact in card.missing:
            if fact.field in names:
                key, source = names[fact.field]
                what = str(texts.text(game.id, key, source)).lower()
            else:
                what = str(label("left_out_fact_types" if fact.field == "types" else "left_out_fact_effects"))
            if what not in facts:
                facts.append(what)
            cite = fact.doc + (f" {counted(label, 'line', fact.lines)}" if fact.lines else "")
            if cite not in cites:
                cites.append(cite)
        if facts:
            parts.append(str(label("left_out_missing")).format(facts=", ".join(facts), cites="; ".join(cites)))
        if card.needs:
            parts.append(str(label("left_out_needs")).format(features=", ".join(n.feature for n in card.needs)))
        if not parts:
            parts.append(str(label("left_out_other")).format(reason=engine_reason))
        out.append({"id": card_id, "name": str(texts.text(card_id, "name", card.name)), "why": "; ".join(parts)})
    for card_id in removed:
        card = index.by_id[card_id].model
        out.append({"id": card_id, "name": str(texts.text(card_id, "name", card.name)),
                    "why": str(label("reason_player-count"))})
    return out


def unplayable_sentence(db: Database, texts: DocTexts, gaps: tuple[Gap, ...]) -> str:
    """One plain sentence saying the kit cannot be played as printed, what no source gives, and what would
    complete it; empty when nothing is known to be missing."""
    if not gaps:
        return ""
    index = Index(db)
    what = []
    for gap in gaps:
        model = index.by_id[gap.id].model
        name = str(texts.text(gap.id, "name", model.name))
        if gap.kind == "piece":
            what.append(name)
        elif gap.kind == "board-values":
            what.append(str(texts.label("unplayable_board_values")).format(name=name, unknown=gap.unknown))
        elif gap.kind == "accesses":
            what.append(str(texts.label("unplayable_accesses")).format(name=name))
        else:
            what.append(str(texts.label(f"unplayable_{gap.kind}")).format(unknown=gap.unknown, box=gap.box, set=name))
    return str(texts.label("unplayable")).format(what=", ".join(what))


def contents_pdf(db: Database, locale: str, rows: list[ContentRow], files: dict[str, list[str]], paper: str,
                 duplex: bool,
                 allow_fallback: bool = False, edition: Edition = "fact",
                 fallbacks: list[str] | None = None, left_out: tuple[tuple[str, str], ...] = (),
                 gaps: tuple[Gap, ...] = (), removed: tuple[str, ...] = ()) -> tuple[pikepdf.Pdf, list[dict[str, str]]]:
    """The contents page(s) on ``paper``, saying which edition the file is (and so how it counts a design
    whose quantity no source gives); padded with a blank page to an even count when sheets print duplex,
    so the fronts and backs that follow stay on their own sides of the paper.

    ``files``: the files this build writes that print each row (:func:`row_files`), so the page names no file
    that is not there. ``fallbacks`` are the faces' strings that came from another locale (``--allow-fallback``); the page lists
    them with its own, so a reader of the printed kit sees which texts are not in its language. Returns the
    PDF and those strings as records (see :func:`.docs.texts.fallen_back`).

    ``left_out``: the designs the engine leaves out of a playtest deck, listed with their reasons (and after
    them the designs ``removed`` for the number of players); ``gaps``:
    what keeps the kit from being played (:func:`.kit.play_gaps`), said in one sentence at the top."""
    from ..errors import DataError
    from ..i18n.pseudo import PSEUDO_LOCALE

    texts = DocTexts(db, locale, allow_fallback or locale == PSEUDO_LOCALE)  # the pseudo-locale has no labels of its own
    own = bool(db.game_doc.card_fields)  # a designer's own game: no rulebook, its sheet is the whole truth
    edition_text = texts.label("contents_edition_own" if own else f"contents_edition_{edition}")
    shown = page_rows(db, texts, rows, files)
    engine_rows = left_out_rows(db, texts, left_out, removed) if left_out or removed else []
    unplayable = unplayable_sentence(db, texts, gaps)
    listed: list[dict[str, str]] = []
    while True:  # the page's own labels (those of the list too) may fall back: lay it out until the list holds still
        html = piece_html("contents.html.j2", texts, rows=shown, paper=paper, fallbacks=listed,
                          left_out=engine_rows, unplayable=unplayable,
                          game=texts.text(db.game_doc.id, "name", db.game_doc.name),
                          edition=edition_text, owner=owner_rows(db, texts),
                          intro=texts.label("contents_intro_own" if own else "contents_intro"),
                          in_box=texts.label("contents_in_sheet" if own else "contents_in_box"),
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
