"""The game file: what a game is made of, declared once for all its sets."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field, StringConstraints

from .card_size import DEFAULT_CARD_SIZE, CardSize
from .fields import CardField
from .base import MARKUP, TRANSLATABLE, Document, Id, Locale, Model, Ref, RelPath, Source

ParameterValue = int | str | bool | list[int] | list[str] | None


class SourceDocument(Model):
    """A document that facts are taken from: a rulebook, an official FAQ, a press article."""

    id: Id
    title: str = Field(json_schema_extra=TRANSLATABLE)
    """Title of the document as published (translated, so that citations read in the reader's language)."""
    sections: list[str] = Field(default_factory=list, json_schema_extra=TRANSLATABLE)
    """Names of the document's sections that ``sources`` cite, as the document prints them; translated so
    that a citation in a localized FAQ names the section in the reader's language."""
    file: str | None = None
    """Name of the rulebook text file in the shared rulebooks folder, when it is one."""
    url: str | None = None
    """Public address, for external sources."""
    language: Locale | None = None
    """Language the document is written in."""


class PlayerCount(Model):
    """Supported numbers of players."""

    min: Annotated[int, Field(ge=1, le=20)]
    max: Annotated[int, Field(ge=1, le=20)]


class CardType(Model):
    """A card type of the game (e.g. treasure, battle, special)."""

    id: Id
    name: str = Field(json_schema_extra=TRANSLATABLE)
    """Name of the type as players say it."""
    icon: Ref | None = None
    """Icon token that marks the type on a card."""
    colour: Annotated[str, StringConstraints(pattern=r"^#[0-9a-fA-F]{6}$")] | None = None
    """Colour of the type's mark, as ``#rrggbb``."""


class AttributeValue(Model):
    """One allowed value of a card attribute."""

    id: Id
    name: str = Field(json_schema_extra=TRANSLATABLE)
    icon: Ref | None = None
    """Icon token printed for this value, if any."""


class AttributeDef(Model):
    """An enumerated property that cards of some types carry (e.g. treasure kind)."""

    id: Id
    name: str = Field(json_schema_extra=TRANSLATABLE)
    applies_to: list[Ref] = Field(min_length=1)
    """Card types that may carry this attribute."""
    values: list[AttributeValue] = Field(min_length=1)


class StatDef(Model):
    """A number that cards of some types carry (e.g. attack, defence, rank, sell value)."""

    id: Id
    name: str = Field(json_schema_extra=TRANSLATABLE)
    applies_to: list[Ref] = Field(min_length=1)
    """Card types that may carry this stat."""
    min: int
    """Smallest value a card may have."""
    max: int
    """Largest value a card may have."""
    icon: Ref | None = None
    """Icon token printed beside the value."""
    default: int | None = None
    """Value of a card of an applicable type that prints none (e.g. rank 1)."""


class MarkerDef(Model):
    """A player-count marker: cards carrying it leave the deck at some player counts."""

    id: Id
    name: str = Field(json_schema_extra=TRANSLATABLE)
    icon: Ref | None = None
    removed_at_players: list[Annotated[int, Field(ge=1, le=20)]] = Field(min_length=1)
    """Player counts at which cards with this marker are removed."""


class Parameter(Model):
    """A numeric or named rule fact the engine and rulebook use (deal size, player limits)."""

    id: Id
    value: ParameterValue
    """The value; ``null`` when the sources do not give it."""
    description: str = Field(json_schema_extra=MARKUP)
    sources: list[Source] = Field(default_factory=list)


class CardBack(Model):
    """The back printed behind some cards: an image covering trim and bleed, or a back template."""

    art: RelPath | None = None
    """Image file (PNG, JPEG, WebP or SVG) inside the game folder or pack, drawn over the whole back."""
    template: RelPath | None = None
    """Template in the folder's ``templates/`` (e.g. ``cards/back-night.html.j2``) drawing the back instead."""


class DeckSelection(Model):
    """A named choice of sets played together (e.g. base game plus expansion 2)."""

    id: Id
    name: str = Field(json_schema_extra=TRANSLATABLE)
    sets: list[Ref] = Field(min_length=1)
    """Sets shuffled into one deck."""
    players: PlayerCount
    """Player counts this selection supports."""


class RoundPhase(Model):
    """One phase of a game round, in play order: what the player aid prints."""

    id: Id
    name: str = Field(min_length=1, json_schema_extra=TRANSLATABLE)
    text: str = Field(min_length=1, json_schema_extra=MARKUP)
    """What happens in the phase, in the project's own words."""
    sources: list[Source] = Field(min_length=1)


class FaqTopic(Model):
    """A heading of the FAQ under which rulings about one subject are printed together."""

    id: Id
    name: str = Field(min_length=1, json_schema_extra=TRANSLATABLE)
    """The heading, also the topic's entry in the FAQ's topic index."""


class Game(Document):
    """A game: its name, locales, players, the vocabulary its cards use, and its sources."""

    id: Id
    name: str = Field(json_schema_extra=TRANSLATABLE)
    """Name of the game."""
    source_locale: Locale
    """Locale that the database's own texts are written in; translations follow it."""
    locales: list[Locale] = Field(min_length=1)
    """Every locale the game is published in, the source locale included."""
    players: PlayerCount
    documents: list[SourceDocument] = Field(default_factory=list)
    """Documents that ``sources`` anywhere in the game may cite."""
    card_types: list[CardType] = Field(default_factory=list)
    attributes: list[AttributeDef] = Field(default_factory=list)
    stats: list[StatDef] = Field(default_factory=list)
    markers: list[MarkerDef] = Field(default_factory=list)
    parameters: list[Parameter] = Field(default_factory=list)
    """Rule facts with their sources."""
    phases: list[RoundPhase] = Field(default_factory=list)
    """The phases of a round, in order (printed as a player aid)."""
    faq_topics: list[FaqTopic] = Field(default_factory=list)
    """The FAQ's topics in the order it prints them; when there are any, every ruling of the game names one."""
    card_size: CardSize = Field(default_factory=lambda: DEFAULT_CARD_SIZE)
    """Trim size of the game's cards unless a pack or a set says otherwise (default poker, 63 × 88 mm)."""
    selections: list[DeckSelection] = Field(default_factory=list)
    """Deck selections offered when building (the first is the default)."""
    backs: dict[Ref, CardBack] = Field(default_factory=dict)
    """Backs per card type (by the card's first type) instead of the common back."""
    fallbacks: dict[Locale, list[Locale]] = Field(default_factory=dict)
    """Where a missing translation may come from instead, per locale, in order
    (used only when a build allows fallbacks); the source locale ends every chain."""
    locale_aliases: dict[Annotated[str, StringConstraints(pattern=r"^[A-Za-z]{2,3}([-_@][A-Za-z0-9]{2,8})*$")], Locale] = \
        Field(default_factory=dict)
    """Language tags translators' tools write for one of the game's locales (``ca@valencia`` in Weblate and
    Lokalize, ``ca_ES@valencia`` in Poedit, ``ca-valencia``), mapped to it; ``_`` and ``-`` and case are
    not told apart."""
    sources: list[Source] = Field(default_factory=list)
    card_fields: list[CardField] = Field(default_factory=list)
    """The fields its cards carry, for a game without rules (docs/your-own-game.md): its cards are checked
    against a JSON Schema generated from them (``schema/set.schema.json`` in its folder) and its default face
    prints them. Empty for a game whose plugin types its cards."""


class RuleSections(Document):
    """Which rulebook sections (Markdown files in ``rules/<locale>/``) need which sets."""

    sections: dict[str, list[Ref]] = Field(default_factory=dict)
    """Section file name without ``.md`` → sets that must all be in the deck for the section to print;
    sections not listed always print."""
    new_page: list[str] = Field(default_factory=list)
    """Sections that begin a new page (a part of the book: an expansion, an index); the others follow on
    from the section before them."""
