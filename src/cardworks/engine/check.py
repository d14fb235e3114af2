"""``cardworks check``: run a game's scenarios, then seeded playouts of every configuration."""

from __future__ import annotations

import gc
import json
import multiprocessing
import os
import random
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..collector import start_worker
from ..errors import DataError, UsageError
from ..loading.database import Database, display_path, load_game, load_pack
from ..problems import Problem
from .core import SetupRefused
from .plugins import plugin_for
from .playouts import DEFAULT, PlayoutStats, Schedule, failure_scenario, merged, run_playouts
from .scenarios import ScenarioResult, run_scenarios


@dataclass
class CheckReport:
    game: str
    scenarios: list[ScenarioResult] = field(default_factory=list)
    playouts: list[PlayoutStats] = field(default_factory=list)
    left_out: dict[str, str] = field(default_factory=dict)
    waiting: dict[str, tuple[int, int]] = field(default_factory=dict)
    """Engine feature → (left-out cards that need it, cards it alone would free) (``coverage.features_waited_on``)."""
    later: list[str] = field(default_factory=list)
    """Deck selections the engine does not play yet."""
    saved: list[tuple[Path, Path | None]] = field(default_factory=list)
    """Each failed playout saved by ``--save-failures``: (the file written, the file of that name kept because it
    was there already, or None)."""
    rulings: dict[str, Any] = field(default_factory=dict)
    """Each ruling that states behaviour: how it is checked, or why it cannot be yet (``coverage``)."""
    unplayed: list[str] = field(default_factory=list)
    """Declared selections and player counts the game's configurations leave out (``missing_configurations``)."""
    schedule: Schedule = DEFAULT
    """Which steps of the playouts were checked in full (``playouts.Schedule``)."""

    @property
    def checked_in_full(self) -> tuple[int, int]:
        """(steps checked in full, steps played) over every configuration's checked playouts."""
        return sum(p.full for p in self.playouts), sum(p.steps for p in self.playouts)

    @property
    def unchecked_rulings(self) -> list[Any]:
        """Behaviour rulings with no passing scenario and no reason (left-out card, missing feature)."""
        return [c for c in self.rulings.values() if not c.checked and not c.blocked]

    @property
    def failed(self) -> bool:
        return (any(not s.passed for s in self.scenarios) or any(p.failures for p in self.playouts)
                or bool(self.unchecked_rulings) or bool(self.unplayed))


def check_game(cards_root: Path, game: str, scenario_paths: list[Path], playouts: int, seed: int,
               save_failures: Path | None = None, *, selection: str | None = None,
               players: int | None = None, packs: list[Path] | None = None,
               schedule: Schedule = DEFAULT) -> CheckReport:
    """Scenarios first (every one, whatever fails), then ``playouts`` games per configuration.

    With ``save_failures``, each failed playout is written there as a scenario file that
    replays it from its exact starting state. ``selection`` and ``players`` keep the playouts to
    the configurations that match; one the rules forbid is refused (DataError naming the rule). ``packs``
    join the game: their cards enter every deck selection and their scenarios run with the game's. ``schedule``
    says which playout steps are checked in full (``check --thorough``: every one).
    """
    plugin = plugin_for(game)  # UsageError for a game no plugin plays
    if save_failures is not None and playouts:
        check_save_folder(save_failures)  # before any game is played, not after
    db = Database(game=load_game(cards_root / game), packs=[load_pack(p) for p in packs or []])
    if db.game_doc is None or any(f.doc is None for b in db.bundles for f in b.files):
        raise DataError(f"game {game!r} or a pack has unusable files; run 'cardworks validate'")
    report = CheckReport(game, schedule=schedule)
    report.scenarios = run_scenarios(db, scenario_paths)
    if any(doc.rulings for _, doc in db.docs("rulings")):
        from .coverage import ruling_coverage

        report.rulings = ruling_coverage(db, report.scenarios)
    configs, report.later = plugin.configurations(db)
    report.unplayed = missing_configurations(db, configs, report.later)
    if selection is not None or players is not None:
        configs = _chosen(db, game, plugin, configs, selection, players)
    for config in configs:
        rules, catalogue = plugin.rules_for(db, config)
        report.left_out.update({k: v for k, v in catalogue.left_out.items() if not v.startswith("removed at")})
    from .coverage import features_waited_on

    report.waiting = features_waited_on(db, report.left_out)
    if playouts:
        report.playouts = all_playouts(db, game, playouts, seed, configs=configs, schedule=schedule)
        for config, stats in zip(configs, report.playouts):
            replayable = [f for f in stats.failures if f.start]  # dealing failed: no position to start a replay from
            if save_failures is not None and replayable:
                report.saved += _save(save_failures, game,
                                      [failure_scenario(f, config.selection, config.players) for f in replayable])
    return report


def missing_configurations(db: Database, configs: list[Any], later: list[str]) -> list[str]:
    """Each selection × player count ``game.json`` declares that the game's ``configurations`` do not play.

    Worked out from the declarations, not from the game's code, so a game that drops a player count (or a
    whole selection without saying it waits for later) fails ``check`` instead of going unplayed. A game
    that plays no configuration at all (it checks scenarios only) has nothing to compare."""
    if not configs:
        return []
    played = {(str(getattr(c, "selection", None)), c.players) for c in configs}
    declared = [(s.id, s.players) for s in db.game_doc.selections] or \
        [(chosen, db.game_doc.players) for chosen in sorted({str(getattr(c, "selection", None)) for c in configs})]
    missing = []
    for selection, count in declared:
        if selection in later:
            continue
        missing += [f"{selection}/{n}p" for n in range(count.min, count.max + 1) if (selection, n) not in played]
    return missing


def _chosen(db: Database, game: str, plugin: Any, configs: list[Any], selection: str | None,
            players: int | None) -> list[Any]:
    """The configurations ``--selection`` and ``--players`` ask for; a forbidden one is refused."""
    chosen = [c for c in configs if selection in (None, c.selection) and players in (None, c.players)]
    asked = [(c.selection, c.players) for c in chosen] or \
        [(s, players) for s in ([selection] if selection else [s.id for s in db.game_doc.selections] or [None])]
    where = display_path(Path(db.game.root) / "game.json") if hasattr(db.game, "root") else f"{game}/game.json"
    try:
        for chosen_selection, chosen_players in asked:
            plugin.check_setup(db, chosen_selection, chosen_players)
    except SetupRefused as exc:
        raise DataError(f"setup refused: {exc}", [Problem(where, "", f"setup-refused:{exc.rule}", str(exc))]) from None
    if not chosen:
        raise DataError(f"no configuration of {game} matches", [Problem(
            where, "/selections", "no-configuration",
            f"the engine plays no {selection or 'selection'} with {players or 'any number of'} players")])
    return chosen


RUN = 25
"""Games of one configuration that one worker plays in a row."""
PARALLEL_FROM = 200
"""Fewer games than this in all are played in this process (starting workers would cost more)."""


def all_playouts(db: Database, game: str, playouts: int, seed: int, *, jobs: int | None = None,
                 run: int = RUN, configs: list[Any] | None = None, schedule: Schedule = DEFAULT) -> list[PlayoutStats]:
    """``playouts`` games of every configuration, in runs of ``run`` games spread over ``jobs`` processes
    (default: one per usable core, when there are ``PARALLEL_FROM`` games or more), checked as ``schedule``
    says. The stats depend on neither: each game's seed (and its sample of steps) is fixed, and runs are
    merged in order."""
    plugin = plugin_for(game)
    if configs is None:
        configs, _ = plugin.configurations(db)
    runs = [(index, first, min(run, playouts - first), seed) for index in range(len(configs))
            for first in range(0, playouts, run)]
    if jobs is None:
        jobs = _usable_cores() if len(configs) * playouts >= PARALLEL_FROM else 1
    if jobs <= 1 or "fork" not in multiprocessing.get_all_start_methods():
        results = [_play_run(db, plugin, configs, run, schedule) for run in runs]
    else:  # forked workers share the loaded database; pool.map gives the runs back in order
        context = multiprocessing.get_context("fork")
        with ProcessPoolExecutor(jobs, mp_context=context, initializer=_start_worker,
                                 initargs=(db, plugin, configs, schedule)) as pool:
            results = list(pool.map(_play_run_in_worker, runs))
    return [merged([stats for run, stats in zip(runs, results) if run[0] == index]) for index in range(len(configs))]


def _play_run(db: Database, plugin: Any, configs: list[Any], run: tuple[int, int, int, int],
              schedule: Schedule) -> PlayoutStats:
    """One run of games of one configuration: (configuration index, first game number, games, seed)."""
    index, first, games, seed = run
    config = configs[index]

    def start(rng: random.Random):
        return plugin.new_game(db, config, rng)

    return run_playouts(config.label, start, games, seed, first=first, schedule=schedule)


_WORKER: dict[str, Any] = {}
"""What a worker process plays with (set once as it starts)."""


def _start_worker(db: Database, plugin: Any, configs: list[Any], schedule: Schedule) -> None:
    """Keep what the worker plays with; what it inherited from the command (modules, the database, the rules) lives
    as long as it does, so it is set aside from the cycle collector's passes (``gc.freeze``).

    The collector then stays off for the worker's life (``collected_after`` keeps it off): checked games make no
    reference cycles (its passes after each game freed no object in the 8,500 games of ``check --playouts 500``
    of the shipped game with most configurations, nor in another's), and what a game leaves alive is the rules'
    caches, which the passes walked for nothing (about 2 to 3 % of a check's processor time)."""
    _WORKER.update(db=db, plugin=plugin, configs=configs, schedule=schedule)
    start_worker()
    gc.disable()


def _play_run_in_worker(run: tuple[int, int, int, int]) -> PlayoutStats:
    return _play_run(_WORKER["db"], _WORKER["plugin"], _WORKER["configs"], run, _WORKER["schedule"])


def _usable_cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def check_save_folder(folder: Path) -> None:
    """A :class:`UsageError` naming ``--save-failures`` when ``folder`` cannot hold the saved playouts (a file, a
    link that leads to no folder, a path under a file, a folder nothing can be written in), said before any game
    is played. The folder itself is made only when there is a failure to save."""
    import tempfile

    existing = folder
    while not existing.exists() and not existing.is_symlink() and existing != existing.parent:
        existing = existing.parent
    if not existing.is_dir():
        where = "" if existing == folder else f" cannot be made: {display_path(existing)}, on the way there,"
        what = f" is a symbolic link to {os.readlink(existing)}, which" if existing.is_symlink() else ""
        raise UsageError(f"--save-failures {display_path(folder)}{where}{what} is not a folder; nothing was played")
    try:  # a real probe: a read-only mount says yes to access() and no to a new file
        os.rmdir(tempfile.mkdtemp(dir=existing, prefix=".cardworks-probe-"))
    except OSError as exc:
        raise UsageError(f"--save-failures {display_path(folder)}: nothing can be written in "
                         f"{display_path(existing)} ({exc.strerror or exc})") from None


def _save(folder: Path, game: str, scenarios: list[dict]) -> list[tuple[Path, Path | None]]:
    """Write each scenario into ``folder`` as ``<id>.json``, never over a file that is there (a designer may have
    added a title and expectations to a scenario saved earlier): then as ``<id>-2.json`` and so on, the scenario's
    id following its file's name. Returns (written, kept instead) for each."""
    from ..fileio import write_temp

    folder.mkdir(parents=True, exist_ok=True)
    saved = []
    for scenario in scenarios:
        base, n = scenario["id"], 1
        while True:
            name = base if n == 1 else f"{base}-{n}"
            path = folder / f"{name}.json"
            document = {"$schema": f"../../../schema/{game}/scenarios.schema.json", "game": game,
                        "scenarios": [{**scenario, "id": name}]}
            tmp = write_temp(path, (json.dumps(document, indent=2) + "\n").encode("utf-8"), f"{os.getpid()}.")
            try:
                try:
                    os.link(tmp, path)  # fails when the name is taken: never replaces a file, even one made meanwhile
                except FileExistsError:
                    n += 1
                    continue
                except OSError:  # a file system without hard links: look, then rename
                    if path.exists() or path.is_symlink():
                        n += 1
                        continue
                    os.replace(tmp, path)
            finally:
                Path(tmp).unlink(missing_ok=True)
            saved.append((path, folder / f"{base}.json" if n > 1 else None))
            break
    return saved
