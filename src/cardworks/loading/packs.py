"""Packs given on the command line: each opened with the game it extends, nothing copied.

Every command that takes the shipped game takes packs the same way
(``validate``, ``build``, ``cards``, ``check``, ``i18n``): the pack folder
names its game in ``pack.json``; the game is loaded from the card database and
the pack beside it. A pack's own records (its sets, documents, card sizes,
backs, art and templates) live in its own folder.
"""

from __future__ import annotations

from pathlib import Path

from ..errors import DataError, UsageError
from ..problems import Problem
from .database import Database, display_path, game_folders, load_game, load_pack
from .jsonfile import read_json


def pack_game(pack: Path) -> tuple[str | None, list[Problem]]:
    """The id of the game ``pack`` extends (from its ``pack.json``), or None with the problems why not."""
    manifest = pack / "pack.json"
    display = display_path(manifest)
    if not manifest.is_file():
        return None, [Problem(display, "", "pack-missing-manifest",
                              "a pack folder needs a pack.json naming the game it extends (\"extends\": \"<game id>\")")]
    data, problems = read_json(manifest, display)
    if data is None or not isinstance(data, dict) or not isinstance(data.get("extends"), str):
        if not problems:
            problems = [Problem(display, "/extends", "missing-field", "pack.json must name the game it extends")]
        return None, problems
    return data["extends"], []


def group_packs(games: dict[str, Path], packs: list[Path], cards_root: Path) -> tuple[dict[str, list[Path]], list[Problem]]:
    """Packs grouped by the game each extends (``games``: id → folder); problems for packs that name none here.

    Raises :class:`UsageError` when a pack folder does not exist.
    """
    selected: dict[str, list[Path]] = {}
    problems: list[Problem] = []
    for pack in packs:
        if not pack.is_dir():
            raise UsageError(f"pack folder {display_path(pack)!r} does not exist")
        game_id, found = pack_game(pack)
        problems += found
        if game_id is None:
            continue
        if game_id not in games:
            problems.append(Problem(display_path(pack / "pack.json"), "/extends", "pack-unknown-game",
                                    f"no game {game_id!r} in {display_path(cards_root)} "
                                    f"(games: {', '.join(sorted(games)) or 'none'})"))
            continue
        selected.setdefault(game_id, []).append(pack)
    return selected, problems


def open_packs(cards_root: Path, packs: list[Path]) -> list[Database]:
    """One database per pack: the game it extends plus the pack (``db.packs == [pack]``).

    Raises :class:`DataError` when a pack names no game here or a file is unusable.
    """
    games = {folder.name: folder for folder in game_folders(cards_root)}
    selected, problems = group_packs(games, packs, cards_root)
    if problems:
        raise DataError(f"{len(problems)} problem(s) with the pack(s); run 'cardworks validate'", problems)
    databases = []
    for game_id, folders in selected.items():
        for folder in folders:
            db = Database(game=load_game(games[game_id]), packs=[load_pack(folder)])
            broken = [p for b in db.bundles for p in b.problems if p.severity == "error"]
            if broken or db.game_doc is None:
                raise DataError(f"pack {display_path(folder)!r} has unusable files; run 'cardworks validate'", broken)
            databases.append(db)
    return databases
