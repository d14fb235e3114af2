"""Translations: which strings are translatable, their source hashes, and lookup."""

from .strings import SourceString, source_hash, source_strings

__all__ = ["SourceString", "source_hash", "source_strings"]
