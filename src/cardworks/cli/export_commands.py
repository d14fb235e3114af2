"""Commands for exports: ``export print-shop``, ``export tts``, ``preflight``, ``sheet export|import``.

Each parses its options and hands off to a function of ``cardworks.export``.
"""

from __future__ import annotations

from pathlib import Path

import click

from ..errors import DataError
from ..export.profile_files import profile_names
from ..problems import Problem

GAME = click.option("--game", help="Game id (needed when several games have cards).")
SELECTION = click.option("--set", "selection", help="Deck selection (e.g. base, expert) or set ids joined by '+'.")
PLAYERS = click.option("--players", type=click.IntRange(1, 20), help="Remove the cards marked for this player count.")
LOCALE = click.option("--locale", help="Locale of the card texts (default: the game's source locale).")
PACKS = click.argument("packs", nargs=-1, type=click.Path(path_type=Path, file_okay=False, exists=True))
JOBS = click.option("--jobs", type=click.IntRange(1, 64), default=1, show_default=True, help="Lay faces out in N processes.")
PROFILES = click.Choice(profile_names())
"""The shipped print-shop profiles, read from their data files (``export/profiles/*.json``)."""
STRICT = click.option("--strict", is_flag=True, help="Refuse the export (exit 1, OUT left as it was) when a card's "
                                                     "text overflows or its type prints under the smallest legible size.")
"""The exports' ``--strict``, as ``cardworks build --strict``: one option, one refusal (``export.common``)."""
FACE_CACHE = click.option("--face-cache", type=click.Path(path_type=Path, file_okay=False),
                          default=Path("build/.cache/faces"), show_default=True,
                          help="Faces already laid out (cardworks build's cache, under its --out) are read from here "
                               "and new ones added.")


def deck_options(command):
    """PACK arguments and the options choosing a deck and its locale, shared by the export commands."""
    for option in reversed([PACKS, GAME, SELECTION, PLAYERS, LOCALE, JOBS]):
        command = option(command)
    return command


def print_reports(reports) -> int:
    """One block per file: each check with ok/FAIL; returns the number of failed files."""
    failed = 0
    for report in reports:
        click.echo(f"{report.path}: {'ok' if report.ok else 'FAILED'}")
        for check in report.checks:
            click.echo(f"  {'ok  ' if check.ok else 'FAIL'} {check.name}: {check.message}")
        failed += not report.ok
    return failed


@click.group("export")
def export() -> None:
    """Write a deck for a print shop or for Tabletop Simulator."""


@export.command("print-shop")
@deck_options
@FACE_CACHE
@click.option("--profile", "profile_name", type=PROFILES, default="pdf", show_default=True,
              help="Print-shop profile (one data file each in export/profiles/).")
@click.option("--out", type=click.Path(path_type=Path, file_okay=False),
              help="Folder to write (replaced whole; a symbolic link to a folder is followed; default "
                   "build/export/PROFILE-GAME-DECK-LOCALE).")
@STRICT
@click.option("--jpeg-quality", type=click.IntRange(1, 95), default=None,
              help="Re-encode the cards' art as JPEG at this quality (1-95) for smaller files; default: lossless. "
                   "The pdf profile only (PNG and PDF/X profiles stay lossless).")
@click.pass_obj
def export_print_shop(cards_root: Path, packs: tuple[Path, ...], game: str | None, selection: str | None,
                      players: int | None, locale: str | None, jobs: int, face_cache: Path, profile_name: str,
                      out: Path | None, strict: bool, jpeg_quality: int | None) -> None:
    """Write the deck (or the PACKS' cards) as the shop takes it, with quantities.csv, and preflight it."""
    from ..export.printshop import export_print_shop as run
    from .output import Heartbeat

    with Heartbeat() as stage:
        result = run(cards_root, profile_name, game=game, selection=selection, players=players, locale=locale, out=out,
                     jobs=jobs, packs=list(packs), face_cache=face_cache, stage=stage, strict=strict,
                     jpeg_quality=jpeg_quality)
    click.echo(f"{result.folder}: {len(result.files)} file(s) for {result.profile.name}, "
               f"{result.designs} designs, {result.cards} cards; preflight passed")
    for product in result.products:
        if product["size"]:
            click.echo(f"  {product['size']} ({product['trim_mm'][0]:g} × {product['trim_mm'][1]:g} mm): "
                       f"{_files(product['files'])}: {product['designs']} designs, {product['cards']} cards"
                       + (f"; unverified: {product['unverified']}" if product["unverified"] else ""))
    for name, note in result.profile.unverified().items():
        if not name.startswith("sizes/"):
            click.echo(f"  unverified {name}: {note}")
    if result.profile.output == "pdf-x1a":
        _report_flattened(result)
    _warn_telltale(result)
    _warn_small_type(result)
    if result.overflow:
        from ..render.measure import describe

        click.echo(f"  text overflows on: {describe({card: result.overflow_parts.get(card, ()) for card in result.overflow})}")


@export.command("tts")
@deck_options
@FACE_CACHE
@click.option("--out", type=click.Path(path_type=Path, file_okay=False),
              help="Folder to write (replaced whole; a symbolic link to a folder is followed; default "
                   "build/export/tts-GAME-DECK-LOCALE).")
@click.option("--base-url", help="Where the images will be hosted: an http:// or https:// URL naming a host, "
                                 "spaces escaped (default: file:// URLs of OUT).")
@STRICT
@click.pass_obj
def export_tts(cards_root: Path, packs: tuple[Path, ...], game: str | None, selection: str | None, players: int | None,
               locale: str | None, jobs: int, face_cache: Path, out: Path | None, base_url: str | None,
               strict: bool) -> None:
    """Write Tabletop Simulator deck sheets (the deck, or the PACKS' cards), a back image and a saved object.

    Copy OUT into Tabletop Simulator's Saved Objects folder.
    """
    from ..export.tts import export_tts as run

    result = run(cards_root, game=game, selection=selection, players=players, locale=locale, out=out,
                 base_url=base_url, jobs=jobs, packs=list(packs), face_cache=face_cache, strict=strict)
    click.echo(f"{result.saved_object}: {result.designs} designs, {result.cards} cards on {len(result.sheets)} sheet(s)")
    _warn_telltale(result)
    _warn_small_type(result)


def _files(files: list[str]) -> str:
    """A product's files for the summary: one folder of images as the folder and a count, else the names."""
    folders = {name.rpartition("/")[0] for name in files}
    if len(files) > 1 and len(folders) == 1 and "" not in folders:
        return f"{folders.pop()}/ ({len(files)} files)"
    return ", ".join(files)


def _report_flattened(result) -> None:
    """How many PDF/X pages Ghostscript flattened into an image, and why (text on those pages is no longer text)."""
    if not result.flattened:
        click.echo("  flattened: none; every page keeps its text and drawings as vector")
        return
    reasons: dict[str, list[str]] = {}
    for page in result.flattened:
        for why in page["why"]:
            reasons.setdefault(why, []).append(f"{page['card']} ({page['file']} p. {page['page']})")
    click.echo(f"  flattened: {len(result.flattened)} page(s) into images, because PDF/X-1a allows no transparency:")
    for why, where in reasons.items():
        shown = ", ".join(where[:6]) + (f" and {len(where) - 6} more" if len(where) > 6 else "")
        click.echo(f"    {why}: {shown}")


def _warn_small_type(result) -> None:
    """One warning per face whose type prints under its minimum, as ``cardworks build`` gives it."""
    from .output import warn_small_type

    for card, parts in result.small.items():
        warn_small_type(result.game, result.locale, card, parts)


def _warn_telltale(result) -> None:
    """The warning for a deck whose cards of one type carry several backs."""
    if result.telltale:
        from ..render.telltale import describe

        click.echo(f"warning: {describe(result.deck, result.telltale)}", err=True)


@click.command()
@click.argument("target", type=click.Path(path_type=Path, exists=True))
@click.option("--profile", "profile_name", type=PROFILES,
              help="Profile to check against (default: the one export.json names, else pdf).")
def preflight(target: Path, profile_name: str | None) -> None:
    """Check a PDF, a PNG or an export folder as a print shop would; exit 1 when a check fails."""
    from ..export.preflight import preflight as run

    failed = print_reports(run(target, profile_name))
    if failed:
        raise DataError(f"{failed} file(s) failed preflight",
                        [Problem(str(target), "", "preflight", "see the report above")])


@click.group("sheet")
def sheet() -> None:
    """Card data as a spreadsheet (CSV or XLSX) and back."""


@sheet.command("export")
@PACKS
@GAME
@SELECTION
@click.option("--locale", "locales", multiple=True, help="Add a column per translated field in LOCALE (repeatable).")
@click.option("--format", "fmt", type=click.Choice(["csv", "xlsx"]), default=None,
              help="File format (default: from the --out suffix).")
@click.option("--out", type=click.Path(path_type=Path, dir_okay=False), required=True, help="File to write.")
@click.pass_obj
def sheet_export(cards_root: Path, packs: tuple[Path, ...], game: str | None, selection: str | None,
                 locales: tuple[str, ...], fmt: str | None, out: Path) -> None:
    """Write one row per card (the PACKS' cards, when given), one column per field and per translation."""
    from ..export.sheet import export_sheet, pack_selection, sheet_database
    from ..fileio import write_bytes_atomic

    fmt = fmt or ("xlsx" if out.suffix.lower() == ".xlsx" else "csv")
    db = sheet_database(cards_root, game, list(packs))
    write_bytes_atomic(out, export_sheet(db, selection or pack_selection(db), list(locales), fmt))
    click.echo(f"{out}: written")


@sheet.command("import")
@click.argument("file", type=click.Path(path_type=Path, dir_okay=False, exists=True))
@PACKS
@GAME
@click.option("--remove-missing", is_flag=True,
              help="A game without rules: remove the cards no row of FILE names (without it they are kept and listed).")
@click.pass_obj
def sheet_import(cards_root: Path, file: Path, packs: tuple[Path, ...], game: str | None, remove_missing: bool) -> None:
    """Write the edited cells of FILE back into the card files (and the PACKS' files), or refuse the whole file.

    For a game without rules, a row naming no card is a new card (its id minted from its name).
    """
    from ..export.sheet_import import import_sheet

    result = import_sheet(cards_root, file, game, list(packs), remove_missing)
    for warning in result.warnings:
        click.echo(f"warning: {warning}", err=True)
    more = (f", {len(result.added)} added ({', '.join(result.added)})" if result.added else "") + \
           (f", {len(result.removed)} removed ({', '.join(result.removed)})" if result.removed else "")
    click.echo(f"{file}: {result.cards_changed} card(s) and {result.translations_changed} translation(s) changed"
               f"{more}; {len(result.files_written)} file(s) written")
    for path in result.files_written:
        click.echo(f"  {path}")


ALL = [export, preflight, sheet]
