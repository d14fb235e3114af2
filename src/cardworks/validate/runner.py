"""Validate a game folder (and packs that extend it): every problem, located, at once."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..collector import collector_paused
from ..errors import UsageError
from ..loading.assets import save_image_verdicts
from ..loading.database import Database, display_path, game_folders, load_game, load_pack
from ..loading.packs import group_packs
from ..problems import ProblemList
from .check_art import check_art, check_back_templates
from .check_glossary import check_glossary
from .check_prose import check_prose
from .check_name_case import check_name_case
from .declared import check_declaration
from .check_ids import check_frozen, check_ids
from .check_imports import check_imports
from .check_labels import check_labels
from .check_layouts import check_layouts
from .check_refs import check_references
from .check_language import Judge, judge_for
from .check_text import check_text, start_text_checks
from .check_owner import check_owner_certainty
from .check_totals import SetCompleteness, check_assumptions, check_totals
from .report import Report
from .rules_view import rules_view
from ..loading.records import Index


def check_database(db: Database, out: ProblemList, judge: Judge | None = None,
                   rules: Any = None) -> tuple[list[SetCompleteness], int]:
    """Run the cross-file checks on a loaded database; return completeness and assumed count. ``judge`` (see
    :func:`.check_language.judge_for`) judges the texts' languages; ``rules`` (a :class:`.cache.RulesVerdicts`)
    keeps the game's own checks' verdicts."""
    for bundle in db.bundles:
        out.extend(bundle.problems)
    check_imports(db, out)
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
    text = start_text_checks(index, judge)  # languages are judged apart while the checks below run
    check_ids(index, out)
    check_frozen(index, out)
    check_references(index, out)
    check_text(index, out, text)
    check_art(index, out)
    check_back_templates(index, out)
    check_glossary(index, out)
    check_prose(index, out)
    check_name_case(index, out)
    check_assumptions(index, out)
    check_owner_certainty(index, out)
    check_layouts(db, out)
    check_declaration(db, out)
    check_game_rules(index, out, rules)
    return check_totals(index, out), len(index.of_kind("assumption"))


def check_game_rules(index: Index, out: ProblemList, kept: Any = None) -> None:
    """The game plugin's own checks on the database without prose (:func:`.rules_view.rules_view`): its
    vocabulary in effects and bonuses, the references inside them, and its scenarios' expectations and steps
    (the same check ``cardworks check`` makes before it runs them). With ``kept`` (a :class:`.cache.RulesVerdicts`),
    a verdict on the same view is reused (the plugin is not even imported) and a new one is remembered."""
    view = rules_view(index.db)
    problems = kept.known(view) if kept is not None else None
    if problems is None:
        found = ProblemList()
        _run_game_rules(Index(view), found)
        problems = found.items
        if kept is not None:
            kept.remember(view, problems)
    out.extend(problems)


def _run_game_rules(index: Index, out: ProblemList) -> None:
    from ..plugin_registry import plugin_of
    from .expectations import scenario_problems

    plugin = plugin_of(index.game.id)
    if plugin is not None and plugin.validate:
        plugin.validate(index, out)
    if plugin is not None:
        for loaded, doc in index.db.docs("scenarios"):
            out.extend(scenario_problems(plugin, index.db, loaded.display, doc.scenarios))


def validate(cards_root: Path, packs: list[Path] | None = None, game: str | None = None,
             rules: Any = None) -> Report:
    """Validate every game under ``cards_root`` (or only ``game``), or only the games that ``packs`` extend, with
    them; ``rules`` (a :class:`.cache.RulesVerdicts`) keeps the game's own checks' verdicts."""
    with collector_paused():
        report = _validate(cards_root, packs, game, rules)
    save_image_verdicts()
    return report


def _validate(cards_root: Path, packs: list[Path] | None, game: str | None, rules: Any) -> Report:
    report = out = Report()
    games = {folder.name: folder for folder in game_folders(cards_root)}
    selected: dict[str, list[Path]] = {}
    if packs:
        selected, problems = group_packs(games, packs, cards_root)
        out.extend(problems)
        report.pack_roots = [pack.resolve() for pack in packs]
    else:
        if not games:
            raise UsageError(f"no game folder (with a game.json) in {display_path(cards_root)!r}")
        selected = {game_id: [] for game_id in games if game is None or game_id == game}
    for game_id, pack_folders in selected.items():
        with judge_for(games[game_id], pack_folders) as judge:  # its detector loads while the files are read
            db = Database(game=load_game(games[game_id]), packs=[load_pack(p) for p in pack_folders])
            completeness, assumed = check_database(db, out, judge, rules)
        report.completeness[game_id] = completeness
        report.assumed[game_id] = assumed
        report.files += sum(len(b.files) for b in db.bundles)
    check_labels(out)
    return report
