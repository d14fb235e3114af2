"""The game's boards as printable pieces: each side on one A3 page, and tiled over A4/Letter with overlap.

Each side is drawn from the board data (its spaces, the accesses each space
has, the connections the rulebooks state) with the map layout of
:mod:`.docs.mapsvg`; nothing the rulebooks do not give is drawn as known: an
access whose destination is not stated is a dashed stub with a "□", an access
count or access they do not state carries the ``†`` mark, and a legend on the
page says what is plain layout (positions, shapes, colours). The playtest
edition draws the board the engine plays: a side whose accesses are not all
known gets the assumed ones (``assumptions/``), each dashed and marked ``†``.
Under each side the game's plugin may print more (``Rendering.board_notes``:
how many cards the side takes, what each space does).
The tiled file places the A3 page on landscape sheets as a Form XObject
clipped to the printable area, so tiling costs no second layout; tiles
overlap by :data:`OVERLAP_MM`, carry registration crosses in the overlap and
a grid code (A1, A2 …), and start with a page that says how to assemble them.
"""

from __future__ import annotations

import io
import math
from html import escape
from typing import Any, Callable

import pikepdf

from ..errors import DataError
from ..loading.database import Database
from ..loading.records import Index
from .docs.mapsvg import legend_keys, map_geometry, svg_of
from ..models.boards import Edge
from ..models.certainty import PLAIN, field_certainty
from .marks import NOT_STATED, UNKNOWN, legend, used_marks
from .docs.texts import DocTexts
from .impose import MM, PAPERS, SheetLayout
from .fonts import font_face_css
from .subset_tags import retag_subsets
from .piecepdf import piece_html, piece_pdf

A3 = (420.0, 297.0)
"""A3 landscape, the board's own page (mm)."""
OVERLAP_MM = 12.0
MARGIN_MM = 8.0
CROSS_MM = 3.0


def boards(db: Database, set_ids: list[str] | None) -> list[Any]:
    """The board records the kit prints (those of the chosen sets)."""
    return [r for r in Index(db).of_kind("board")
            if set_ids is None or r.model.set is None or r.model.set in set_ids]


def drawn_side(db: Database, record: Any, side: Any, edition: str) -> Any:
    """``side`` as ``edition`` draws it: in the playtest edition a side whose accesses are not all known takes
    the assumed ones the engine plays (each not stated, so drawn dashed with ``†``; a stated one stays as it
    is); otherwise the side as the data gives it."""
    if edition != "playtest" or side.edges_complete:
        return side
    assumed = Index(db).assumed().get((record.id, f"sides/{side.id}/edges"))
    if not assumed:
        return side
    known = {frozenset(edge.between): edge for edge in side.edges}
    edges = [known.get(frozenset(pair)) or Edge(between=list(pair), certainty="inferred") for pair in assumed]
    return side.model_copy(update={"edges": edges})


def unsure_counts(record: Any, side: Any) -> frozenset[str]:
    """The spaces of ``side`` whose access count the rulebooks do not state (the board's sources name it by
    its path, else the space's own sources name ``accesses``): printed with ``†``."""
    unsure = set()
    for space in side.spaces:
        if space.accesses is None or space.start:
            continue
        found = field_certainty(record.model.sources, f"sides/{side.id}/spaces/{space.id}/accesses")
        if found is None:
            found = field_certainty(space.sources, "accesses")
        if found not in PLAIN:
            unsure.add(space.id)
    return frozenset(unsure)


def _side_geometry(db: Database, texts: DocTexts, record: Any, side: Any, edition: str, names: dict[str, str]) -> Any:
    return map_geometry(drawn_side(db, record, side, edition), names, str(texts.label("start")),
                        unsure_counts(record, side))


def _plugin_notes(db: Database, texts: DocTexts, board: Any, side: Any, edition: str) -> tuple[list[str], dict[str, str]]:
    """What the game prints beside the side (``Rendering.board_notes``); nothing for a game without it."""
    from ..engine.plugins import plugin_of

    plugin = plugin_of(db.game_doc.id)
    notes = plugin.rendering.board_notes if plugin is not None else None
    return notes(db, texts, board, side, edition) if notes else ([], {})


def board_html(db: Database, texts: DocTexts, records: list[Any], paper: str | None, edition: str = "fact") -> str:
    """One A3 landscape page per board side; with ``paper``, first an assembly page of that paper size."""
    sides = []
    for record in records:
        board = record.model
        for side in board.sides:
            names = {s.id: str(texts.text(record.id, f"sides/{side.id}/spaces/{s.id}/name", s.name))
                     for s in side.spaces}
            geometry = _side_geometry(db, texts, record, side, edition, names)
            notes, spaces = _plugin_notes(db, texts, board, side, edition)
            does = [{"name": names[s.id], "text": spaces[s.id]} for s in side.spaces if s.id in spaces]
            printed = [*notes, *(row["text"] for row in does)]
            sides.append({"board": texts.text(record.id, "name", board.name),
                          "name": texts.text(record.id, f"sides/{side.id}/name", side.name),
                          "svg": svg_of(geometry), "legend": legend_keys(geometry), "playtest": edition == "playtest",
                          "notes": notes, "spaces": does,
                          "marks": legend(texts.label, used_marks(*printed), edition)})  # type: ignore[arg-type]
    return piece_html("board.html.j2", texts, sides=sides, paper=paper, edition=edition,
                 game=texts.text(db.game_doc.id, "name", db.game_doc.name))


def side_notes(db: Database, texts: DocTexts, records: list[Any], edition: str = "fact") -> list[str]:
    """For each side, in page order, the legend of the marks (``†``, ``□``) it draws, in the reader's language."""
    notes = []
    for record in records:
        for side in record.model.sides:
            names = {s.id: s.name for s in side.spaces}
            keys = legend_keys(_side_geometry(db, texts, record, side, edition, names))
            marks = ({NOT_STATED} if "inferred" in keys else set()) | ({UNKNOWN} if "unknown" in keys else set())
            notes.append(legend(texts.label, marks, edition))  # type: ignore[arg-type]
    return notes


def tile_grid(paper: str) -> tuple[int, int, float, float]:
    """(columns, rows, printable width, printable height) of the tiles of an A3 page on landscape ``paper``."""
    height, width = PAPERS[paper]  # landscape
    usable_w, usable_h = width - 2 * MARGIN_MM, height - 2 * MARGIN_MM
    cols = math.ceil((A3[0] - OVERLAP_MM) / (usable_w - OVERLAP_MM))
    rows = math.ceil((A3[1] - OVERLAP_MM) / (usable_h - OVERLAP_MM))
    return cols, rows, usable_w, usable_h


def _n(value: float) -> str:
    return f"{value * MM:.3f}".rstrip("0").rstrip(".")


FOOTER_MM = 4.0
"""Height of a tile's footer strip, laid out in the margin under (or over) the board."""


def footer_html(footers: list[tuple[str, list[str]]], width_mm: float) -> str:
    """One page per tile footer (its label, then each "unknown" note at a place of its own in the middle), in the
    fonts the cards and pieces use: the footer is text drawn with embedded fonts, never an unembedded Helvetica."""
    pages = []
    for label, unknown in footers:
        notes = "".join(f'<span class="unknown" style="left: {width_mm / 2 + 60 * k:.3f}mm">{escape(part)}</span>'
                        for k, part in enumerate(unknown))
        pages.append(f'<div class="footer"><span>{escape(label)}</span>{notes}</div>')
    return (f"<!DOCTYPE html><html><head><meta charset='utf-8'><style>{font_face_css()}\n"
            f"@page {{ size: {width_mm:.3f}mm {FOOTER_MM:g}mm; margin: 0; }}\n"
            "html { font-family: 'CardSans'; font-size: 8pt; color: #000; } body { margin: 0; }\n"
            f".footer {{ position: relative; height: {FOOTER_MM:g}mm; line-height: {FOOTER_MM:g}mm; white-space: pre; "
            "overflow: hidden; break-after: page; }\n"
            ".unknown { position: absolute; top: 0; }\n"
            f"</style></head><body>{''.join(pages)}</body></html>")


def tile(board_pdf: pikepdf.Pdf, first_side: int, paper: str, notes: list[str] | None = None,
         footers: Callable[[str], bytes] | None = None) -> pikepdf.Pdf:
    """Pages before ``first_side`` as they are; every later (A3) page cut into overlapping landscape tiles.

    ``notes[i]``, when given, is printed in the footer of every tile of side ``i`` (the legend of the marks
    that side draws, so a tile that shows a mark explains it however the board is cut). ``footers`` lays the
    footers' HTML out as a PDF (the pieces' own layout, with the game's fonts embedded)."""
    out = pikepdf.new()
    for page in board_pdf.pages[:first_side]:
        out.pages.append(page)
    height, width = PAPERS[paper]
    cols, rows, usable_w, usable_h = tile_grid(paper)
    step_x, step_y = usable_w - OVERLAP_MM, usable_h - OVERLAP_MM
    tiles = []
    for number, page in enumerate(board_pdf.pages[first_side:], start=1):
        form = out.copy_foreign(page.as_form_xobject())
        for row in range(rows):
            for col in range(cols):
                left, top = col * step_x, row * step_y  # the tile's window on the board, from its top-left
                code = f"{chr(ord('A') + row)}{col + 1}"
                label = f"{number}: {code}   ({rows} x {cols})"
                note = notes[number - 1] if notes and number <= len(notes) else ""
                parts = note.split(" · ") if note else []
                plain = [part for part in parts if not part.startswith(UNKNOWN)]
                if plain:
                    label += "   " + " · ".join(plain)
                tiles.append((form, left, top, label, [part for part in parts if part.startswith(UNKNOWN)]))
    laid = pikepdf.open(io.BytesIO((footers or _no_footers)(footer_html([(t[3], t[4]) for t in tiles], usable_w))))
    if len(laid.pages) != len(tiles):
        raise DataError(f"the board tiles' footers laid out as {len(laid.pages)} page(s), not {len(tiles)}: "
                        "a footer is too long for one line")
    for (form, left, top, _, _), footer in zip(tiles, laid.pages):
        ty = MARGIN_MM - (A3[1] - top - usable_h)
        ops = [f"q {_n(MARGIN_MM)} {_n(MARGIN_MM)} {_n(usable_w)} {_n(usable_h)} re W n "
               f"1 0 0 1 {_n(MARGIN_MM - left)} {_n(ty)} cm /Board Do Q"]
        ops.append(f"q 0.4 w 0 0 0 RG {_n(MARGIN_MM)} {_n(MARGIN_MM)} {_n(usable_w)} {_n(usable_h)} re S Q")
        col, row = int(round(left / step_x)), int(round(top / step_y))
        ops += _crosses(col, row, cols, rows, usable_w, usable_h)
        # the label goes in a margin that shows no part of the board: the clipped-off board under the other
        # one still holds text, which a reader of the page's text would find mixed into the label
        at_top = top == 0 and top + usable_h < A3[1]
        base = height - MARGIN_MM / 2 - 1 if at_top else MARGIN_MM / 2 - 1
        ops.append(f"q 1 0 0 1 {_n(MARGIN_MM)} {_n(base - FOOTER_MM / 2 + 1)} cm /Footer Do Q")
        content = out.make_stream(" ".join(ops).encode("ascii"))
        sheet = pikepdf.Dictionary(Type=pikepdf.Name.Page, MediaBox=[0, 0, width * MM, height * MM],
                                   Resources=pikepdf.Dictionary(XObject=pikepdf.Dictionary(
                                       Board=form, Footer=out.copy_foreign(footer.as_form_xobject()))),
                                   Contents=content)
        out.pages.append(pikepdf.Page(sheet))
    return out


def _no_footers(html: str) -> bytes:
    raise DataError("the board tiles need their footers laid out (tile(..., footers=...))")


def _crosses(col: int, row: int, cols: int, rows: int, usable_w: float, usable_h: float) -> list[str]:
    """Registration crosses in the middle of each overlap strip this tile shares with a neighbour."""
    marks = []
    for side, present in (("left", col > 0), ("right", col < cols - 1), ("top", row > 0), ("bottom", row < rows - 1)):
        if not present:
            continue
        if side in {"left", "right"}:
            x = MARGIN_MM + (OVERLAP_MM / 2 if side == "left" else usable_w - OVERLAP_MM / 2)
            points = [(x, MARGIN_MM + usable_h * f) for f in (0.25, 0.75)]
        else:
            y = MARGIN_MM + (usable_h - OVERLAP_MM / 2 if side == "top" else OVERLAP_MM / 2)
            points = [(MARGIN_MM + usable_w * f, y) for f in (0.25, 0.75)]
        for x, y in points:
            marks.append(f"q 0.6 w 0.8 0 0 RG {_n(x - CROSS_MM)} {_n(y)} m {_n(x + CROSS_MM)} {_n(y)} l "
                         f"{_n(x)} {_n(y - CROSS_MM)} m {_n(x)} {_n(y + CROSS_MM)} l S Q")
    return marks


def render_board_a3(db: Database, texts: DocTexts, layout: SheetLayout, records: list[Any], edition: str = "fact") -> bytes:
    """Each side of each board on one A3 landscape page."""
    return piece_pdf(board_html(db, texts, records, None, edition), db.game.root)


def render_board_tiled(db: Database, texts: DocTexts, layout: SheetLayout, records: list[Any],
                       edition: str = "fact") -> bytes:
    """An assembly page, then each side tiled over landscape sheets of the layout's paper."""
    pdf = pikepdf.open(io.BytesIO(piece_pdf(board_html(db, texts, records, layout.paper, edition), db.game.root)))
    out = io.BytesIO()
    tiled = tile(pdf, 1, layout.paper, side_notes(db, texts, records, edition),
                 lambda html: piece_pdf(html, db.game.root))
    retag_subsets(tiled)  # the board's and the footers' subsets of one font came from two layouts
    tiled.save(out)
    return out.getvalue()
