"""pydantic models of the card database; the JSON Schemas in ``schema/`` are generated from them."""

from .assumptions import Assumption, AssumptionList
from .base import Source
from .boards import Board, BoardSide, Edge, Space
from .cards import CardDesign, CardSet, MissingFact, NeededFeature, SetTotals
from .components import Component, ComponentList, Face
from .game import AttributeDef, CardType, Game, MarkerDef, Parameter, RuleSections, StatDef
from .icons import Icon, IconRegistry
from .ids import FrozenIds
from .pack import Pack
from .rulings import Ruling, RulingList
from .scenarios import Scenario, ScenarioFile
from .translations import TranslatedString, Translations

__all__ = [
    "Assumption",
    "AssumptionList",
    "AttributeDef",
    "Board",
    "BoardSide",
    "CardDesign",
    "CardSet",
    "CardType",
    "Component",
    "ComponentList",
    "Edge",
    "Face",
    "FrozenIds",
    "Game",
    "Icon",
    "IconRegistry",
    "MarkerDef",
    "MissingFact",
    "NeededFeature",
    "Pack",
    "Parameter",
    "RuleSections",
    "Ruling",
    "RulingList",
    "Scenario",
    "ScenarioFile",
    "SetTotals",
    "Source",
    "Space",
    "StatDef",
    "TranslatedString",
    "Translations",
]
