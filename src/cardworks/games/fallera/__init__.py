"""La Fallera Calavera plugged into the engine: cards, state, actions, rules and setup; and into the renderer:
its own rulebook sections."""

from ...engine.plugins import Hidden, Plugin
from . import game
from .features import FEATURES
from .actions import parse_action
from .owner import owner_unknowns
from .expectations import FalleraExpectation
from .simulation import SIMULATION
from .interpreter import handled, vocabulary
from .models import MODELS
from .sections import RENDERING
from .validation import validate

PLUGIN = Plugin.of(
    "fallera", game, parse_action,
    expectations=FalleraExpectation,
    models=MODELS,
    vocabulary=vocabulary(),
    handlers=handled(),
    missing_features=FEATURES,
    validate=validate,
    simulation=SIMULATION,
    rendering=RENDERING,
    owner_unknowns=owner_unknowns,
    hidden=Hidden(private=("hands",), secret=("deck",)),  # hands and the face-down deck
)
"""The game as the engine's registry sees it."""
