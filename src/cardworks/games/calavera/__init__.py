"""Calavera (the roll-and-write dice game) plugged into the engine: sheet, actions, rules and setup."""

from ...engine.plugins import Plugin
from . import game
from .actions import parse_action

PLUGIN = Plugin.of(
    "calavera", game, parse_action,
    sheet_layout=game.sheet_layout,
)
"""The game as the engine's registry sees it."""
