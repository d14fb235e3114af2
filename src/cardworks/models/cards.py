"""Card sets and card designs."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

from .card_size import CardSize
from .game import CardBack
from .base import MARKUP, TRANSLATABLE, Certainty, Document, Id, Lines, Model, Ref, RelPath, Source


MAX_NAME_CHARS = 80
"""Longest card name: the name line of a poker card holds about 30 characters at full size, 80 shrunk."""
MAX_RULES_CHARS = 1200
"""Longest rules text: the rules box holds about 900 characters at 5.5 pt; the longest today has 525."""
MAX_FLAVOUR_CHARS = 300
"""Longest flavour line."""
CARD_TEXT_LIMITS = {"name": MAX_NAME_CHARS, "rules": MAX_RULES_CHARS, "flavour": MAX_FLAVOUR_CHARS}
"""Field (or alt_names item) → longest text, for translations of card fields too."""


class MissingFact(Model):
    """A fact about the card that no source gives, and where the sources stop short of it. A card missing a
    fact its behaviour needs is left out of play with that fact named; ``validate`` counts it as missing
    information. Never fill the gap by guessing: record it here."""

    fact: str = Field(min_length=1, max_length=300)
    """What is not known, in a few words (``how many extra plays it gives``)."""
    field: str = Field(default="effects", min_length=1)
    """The field of the card the fact would fill: ``effects`` (what it does), ``stats/attack``, ``types``…"""
    doc: Ref
    """The document that comes closest: it speaks of the card without giving the fact."""
    section: str | None = None
    """Section heading in that document."""
    lines: Lines | None = None
    """Line or line range there, e.g. ``51`` or ``180-183``."""
    note: str | None = None
    """What that place does say, and what it leaves out, for a reviewer."""


class NeededFeature(Model):
    """Behaviour the sources state for the card that needs an engine feature its game's engine lacks: the
    card is left out of play, naming the behaviour and the feature."""

    feature: Ref
    """Id of the feature, as the game's engine declares it among its missing features."""
    behaviour: str = Field(min_length=1, max_length=300)
    """The card's stated behaviour that needs it, in a few words."""


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
    """Illustration file (PNG, JPEG, WebP or SVG) inside the game folder or pack, drawn to cover the art box."""
    art_focus: Annotated[list[Annotated[float, Field(ge=0, le=1)]], Field(min_length=2, max_length=2)] | None = None
    """Point of the art kept in view when it is cropped to cover its box: x, y from 0 (left, top) to 1."""
    layout: Literal["framed", "full-bleed", "art-only"] = "framed"
    """``full-bleed``: the art covers trim and bleed, and the frame is drawn over it. ``art-only``: the art is
    the whole face (a finished card image covering trim and bleed): nothing of the card's data is printed over
    it, and ``art`` must be given."""
    artist: str | None = None
    """Who drew the art; printed small on the face."""
    effects: list[dict[str, Any]] = Field(default_factory=list)
    """What the card does, in its game's effect vocabulary (``docs/effects.md``), which the game's schema
    (``schema/<game>/set.schema.json``) and ``validate`` check. A card with rules text and no effects is
    unmodelled: the engine leaves it out and says so."""
    missing: list[MissingFact] = Field(default_factory=list)
    """Facts about what the card does that no source gives (each with where the sources stop): the engine
    names them when it leaves the card out."""
    needs: list[NeededFeature] = Field(default_factory=list)
    """Stated behaviour of the card that needs an engine feature the game's engine lacks."""
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
    by_attribute: dict[Ref, dict[Ref, Annotated[int, Field(ge=0)]]] = Field(default_factory=dict)
    """Physical cards per value of a card attribute, where a source counts them though it does not list the
    designs (``{"pavement-row": {"upper": 24, "lower": 24}}``). The values of an attribute add up to the count
    of the card type it applies to."""


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
    back: CardBack | None = None
    """Back of this set's cards, before any back per type."""
    unnamed_markers: list[Ref] = Field(default_factory=list)
    """Player-count markers (declared by the game) that a source says some of this set's cards carry without
    naming those cards: the player-count table says the cards it lists are not all (source fact
    ``unnamed_markers``)."""
    sources: list[Source] = Field(default_factory=list)
    cards: list[CardDesign] = Field(default_factory=list)
