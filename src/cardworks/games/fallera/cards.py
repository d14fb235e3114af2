"""La Fallera Calavera's card definitions for the engine, read from the database.

Definitions are kept apart from instances: the state holds instance numbers,
each naming a design. Values no source gives come from the assumptions files
(the engine may play with them; print never shows them). A card whose text
states behaviour the effects cannot yet express is unmodelled: decks leave it
out and say so, instead of playing it as a blank card.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ...loading.database import Database
from ...loading.records import Index


@dataclass(frozen=True)
class CardDef:
    """What the engine knows of one design."""

    id: str
    types: tuple[str, ...]
    kind: str | None = None
    category: str | None = None
    attack: int | None = None
    defence: int | None = None
    sell: int | None = None
    effects: tuple[Any, ...] = ()
    copies: int = 1
    icons: tuple[str, ...] = ()

    @property
    def treasure(self) -> bool:
        return "treasure" in self.types

    @property
    def battle(self) -> bool:
        return "battle" in self.types

    def effect(self, op: str) -> list[Any]:
        return [e for e in self.effects if e.op == op]


@dataclass
class Catalogue:
    """The modelled designs of a selection of sets, and the ones left out with the reason."""

    cards: dict[str, CardDef] = field(default_factory=dict)
    left_out: dict[str, str] = field(default_factory=dict)


def unmodelled_reason(card: Any, kind: str | None, values: dict[str, Any]) -> str | None:
    """Why the engine cannot play ``card`` yet, or None when it can.

    Facts the sources do not give come first (no effect could make up for them), then
    behaviour the effects cannot express yet; every reason that applies is given.
    """
    if card.optional:
        return "optional card played only by agreement"
    missing = []
    if "battle" in card.types:
        missing += [f"{stat} not given by the sources (nor assumed)" for stat in ("attack", "defence") if values.get(stat) is None]
    if "treasure" in card.types and kind is None:
        missing.append("treasure kind not given by the sources")
    if kind == "sellable" and values.get("sell") is None:
        missing.append("sell value not given by the sources (nor assumed)")
    if card.rules and not card.effects:
        missing.append("its text states behaviour that no effect expresses yet")
    elif "special" in card.types and not card.effects:
        missing.append("a special card whose behaviour the sources do not give")
    elif kind == "other" and not card.effects:
        missing.append("an other-treasure does something only its effects can say")
    return "; ".join(missing) or None


def catalogue(db: Database, set_ids: list[str]) -> Catalogue:
    """Definitions of every card of ``set_ids`` the engine can play, facts first, then assumptions."""
    index = Index(db)
    assumed = index.assumed()
    result = Catalogue()
    for record in index.of_kind("card"):
        if record.set_id not in set_ids:
            continue
        card = record.model
        values = {stat: card.stats.get(stat) for stat in ("attack", "defence", "sell")}
        values = {k: v if v is not None else assumed.get((card.id, f"stats/{k}")) for k, v in values.items()}
        kind = card.attributes.get("treasure-kind")
        reason = unmodelled_reason(card, kind, values)
        if reason:
            result.left_out[card.id] = reason
            continue
        copies = card.quantity if card.quantity is not None else assumed.get((card.id, "quantity"), 1)
        result.cards[card.id] = CardDef(card.id, tuple(card.types), kind, card.attributes.get("ingredient-category"),
                                        values["attack"], values["defence"], values["sell"], tuple(card.effects), copies,
                                        tuple(card.icons))
    return result
