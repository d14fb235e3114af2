"""Commands for an owner's own facts: ``facts export`` (the sheet of a game's unknown values) and
``facts import`` (the filled sheet into an overlay folder, read by ``--facts``); see docs/owners-copy.md."""

from __future__ import annotations

from pathlib import Path

import click


@click.group("facts")
def facts() -> None:
    """Values no source gives, filled from your own copy of the game (never written into the database)."""


@facts.command("export")
@click.option("--game", required=True, help="Game id.")
@click.option("--format", "fmt", type=click.Choice(["csv", "xlsx"]), default=None,
              help="File format (default: from the --out suffix).")
@click.option("--out", type=click.Path(path_type=Path, dir_okay=False), required=True, help="File to write.")
@click.pass_obj
def facts_export(cards_root: Path, game: str, fmt: str | None, out: Path) -> None:
    """Write one row per value of GAME that no source gives: what is known, today's stand-in, a value column."""
    from ..export.facts_sheet import export_facts, facts_database
    from ..fileio import write_bytes_atomic

    fmt = fmt or ("xlsx" if out.suffix.lower() == ".xlsx" else "csv")
    data, rows = export_facts(facts_database(cards_root, game), fmt)
    write_bytes_atomic(out, data)
    click.echo(f"{out}: {rows} unknown value(s) of {game}")


@facts.command("import")
@click.argument("file", type=click.Path(path_type=Path, dir_okay=False, exists=True))
@click.option("--out", type=click.Path(path_type=Path, file_okay=False), required=True,
              help="Overlay folder to write the game's file into (give it to --facts).")
@click.pass_obj
def facts_import(cards_root: Path, file: Path, out: Path) -> None:
    """Check the filled rows of FILE and write them as the game's overlay in OUT, or refuse the whole file."""
    from ..export.facts_sheet import facts_database, import_facts, sheet_game

    result = import_facts(facts_database(cards_root, sheet_game(file)), file, out)
    click.echo(f"{result.path}: {result.values} value(s) from your own copy ({result.rows} filled row(s))")


ALL = [facts]
