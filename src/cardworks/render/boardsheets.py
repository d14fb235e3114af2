"""Boards the data describes area by area (``Component.areas``), printed as schematic sheets.

A board whose art no source gives can still be printed from what the sources say it shows: one box per area
with its name, what it is for, its count, grid or spaces (drawn as empty cells a group can play on) and what
is printed in it. A value no source gives prints ``□`` (the unknown mark), a value the sources give without
stating it prints with ``†``, and a value from the owner's copy prints plain; nothing else is drawn, so the
sheet never shows content the sources do not give. Each board is one page in landscape, as many copies as
the box holds (a stand-in count, else one, when no source gives it).
"""

from __future__ import annotations

from typing import Any

from ..engine.unknowns import area_certainty
from ..loading.database import Database
from ..loading.records import Index
from ..models.certainty import PLAIN
from .docs.texts import DocTexts, icon_urls
from .impose import SheetLayout
from .jinja import markup_html
from .marks import NOT_STATED, UNKNOWN, legend, used_marks
from .piecepdf import piece_html, piece_pdf

MAX_TRACK = 200
"""Most spaces drawn as cells for one track; a longer one is named with its count only."""
MAX_GRID = 20
"""Most rows or columns drawn as cells for one grid."""
MAX_COPIES_DRAWN = 6
"""Most tracks or grids drawn side by side for an area that comes several times (4 follower tracks)."""


def _copies(index: Index, component: Any) -> int:
    if component.quantity is not None:
        return component.quantity
    assumed = index.assumed().get((component.id, "quantity"))
    return assumed if isinstance(assumed, int) and assumed > 0 else 1


def _shown(component: Any, area: Any, value: str) -> str:
    """An area's number as printed: ``□`` when unknown, marked ``†`` when the sources do not state it."""
    current = getattr(area, value)
    if current is None:
        return UNKNOWN
    return str(current) if area_certainty(component, area, value) in PLAIN else f"{current}{NOT_STATED}"


def area_view(texts: DocTexts, icons: Any, component: Any, area: Any) -> dict[str, Any]:
    """What one area's box prints."""
    applies = area.applies()
    path = f"areas/{area.id}"
    view: dict[str, Any] = {
        "id": area.id, "name": texts.text(component.id, f"{path}/name", area.name),
        "text": markup_html(texts.text(component.id, f"{path}/text", area.text), icons) if area.text else "",
        "count": _shown(component, area, "count") if "count" in applies else None,
        "grid": (_shown(component, area, "columns") if "columns" in applies else None,
                 _shown(component, area, "rows") if "rows" in applies else None),
        "spaces": _shown(component, area, "spaces") if "spaces" in applies else None,
        "printed": None, "cells": None, "tracks": None, "drawn": 1}
    if "printed" in applies:
        if area.printed is None:
            view["printed"] = UNKNOWN
        else:
            text = markup_html(texts.text(component.id, f"{path}/printed", area.printed), icons)
            sure = area_certainty(component, area, "printed") in PLAIN
            view["printed"] = text if sure else text + NOT_STATED
    count = area.count if "count" in applies else 1
    view["drawn"] = min(count, MAX_COPIES_DRAWN) if isinstance(count, int) else 1
    if area.columns is not None and area.rows is not None and max(area.columns, area.rows) <= MAX_GRID:
        view["cells"] = (area.columns, area.rows)
    elif area.spaces is not None and 0 < area.spaces <= MAX_TRACK:
        view["tracks"] = area.spaces
    return view


def board_views(db: Database, texts: DocTexts, components: list[Any]) -> list[dict[str, Any]]:
    """Each board to print, with its areas and its number of copies (each copy a page of its own)."""
    index = Index(db)
    icons = icon_urls(index, texts)
    pages = []
    for component in components:
        areas = [area_view(texts, icons, component, area) for area in component.areas]
        shown = [str(v) for area in areas for v in (area["count"], *area["grid"], area["spaces"], area["printed"])
                 if v is not None]
        board = {"id": component.id, "name": texts.text(component.id, "name", component.name), "areas": areas,
                 "legend": legend(texts.label, used_marks(*shown), "fact"),  # the marks this board's page uses
                 "copies": _copies(index, component)}
        pages.append(board)
    return pages


def render_board_sheets(db: Database, texts: DocTexts, layout: SheetLayout, components: list[Any]) -> bytes:
    """The boards described area by area, one landscape page per board copy, each with the legend of the marks
    it uses. The copies of a board are the same page: each board is laid out once and its page printed once per
    copy (:func:`.stamps.copied_pages`)."""
    html = piece_html("board-sheets.html.j2", texts, boards=board_views(db, texts, components), paper=layout.paper,
                      game=texts.text(db.game_doc.id, "name", db.game_doc.name))
    return piece_pdf(html, db.game.root, copies=True)
