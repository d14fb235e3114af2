"""Diables plugged into the engine: its tiles' scoring, actions, rules and scenario positions."""

from ...engine.plugins import Hidden, Plugin
from . import game
from .actions import parse_action
from .expectations import DiablesExpectation
from .scoring import handled, vocabulary
from .models import MODELS
from .validation import validate

PLUGIN = Plugin.of(
    "diables", game, parse_action,
    expectations=DiablesExpectation,
    models=MODELS,
    vocabulary=vocabulary(),
    handlers=handled(),
    validate=validate,
    hidden=Hidden(),  # what the engine plays (scoring) lies open on the table
)
"""The game as the engine's registry sees it."""
