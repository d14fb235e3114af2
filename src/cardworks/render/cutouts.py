"""Cut-out pieces drawn from component data: component cards, counters, coin stickers and fold-up standees.

Which component becomes which piece is decided once, in :func:`.kit.printing`
(a ``card`` whose printed lines the data lists, a ``token``, a ``coin`` with
faces, a ``pawn``), so the contents page and the pieces agree. Sizes of
counters, stickers and standees are our layout choices (no rulebook gives
them) and every sheet says so in its footnote. Colours the rulebooks split
pieces into (``per_colour``) are printed as numbered groups, because no
rulebook names the colours: each group in one of ``PLAYER_COLOURS``, which
differ in lightness too, and with its number on every piece, so the groups
stay apart from a grey-scale printer. A coin face the source gives a colour
(``faces[].colour``) is printed in it.

Lines follow one convention, with a legend on the sheet: a solid line is cut,
a dashed line (a PDF dash pattern) is folded. A two-sided counter is a joined
pair, two equal discs on a short bridge with the fold across it.
"""

from __future__ import annotations

import io
from dataclasses import replace
from typing import Any

import pikepdf

from ..errors import DataError
from ..loading.database import Database
from ..loading.records import Index
from ..models.card_size import resolve_card_size
from .docs.texts import DocTexts, icon_urls
from .impose import SheetLayout, impose
from .jinja import markup_html
from .piecepdf import TILE_BLEED_MM, piece_html, piece_pdf

COUNTER_MM = 20.0
"""Diameter of a printed counter: our choice, no rulebook gives one."""
STICKER_MM = 30.0
"""Diameter of a coin sticker: our choice, the rulebook does not give the disc's size."""
STANDEE_MM = (22.0, 34.0)
"""Width and height of one panel of a fold-up standee: our choice."""
BRIDGE = 0.3
"""Half the height of the bridge joining the two discs of a two-sided counter, as a fraction of the radius."""
FOLD_DASH = (1.2, 0.8)
"""Dash and gap of every fold line, in mm."""
PLAYER_COLOURS = (("#1d3f8f", "#ffffff"), ("#d7301f", "#ffffff"), ("#4caf50", "#000000"), ("#ffe14d", "#000000"))
"""Fill and ink of the numbered colour groups (our choice: blue, red, green, yellow), far apart in lightness
(grey levels about 62, 96, 134 and 217 of 255) so a grey-scale print keeps them apart; each piece prints its
group's number as well."""


def grey(colour: str) -> float:
    """The grey level (0–255) a printer makes of ``#rrggbb`` (ITU-R BT.601 luma)."""
    r, g, b = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    return 0.299 * r + 0.587 * g + 0.114 * b


def player_colour(number: int | None, what: str) -> dict[str, str]:
    """Fill and ink of colour group ``number`` (1-based); none for a piece of no colour. More groups than
    colours is an error (the groups would no longer differ)."""
    if number is None:
        return {"fill": "#fbf7ee", "ink": "#231f1a"}
    if number > len(PLAYER_COLOURS):
        raise DataError(f"{what}: {number} colour groups, and the kit prints only {len(PLAYER_COLOURS)} distinct colours")
    fill, ink = PLAYER_COLOURS[number - 1]
    return {"fill": fill, "ink": ink}


def pair_outline(diameter: float) -> dict[str, Any]:
    """The cut outline of a two-sided counter (two equal discs side by side joined by a bridge) as an SVG
    path in mm, and its fold line across the bridge, where the two discs mirror each other."""
    r = diameter / 2
    b = BRIDGE * r
    x = (r * r - b * b) ** 0.5
    path = (f"M {r + x:.3f} {r - b:.3f} A {r:.3f} {r:.3f} 0 1 0 {r + x:.3f} {r + b:.3f} "
            f"L {3 * r - x:.3f} {r + b:.3f} A {r:.3f} {r:.3f} 0 1 0 {3 * r - x:.3f} {r - b:.3f} Z")
    return {"path": path, "width": 2 * diameter, "height": diameter, "fold": (2 * r, r - b, 2 * r, r + b)}


def _groups(component: Any) -> list[tuple[int | None, int]]:
    """(colour number or None, count) for each group of a component's copies."""
    quantity = component.quantity or 1
    per = component.per_colour
    if not per:
        return [(None, quantity)]
    colours, rest = divmod(quantity, per)
    return [(n + 1, per) for n in range(colours)] + ([(None, rest)] if rest else [])


def _faces(texts: DocTexts, component: Any) -> list[str]:
    return [str(texts.text(component.id, f"faces/{f.id}/name", f.name)) for f in component.faces]


def render_counters(db: Database, texts: DocTexts, layout: SheetLayout, components: list[Any]) -> bytes:
    """Round counters to cut out, in groups per colour; a token with two faces is printed as a pair to glue
    back to back."""
    groups = []
    for component in components:
        name = str(texts.text(component.id, "name", component.name))
        faces = _faces(texts, component)
        for colour, count in _groups(component):
            groups.append({"id": component.id, "name": name, "colour": colour, "count": count,
                           "paint": player_colour(colour, component.id),
                           "faces": faces if len(faces) > 1 else [faces[0] if faces else name]})
    html = piece_html("counters.html.j2", texts, groups=groups, size=COUNTER_MM, paper=layout.paper,
                      pair=pair_outline(COUNTER_MM), dash=FOLD_DASH,
                      game=texts.text(db.game_doc.id, "name", db.game_doc.name))
    return piece_pdf(html, db.game.root)


def render_stickers(db: Database, texts: DocTexts, layout: SheetLayout, components: list[Any]) -> bytes:
    """One round sticker per face of each coin, to stick on a disc."""
    icons = icon_urls(Index(db), texts)
    coins = [{"id": c.id, "name": texts.text(c.id, "name", c.name), "copies": c.quantity or 1,
              "faces": [{"name": texts.text(c.id, f"faces/{f.id}/name", f.name), "colour": f.colour,
                         "ink": "#ffffff" if f.colour and grey(f.colour) < 140 else "#231f1a",
                         "text": markup_html(texts.text(c.id, f"faces/{f.id}/text", f.text), icons) if f.text else ""}
                        for f in c.faces]} for c in components]
    html = piece_html("stickers.html.j2", texts, coins=coins, size=STICKER_MM, paper=layout.paper,
                 game=texts.text(db.game_doc.id, "name", db.game_doc.name))
    return piece_pdf(html, db.game.root)


def render_standees(db: Database, texts: DocTexts, layout: SheetLayout, components: list[Any]) -> bytes:
    """Fold-up standees: base, front, back (upside down, so it reads upright once folded), base. The copies of
    one kind (a component in one colour) are the same picture: each kind is laid out once and drawn at each of
    its copies (:mod:`.stamps`)."""
    standees, kinds = [], []
    for component in components:
        name = texts.text(component.id, "name", component.name)
        for colour, count in _groups(component):
            kind = {"id": component.id, "name": name, "colour": colour, "kind": str(len(kinds)),
                    "paint": player_colour(colour, component.id)}
            kinds.append(kind)
            standees += [kind] * count
    width, height = STANDEE_MM
    base = width * 0.6
    folds = [base, base + height, base + 2 * height]  # base | back panel | front panel | base
    context = dict(panel_w=width, panel_h=height, base=base, total_h=2 * base + 2 * height, folds=folds,
                   dash=FOLD_DASH, paper=layout.paper, game=texts.text(db.game_doc.id, "name", db.game_doc.name))
    frame = piece_html("standees.html.j2", texts, standees=standees, mode="frame", **context)
    sample = piece_html("standees.html.j2", texts, standees=kinds, mode="sample", **context)
    return piece_pdf(frame, db.game.root, sample)


def render_component_cards(db: Database, texts: DocTexts, layout: SheetLayout, components: list[Any]) -> bytes:
    """Component cards with their own back, imposed duplex with crop marks like the deck's cards.

    The back names the game and the set the cards come in, never the card: these cards are dealt face down.
    """
    index = Index(db)
    icons = icon_urls(index, texts)
    sets = {r.id: r.model for r in index.of_kind("set")}
    out = pikepdf.new()
    by_size: dict[tuple[float, float], list[Any]] = {}
    for component in components:
        # a component card's own size stands where a set's would: its own, else the game's cards'
        by_size.setdefault(resolve_card_size(db.game_doc, card_set=component).mm, []).append(component)
    for (width, height), cards in sorted(by_size.items()):
        backs = sorted({c.set or "" for c in cards})
        faces = [{"id": c.id, "name": texts.text(c.id, "name", c.name),
                  "text": markup_html(texts.text(c.id, "text", c.text), icons) if c.text else "",
                  "lines": [texts.text(c.id, f"items/{i}", item) for i, item in enumerate(c.items)]} for c in cards]
        back_faces = [{"set": texts.text(s, "name", sets[s].name) if s in sets else ""} for s in backs]
        html = piece_html("component-cards.html.j2", texts, cards=faces, backs=back_faces, trim_w=width, trim_h=height,
                     bleed=TILE_BLEED_MM, game=texts.text(db.game_doc.id, "name", db.game_doc.name))
        pages = pikepdf.open(io.BytesIO(piece_pdf(html, db.game.root)))
        copies = [i for i, card in enumerate(cards) for _ in range(card.quantity or 1)]
        back_of = [len(cards) + backs.index(cards[i].set or "") for i in copies]
        sheet = replace(layout, trim_w=width, trim_h=height, bleed=TILE_BLEED_MM)
        out.pages.extend(impose(pages, copies, back_of, sheet).pages)
    data = io.BytesIO()
    out.save(data)
    return data.getvalue()
