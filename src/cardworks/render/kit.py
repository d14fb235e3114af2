"""What a kit holds against what the box holds: one row per component, with the reason for each difference.

The same rules decide which piece prints a component (:mod:`.pieces` asks
:func:`printing`) and what the contents page of a card-sheet PDF and
``manifest.json`` say about it, so the two cannot drift apart. Everything is
decided from the data (a component's kind, its quantity, whether its
contents are described), never from a list per game.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from ..loading.database import Database
from ..loading.records import Index

REASONS = ("quantity-unknown", "contents-unknown", "optional", "left-out-by-set", "player-count", "not-printable",
           "left-out-by-engine")
"""Why a kit prints fewer (or other) pieces than the box holds; each has a label ``reason_<code>`` per locale."""


@dataclass(frozen=True)
class Printing:
    """How the kit prints one component: the piece that draws it, how many, and why not all (or none)."""

    piece: str | None
    count: int
    reason: str | None = None


@dataclass(frozen=True)
class ContentRow:
    """One line of a contents page: a deck set's cards, an optional card, a component or a board."""

    id: str
    kind: str
    """``cards`` (the deck cards of a set), ``optional-card``, ``board`` or the component's kind."""
    set: str | None
    box: int | None
    """How many the sources say the box holds; None when no source gives the number."""
    printed: int
    piece: str | None
    """The output kind that prints it (``cards`` for the card sheets, else a piece kind); None when nothing does."""
    reasons: tuple[str, ...] = ()
    stand_in: bool = False
    """The printed count includes stand-in quantities (from ``assumptions/``), not a count any source gives;
    the contents page marks it."""

    def record(self) -> dict[str, Any]:
        """The row as ``manifest.json`` stores it."""
        row = asdict(self)
        row["reasons"] = list(self.reasons)
        return row


def _described(component: Any) -> bool:
    """True when the data says what is printed on the component, not only what it is for."""
    return bool(component.items or component.faces or component.rows)


def printing(component: Any, assumed: int | None = None) -> Printing:
    """Which piece prints ``component`` and how many; a reason whenever the kit cannot match the box.

    A tile whose count no source gives is printed as many times as ``assumed`` says (else once), marked so;
    so is a board whose areas the data describes (``Component.areas``). A board the data does not describe is
    not printed.
    """
    quantity = component.quantity
    kind = component.kind
    if kind in {"pencil", "other"}:
        return Printing(None, 0, "not-printable")
    if kind == "board" and component.areas:  # described area by area: a schematic sheet, unknowns marked
        return Printing("board-sheets", quantity or (assumed if isinstance(assumed, int) and assumed > 0 else 1),
                        "quantity-unknown" if quantity is None else None)
    if kind == "board" or (kind in {"card", "tile"} and not (_described(component) or kind == "tile" and component.text)):
        return Printing(None, 0, "contents-unknown")
    if quantity is None and kind == "tile":
        return Printing("tiles", assumed if isinstance(assumed, int) and assumed > 0 else 1, "quantity-unknown")
    if quantity is None and kind in {"card", "token", "pawn", "coin"}:
        return Printing(None, 0, "quantity-unknown")
    piece = {"card": "component-cards", "token": "counters", "pawn": "standees", "coin": "stickers", "tile": "tiles",
             "die": "dice-net", "score-sheet": "score-sheet"}[kind]
    return Printing(piece, quantity or 1)


def printed_components(db: Database, piece: str, set_ids: list[str] | None) -> list[Any]:
    """The components ``piece`` prints, in data order, limited to ``set_ids`` (components of no set always)."""
    return [r.model for r in Index(db).of_kind("component")
            if printing(r.model).piece == piece and _in_sets(r.model.set, set_ids)]


def _in_sets(set_id: str | None, set_ids: list[str] | None) -> bool:
    return set_ids is None or set_id is None or set_id in set_ids


def contents(db: Database, deck: Any) -> list[ContentRow]:
    """Every component of the game's boxes: what the box holds, what this kit prints, and why they differ."""
    index = Index(db)
    chosen = {entry.card.id: entry for entry in deck.cards}
    assumed = index.assumed()
    chosen_sets = {entry.set_id for entry in deck.cards} | set(deck_sets(db, deck))
    rows: list[ContentRow] = []
    sets = sorted(index.of_kind("set"), key=lambda r: (r.model.order, r.id))
    for record in sets:
        cards = [r for r in index.of_kind("card") if r.set_id == record.id and not r.model.optional]
        printed = sum(chosen[r.id].copies for r in cards if r.id in chosen)
        box = record.model.totals.cards
        reasons: list[str] = []
        if record.id not in chosen_sets:
            reasons.append("left-out-by-set")
        else:
            if any(chosen[r.id].quantity_source != "stated" for r in cards if r.id in chosen) or \
                    any(r.model.quantity is None for r in cards):
                reasons.append("quantity-unknown")
            designs = record.model.totals.designs
            if box is None or (designs is not None and len(cards) < designs) or \
                    (printed < box and all(r.model.quantity is not None for r in cards)):
                reasons.append("contents-unknown")
            if any(r.id in deck.removed for r in cards):
                reasons.append("player-count")
            engine_out = {card_id for card_id, _ in getattr(deck, "left_out", ())}
            if any(r.id in engine_out for r in cards):
                reasons.append("left-out-by-engine")
        stand_in = any(chosen[r.id].quantity_source == "assumed" for r in cards if r.id in chosen)
        rows.append(ContentRow(record.id, "cards", record.id, box, printed, "cards" if printed else None,
                               tuple(reasons) if printed != box or box is None else (), stand_in))
        for card in (r for r in index.of_kind("card") if r.set_id == record.id and r.model.optional):
            copies = chosen[card.id].copies if card.id in chosen else 0
            why = () if copies and card.model.quantity is not None else \
                (("left-out-by-set",) if record.id not in chosen_sets else ("optional",) if not copies
                 else ("quantity-unknown",))
            rows.append(ContentRow(card.id, "optional-card", record.id, card.model.quantity, copies,
                                   "cards" if copies else None, why,
                                   card.id in chosen and chosen[card.id].quantity_source == "assumed"))
    for record in index.of_kind("component"):
        component = record.model
        stand_in_count = assumed.get((component.id, "quantity"))
        plan = printing(component, stand_in_count)
        if not _in_sets(component.set, sorted(chosen_sets)):
            plan = Printing(None, 0, "left-out-by-set")
        reasons = (plan.reason,) if plan.reason else ()
        if component.quantity is None and "quantity-unknown" not in reasons and plan.piece is not None:
            reasons += ("quantity-unknown",)
        rows.append(ContentRow(component.id, component.kind, component.set, component.quantity, plan.count,
                               plan.piece, reasons, component.quantity is None and plan.piece is not None
                               and plan.count == stand_in_count))
    for record in index.of_kind("board"):
        board = record.model
        inside = _in_sets(board.set, sorted(chosen_sets))
        rows.append(ContentRow(board.id, "board", board.set, 1, 1 if inside else 0, "board" if inside else None,
                               () if inside else ("left-out-by-set",)))
    return rows


def deck_sets(db: Database, deck: Any) -> list[str]:
    """The sets a deck's selection names (a set whose every card is left out still counts as chosen)."""
    if deck.selection == "all":
        return [r.id for r in Index(db).of_kind("set")]
    for selection in db.game_doc.selections:
        if selection.id == deck.selection:
            return list(selection.sets)
    return [part for part in deck.selection.split("+") if part]


@dataclass(frozen=True)
class Gap:
    """Something a group needs to play that this kit cannot print, because no source gives it."""

    kind: str
    """``piece`` (a board whose contents no source gives), ``board-values`` (a board printed from its areas, with
    ``unknown`` values no source gives), ``cards`` or ``designs`` (a deck set's cards or
    designs no source names: ``unknown`` of ``box``), ``accesses`` (a board side whose accesses no source gives,
    with no stand-in in this edition)."""
    id: str
    unknown: int | None = None
    box: int | None = None


def unknown_area_values(component: Any) -> int:
    """How many values the areas of a board component record as unknown (``null``)."""
    return sum(getattr(area, value) is None for area in component.areas for value in area.applies())


def play_gaps(db: Database, deck: Any, rows: list[ContentRow]) -> tuple[Gap, ...]:
    """What keeps the kit from being played as printed (empty: nothing the data knows of).

    A board of the chosen sets that is not printed because its contents are unknown, or printed from its areas
    with values no source gives (``board-values``: how many); in the fact edition, the
    cards of a deck set that no source names (the playtest edition prints the deck the engine plays instead);
    a printed board with a side whose accesses are not all known and, in this edition, not stood in for."""
    index = Index(db)
    assumed = index.assumed()
    playtest = getattr(deck, "edition", "fact") == "playtest"
    gaps: list[Gap] = []
    for row in rows:
        if row.kind == "board" and row.piece is None and "contents-unknown" in row.reasons:
            gaps.append(Gap("piece", row.id))
        elif row.kind == "board" and row.piece == "board-sheets":
            missing = unknown_area_values(index.by_id[row.id].model)
            if missing:
                gaps.append(Gap("board-values", row.id, missing))
        elif row.kind == "cards" and "contents-unknown" in row.reasons and not playtest and row.box is not None:
            cards = [r.model for r in index.of_kind("card") if r.set_id == row.id and not r.model.optional]
            designs = index.by_id[row.id].model.totals.designs
            if designs is not None and len(cards) < designs:
                gaps.append(Gap("designs", row.id, designs - len(cards), designs))
            elif all(c.quantity is not None for c in cards):
                gaps.append(Gap("cards", row.id, row.box - sum(c.quantity for c in cards), row.box))
        elif row.kind == "board" and row.piece is not None:
            board = index.by_id[row.id].model
            for side in board.sides:
                stood_in = playtest and assumed.get((board.id, f"sides/{side.id}/edges"))
                if not side.edges_complete and not stood_in:
                    gaps.append(Gap("accesses", row.id))
                    break
    return tuple(gaps)
