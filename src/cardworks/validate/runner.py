"""Validate a game folder (and packs that extend it): every problem, located, at once."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..errors import UsageError
from ..loading.database import Database, display_path, load_game, load_pack
from ..loading.jsonfile import read_json
from ..problems import ProblemList
from .check_ids import check_frozen, check_ids
from .check_refs import check_references
from .check_text import check_text
from .check_totals import SetCompleteness, check_assumptions, check_totals
from ..loading.records import Index


@dataclass
class Report(ProblemList):
    """The outcome of a validation run: the problems (``items``), and completeness per game."""

    completeness: dict[str, list[SetCompleteness]] = field(default_factory=dict)
    """Per game id: completeness of each set."""
    assumed: dict[str, int] = field(default_factory=dict)
    """Per game id: number of assumed values."""
    files: int = 0

    def failed(self, strict: bool = False) -> bool:
        """True when there are errors, or warnings under ``strict``."""
        return bool(self.errors or (strict and self.warnings))


def game_folders(cards_root: Path) -> list[Path]:
    """Folders under ``cards_root`` that hold a ``game.json``, sorted."""
    if not cards_root.is_dir():
        raise UsageError(f"card database folder {display_path(cards_root)!r} does not exist")
    return sorted(p.parent for p in cards_root.glob("*/game.json"))


def check_database(db: Database, out: ProblemList) -> tuple[list[SetCompleteness], int]:
    """Run the cross-file checks on a loaded database; return completeness and assumed count."""
    for bundle in db.bundles:
        out.extend(bundle.problems)
    if db.game_doc is None:
        if not any(f.kind.name == "game" for f in db.game.files):
            out.error(display_path(db.game.root / "game.json"), "", "missing-file", "a game folder needs a game.json")
        return [], 0
    for pack in db.packs:
        manifest = pack.docs("pack")
        if manifest and manifest[0][1].extends != db.game_doc.id:
            out.error(manifest[0][0].display, "/extends", "pack-unknown-game",
                      f"pack extends {manifest[0][1].extends!r}, validated with {db.game_doc.id!r}")
        if not [f for f in pack.files if f.kind.name != "pack"]:
            out.error(display_path(pack.root), "", "pack-empty", "the pack holds no data files besides pack.json")
    broken = [f.display for b in db.bundles for f in b.files if f.doc is None]
    if broken:
        out.warning(broken[0], "", "cross-checks-skipped",
                    f"{len(broken)} file(s) could not be read; references, totals and translations are checked"
                    " once they are fixed")
        return [], 0
    index = Index(db)
    check_ids(index, out)
    check_frozen(index, out)
    check_references(index, out)
    check_text(index, out)
    check_assumptions(index, out)
    _check_game_rules(index, out)
    return check_totals(index, out), len(index.of_kind("assumption"))


def _check_game_rules(index: Index, out: ProblemList) -> None:
    """The game plugin's own checks: its vocabulary in effects and bonuses, the references inside them."""
    from ..engine.plugins import registered

    plugin = registered().get(index.game.id)
    if plugin is not None and getattr(plugin, "validate", None):
        plugin.validate(index, out)


def _pack_game(pack: Path, out: ProblemList) -> str | None:
    manifest = pack / "pack.json"
    display = display_path(manifest)
    if not manifest.is_file():
        out.error(display, "", "pack-missing-manifest",
                  "a pack folder needs a pack.json naming the game it extends (\"extends\": \"<game id>\")")
        return None
    data, problems = read_json(manifest, display)
    if data is None or not isinstance(data, dict) or not isinstance(data.get("extends"), str):
        if not problems:
            out.error(display, "/extends", "missing-field", "pack.json must name the game it extends")
        out.extend(problems)
        return None
    return data["extends"]


def validate(cards_root: Path, packs: list[Path] | None = None) -> Report:
    """Validate every game under ``cards_root``, or only the games that ``packs`` extend, with them."""
    report = out = Report()
    games = {folder.name: folder for folder in game_folders(cards_root)}
    selected: dict[str, list[Path]] = {}
    if packs:
        for pack in packs:
            if not pack.is_dir():
                raise UsageError(f"pack folder {display_path(pack)!r} does not exist")
            game_id = _pack_game(pack, out)
            if game_id is None:
                continue
            if game_id not in games:
                out.error(display_path(pack / "pack.json"), "/extends", "pack-unknown-game",
                          f"no game {game_id!r} in {display_path(cards_root)} (games: {', '.join(sorted(games)) or 'none'})")
                continue
            selected.setdefault(game_id, []).append(pack)
    else:
        if not games:
            raise UsageError(f"no game folder (with a game.json) in {display_path(cards_root)!r}")
        selected = {game_id: [] for game_id in games}
    for game_id, pack_folders in selected.items():
        db = Database(game=load_game(games[game_id]), packs=[load_pack(p) for p in pack_folders])
        completeness, assumed = check_database(db, out)
        report.completeness[game_id] = completeness
        report.assumed[game_id] = assumed
        report.files += sum(len(b.files) for b in db.bundles)
    return report
