"""Building Calavera games from the database: configurations, rules, scenario positions.

``sheet_layout`` (re-exported from ``calavera_sheet``) is what the
print-and-play renderer draws the score sheet from.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from ...loading.database import Database
from ...engine.core import SetupRefused, player_index
from ...engine.setups import check_players
from .rules import CalaveraRules, State
from .sheet import RowLayout, face_weights, parameter, sheet_layout

__all__ = ["Configuration", "RowLayout", "configurations", "new_game", "rules_for", "scenario_state", "sheet_layout"]

SELECTION = "base"
"""Calavera has one box and no deck selections; configurations differ only in player count."""


@dataclass
class Configuration:
    """One playable configuration: a player count."""

    players: int
    selection: str = SELECTION

    @property
    def label(self) -> str:
        return f"{self.selection}/{self.players}p"


@dataclass
class Catalogue:
    """What the check reports as played and left out of play: nothing, Calavera has no cards."""

    cards: dict[str, Any] = field(default_factory=dict)
    left_out: dict[str, str] = field(default_factory=dict)


SETUP_KEYS = frozenset({"players", "first", "current", "round", "sheets", "state", "seed"})
"""What a scenario's ``setup`` may say (see ``scenario_state``)."""


def configurations(db: Database) -> tuple[list[Configuration], list[str]]:
    """Every player count the game declares; nothing is left for later."""
    count = db.game_doc.players
    return [Configuration(n) for n in range(count.min, count.max + 1)], []


def check_setup(db: Database, selection: str | None, players: int | None) -> None:
    """Refuse a player count outside the game's range; Calavera has one box, so no other selection."""
    if selection not in (None, SELECTION):
        raise SetupRefused("selection", "game.json", f"Calavera has no deck selections; {selection!r} does not exist")
    if players is not None:
        check_players(db.game_doc, players)


def rules_for(db: Database, config: Configuration) -> tuple[CalaveraRules, Catalogue]:
    """The rules for a player count, with the sheet, dice and parameters stated or assumed."""
    check_setup(db, config.selection, config.players)
    rows = sheet_layout(db)
    rules = CalaveraRules(players=config.players, colours=tuple(r.colour for r in rows),
                          values=tuple(r.values for r in rows), faces=face_weights(db),
                          dice=parameter(db, "dice"), rolls=parameter(db, "rolls-per-turn"),
                          rows_to_end=parameter(db, "rows-to-end"), zones=tuple(r.zones for r in rows))
    return rules, Catalogue()


def new_game(db: Database, config: Configuration, rng: random.Random) -> tuple[CalaveraRules, State]:
    """A new game: empty sheets, the first player still to be drawn (a chance outcome)."""
    rules, _ = rules_for(db, config)
    return rules, rules.new_game()


def scenario_state(db: Database, setup: dict[str, Any]) -> tuple[CalaveraRules, State]:
    """The explicit starting position of a scenario.

    ``setup``: ``players`` (2–4); ``first`` (the player who started the game,
    default ``p1``) and ``current`` (the active player, default ``first``);
    ``round`` (default 1); ``sheets`` (per player, row colour → boxes already
    ticked, e.g. ``{"p2": {"colour-3": 10}}``). The position is the start of
    the active player's turn, before their first roll. ``state`` instead gives
    an exact position as ``rules.dump`` wrote it (a saved failed playout).
    """
    unknown = set(setup) - SETUP_KEYS
    if unknown:
        raise ValueError(f"unknown setup keys {sorted(unknown)}; a Calavera setup uses {', '.join(sorted(SETUP_KEYS))}")
    config = Configuration(int(setup["players"]))
    rules, _ = rules_for(db, config)  # refuses a player count outside the game's range
    if "state" in setup:
        return rules, rules.load(setup["state"])
    sheets = [[0] * len(rules.colours) for _ in range(config.players)]
    for who, rows in setup.get("sheets", {}).items():
        for colour, ticked in rows.items():
            row = rules.colours.index(colour)
            if not 0 <= ticked <= len(rules.values[row]):
                raise ValueError(f"{who}: {colour} has {len(rules.values[row])} boxes, not {ticked}")
            sheets[_player(who, config.players)][row] = ticked
    first = _player(setup.get("first", "p1"), config.players)
    current = _player(setup.get("current", setup.get("first", "p1")), config.players)
    state = State(tuple(tuple(s) for s in sheets), first, current, "roll", round=int(setup.get("round", 1)))
    return rules, state


def _player(name: str, players: int) -> int:
    index = player_index(name)
    if not 0 <= index < players:
        raise ValueError(f"no player {name!r} in a {players}-player game")
    return index
