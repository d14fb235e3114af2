"""The frozen id list: ids once published never disappear or change meaning."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from .base import Document, Id, Ref

RecordKind = Literal["game", "set", "card", "component", "icon", "board", "ruling", "scenario", "assumption"]


class FrozenIds(Document):
    """Every id published for a game, with the kind of record it names."""

    game: Ref
    ids: dict[Id, RecordKind] = Field(default_factory=dict)
    """Published ids and the kind of record each names."""
    retired: list[Id] = Field(default_factory=list)
    """Ids withdrawn on purpose; they may never be used again."""
