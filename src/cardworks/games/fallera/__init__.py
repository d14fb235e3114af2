"""La Fallera Calavera plugged into the engine: cards, state, actions, rules and setup."""

from ...engine.plugins import Plugin
from . import game
from .actions import parse_action
from .simulation import SIMULATION
from .interpreter import handled, vocabulary
from .models import MODELS
from .validation import validate

PLUGIN = Plugin.of(
    "fallera", game, parse_action,
    models=MODELS,
    vocabulary=vocabulary(),
    handlers=handled(),
    missing_features={
        "reveal-territorial-food": (
            "no modelled card makes a player reveal their territorial food (only a territorial win reveals it), "
            "so no scenario can reveal one and then see that it stays revealed",
            ("mes-enlla-territorial-food-stays-revealed",)),
        "coin-symbol-cards": (
            "no card in the data carries the humour-coin symbol; apart from the seafood ingredients and the "
            "Interior bonus, coin tosses asked for by cards are not modelled",
            ("discordia-humour-coin-symbol",)),
    },
    validate=validate,
    simulation=SIMULATION,
)
"""The game as the engine's registry sees it."""
