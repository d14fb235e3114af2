"""Translations: which strings are translatable, their source hashes, and lookup."""

from .lookup import Localizer
from .strings import SourceString, source_hash, source_strings

__all__ = ["Localizer", "SourceString", "source_hash", "source_strings"]
