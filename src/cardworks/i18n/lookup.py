"""Look up a record's text in a locale, falling back to the source text."""

from __future__ import annotations

from typing import Literal

from ..loading.database import Database
from .pseudo import PSEUDO_LOCALE, pseudo_text
from .strings import source_hash

Status = Literal["source", "translated", "stale", "missing"]


class Localizer:
    """Translated strings of one locale for one database."""

    def __init__(self, db: Database, locale: str) -> None:
        self.locale = locale
        self.is_source = db.game_doc is not None and locale == db.game_doc.source_locale
        self.is_pseudo = locale == PSEUDO_LOCALE
        self.entries: dict[str, dict] = {}
        for _, doc in db.docs("translations"):
            if doc.locale == locale:
                for record_id, fields in doc.entries.items():
                    self.entries.setdefault(record_id, {}).update(fields)

    def text(self, record_id: str, field: str, source: str) -> tuple[str, Status]:
        """The text to show and whether it is the source, a translation, stale or missing."""
        if self.is_source:
            return source, "source"
        if self.is_pseudo:
            return pseudo_text(source, markup="{" in source), "translated"
        translated = self.entries.get(record_id, {}).get(field)
        if translated is None:
            return source, "missing"
        if translated.source_hash != source_hash(source):
            return translated.text, "stale"
        return translated.text, "translated"
