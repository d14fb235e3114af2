"""Which game a list of pack folders extends, read before anything is loaded (every export command takes packs)."""

from __future__ import annotations

import json
from pathlib import Path

from ..errors import UsageError
from ..loading.paths import read_text_inside


def pack_games(packs: list[Path]) -> set[str]:
    """The games the packs extend (read from each ``pack.json``); UsageError for a folder that is no pack."""
    games = set()
    for pack in packs:
        try:
            games.add(json.loads(read_text_inside(pack, pack / "pack.json"))["extends"])
        except (OSError, ValueError, KeyError, TypeError):
            raise UsageError(f"{pack}: not a pack folder (it needs a pack.json naming the game it extends)") from None
    return games
