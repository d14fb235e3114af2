"""The commands. Each parses its options and hands off to a function of the package."""

from __future__ import annotations

import json
from pathlib import Path

import click

from ..catalog import list_cards, load_games
from ..validate import validate as run_validation
from .output import print_card_table, print_report

FORMAT = click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
                      help="Output format.")


@click.command()
@click.argument("packs", nargs=-1, type=click.Path(path_type=Path, file_okay=False))
@click.option("--strict", is_flag=True, help="Treat warnings as errors.")
@FORMAT
@click.pass_obj
def validate(cards_root: Path, packs: tuple[Path, ...], strict: bool, fmt: str) -> None:
    """Check the database, or expansion PACKS with the games they extend."""
    report = run_validation(cards_root, list(packs))
    if fmt == "json":
        click.echo(json.dumps([p.as_dict() for p in report.items], indent=2, ensure_ascii=False))
    else:
        print_report(report, strict)
    raise SystemExit(1 if report.failed(strict) else 0)


@click.command()
@click.argument("query", required=False)
@click.option("--game", help="Game id (default: every game).")
@click.option("--locale", help="Locale of the names (default: the game's source locale).")
@FORMAT
@click.pass_obj
def cards(cards_root: Path, query: str | None, game: str | None, locale: str | None, fmt: str) -> None:
    """List card designs: id, set, types, quantity, name in the locale.

    QUERY keeps cards whose id, name or alternative name (in any locale) contains it.
    """
    rows = list_cards(cards_root, game, locale, query)
    if fmt == "json":
        click.echo(json.dumps([row.as_dict() for row in rows], indent=2, ensure_ascii=False))
    else:
        print_card_table(rows)


@click.command()
@click.option("--check", is_flag=True, help="Only report schemas that differ from the models (exit 1).")
@click.option("--out", type=click.Path(path_type=Path, file_okay=False), default=Path("schema"), show_default=True,
              help="Folder of the JSON Schemas.")
def schema(check: bool, out: Path) -> None:
    """Write the JSON Schemas generated from the models."""
    from ..models.schemas import stale_schemas, write_schemas

    if check:
        stale = stale_schemas(out)
        for name in stale:
            click.echo(f"{out / name}: differs from the models; run 'cardworks schema'")
        raise SystemExit(1 if stale else 0)
    changed = write_schemas(out)
    click.echo(f"{len(changed)} schema file(s) updated in {out}")


@click.command()
@click.option("--game", help="Game id (default: every game).")
@click.pass_obj
def freeze(cards_root: Path, game: str | None) -> None:
    """Publish new ids: add them to the game's frozen id list."""
    from ..validate.freeze import freeze_ids

    for db in load_games(cards_root, game):
        path, added = freeze_ids(db)
        shown = ", ".join(added[:10]) + (f" and {len(added) - 10} more" if len(added) > 10 else "")
        click.echo(f"{path}: {len(added)} new id(s) frozen" + (f": {shown}" if added else ""))


@click.command()
@click.option("--game", help="Game id (default: every game).")
@click.option("--out", type=click.Path(path_type=Path, file_okay=False), default=Path("build"), show_default=True)
@click.pass_obj
def build(cards_root: Path, game: str | None, out: Path) -> None:
    """Build the outputs of the database (today: validation; PDF card sheets come with the renderer)."""
    report = run_validation(cards_root)
    print_report(report, strict=False)
    if report.failed():
        raise SystemExit(1)
    click.echo("The PDF renderer is not part of this version yet; nothing was written to "
               f"{out}/. The database is valid and ready for it.")


ALL = [validate, cards, schema, freeze, build]
