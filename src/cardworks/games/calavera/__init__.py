"""Calavera (the roll-and-write dice game) plugged into the engine: sheet, actions, rules and setup; and into the
renderer: the symbols printed on its dice."""

from ...engine.plugins import Hidden, Plugin, Rendering
from . import game
from .actions import parse_action
from .owner import owner_unknowns
from .expectations import CalaveraExpectation
from .simulation import SIMULATION

PLUGIN = Plugin.of(
    "calavera", game, parse_action,
    expectations=CalaveraExpectation,
    sheet_layout=game.sheet_layout,
    owner_unknowns=owner_unknowns,
    simulation=SIMULATION,
    rendering=Rendering(die_symbols={"joker": "★", "calavera": "☠"}),  # the joker's star, the skull face's skull
    hidden=Hidden(),  # sheets and landed dice lie open; a die still rolling shows nothing in the state either
)
"""The game as the engine's registry sees it."""
