"""An expansion pack kept outside the database and validated with the game it extends."""

from __future__ import annotations

from pydantic import Field

from .base import TRANSLATABLE, Document, Id, Ref


class Pack(Document):
    """The ``pack.json`` at the root of a pack folder."""

    id: Id
    extends: Ref
    """Id of the game this pack adds to."""
    name: str = Field(json_schema_extra=TRANSLATABLE)
    version: str | None = None
    description: str | None = None
