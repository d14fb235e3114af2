"""``cardworks simulate``: balance figures from seeded simulated games (see ``cardworks.simulate``)."""

from __future__ import annotations

import os
from pathlib import Path

import click

from ..errors import UsageError
from .options import SEED


class Games(click.ParamType):
    """``--games``: a number of games, or ``auto`` (play in looks until every pack card is decided)."""

    name = "K|auto"

    def convert(self, value, param, ctx):  # type: ignore[no-untyped-def]
        if isinstance(value, int) or value == "auto":
            return value
        return click.IntRange(1, 100_000_000).convert(value, param, ctx)


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


@click.command()
@click.argument("packs", nargs=-1, type=click.Path(path_type=Path, file_okay=False))
@click.option("--game", default="fallera", show_default=True, help="Game id.")
@click.option("--set", "selection", default="base", show_default=True, help="Deck selection (fallera: base, base-2, base-3, expert).")
@click.option("--players", type=click.IntRange(1, 20), default=4, show_default=True)
@click.option("--games", type=Games(), default=1000, show_default=True,
              help="Games to play, or auto: play in looks until every pack card is decided, within --max-games and "
                   "--max-minutes (a group-sequential rule: see Simulation reports).")
@click.option("--max-games", "max_games", type=click.IntRange(1, 100_000_000), default=3200, show_default=True,
              help="With --games auto: the games of the last look.")
@click.option("--max-minutes", "max_minutes", type=click.FloatRange(0, 100_000, min_open=True),
              help="With --games auto: play no look after this many minutes (the report names the look it stopped at).")
@click.option("--seed", type=SEED, default=1, show_default=True, help="Master seed (0 to 2**63-1); game i uses SeedSequence(seed, spawn_key=(i,)).")
@click.option("--first", type=SEED, default=0, show_default=True,
              help="Number of the first game, 0 to 2**63-1 (replay game N alone with --first N --games 1).")
@click.option("--agent", "agent", default="random", show_default=True,
              help="random, greedy or mcts for every seat, or one per seat joined by commas (mcts,greedy,greedy,greedy).")
@click.option("--budget", type=click.IntRange(1, 1_000_000), default=50, show_default=True, help="ISMCTS iterations per decision.")
@click.option("--workers", type=click.IntRange(1, 256), default=None, help="Local processes (default: one per usable core).")
@click.option("--scheduler", help="Dask scheduler address (tcp://HOST:PORT): play on that cluster instead.")
@click.option("--max-steps", type=click.IntRange(10, 10_000_000), default=5000, show_default=True,
              help="A game still running after this many steps stops and counts as a stall.")
@click.option("--compare", is_flag=True, help="Play the deck without the PACKS and with them, and compare the two.")
@click.option("--paired/--no-paired", default=None,
              help="Replay each game with each pack card (and base card of its type) made a plain card of its type, "
                   "to measure its own effect (default: on with PACKS; costs one game per card held).")
@click.option("--fail-on", "fail_on", multiple=True, type=click.Choice(["strong", "weak", "decides", "undecided"]),
              help="Exit 1 when a pack card gets this verdict (repeatable; undecided: 'not decided'): gate a pack in CI. "
                   "A card the agents do not play ('not judged') fails every gate.")
@click.option("--sweep", "sweep", metavar="CARD.FIELD=LO..HI[:STEP]",
              help="Step one pack card's attack, defence, sell or quantity over a range (same seeds at each value) "
                   "and report its strength and verdict against the value: at most 50 values, each -999 to 999 "
                   "(a quantity 1 to 99).")
@click.option("--measure-agents", "measure", type=click.IntRange(0, 1_000_000), default=0, show_default=True,
              help="Also play this many games of each match that states the agents' strength (greedy against random, "
                   "ISMCTS at --budget and twice it against greedy).")
@click.option("--out", type=click.Path(path_type=Path), help="Write report.json and report.html here (a folder).")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.pass_obj
def simulate(cards_root: Path, packs: tuple[Path, ...], game: str, selection: str, players: int, games: int | str,
             max_games: int, max_minutes: float | None, seed: int,
             first: int, agent: str, budget: int, workers: int | None, scheduler: str | None, max_steps: int, compare: bool,
             paired: bool | None, fail_on: tuple[str, ...], sweep: str | None, measure: int, out: Path | None,
             fmt: str) -> None:
    """Play seeded games and report balance figures with 95% intervals.

    Win rates per seat and agent, game length, endings and stalls, and per card the win
    rate of players who held it against those who did not, its activity, the games it ended
    and, with PACKS, its paired strength and a verdict per pack card (--fail-on gates on it).
    The figures are the same for any --workers and on a Dask cluster.
    """
    from ..simulate.agents import parse_agents
    from ..simulate.executors import simulate as run
    from ..simulate.figures import compare as compared, figures
    from ..simulate.tables import TableSpec, build_table
    from ..simulate.progress import SimulationProgress
    from .no_rules import no_rules_line, rule_less_game

    rule_less = None if packs else rule_less_game(click.get_current_context(), cards_root, game)
    if rule_less is not None:  # nothing to play is a failure to do what was asked (exit 1)
        click.echo(no_rules_line(rule_less, "simulate"), err=True)
        raise SystemExit(1)

    if compare and not packs:
        raise UsageError("--compare plays the deck without and with PACKS: give at least one pack")
    if fail_on and not packs:
        raise UsageError("--fail-on judges a pack's cards: give at least one pack")
    if fail_on and paired is False and set(fail_on) & {"strong", "weak"}:
        raise UsageError("--fail-on strong or weak needs the paired games that --no-paired turns off")
    if games == "auto" and (not packs or compare or sweep is not None or paired is False or measure):
        raise UsageError("--games auto plays until every pack card is decided: give PACKS, without --compare, --sweep, "
                         "--no-paired or --measure-agents")
    agents = parse_agents(agent, players, budget)
    _warn_of_what_is_missing(game, agents)
    _check_places(scheduler, out)
    if sweep is not None:
        _sweep(cards_root, packs, game, selection, players, games, seed, first, agents, workers, scheduler, max_steps,
               compare, paired, fail_on, sweep, out, fmt)
        return
    specs = [TableSpec(str(Path(cards_root).resolve()), game, selection, players, tuple(str(p.resolve()) for p in packs),
                       max_steps, paired=bool(packs) if paired is None else paired)]
    if compare:
        specs.insert(0, TableSpec(specs[0].cards_root, game, selection, players, (), max_steps))
    tables = [build_table(spec) for spec in specs]
    labels = [a.label for a in agents]
    if games == "auto":
        from ..simulate.sequential import play_until_decided

        with SimulationProgress() as start:
            report = play_until_decided(
                lambda n, done: run(specs[0], agents, n, seed, workers=workers or _cores(), scheduler=scheduler,
                                    progress=start(f"{specs[0].label}, games {done + 1}-{done + n}", n), first=first + done),
                lambda tally, alpha: figures(tally, tables[0], labels, seed, first, alpha=alpha), max_games, max_minutes)
        _finish(report, packs, fail_on, out, fmt)
        return
    results = []
    with SimulationProgress() as start:
        for spec in specs:
            results.append(run(spec, agents, games, seed, workers=workers or _cores(), scheduler=scheduler,
                               progress=start(spec.label, games), first=first))
    reports = [figures(tally, table, labels, seed, first) for tally, table in zip(results, tables)]
    report = reports[0] if not compare else {"a": reports[0], "b": reports[1], "compare": compared(reports[0], reports[1])}
    if measure:
        from ..simulate.trust import measure_agents

        with SimulationProgress() as start:
            report["agent_strength"] = measure_agents(specs[-1], measure, seed, budget, lambda spec, agents, n, s: run(
                spec, agents, n, s, workers=workers or _cores(), scheduler=scheduler, progress=start(f"{spec.label}, agents", n)))
    _finish(report, packs, fail_on, out, fmt)


def _finish(report: dict, packs: tuple[Path, ...], fail_on: tuple[str, ...], out: Path | None, fmt: str) -> None:
    """The report written and shown, then the gates."""
    from ..simulate.report import to_json, to_text, write_report
    from ..simulate.verdicts import flagged

    if out is not None:
        for path in write_report(report, out):
            click.echo(f"{path}: written", err=True)
    click.echo(to_json(report) if fmt == "json" else to_text(report), nl=False)
    if fail_on:
        failed = flagged(report.get("b", report), packs, fail_on)
        for line in failed:
            click.echo(line, err=True)
        if failed:
            raise SystemExit(1)



def _warn_of_what_is_missing(game: str | None, agents: tuple) -> None:
    """Where the install lacks a part of the game these agents would use (Fallera's compiled rollout loop), the
    games play the same decisions, slower: said once, as the build says a missing font subsetter."""
    from ..engine.plugins import plugin_of

    plugin = plugin_of(game) if game else None
    line = plugin.simulation.missing(frozenset(a.kind for a in agents)) if plugin and plugin.simulation else None
    if line:
        click.echo(f"warning: {line}", err=True)


def _check_places(scheduler: str | None, out: Path | None) -> None:
    """A wrong --scheduler or --out is said before any game is played, not after an hour of them."""
    from ..cluster import check_scheduler
    from ..simulate.report import check_out

    if scheduler is not None:
        check_scheduler(scheduler)
    if out is not None:
        check_out(out)


def _sweep(cards_root: Path, packs: tuple[Path, ...], game: str, selection: str, players: int, games: int, seed: int,
           first: int, agents: list, workers: int | None, scheduler: str | None, max_steps: int, compare: bool,
           paired: bool | None, fail_on: tuple[str, ...], sweep: str, out: Path | None, fmt: str) -> None:
    """``--sweep``: the same games at each value of one pack card's number, through the same executors."""
    from ..simulate.executors import simulate as run
    from ..simulate.figures import figures
    from ..simulate.progress import SimulationProgress
    from ..simulate.report import to_json, to_text, write_report
    from ..simulate.sweep import parse_sweep, shared_band, sweep_figures, sweep_specs
    from ..simulate.tables import TableSpec, build_table

    card, field, values = parse_sweep(sweep)
    if not packs or compare or fail_on or paired is False:
        raise UsageError("--sweep judges one pack card by paired games: give its pack, without --compare, --fail-on "
                         "or --no-paired")
    specs = sweep_specs(TableSpec(str(Path(cards_root).resolve()), game, selection, players,
                                  tuple(str(p.resolve()) for p in packs), max_steps), card, field, values)
    try:
        tables = [build_table(spec) for spec in specs]  # every value's bad input before any game
    except UsageError as exc:
        raise UsageError(str(exc) if str(exc).startswith("--sweep") else f"--sweep {exc}") from None
    labels = [a.label for a in agents]
    runs = []
    with SimulationProgress() as start:
        for value, spec, table in zip(values, specs, tables):
            tally = run(spec, tuple(agents), games, seed, workers=workers or _cores(), scheduler=scheduler,
                        progress=start(f"{spec.label}, {card}.{field}={value}", games), first=first)
            runs.append((value, figures(tally, table, labels, seed, first)))
    report = {"sweep": sweep_figures(card, field, shared_band(card, runs))}
    if out is not None:
        for path in write_report(report, out):
            click.echo(f"{path}: written", err=True)
    click.echo(to_json(report) if fmt == "json" else to_text(report), nl=False)
