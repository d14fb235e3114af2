"""Diables plugged into the engine: its tiles' scoring, actions, rules and scenario positions."""

from ...engine.plugins import Plugin
from . import game
from .actions import parse_action
from .scoring import handled, vocabulary
from .models import MODELS
from .validation import validate

PLUGIN = Plugin(
    id="diables",
    configurations=game.configurations,
    rules_for=game.rules_for,
    new_game=game.new_game,
    scenario_state=game.scenario_state,
    check_setup=game.check_setup,
    parse_action=parse_action,
    setup_keys=game.SETUP_KEYS,
    models=MODELS,
    vocabulary=vocabulary(),
    handlers=handled(),
    validate=validate,
)
"""The game as the engine's registry sees it."""
