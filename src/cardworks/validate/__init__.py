"""Validation of the card database and of expansion packs."""

from .runner import Report, check_database, game_folders, validate

__all__ = ["Report", "check_database", "game_folders", "validate"]
