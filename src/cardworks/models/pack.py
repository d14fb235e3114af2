"""An expansion pack kept outside the database and validated with the game it extends."""

from __future__ import annotations

from pydantic import Field

from .base import TRANSLATABLE, Document, Id, Model, Ref
from .card_size import CardSize
from .game import CardBack, SourceDocument


class TypeMinimum(Model):
    """The smallest type a face may print, in points at the card's real size (docs/templates.md)."""

    text: float = Field(6.0, ge=3.0, le=24.0)
    """The title, stats line, rules text and flavour."""
    credits: float = Field(5.0, ge=3.0, le=24.0)
    """The artist credit and the legend of the marks."""


class Pack(Document):
    """The ``pack.json`` at the root of a pack folder."""

    id: Id
    extends: Ref
    """Id of the game this pack adds to."""
    name: str = Field(json_schema_extra=TRANSLATABLE)
    version: str | None = None
    description: str | None = None
    documents: list[SourceDocument] = Field(default_factory=list)
    """Documents the pack's ``sources`` may cite besides the game's (an original design cites its own notes)."""
    card_size: CardSize | None = None
    """Trim size of the pack's cards unless a set says otherwise (default: the game's)."""
    backs: dict[Ref, CardBack] = Field(default_factory=dict)
    """Backs of the pack's cards per card type, before the game's."""
    waits_for: dict[Id, str] = Field(default_factory=dict)
    """Engine features the pack's cards wait on that the game's engine does not declare (a mechanism the pack
    brings): feature id → what the engine lacks, in a few words. A card's ``needs`` may name them as it names
    the engine's own; the card is left out of play and ``check`` counts it among the cards waiting."""
    min_type_pt: TypeMinimum | None = None
    """The smallest type the pack's card faces may print (default: 6 pt text, 5 pt credits); the build checks
    every face at its real size against it."""
