"""Printable components other than deck cards: tiles, dice nets, score sheets, player aids, boards.

Which pieces a game gets follows its data, never a list per game: tiles that
carry text become tile sheets (each tile a page at trim + bleed, imposed with
crop marks like cards); a die whose faces are listed becomes a cut-and-fold
net; a score sheet whose rows the game's engine lays out becomes score
sheets; round phases in ``game.json`` become a player aid. Each piece is one
PDF per game × locale × paper, written, cached and listed like the rulebooks.

Facts the rulebooks do not give are never printed as if they were: a value
that is only assumed leaves its cell blank, and a layout that follows an
assumption (how many boxes a row has, how many faces of each kind a die
has) says so in a footnote.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pikepdf

from ..errors import DataError
from ..loading.database import Database, load_game
from ..loading.records import Index
from .docs.texts import DocTexts, icon_urls
from .impose import SheetLayout, impose
from .jinja import markup_html
from .boardpiece import boards, render_board_a3, render_board_tiled
from .boardsheets import render_board_sheets
from .cutouts import render_component_cards, render_counters, render_stickers, render_standees
from .kit import printed_components
from .piecepdf import TILE_BLEED_MM, piece_html, piece_pdf
from .typography import component_mid_sentence

TILE_MM = (60.0, 60.0)
"""Print size of a tile whose data gives none: our layout choice, not a fact about the game."""
DIE_EDGE_MM = 20.0
"""Edge of a printed paper die."""
SHEET_COLOURS = ("#c0392b", "#2471a3", "#229954", "#d4ac0d", "#7d3c98", "#ca6f1e")
"""Ink for the n-th colour of a game's dice and score rows. The rulebooks do not say which colours they are;
rows and dice share this palette so that they match each other."""


@dataclass(frozen=True)
class PieceTask:
    """One piece PDF to build (picklable, for worker processes)."""

    game_root: str
    game: str
    locale: str
    kind: str
    """``tiles``, ``dice-net``, ``score-sheet`` or ``player-aid``."""
    layout: SheetLayout
    allow_fallback: bool = False
    proof: bool = False
    sets: tuple[str, ...] | None = None
    """The deck's sets: components of other sets are left out (None: every set)."""
    edition: str = "fact"
    """The edition a piece that differs between editions is drawn in (the board: the playtest edition draws the
    accesses the engine plays); ``fact`` for every other piece."""

    @property
    def path(self) -> str:
        kind = self.kind if self.edition == "fact" else self.kind.removesuffix("-a3") + f"-{self.edition}"
        paper = "-a3" if self.kind.endswith("-a3") and self.edition != "fact" else \
            "" if self.kind.endswith("-a3") else f"-{self.layout.paper}"  # printed on its own paper size
        return f"{self.game}/{self.locale}/{kind}{paper}{'-proof' if self.proof else ''}.pdf"

    @property
    def record_selection(self) -> None:
        return None

    @property
    def record_edition(self) -> str | None:
        """The edition the manifest records for a piece drawn per edition (the board); None for the others."""
        return self.edition if PIECES[self.kind].editions else None

    @property
    def paper(self) -> str:
        return "a3" if self.kind.endswith("-a3") else self.layout.paper

    @staticmethod
    def drawn_from(db: Database) -> Database:
        """What a piece is drawn from, and keyed by: its game without the cards' rules and flavour texts
        (:func:`..validate.rules_view.pieces_view`), so editing them draws no piece again."""
        from ..validate.rules_view import pieces_view

        return pieces_view(db)

    def render(self, db: Database | None = None) -> tuple[bytes, int, list[str]]:
        """The piece's PDF, its page count and the strings taken from another locale; ``db`` is its game when
        the caller has it loaded (else it is loaded here, as in a worker process)."""
        db = self.drawn_from(db if db is not None else Database(game=load_game(Path(self.game_root))))
        texts = DocTexts(db, self.locale, self.allow_fallback, self.proof)
        piece = PIECES[self.kind]
        sets = list(self.sets) if self.sets is not None else None
        data = piece.render(db, texts, self.layout, sets, self.edition) if piece.editions else \
            piece.render(db, texts, self.layout, sets)
        if texts.missing:
            raise DataError(f"{self.game} {self.locale} {self.kind}: {len(texts.missing)} missing translation(s): "
                            f"{', '.join(texts.missing[:5])}; build with --allow-fallback")
        pdf = pikepdf.open(io.BytesIO(data))
        from .facepdf import save_pdf

        return save_pdf(pdf), len(pdf.pages), list(texts.fallbacks)


@dataclass(frozen=True)
class Piece:
    """A kind of printable piece: when a game has it, and how it is drawn."""

    present: Callable[[Database, list[str] | None], bool]
    """Whether the game (limited to the deck's sets) has anything for this piece."""
    render: Callable[..., bytes]
    """``render(db, texts, layout, sets)``, and the edition after them for a piece with ``editions``."""
    editions: bool = False
    """Whether the piece differs between the fact and playtest editions (drawn and named per edition)."""


def piece_tasks(db: Database, locales: list[str], layout: SheetLayout, allow_fallback: bool,
                proof: bool, sets: list[str] | None = None, edition: str = "fact") -> list[PieceTask]:
    """Every piece the game's data calls for (in ``sets``, when given), in every locale; a piece that differs
    between editions is drawn in ``edition``."""
    from ..i18n.pseudo import PSEUDO_LOCALE

    kinds = [kind for kind, piece in PIECES.items() if piece.present(db, sets)]
    chosen = tuple(sets) if sets is not None else None
    return [PieceTask(str(db.game.root), db.game_doc.id, locale, kind, layout, allow_fallback, proof, chosen,
                      edition if PIECES[kind].editions else "fact")
            for locale in locales if locale != PSEUDO_LOCALE for kind in kinds]


# Drawing -------------------------------------------------------------------------------------------


def _copies(index: Index, component: Any) -> int:
    if component.quantity is not None:
        return component.quantity
    assumed = index.assumed().get((component.id, "quantity"))
    return assumed if isinstance(assumed, int) and assumed > 0 else 1


# Tiles ---------------------------------------------------------------------------------------------


def _tiles(index: Index, sets: list[str] | None = None) -> list[Any]:
    return printed_components(index.db, "tiles", sets)


def _render_tiles(db: Database, texts: DocTexts, layout: SheetLayout, sets: list[str] | None = None) -> bytes:
    """Each tile once at trim + bleed, then imposed per size with crop marks, as many copies as the box has."""
    index = Index(db)
    icons = icon_urls(index, texts)
    groups: dict[tuple[float, float], list[Any]] = {}
    for tile in _tiles(index, sets):
        size = (tile.card_size.width_mm, tile.card_size.height_mm) if tile.card_size else TILE_MM
        groups.setdefault(size, []).append(tile)
    out = pikepdf.new()
    for (width, height), tiles in sorted(groups.items()):
        faces = [{"id": t.id, "name": texts.text(t.id, "name", t.name),
                  "text": markup_html(texts.text(t.id, "text", t.text), icons),
                  "lines": [texts.text(t.id, f"items/{i}", item) for i, item in enumerate(t.items)]} for t in tiles]
        html = piece_html("tiles.html.j2", texts, tiles=faces, trim_w=width, trim_h=height, bleed=TILE_BLEED_MM,
                     game=texts.text(db.game_doc.id, "name", db.game_doc.name))
        pages = pikepdf.open(io.BytesIO(piece_pdf(html, db.game.root)))
        copies = [i for i, tile in enumerate(tiles) for _ in range(_copies(index, tile))]
        sheet_layout = replace(layout, trim_w=width, trim_h=height, bleed=TILE_BLEED_MM, duplex="none")
        out.pages.extend(impose(pages, copies, None, sheet_layout).pages)
    data = io.BytesIO()
    out.save(data)
    return data.getvalue()


# Dice ----------------------------------------------------------------------------------------------


def _dice(index: Index, sets: list[str] | None = None) -> list[Any]:
    return [d for d in printed_components(index.db, "dice-net", sets) if d.faces]


def die_faces(index: Index, die: Any) -> tuple[list[Any], bool]:
    """The faces of one die in order, each repeated by its count, and whether any count is assumed."""
    assumed = index.assumed()
    faces, guessed = [], False
    for face in die.faces:
        count = face.count
        if count is None:
            count = assumed.get((die.id, f"faces/{face.id}/count"))
            guessed = True
        if not isinstance(count, int):
            raise DataError(f"{die.id}: face {face.id!r} has no count, stated or assumed; the die cannot be drawn")
        faces += [face] * count
    return faces, guessed


def _render_dice(db: Database, texts: DocTexts, layout: SheetLayout, sets: list[str] | None = None) -> bytes:
    index = Index(db)
    nets, assumed = [], False
    symbols = _die_symbols(db)
    for die in _dice(index, sets):
        faces, guessed = die_faces(index, die)
        if len(faces) != 6:
            raise DataError(f"{die.id}: {len(faces)} faces; a paper net is drawn only for six-faced dice")
        assumed |= guessed
        colours = _colour_of(die)
        cells, _ = net_geometry(DIE_EDGE_MM)
        drawn = [{"id": f.id, "name": texts.text(die.id, f"faces/{f.id}/name", f.name), "x": x, "y": y,
                  "colour": colours.get(f.id), "symbol": _symbol(f.id, symbols)} for f, (x, y) in zip(faces, cells)]
        nets += [drawn] * _copies(index, die)
    html = piece_html("dice-net.html.j2", texts, nets=nets, edge=DIE_EDGE_MM, tabs=net_geometry(DIE_EDGE_MM)[1],
                 paper=layout.paper, assumed=assumed,
                 game=texts.text(db.game_doc.id, "name", db.game_doc.name))
    return piece_pdf(html, db.game.root)


NET_CELLS = ((1, 0), (0, 1), (1, 1), (2, 1), (3, 1), (1, 2))
"""Column and row of each face in the cross-shaped net."""
NET_TABS = ((0, 1, "top"), (2, 1, "top"), (3, 1, "top"), (0, 1, "bottom"), (2, 1, "bottom"), (3, 1, "bottom"),
            (3, 1, "right"))
"""Glue tabs: one on each of the seven edges that meet another face when the cross is folded."""


def net_geometry(edge: float) -> tuple[list[tuple[float, float]], list[tuple[float, float, float, float]]]:
    """Top-left corners of the six faces and (left, top, width, height) of the tabs, in mm inside a net."""
    tab = edge * 0.3
    cells = [(tab + col * edge, tab + row * edge) for col, row in NET_CELLS]
    tabs = []
    for col, row, side in NET_TABS:
        left, top = tab + col * edge, tab + row * edge
        if side == "right":
            tabs.append((left + edge, top + 0.15 * edge, tab, 0.7 * edge))
        else:
            tabs.append((left + 0.15 * edge, top - tab if side == "top" else top + edge, 0.7 * edge, tab))
    return cells, tabs


def _colour_of(die: Any) -> dict[str, str]:
    """Palette ink for each colour face (ids ``colour-1`` … in order)."""
    colour_faces = [f.id for f in die.faces if f.id.startswith("colour-")]
    return {face: SHEET_COLOURS[i % len(SHEET_COLOURS)] for i, face in enumerate(colour_faces)}


def _die_symbols(db: Database) -> dict[str, str]:
    """The symbols the game prints on its dice faces (its plugin's ``rendering.die_symbols``); none without one."""
    from ..engine.plugins import plugin_of

    plugin = plugin_of(db.game_doc.id)
    return dict(plugin.rendering.die_symbols) if plugin is not None else {}


def _symbol(face_id: str, symbols: dict[str, str]) -> str:
    """A colour face prints its number; any other face the game's symbol for it, or nothing."""
    if face_id.startswith("colour-"):
        return face_id.removeprefix("colour-")
    return symbols.get(face_id, "")


# Score sheets --------------------------------------------------------------------------------------


def _sheet_layout(db: Database) -> list[Any] | None:
    """The engine's layout of the game's score sheet rows, or None when the game has none."""
    if not any(r.model.kind == "score-sheet" for r in Index(db).of_kind("component")):
        return None
    from ..engine.plugins import plugin_of

    plugin = plugin_of(db.game_doc.id)
    layout = plugin.sheet_layout if plugin is not None else None
    return layout(db) if layout else None


def _render_sheets(db: Database, texts: DocTexts, layout: SheetLayout, sets: list[str] | None = None) -> bytes:
    """Two score sheets per page; cells whose value is only assumed are left blank to fill in."""
    index = Index(db)
    sheet = next(r.model for r in index.of_kind("component") if r.model.kind == "score-sheet")
    rows = _sheet_layout(db) or []
    die = next(iter(_dice(index)), None)
    colours = _colour_of(die) if die else {}
    faces = {f.id: f for f in die.faces} if die else {}
    drawn, assumed = [], False
    symbols = _die_symbols(db)
    for row in rows:
        shown = "values" not in row.assumed
        boxes = [{"value": row.values[n] if shown else None, "zone": row.zones[n]} for n in range(row.boxes)]
        assumed |= bool(row.assumed)
        face = faces.get(row.colour)
        name = texts.text(die.id, f"faces/{row.colour}/name", face.name) if face else row.colour
        drawn.append({"colour": colours.get(row.colour, "#555555"), "name": name,
                      "symbol": _symbol(row.colour, symbols), "boxes": boxes})
    html = piece_html("score-sheet.html.j2", texts, rows=drawn, paper=layout.paper, assumed=assumed,
                 title=component_mid_sentence(texts.text(sheet.id, "name", sheet.name), texts.locale),
                 game=texts.text(db.game_doc.id, "name", db.game_doc.name))
    return piece_pdf(html, db.game.root)


# Player aid ----------------------------------------------------------------------------------------


AID_GRIDS = ((2, 2), (1, 2), (1, 1))
"""Player aids a sheet holds (columns, rows), tried in order: quarters, halves, then a whole page."""


def _render_aid(db: Database, texts: DocTexts, layout: SheetLayout, sets: list[str] | None = None) -> bytes:
    """The phases of a round as a player aid, as many to a sheet as fit (one per player up to four).

    Each grid is laid out for real; a grid whose aids do not fit their cell spills onto a second
    page, and the next, larger cell is tried.
    """
    import pikepdf

    game = db.game_doc
    icons = icon_urls(Index(db), texts)
    phases = [{"name": texts.text(game.id, f"phases/{p.id}/name", p.name),
               "text": markup_html(texts.text(game.id, f"phases/{p.id}/text", p.text), icons)}
              for p in game.phases]
    width, height = layout.size
    for cols, rows in AID_GRIDS:
        html = piece_html("player-aid.html.j2", texts, phases=phases, paper=layout.paper, cols=cols, rows=rows,
                     cell_w=width / cols, cell_h=height / rows, game=texts.text(game.id, "name", game.name))
        data = piece_pdf(html, db.game.root)
        if len(pikepdf.open(io.BytesIO(data)).pages) == 1:
            return data
    return data


def _components_piece(kind: str, draw: Callable[[Database, DocTexts, SheetLayout, list[Any]], bytes]) -> Piece:
    """A piece drawing the components :func:`.kit.printing` gives to ``kind``."""
    return Piece(lambda db, sets: bool(printed_components(db, kind, sets)),
                 lambda db, texts, layout, sets: draw(db, texts, layout, printed_components(db, kind, sets)))


def _board_piece(draw: Callable[..., bytes]) -> Piece:
    return Piece(lambda db, sets: bool(boards(db, sets)),
                 lambda db, texts, layout, sets, edition: draw(db, texts, layout, boards(db, sets), edition), editions=True)


PIECES: dict[str, Piece] = {
    "tiles": Piece(lambda db, sets: bool(_tiles(Index(db), sets)), _render_tiles),
    "dice-net": Piece(lambda db, sets: bool(_dice(Index(db), sets)), _render_dice),
    "score-sheet": Piece(lambda db, sets: bool(_sheet_layout(db)), _render_sheets),
    "player-aid": Piece(lambda db, sets: bool(db.game_doc.phases), _render_aid),
    "component-cards": _components_piece("component-cards", render_component_cards),
    "counters": _components_piece("counters", render_counters),
    "stickers": _components_piece("stickers", render_stickers),
    "standees": _components_piece("standees", render_standees),
    "board-sheets": _components_piece("board-sheets", render_board_sheets),
    "board": _board_piece(render_board_tiled),
    "board-a3": _board_piece(render_board_a3),
}
"""Every kind of piece, in build order."""
