"""Human-readable output of reports and listings."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

if TYPE_CHECKING:  # the models behind them are imported by the commands that need them, not by --help
    from ..catalog import CardRow
    from ..validate import Report


def _ratio(known: int, declared: int | None) -> str:
    return f"{known}/{declared}" if declared is not None else f"{known}/?"


def print_report(report: Report, strict: bool) -> None:
    """Problems one per line, then each set's completeness, then the verdict."""
    for problem in report.items:
        click.echo(problem.text())
    for game_id, sets in report.completeness.items():
        if sets:
            _print_completeness(game_id, sets, report.assumed.get(game_id, 0))
    errors, warnings = len(report.errors), len(report.warnings)
    verdict = "FAILED" if report.failed(strict) else "OK"
    suffix = " (--strict: warnings count as errors)" if strict and warnings else ""
    if strict and report.pack_roots:
        suffix = f" (--strict: the packs' {len(report.judged_warnings)} warning(s) count as errors; the game's are shown)"
    click.echo(f"\n{verdict}: {errors} error(s), {warnings} warning(s) in {report.files} file(s){suffix}")


def _console():
    """A rich console; piped output is never truncated to a guessed width."""
    from rich.console import Console

    console = Console()
    return console if console.is_terminal else Console(width=240)


def _print_completeness(game_id: str, sets: list, assumed: int) -> None:
    """One game's completeness per set, as a table drawn by rich (numbers right-aligned)."""
    from rich.table import Table

    table = Table(title=f"{game_id}: completeness (known/declared; unknown and assumed values; missing facts of "
                  "what cards do)", title_justify="left", show_edge=False, header_style="bold")
    table.add_column("set")
    for column in ("designs", "cards"):
        table.add_column(column, justify="right")
    table.add_column("by type")
    for column in ("unknown", "assumed", "missing"):
        table.add_column(column, justify="right")
    for item in sets:
        by_type = " ".join(f"{t} {_ratio(k, d)}" for t, (k, d) in item.by_type.items())
        table.add_row(item.set_id, _ratio(item.designs, item.designs_declared), _ratio(item.cards, item.cards_declared),
                      by_type, str(item.unknown_values), str(item.assumed_values), str(item.missing_facts))
    click.echo()
    _console().print(table)
    click.echo(f"  assumed values in all: {assumed}")


def print_card_table(rows: list[CardRow]) -> None:
    """A table of card designs; untranslated names are flagged."""
    from rich.table import Table

    table = Table(show_edge=False, header_style="bold")
    for column in ("game", "id", "set", "types", "qty", "name"):
        table.add_column(column)
    for row in rows:
        flag = "" if row.name_status in {"source", "translated"} else f" ({row.name_status})"
        table.add_row(row.game, row.id, row.set, "+".join(row.types),
                      "?" if row.quantity is None else str(row.quantity), row.name + flag)
    _console().print(table)
    click.echo(f"{len(rows)} card design(s)")


class progress_bar:
    """Progress on stderr: a bar on a terminal, and one line per finished output with its time; when stderr
    is not a terminal (piped, logged), only the lines, so a long build is never silent."""

    def __enter__(self):
        import sys

        self.bar = None
        if sys.stderr.isatty():
            from rich.progress import Progress

            self.bar = Progress(transient=True)
            self.bar.start()
            self.task = self.bar.add_task("building", total=None)
        return self

    def __call__(self, label: str, done: int, total: int) -> None:
        if self.bar is not None:
            self.bar.update(self.task, description=label, completed=done, total=total)

    def finished(self, path: str, seconds: float) -> None:
        line = f"{seconds:6.1f} s  {path}"
        if self.bar is not None:
            self.bar.console.print(line, highlight=False)
        else:
            click.echo(line, err=True)

    def __exit__(self, *exc) -> None:
        if self.bar is not None:
            self.bar.stop()


def print_build_report(report) -> None:
    """A summary table of the decks built or reused, then overflow warnings."""
    from rich.console import Console
    from rich.table import Table

    table = Table(show_edge=False, header_style="bold")
    for column in ("game", "locale", "deck", "designs", "cards", "qty not stated", "files", "status"):
        table.add_column(column)
    for o in report.outcomes:
        table.add_row(o.game, o.locale, o.deck, str(o.designs), str(o.cards), str(o.assumed_quantities),
                      str(len(o.records)), o.status)
    for task, record, rendered in report.documents:
        table.add_row(task.game, task.locale, task.kind, "", "", "", "1", "rendered" if rendered else "unchanged")
    console = Console() if Console().is_terminal else Console(width=160)
    console.print(table)
    for o in report.outcomes:
        if o.faces:
            shown = ", ".join(o.faces[:8]) + (f" and {len(o.faces) - 8} more" if len(o.faces) > 8 else "")
            click.echo(f"rebuilt {o.game} {o.locale} {o.deck}: faces {shown}")
    rebuilt = [record.path for _, record, rendered in report.documents if rendered]
    if rebuilt:
        click.echo(f"rebuilt documents: {', '.join(rebuilt)}")
    for skipped in report.skipped:
        click.echo(f"note: {skipped}; that game was left out of this build")
    for note in report.notes:
        click.echo(f"note: {note}")
    for problem in report.art_warnings:  # as validate gives them: the build prints the same art
        click.echo(problem.text())
    from ..render.telltale import describe

    for o in report.outcomes:
        if o.telltale:
            click.echo(f"warning: {describe(f'{o.game} {o.deck} ({o.locale})', o.telltale)}")
    for o in report.outcomes:
        for entry in o.fallbacks:
            click.echo(f"warning: [fallback] {o.game} {o.locale} {o.deck}: {entry['string']} has no {o.locale} text; "
                       f"the {entry['used']} text is printed (--allow-fallback)")
    for task, record, _ in report.documents:
        for entry in record.fallbacks:
            click.echo(f"warning: [fallback] {record.path}: {entry['string']} has no {record.locale} text; "
                       f"the {entry['used']} text is printed (--allow-fallback)")
    for game, locale, card, parts in report.overflow:
        click.echo(f"warning: [text-overflow] {game} {locale} {card} ({', '.join(parts) or 'text'}): does not fit its place "
                   "on the card (rules at the smallest size, the title in two lines, the flavour under the rules)")
    for game, locale, card, parts in report.small:
        warn_small_type(game, locale, card, parts)
    click.echo(f"manifest: {report.manifest}")


def warn_small_type(game: str, locale: str, card: str, parts: dict[str, tuple[float, float]]) -> None:
    """The warning for one face whose type prints under its minimum: the same line from build and the exports."""
    sizes = ", ".join(f"{part} {size:.1f} pt" for part, (size, _) in parts.items())
    least = ", ".join(sorted({f"{least:g} pt" for _, least in parts.values()}))
    click.echo(f"warning: [type-too-small] {game} {locale} {card} ({sizes}): printed under the smallest "
               f"legible size ({least}; docs/templates.md)")


def print_status(rows) -> None:
    """Translation status, one line per locale and group."""
    click.echo(f"{'locale':<10}{'group':<14}{'translated':>11}{'stale':>7}{'missing':>9}{'done':>7}  overflowing cards")
    for row in rows:
        done = f"{row.translated / row.total:.0%}" if row.total else "-"
        click.echo(f"{row.locale:<10}{row.group:<14}{row.translated:>11}{row.stale:>7}{row.missing:>9}{done:>7}  "
                   f"{', '.join(row.overflow) or '-'}")


def print_check(report) -> None:
    """Scenario results, a line per playout configuration, and what the engine left out."""
    for result in report.scenarios:
        mark = "ok  " if result.passed else "FAIL"
        click.echo(f"{mark} {result.file}: {result.id}" + "".join(f"\n       {m}" for m in result.messages))
    passed = sum(s.passed for s in report.scenarios)
    click.echo(f"scenarios: {passed} passed, {len(report.scenarios) - passed} failed")
    for stats in report.playouts:
        lengths = sorted(stats.lengths) or [0]
        endings = ", ".join(f"{k} {v}" for k, v in sorted(stats.endings.items()))
        click.echo(f"playouts {stats.configuration:<10} {stats.games:>5} games, steps min {lengths[0]} "
                   f"median {lengths[len(lengths) // 2]} max {lengths[-1]}; {endings}"
                   + (f"; {len(stats.failures)} FAILED" if stats.failures else ""))
        for failure in stats.failures[:3]:
            earlier = f"({len(failure.log) - 12} earlier steps: see --format json or --save-failures) " \
                if len(failure.log) > 12 else ""
            click.echo(f"  {failure.configuration}, seed {failure.seed}, step {failure.step}: {failure.message}\n"
                       f"  log: {earlier}{' ; '.join(failure.log[-12:]) or '(no step played)'}")
    if report.playouts:
        full, steps = report.checked_in_full
        click.echo(f"checked {full:,} of {steps:,} steps fully ({report.schedule.describe()})")
    if report.left_out:
        click.echo(f"left out of playouts ({len(report.left_out)} cards): " +
                   ", ".join(f"{card} ({reason})" for card, reason in sorted(report.left_out.items())[:8]) +
                   (" …" if len(report.left_out) > 8 else ""))
    if report.waiting:
        click.echo("engine features left-out cards wait on (cards; freed by it alone): " +
                   ", ".join(f"{name} {needing}; {alone}" for name, (needing, alone) in report.waiting.items()))
    if report.later:
        click.echo(f"not played yet: {'; '.join(report.later)}")
    if report.unplayed:
        click.echo(f"FAIL configurations declared in game.json but not played: {', '.join(report.unplayed)}")
    if report.rulings:
        coverage = report.rulings.values()
        cards = sum(1 for c in coverage if c.blocked and c.left_out)
        features = sum(1 for c in coverage if c.blocked and not c.left_out)
        click.echo(f"rulings stating behaviour: {sum(c.checked for c in coverage)} checked by passing scenarios, "
                   f"{cards} waiting on cards the engine leaves out, {features} on missing engine features, "
                   f"{len(report.unchecked_rulings)} unchecked")
        for c in report.unchecked_rulings:
            click.echo(f"  UNCHECKED {c.ruling}: {c.reason}")


class Heartbeat:
    """``with Heartbeat() as stage: stage("writing")``: a line on stderr at each stage and, while one lasts, again at
    least every ``every`` seconds with the time so far, so a long command (Ghostscript on a deck of art) is never
    silent. Plain lines, no control characters: a pipe or a log reads them as they come."""

    def __init__(self, every: float = 4.0, stream=None) -> None:
        import sys
        import threading

        self.every, self.stream = every, stream or sys.stderr
        self.label, self.began = "", 0.0
        self.stop = threading.Event()
        self.lock = threading.Lock()
        self.thread = threading.Thread(target=self._beat, daemon=True)

    def __enter__(self):
        import time

        self.began = time.monotonic()
        self.thread.start()
        return self.stage

    def stage(self, label: str) -> None:
        with self.lock:
            self.label = label
            self._say(label)

    def _say(self, text: str) -> None:
        import time

        print(f"{time.monotonic() - self.began:6.1f} s  {text}", file=self.stream, flush=True)

    def _beat(self) -> None:
        while not self.stop.wait(self.every):
            with self.lock:
                if self.label:
                    self._say(f"{self.label} …")

    def __exit__(self, *exc) -> None:
        self.stop.set()
        self.thread.join()
