"""Rulings: resolved doubts and clarifications, linked to the cards they concern."""

from __future__ import annotations

from pydantic import Field

from .base import MARKUP, Document, Id, Model, Ref, Source


class Ruling(Model):
    """One ruling: a question, its answer, the cards it concerns, and its source."""

    id: Id
    cards: list[Ref] = Field(min_length=1)
    """Cards (or components) the ruling concerns."""
    question: str = Field(min_length=1, json_schema_extra=MARKUP)
    answer: str = Field(min_length=1, json_schema_extra=MARKUP)
    source: Source
    topic: Ref | None = None
    """The FAQ topic (an id of the game's ``faq_topics``) the ruling is printed under: what it is about,
    which the cards it names do not always say (burning, the deck running out)."""
    scenarios: list[Ref] = Field(default_factory=list)
    """Ids of executable scenarios that check this ruling."""
    states_behaviour: bool = True
    """False for rulings that only clarify wording and need no scenario."""


class RulingList(Document):
    """A file of rulings."""

    rulings: list[Ruling] = Field(default_factory=list)
