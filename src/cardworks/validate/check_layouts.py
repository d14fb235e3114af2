"""Sheet layouts a game folder or pack brings (``layouts/*.json``): each sheet they list, and each sheet
their rule makes for the cards' sizes, checked for slots outside the printable area, overlapping slots
and marks on cards."""

from __future__ import annotations

from ..loading.database import Database
from ..models.card_size import resolve_card_size
from ..models.layout import LayoutFile
from ..models.sheet_rules import sheet_for
from ..models.sheets import LayoutError, LayoutTooLarge, fixed_sheet, sheet_problems
from ..problems import ProblemList

FACE_BLEED = 3.0
"""The bleed every rendered face carries (the renderer's ``BLEED_MM``)."""


def card_sizes(db: Database) -> list[tuple[float, float]]:
    """The trim sizes of the database's cards: the game's (its backs and component cards), each pack's, each
    set's."""
    game = db.game_doc
    sizes = [resolve_card_size(game).mm] if game is not None else []
    for bundle in db.bundles:
        pack = next((doc for _, doc in bundle.docs("pack")), None)  # a pack's folder holds one pack.json
        if pack is not None:
            sizes.append(resolve_card_size(game, pack).mm)
        sizes += [resolve_card_size(game, pack, card_set).mm for _, card_set in bundle.docs("set")]
    return sorted(set(sizes))


def check_layout(display: str, layout: LayoutFile, sizes: list[tuple[float, float]], out: ProblemList) -> None:
    """Report the faults of one layout file at their JSON pointers."""
    for i, fixed in enumerate(layout.sheets):
        if fixed.paper not in layout.papers:
            out.error(display, f"/sheets/{i}/paper", "layout-paper",
                      f"the sheet is for {fixed.paper} paper, which the layout's papers ({', '.join(layout.papers)}) leave out")
        for pointer, code, message in sheet_problems(fixed_sheet(layout, fixed), f"/sheets/{i}"):
            out.error(display, pointer, code, message)
    if layout.rule is None:
        return
    for paper in layout.papers:
        for width, height in sizes:
            try:
                sheet = sheet_for(layout, paper, width, height, FACE_BLEED)
            except LayoutTooLarge as exc:
                out.error(display, "/rule", "layout-too-large", f"{width:g} × {height:g} mm cards on {paper} paper: {exc}")
                continue
            except LayoutError as exc:
                out.warning(display, "/rule", "layout-no-fit", f"{width:g} × {height:g} mm cards on {paper} paper: {exc}")
                continue
            for pointer, code, message in sheet_problems(sheet):
                out.error(display, "/rule", code, f"{width:g} × {height:g} mm cards on {paper} paper: {pointer}: {message}")


def check_layouts(db: Database, out: ProblemList) -> None:
    """Check every layout file of the game folder and its packs."""
    sizes = card_sizes(db)
    for bundle in db.bundles:
        for loaded, layout in bundle.docs("layout"):
            check_layout(loaded.display, layout, sizes, out)
