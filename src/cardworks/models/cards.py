"""Card sets and card designs."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field

from .game import CardSize
from .base import MARKUP, TRANSLATABLE, Certainty, Document, Id, Model, Ref, RelPath, Source


MAX_NAME_CHARS = 80
"""Longest card name: the name line of a poker card holds about 30 characters at full size, 80 shrunk."""
MAX_RULES_CHARS = 1200
"""Longest rules text: the rules box holds about 900 characters at 5.5 pt; the longest today has 525."""
MAX_FLAVOUR_CHARS = 300
"""Longest flavour line."""
CARD_TEXT_LIMITS = {"name": MAX_NAME_CHARS, "rules": MAX_RULES_CHARS, "flavour": MAX_FLAVOUR_CHARS}
"""Field (or alt_names item) → longest text, for translations of card fields too."""


class CardDesign(Model):
    """One card design; the physical deck holds ``quantity`` copies of it."""

    id: Id
    """Stable id: a lowercase ASCII slug minted once from the original name, never changed."""
    set_certainty: Certainty = "stated"
    """How sure it is that the card belongs to the set whose file holds it."""
    optional: bool = False
    """An optional card outside the set's declared totals (played only by agreement)."""
    quantity: Annotated[int, Field(ge=1, le=99)] | None = None
    """Copies of this design in the physical deck; ``null`` when no source gives it."""
    types: list[Ref] = Field(min_length=1)
    """Card types (declared by the game) this card is; a card may be several at once."""
    attributes: dict[Ref, Ref | None] = Field(default_factory=dict)
    """Enumerated properties by attribute id (e.g. ``treasure-kind: ingredient``); ``null`` when unknown."""
    stats: dict[Ref, int | None] = Field(default_factory=dict)
    """Numbers by stat id (e.g. ``attack: 4``); ``null`` when the sources do not give it."""
    markers: list[Ref] = Field(default_factory=list)
    """Player-count markers printed on the card (e.g. ``ii``)."""
    icons: list[Ref] = Field(default_factory=list)
    """Icon tokens printed on the card beyond its type (e.g. ``realm``, ``coin``)."""
    name: str = Field(min_length=1, max_length=MAX_NAME_CHARS, json_schema_extra=TRANSLATABLE)
    """Name printed on the card, in the original language of the game (at most 80 characters: the name line)."""
    alt_names: list[Annotated[str, Field(max_length=MAX_NAME_CHARS)]] = Field(default_factory=list,
                                                                              json_schema_extra=TRANSLATABLE)
    """Other names the card is known by (translations given in passing, spelling variants)."""
    rules: str | None = Field(default=None, max_length=MAX_RULES_CHARS, json_schema_extra=MARKUP)
    """What the card does, in card-text markup; ``null`` when the sources do not say (at most 1,200
    characters: more cannot fit the rules box even at the smallest type size)."""
    flavour: str | None = Field(default=None, max_length=MAX_FLAVOUR_CHARS, json_schema_extra=TRANSLATABLE)
    """The italic saying printed on the card, if a source gives it (at most 300 characters)."""
    art: RelPath | None = None
    """Illustration file inside the game folder or pack."""
    effects: list[dict[str, Any]] = Field(default_factory=list)
    """What the card does, in its game's effect vocabulary (``docs/effects.md``), which the game's schema
    (``schema/<game>/set.schema.json``) and ``validate`` check. A card with rules text and no effects is
    unmodelled: the engine leaves it out and says so."""
    sources: list[Source] = Field(min_length=1)
    """Where each fact about this card comes from."""
    notes: str | None = None
    """Notes for designers and reviewers; never printed."""


class SetTotals(Model):
    """What a set declares it contains, to measure completeness against."""

    designs: Annotated[int, Field(ge=0)] | None = None
    """Number of distinct card designs."""
    cards: Annotated[int, Field(ge=0)] | None = None
    """Number of physical cards (sum of quantities), optional cards excluded."""
    by_type: dict[Ref, Annotated[int, Field(ge=0)]] = Field(default_factory=dict)
    """Physical cards per card type."""


class CardSet(Document):
    """A set of cards published together (base game, an expansion, a pack)."""

    id: Id
    name: str = Field(json_schema_extra=TRANSLATABLE)
    mark: Ref | None = None
    """Icon token of the set mark printed on its cards."""
    order: int = 0
    """Position of the set in listings and deck selections."""
    totals: SetTotals = Field(default_factory=SetTotals)
    card_size: CardSize | None = None
    """Trim size of this set's cards when it differs from the game's."""
    sources: list[Source] = Field(default_factory=list)
    cards: list[CardDesign] = Field(default_factory=list)
