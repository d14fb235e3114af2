"""Rulebook sections generated from Diables' data: components, tiles, beasts, round phases, Firebot turns.

Every number in these tables is read from ``cards/diables`` (set totals, component
quantities, the tiles' scoring data, game parameters); every word from the
locale's translations or the document labels. Each function takes the
renderer's :class:`~cardworks.engine.plugins.SectionContext` of the rulebook being
built; the macros are the game folder's ``templates/docs/diables.html.j2``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from markupsafe import Markup
from pydantic import BaseModel

from ...engine.plugins import Rendering, SectionContext

TEMPLATE = "docs/diables.html.j2"


def reward_figures(scoring: BaseModel) -> list[int]:
    """The FP figures of a tile's scoring condition, in the order its data gives them.

    A field holding a number, or a mapping of numbers (FP per figure kind), is a
    reward; words (the show, the kind of group) are not.
    """
    figures: list[int] = []
    for name in type(scoring).model_fields:
        value = getattr(scoring, name)
        if isinstance(value, bool):
            continue
        if isinstance(value, int):
            figures.append(value)
        elif isinstance(value, dict):
            figures += [v for v in value.values() if isinstance(v, int)]
        elif isinstance(value, list) and all(isinstance(v, int) for v in value):
            figures += value
    return figures


def _scoring(component: Any) -> Any:
    """A tile's scoring condition, typed by Diables' own models (the generic component leaves it open)."""
    from .game import SCORING

    return SCORING.validate_python(component.scoring)


def _tile_row(gen: SectionContext, record: Any) -> dict[str, Any]:
    tile = record.model
    return {"id": tile.id, "name": gen.texts.text(tile.id, "name", tile.name),
            "text": gen.markup(str(gen.texts.text(tile.id, "text", tile.text or ""))),
            "fp": " / ".join(str(n) for n in reward_figures(_scoring(tile)))}


def _scoring_tiles(gen: SectionContext, lluiment: bool) -> list[Any]:
    return [r for r in gen.index.of_kind("component")
            if r.model.scoring is not None and (_scoring(r.model).op == "plaza-majority") == lluiment]


def lluiment_tiles(gen: SectionContext) -> Markup:
    """The lluïment tiles: what each counts over the plaza and its FP for first, second and other places."""
    rows = [_tile_row(gen, r) for r in _scoring_tiles(gen, lluiment=True)]
    return Markup(gen.macros_of(TEMPLATE).tiles(rows, gen.labels, gen.labels.fp_places))


def scoring_tiles(gen: SectionContext) -> Markup:
    """The show scoring tiles, one table per show in data order, each condition with its FP figures."""
    shows: dict[str, list[dict[str, Any]]] = {}
    for record in _scoring_tiles(gen, lluiment=False):
        shows.setdefault(_scoring(record.model).show, []).append(_tile_row(gen, record))
    return Markup("".join(gen.macros_of(TEMPLATE).tiles(rows, gen.labels, gen.labels.fp) for rows in shows.values()))


def components(gen: SectionContext) -> Markup:
    """Cards by type (beasts by size, from the cards themselves; pavement cards by row, from the set's
    ``totals/by_attribute`` where their designs are not listed), then the other components with the count each
    colour gets where the data gives one, scoring tiles counted together as lluïment tiles and show scoring tiles."""
    game, texts, labels = gen.game, gen.texts, gen.labels
    rows: list[dict[str, Any]] = []
    cards = gen.cards()
    for record in gen.index.of_kind("set"):
        by_type = record.model.totals.by_type if record.model.totals else {}
        for card_type in game.card_types:
            if card_type.id not in by_type:
                continue
            rows.append({"name": texts.text(game.id, f"card_types/{card_type.id}/name", card_type.name),
                         "quantity": by_type[card_type.id], "sub": False})
            for attribute in game.attributes:
                if card_type.id not in attribute.applies_to:
                    continue
                declared = record.model.totals.by_attribute.get(attribute.id, {}) if record.model.totals else {}
                for value in attribute.values:
                    count = sum(r.model.quantity or 0 for r in cards
                                if card_type.id in r.model.types and r.model.attributes.get(attribute.id) == value.id)
                    count = count or declared.get(value.id, 0)
                    if count:
                        rows.append({"name": texts.text(game.id, f"attributes/{attribute.id}/values/{value.id}/name",
                                                        value.name), "quantity": count, "sub": True})
    tiles = {True: 0, False: 0}
    for record in gen.index.of_kind("component"):
        model = record.model
        if model.scoring is not None:
            tiles[_scoring(model).op == "plaza-majority"] += model.quantity or 0
            continue
        quantity = model.quantity if model.quantity is not None else labels.unknown
        if model.per_colour is not None:
            quantity = f"{quantity} ({str(labels.per_colour).format(n=model.per_colour)})"
        rows.append({"name": gen.name(record), "sub": False, "quantity": quantity})
    rows.append({"name": labels.lluiment_tiles, "quantity": tiles[True], "sub": False})
    rows.append({"name": labels.show_scoring_tiles, "quantity": tiles[False], "sub": False})
    return Markup(gen.macros_of(TEMPLATE).components(rows, labels))


def beast_cards(gen: SectionContext) -> Markup:
    """Every card of the deck with its ability, grouped by the first attribute of its type (beast size)."""
    game, texts = gen.game, gen.texts
    groups = []
    for card_type in game.card_types:
        cards = [r for r in gen.cards() if card_type.id in r.model.types]
        if not cards:
            continue
        attribute = next((a for a in game.attributes if card_type.id in a.applies_to), None)
        values = attribute.values if attribute else [None]
        for value in values:
            members = [r for r in cards if value is None or r.model.attributes.get(attribute.id) == value.id]
            if not members:
                continue
            title = (texts.text(game.id, f"attributes/{attribute.id}/values/{value.id}/name", value.name) if value
                     else texts.text(game.id, f"card_types/{card_type.id}/name", card_type.name))
            groups.append({"title": title, "rows": [
                {"id": r.id, "name": gen.name(r),
                 "text": gen.markup(str(texts.text(r.id, "rules", r.model.rules or "")))}
                for r in members]})
    return Markup(gen.macros_of(TEMPLATE).cards(groups, gen.labels))


def round_phases(gen: SectionContext) -> Markup:
    """The phases of a round in play order, as the player aid prints them."""
    game = gen.game
    phases = [{"name": gen.texts.text(game.id, f"phases/{p.id}/name", p.name),
               "text": gen.markup(str(gen.texts.text(game.id, f"phases/{p.id}/text", p.text)))}
              for p in game.phases]
    return Markup(gen.macros_of(TEMPLATE).phases(phases))


FIREBOT_TURNS = "firebot-turns-"


def firebot_turns(gen: SectionContext) -> Markup:
    """Firebot turns per round at each difficulty, from the ``firebot-turns-*`` parameters in data order."""
    rows = []
    for parameter in gen.game.parameters:
        if parameter.id.startswith(FIREBOT_TURNS) and isinstance(parameter.value, list):
            level = parameter.id.removeprefix(FIREBOT_TURNS).replace("-", "_")
            rows.append({"name": getattr(gen.labels, f"difficulty_{level}"), "turns": parameter.value})
    rounds = max((len(row["turns"]) for row in rows), default=0)
    return Markup(gen.macros_of(TEMPLATE).firebot_turns(rows, list(range(1, rounds + 1)), gen.labels))


SECTIONS: dict[str, Callable[[SectionContext], Markup]] = {
    "diables-components": components,
    "lluiment-tiles": lluiment_tiles,
    "scoring-tiles": scoring_tiles,
    "beast-cards": beast_cards,
    "round-phases": round_phases,
    "firebot-turns": firebot_turns,
}
"""``::: generated NAME`` → the function that builds it."""

RENDERING = Rendering(sections=SECTIONS)
"""What the renderer asks of Diables: its own rulebook sections."""
