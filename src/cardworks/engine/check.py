"""``cardworks check``: run a game's scenarios, then seeded playouts of every configuration."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import DataError, UsageError
from ..loading.database import Database, display_path, load_game
from ..models.scenarios import ScenarioFile
from ..problems import Problem
import importlib
from .playouts import PlayoutStats, failure_scenario, run_playouts
from .scenarios import ScenarioResult, run_scenario

#: Games the engine plays, by id: each is a module ``<game>_game`` beside this one that plugs in
#: ``configurations``, ``rules_for``, ``new_game`` and ``scenario_state``.
GAMES = tuple(sorted(p.stem.removesuffix("_game") for p in Path(__file__).parent.glob("*_game.py")))


def plugin_for(game: str):
    """The module that plugs ``game`` into the engine."""
    return importlib.import_module(f".{game}_game", __package__)


@dataclass
class CheckReport:
    game: str
    scenarios: list[ScenarioResult] = field(default_factory=list)
    playouts: list[PlayoutStats] = field(default_factory=list)
    left_out: dict[str, str] = field(default_factory=dict)
    later: list[str] = field(default_factory=list)
    """Deck selections the engine does not play yet."""

    @property
    def failed(self) -> bool:
        return any(not s.passed for s in self.scenarios) or any(p.failures for p in self.playouts)


def _scenario_files(db: Database, extra: list[Path]) -> list[tuple[str, ScenarioFile]]:
    files = [(loaded.display, doc) for loaded, doc in db.docs("scenarios")]
    for path in extra:
        paths = sorted(path.glob("*.json")) if path.is_dir() else [path]
        for item in paths:
            try:
                files.append((display_path(item), ScenarioFile.model_validate(json.loads(item.read_text(encoding="utf-8")))))
            except (OSError, ValueError) as exc:
                raise DataError(f"{display_path(item)}: not a readable scenario file",
                                [Problem(display_path(item), "", "scenario-unreadable", str(exc).splitlines()[0])]) from None
    return files


def run_scenarios(db: Database, scenario_paths: list[Path] | None = None) -> list[ScenarioResult]:
    """Every scenario of the game (and of ``scenario_paths``), each run on its own, failures included."""
    plugin = plugin_for(db.game_doc.id)
    results = []
    for file, doc in _scenario_files(db, scenario_paths or []):
        for scenario in doc.scenarios:
            try:
                rules, state = plugin.scenario_state(db, scenario.setup)
            except (ValueError, KeyError, TypeError) as exc:
                results.append(ScenarioResult(scenario.id, file, False, [f"setup: {exc}"]))
                continue
            rng = random.Random(scenario.setup.get("seed", 0))
            results.append(run_scenario(rules, state, scenario, file, rng=rng))
    return results


def check_game(cards_root: Path, game: str, scenario_paths: list[Path], playouts: int, seed: int,
               save_failures: Path | None = None) -> CheckReport:
    """Scenarios first (every one, whatever fails), then ``playouts`` games per configuration.

    With ``save_failures``, each failed playout is written there as a scenario file that
    replays it from its exact starting state.
    """
    if game not in GAMES:
        raise UsageError(f"the engine does not play {game!r} yet; it plays {', '.join(sorted(GAMES))}")
    plugin = plugin_for(game)
    db = Database(game=load_game(cards_root / game))
    if db.game_doc is None or any(f.doc is None for f in db.game.files):
        raise DataError(f"game {game!r} has unusable files; run 'cardworks validate'")
    report = CheckReport(game)
    report.scenarios = run_scenarios(db, scenario_paths)
    configs, report.later = plugin.configurations(db)
    for config in configs:
        rules, catalogue = plugin.rules_for(db, config)
        report.left_out.update({k: v for k, v in catalogue.left_out.items() if not v.startswith("removed at")})

        def start(rng: random.Random, config=config):
            return plugin.new_game(db, config, rng)

        if playouts:
            stats = run_playouts(config.label, start, playouts, seed)
            report.playouts.append(stats)
            if save_failures is not None and stats.failures:
                _save(save_failures, game, [failure_scenario(f, config.selection, config.players) for f in stats.failures])
    return report


def _save(folder: Path, game: str, scenarios: list[dict]) -> None:
    from ..fileio import write_text_atomic

    for scenario in scenarios:
        document = {"$schema": "../../../schema/scenarios.schema.json", "game": game, "scenarios": [scenario]}
        write_text_atomic(folder / f"{scenario['id']}.json", json.dumps(document, indent=2) + "\n")
