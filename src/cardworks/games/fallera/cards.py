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

from pydantic import TypeAdapter, ValidationError

from ...loading.database import Database
from ...loading.records import Index
from .effects import Always, Effect
from .features import FEATURES
from .interpreter import unhandled
from .registry import REGISTRY


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
    rank: int = 1
    """A special card's rank (n1…n8): a card answers only one of its own rank or lower. Unprinted: n1
    ("rest of the special cards", fallera-base line 50)."""

    @property
    def treasure(self) -> bool:
        return "treasure" in self.types

    @property
    def battle(self) -> bool:
        return "battle" in self.types

    _by_verb: dict[tuple[str, str], tuple[tuple[Any, Any], ...]] = field(default_factory=dict, compare=False, repr=False)
    _by_event: dict[str, tuple[tuple[int, Any], ...]] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:  # index the effects once: the rules ask at every step
        for i, effect in enumerate(self.effects):
            event = effect.when.event
            self._by_event[event] = self._by_event.get(event, ()) + ((i, effect),)
            for verb in effect.do:
                key = (event, verb.verb)
                self._by_verb[key] = self._by_verb.get(key, ()) + ((effect, verb),)

    @REGISTRY.bind(Always, "trigger", plays=("stands", "describes"))
    def doing(self, verb: str, event: str = "always") -> tuple[tuple[Any, Any], ...]:
        """(effect, verb) for each ``verb`` the card's effects of trigger ``event`` do (coin branches not included):
        how the rules read a card's standing effects (``always``, each standing verb where its rule applies)."""
        return self._by_verb.get((event, verb), ())

    def triggered(self, event: str) -> tuple[tuple[int, Any], ...]:
        """(index, effect) of the card's effects with trigger ``event``."""
        return self._by_event.get(event, ())


@dataclass
class Catalogue:
    """The modelled designs of a selection of sets, and the ones left out with the reason."""

    cards: dict[str, CardDef] = field(default_factory=dict)
    left_out: dict[str, str] = field(default_factory=dict)


def unmodelled_reason(card: Any, kind: str | None, values: dict[str, Any]) -> str | None:
    """Why the engine cannot play ``card`` yet, or None when it can; every reason that applies is given.

    Facts the sources do not give come first (no effect could make up for them): null stats and treasure
    kind, then the card's recorded ``missing`` facts, each with where the sources stop. Then the stated
    behaviour that needs an engine feature (its ``needs``). A card with text or a kind that only effects can
    play, but neither effects nor a recorded gap, is left out saying that nothing explains it.
    """
    missing = ["optional card played only by agreement"] if card.optional else []
    recorded = {fact.field for fact in card.missing}
    if "battle" in card.types:
        missing += [f"{stat} not given by the sources (nor assumed)" for stat in ("attack", "defence")
                    if values.get(stat) is None and f"stats/{stat}" not in recorded]
    if "treasure" in card.types and kind is None and "attributes/treasure-kind" not in recorded:
        missing.append("treasure kind not given by the sources")
    if kind == "sellable" and values.get("sell") is None and "stats/sell" not in recorded:
        missing.append("sell value not given by the sources (nor assumed)")
    missing += [missing_fact(fact) for fact in card.missing]
    missing += [needed_feature(need) for need in card.needs]
    if unexplained(card, kind) and not missing:
        missing.append(UNEXPLAINED)
    return "; ".join(missing) or None


def unexplained(card: Any, kind: str | None) -> bool:
    """Whether ``card`` does something only effects can play (it has text, is a special or another-treasure)
    yet has no effects, and records no missing fact or needed feature saying why."""
    acts = bool(card.rules) or "special" in card.types or kind == "other"
    return acts and not (card.effects or card.missing or card.needs)


NO_COPIES = "number of copies not given by the sources (nor assumed)"
"""The reason of a card whose quantity neither the sources nor an assumption give: no number of copies is made up."""
UNEXPLAINED = "it has no effects, and neither a missing fact nor a needed engine feature is recorded for it"
"""The reason of a card left out with nothing to explain why (``validate`` warns: ``unexplained-gap``)."""


def missing_fact(fact: Any) -> str:
    """A recorded missing fact as a reason: what is not known, and where the sources stop."""
    place = fact.doc + (f" line{'s' if '-' in fact.lines else ''} {fact.lines}" if fact.lines else "")
    return f"{fact.fact} is not given ({place}{': ' + fact.note if fact.note else ''})"


def needed_feature(need: Any) -> str:
    """A recorded needed feature as a reason: the card's stated behaviour and the feature it waits on (its
    description is the plugin's, ``features.FEATURES``)."""
    known = "" if need.feature in FEATURES else ", a feature its pack declares (waits_for)"
    return f"{need.behaviour}: needs {need.feature}{known}"


EFFECTS = TypeAdapter(list[Effect])


def parsed_effects(raw: list[dict[str, Any]]) -> tuple[tuple[Effect, ...], str | None]:
    """A card's effects in Fallera's vocabulary, or why they cannot be played (not in the vocabulary, or
    using a name the engine has no handler for): fail closed."""
    try:
        effects = tuple(EFFECTS.validate_python(raw))
    except ValidationError as exc:
        first = exc.errors()[0]
        return (), f"its effects are not in Fallera's vocabulary ({'/'.join(map(str, first['loc']))}: {first['msg']})"
    missing = unhandled(effects)
    if missing:
        return (), f"its effects use {', '.join(missing)}, which the engine has no handler for"
    return effects, None


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
        copies = card.quantity if card.quantity is not None else assumed.get((card.id, "quantity"))
        reason = unmodelled_reason(card, kind, values)
        effects, refused = parsed_effects(card.effects)
        uncounted = copies is None and "quantity" not in {fact.field for fact in card.missing}  # else said above
        reason = "; ".join(filter(None, (reason, refused, NO_COPIES if uncounted else None)))
        if reason:
            result.left_out[card.id] = reason
            continue
        result.cards[card.id] = CardDef(card.id, tuple(card.types), kind, card.attributes.get("ingredient-category"),
                                        values["attack"], values["defence"], values["sell"], effects, copies,
                                        tuple(card.icons), card.stats.get("rank") or 1)
    return result
