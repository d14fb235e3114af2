"""Per-locale translation files: only translatable strings, keyed by id."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, StringConstraints

from .base import Document, Id, Locale, Model, Ref

MAX_TRANSLATION_CHARS = 4000
"""Longest translated string held in a locale file; far longer texts hang layout and lock the file out."""
SourceHash = Annotated[str, StringConstraints(pattern=r"^[0-9a-f]{16}$")]


class TranslatedString(Model):
    """A translation of one source string, tied to the exact source text it translates."""

    text: str = Field(max_length=MAX_TRANSLATION_CHARS)
    """The translation (at most 4,000 characters; the longest string of any record today has 525)."""
    source_hash: SourceHash
    """First 16 hex digits of the SHA-256 of the source text; when the source changes
    the translation is reported stale."""
    source: str | None = None
    """The source text this translates, kept so that a stale translation can show
    the translator what changed (``#|`` in PO files)."""


class Translations(Document):
    """Translations of one game (or pack) into one locale."""

    game: Ref
    """Id of the game these strings belong to."""
    locale: Locale
    entries: dict[Id, dict[str, TranslatedString]] = Field(default_factory=dict)
    """Strings by record id, then by field path inside the record (``name``,
    ``rules``, ``card_types/treasure/name``, ``alt_names/0``)."""


class GlossaryTerm(Model):
    """One term of the game's vocabulary and how a locale must translate it."""

    term: str = Field(min_length=1)
    """The term in the source locale (e.g. ``draw``, ``sellable``)."""
    translation: str = Field(min_length=1)
    """The translation this locale uses for it, everywhere."""
    forbidden: list[Annotated[str, StringConstraints(min_length=2)]] = Field(default_factory=list)
    """Variants that must not be used, as words or phrases (case ignored); ``*`` stands for any letters
    (``vendible*``) and ``…`` for up to four words (``agafa* … de la baralla``)."""
    note: str | None = None
    """Why, or where the term applies, for translators."""


class Glossary(Document):
    """The terminology of one game in one locale (``i18n/glossary/<locale>.json``): ``validate`` warns about a
    forbidden variant in that locale's translations, rulebook and FAQ sources and document labels, and
    ``i18n glossary`` exports it."""

    game: Ref
    locale: Locale
    standard: Literal["valencian"] | None = None
    """The regional standard whose word forms this locale follows everywhere (``valencian``: the AVL forms,
    ``seues`` not ``seves``, ``este`` not ``aquest``, ``compartixes`` not ``comparteixes``); ``validate`` warns
    at each form the standard avoids, as it does at a forbidden variant."""
    terms: list[GlossaryTerm] = Field(default_factory=list)
    kept_english: list[Annotated[str, StringConstraints(min_length=2)]] = Field(default_factory=list)
    """English words this locale's texts keep on purpose (a name of a piece, a product, a command), so that
    ``validate`` does not report them as English left in a translation (``english-left``)."""
