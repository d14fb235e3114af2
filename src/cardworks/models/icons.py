"""The icon and markup-token registry."""

from __future__ import annotations

from pydantic import Field

from .base import TRANSLATABLE, Document, Id, Model, RelPath, Source


class Icon(Model):
    """An icon; its id is the markup token that shows it in card text (``{id}``)."""

    id: Id
    svg: RelPath
    """SVG file inside the game folder or pack."""
    alt: str = Field(min_length=1, json_schema_extra=TRANSLATABLE)
    """Text that stands for the icon where it cannot be drawn (screen readers, plain text)."""
    sources: list[Source] = Field(default_factory=list)


class IconRegistry(Document):
    """All icons a game's texts may use."""

    icons: list[Icon] = Field(default_factory=list)
