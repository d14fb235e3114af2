"""Diables plugged into the engine: its tiles' scoring, actions, rules and scenario positions; and into the
renderer: its own rulebook sections."""

from ...engine.plugins import Hidden, Plugin
from . import game
from .actions import parse_action
from .owner import owner_unknowns
from .expectations import DiablesExpectation
from .scoring import handled, vocabulary
from .models import MODELS
from .sections import RENDERING
from .validation import validate

PLUGIN = Plugin.of(
    "diables", game, parse_action,
    expectations=DiablesExpectation,
    models=MODELS,
    vocabulary=vocabulary(),
    handlers=handled(),
    validate=validate,
    rendering=RENDERING,
    owner_unknowns=owner_unknowns,
    hidden=Hidden(),  # what the engine plays (scoring) lies open on the table
)
"""The game as the engine's registry sees it."""
