"""Human-readable output of reports and listings."""

from __future__ import annotations

import click

from ..catalog import CardRow
from ..validate import Report


def _ratio(known: int, declared: int | None) -> str:
    return f"{known}/{declared}" if declared is not None else f"{known}/?"


def print_report(report: Report, strict: bool) -> None:
    """Problems one per line, then each set's completeness, then the verdict."""
    for problem in report.items:
        click.echo(problem.text())
    for game_id, sets in report.completeness.items():
        if not sets:
            continue
        click.echo(f"\n{game_id}: completeness (known/declared; unknown and assumed values)")
        click.echo(f"  {'set':<14}{'designs':>9}{'cards':>9}  {'by type':<34}{'unknown':>8}{'assumed':>8}")
        for item in sets:
            by_type = " ".join(f"{t} {_ratio(k, d)}" for t, (k, d) in item.by_type.items())
            click.echo(f"  {item.set_id:<14}{_ratio(item.designs, item.designs_declared):>9}"
                       f"{_ratio(item.cards, item.cards_declared):>9}  {by_type:<34}"
                       f"{item.unknown_values:>8}{item.assumed_values:>8}")
        click.echo(f"  assumed values in all: {report.assumed.get(game_id, 0)}")
    errors, warnings = len(report.errors), len(report.warnings)
    verdict = "FAILED" if report.failed(strict) else "OK"
    suffix = " (--strict: warnings count as errors)" if strict and warnings else ""
    click.echo(f"\n{verdict}: {errors} error(s), {warnings} warning(s) in {report.files} file(s){suffix}")


def print_card_table(rows: list[CardRow]) -> None:
    """A table of card designs; untranslated names are flagged."""
    from rich.console import Console
    from rich.table import Table

    table = Table(show_edge=False, header_style="bold")
    for column in ("game", "id", "set", "types", "qty", "name"):
        table.add_column(column)
    for row in rows:
        flag = "" if row.name_status in {"source", "translated"} else f" ({row.name_status})"
        table.add_row(row.game, row.id, row.set, "+".join(row.types),
                      "?" if row.quantity is None else str(row.quantity), row.name + flag)
    console = Console()
    if not console.is_terminal:  # piped: never truncate names to a guessed width
        console = Console(width=240)
    console.print(table)
    click.echo(f"{len(rows)} card design(s)")
