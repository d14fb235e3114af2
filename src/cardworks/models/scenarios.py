"""Scenario files: executable checks of card behaviour.

The header (id, source, the cards and rulings involved) is checked here so that
references never dangle; the game's engine interprets ``setup``, ``steps`` and
``expect``.
"""

from __future__ import annotations

from typing import Any

from pydantic import Field

from .base import Document, Id, Model, Ref, Source


class Scenario(Model):
    """One executable scenario."""

    id: Id
    title: str
    description: str | None = None
    """What the scenario shows and why, for a reader (longer than the title)."""
    source: Source
    sources: list[Source] = Field(default_factory=list)
    """Further sources beside ``source`` (a ruling stated in one book and used in another)."""
    cards: list[Ref] = Field(default_factory=list)
    """Cards the scenario exercises."""
    rulings: list[Ref] = Field(default_factory=list)
    """Rulings the scenario checks."""
    setup: dict[str, Any] = Field(default_factory=dict)
    """Starting position, read by the game's engine."""
    refused: Ref | None = None
    """The setup must be refused by this rule (e.g. ``players-base``); then there are no steps."""
    steps: list[str] = Field(default_factory=list)
    """Scripted actions and chance outcomes in the engine's text notation."""
    expect: list[dict[str, Any]] = Field(default_factory=list)
    """Expectations checked after the steps, read by the game's engine; each game types them with its own model
    (``engine.expectations``), checked by ``validate`` and ``check`` and in ``schema/<game>/scenarios.schema.json``."""


class ScenarioFile(Document):
    """A file of scenarios."""

    game: Ref
    scenarios: list[Scenario] = Field(default_factory=list)
