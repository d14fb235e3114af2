"""Validation of the card database and of expansion packs."""

from ..loading.database import game_folders
from .runner import Report, check_database, validate

__all__ = ["Report", "check_database", "game_folders", "validate"]
