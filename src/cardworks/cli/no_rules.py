"""``check`` and ``simulate`` on a game without rules (declared card fields, no plugin): said plainly, once."""

from __future__ import annotations

import json
from pathlib import Path

import click

from ..errors import UsageError


def rule_less_game(ctx: click.Context, cards_root: Path, game: str) -> str | None:
    """The id of the game without rules that ``check`` or ``simulate`` was asked for, else None (a game with a
    plugin goes on as before). With ``--cards`` naming one game folder, that folder is the game (``--game`` left
    at its default is not asked for)."""
    from ..engine.plugins import plugin_of
    from ..loading.database import is_game_folder

    folder = cards_root / game
    if is_game_folder(cards_root):
        explicit = ctx.get_parameter_source("game") not in (click.core.ParameterSource.DEFAULT, None)
        if explicit and game != cards_root.resolve().name and game != _declared_id(cards_root):
            raise UsageError(f"--cards {cards_root} is the game folder of {cards_root.resolve().name!r}, not {game!r}")
        folder, game = cards_root, cards_root.resolve().name
    if plugin_of(game) is not None or not (folder / "game.json").is_file():
        return None
    try:
        declared = json.loads((folder / "game.json").read_text(encoding="utf-8")).get("card_fields")
    except (OSError, ValueError, AttributeError):
        return None  # an unreadable game.json: the command's own loading says what is wrong with it
    return game if declared else None


def _declared_id(folder: Path) -> str | None:
    try:
        found = json.loads((folder / "game.json").read_text(encoding="utf-8")).get("id")
    except (OSError, ValueError, AttributeError):
        return None
    return found if isinstance(found, str) else None


def no_rules_line(game: str, command: str) -> str:
    return (f"cardworks: game {game!r} has no rules to play: it declares its card fields only (game.json "
            f"card_fields) and no engine plays it, so '{command}' has nothing to run; validate, build, export, sheet, "
            "i18n, serve and preflight work on it")
