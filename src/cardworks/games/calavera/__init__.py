"""Calavera (the roll-and-write dice game) plugged into the engine: sheet, actions, rules and setup."""

from ...engine.plugins import Plugin
from . import game
from .actions import parse_action

PLUGIN = Plugin(
    id="calavera",
    configurations=game.configurations,
    rules_for=game.rules_for,
    new_game=game.new_game,
    scenario_state=game.scenario_state,
    check_setup=game.check_setup,
    parse_action=parse_action,
    setup_keys=game.SETUP_KEYS,
    sheet_layout=game.sheet_layout,
)
"""The game as the engine's registry sees it."""
