"""The commands. Each parses its options and hands off to a function of the package."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from ..errors import DataError, UsageError
from ..problems import Problem
from ..resources import shipped_layouts
from .output import print_build_report, print_card_table, print_report, print_status, progress_bar
from .sections import SectionedCommand, options
from .options import SEED

if TYPE_CHECKING:  # the build modules load WeasyPrint: imported only when build runs
    from ..render.build import BuildOptions
    from ..render.impose import SheetLayout

def load_games(cards_root: Path, game: str | None) -> list[Any]:
    """:func:`..catalog.load_games`, imported when a command loads a game: ``cardworks --help`` loads no models."""
    from ..catalog import load_games as load

    return load(cards_root, game)


def game_folders(cards_root: Path) -> list[Path]:
    """:func:`..loading.database.game_folders`, imported when a command looks for games (see :func:`load_games`)."""
    from ..loading.database import game_folders as folders

    return folders(cards_root)


PACKS = click.argument("packs", nargs=-1, type=click.Path(path_type=Path, file_okay=False))
"""Expansion packs, each taken with the game it extends (as ``validate`` takes them)."""

FORMAT = click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
                      help="Output format.")


@click.command()
@PACKS
@click.option("--strict", is_flag=True, help="Treat warnings as errors (for packs: the packs' own warnings).")
@click.option("--locale", "locales", multiple=True, metavar="TAG",
              help="A locale you will build: what its build would refuse (a missing translation) is an error; "
                   "in the other locales, a warning. Repeatable.")
@FORMAT
@click.pass_obj
def validate(cards_root: Path, packs: tuple[Path, ...], strict: bool, locales: tuple[str, ...], fmt: str) -> None:
    """Check the database, or expansion PACKS with the games they extend."""
    from ..render.buildable import cached_unbuildable
    from ..validate import validate as run_validation

    report = run_validation(cards_root, list(packs))
    if not report.errors:  # what a build of valid data would still refuse (data with errors never builds)
        report.extend(cached_unbuildable(cards_root, list(packs), list(locales)))
    if fmt == "json":
        click.echo(json.dumps([p.as_dict() for p in report.items], indent=2, ensure_ascii=False))
    else:
        print_report(report, strict)
    raise SystemExit(1 if report.failed(strict) else 0)


@click.command()
@click.argument("words", nargs=-1, metavar="[QUERY] [PACK ...]")
@click.option("--game", help="Game id (default: every game).")
@click.option("--locale", help="Locale of the names (default: the game's source locale).")
@FORMAT
@click.pass_obj
def cards(cards_root: Path, words: tuple[str, ...], game: str | None, locale: str | None, fmt: str) -> None:
    """List card designs: id, set, types, quantity, name in the locale.

    QUERY keeps cards whose id, name or alternative name (in any locale) contains it;
    a folder holding a pack.json is a PACK, whose cards are listed instead of the game's.
    """
    packs = [Path(word) for word in words if (Path(word) / "pack.json").is_file()]
    queries = [word for word in words if not (Path(word) / "pack.json").is_file()]
    if len(queries) > 1:
        raise click.UsageError(f"one QUERY at most (got {', '.join(map(repr, queries))}); "
                               "a PACK is a folder holding a pack.json")
    from ..catalog import list_cards

    rows = list_cards(cards_root, game, locale, queries[0] if queries else None, packs)
    if fmt == "json":
        click.echo(json.dumps([row.as_dict() for row in rows], indent=2, ensure_ascii=False))
    else:
        print_card_table(rows)


@click.command()
@click.option("--check", is_flag=True, help="Only report schemas that differ from the models (exit 1).")
@click.option("--out", type=click.Path(path_type=Path, file_okay=False), default=Path("schema"), show_default=True,
              help="Folder of the JSON Schemas.")
@click.option("--game-folder", is_flag=True,
              help="Write the schemas of the game folder given by --cards into its schema/ (its set schema generated "
                   "from the card fields its game.json declares), instead of the models' into --out.")
@click.pass_obj
def schema(cards_root: Path, check: bool, out: Path, game_folder: bool) -> None:
    """Write the JSON Schemas generated from the models."""
    from ..engine.schemas import stale_schemas, write_schemas
    from ..fileio import link_to_no_folder

    if game_folder:
        from ..export.own_game import write_game_schemas

        for path in write_game_schemas(cards_root):
            click.echo(f"{path}: written")
        return

    pointed = link_to_no_folder(out)  # a link to a folder is followed: the schemas land there
    if pointed is not None:
        raise UsageError(f"--out {out} is a symbolic link to {pointed}, which is not a folder; point it at a folder "
                         "or choose another --out")
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


def _offset(value: str) -> tuple[float, float]:
    try:
        x, y = (float(part) for part in value.split(","))
    except ValueError:
        raise click.BadParameter("give X,Y in millimetres, e.g. 0.5,-1") from None
    if not all(math.isfinite(v) and abs(v) <= 20 for v in (x, y)):  # nan or inf would write an invalid PDF
        raise click.BadParameter("give X,Y in millimetres between -20 and 20, e.g. 0.5,-1", param_hint="'--back-offset'")
    return x, y


def _finite(ctx: click.Context, param: click.Parameter, value: float) -> float:
    """FloatRange lets nan through (every comparison with it is false)."""
    if not math.isfinite(value):
        raise click.BadParameter("give a number of millimetres, not nan or inf")
    return value


def _finite_or_none(ctx: click.Context, param: click.Parameter, value: float | None) -> float | None:
    return None if value is None else _finite(ctx, param, value)


def _selection(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """A deck selection joins set ids with '+': an empty part ('+', 'base+') would select nothing."""
    if value is not None and (not value.strip() or any(not part.strip() for part in value.split("+"))):
        raise click.BadParameter(f"{value!r} names no set; give a deck (base, expert …) or set ids joined by '+'")
    return value


BUILD_DECK = options(
    click.option("--game", help="Game id (default: every game with card templates)."),
    click.option("--set", "selection", callback=_selection,
                 help="Deck selection (e.g. base, base-2, base-3, expert) or sets joined by '+'."),
    click.option("--players", type=click.IntRange(1, 20), help="Remove the cards marked for this player count."),
    click.option("--with-game", "merge", is_flag=True, help="For PACKS: shuffle the pack's cards into the game's deck."),
    click.option("--with-optional", "optional", is_flag=False, flag_value="all", default=None, metavar="[IDS]",
                 help="Also print optional cards (such as the Misteri d'Elx): every one, or the ids given, comma-separated."),
    click.option("--edition", type=click.Choice(["fact", "playtest"]), default="fact", show_default=True,
                 help="fact: only what the rulebooks give, unknown values printed as an empty box (□); playtest: the deck and board "
                 "the engine plays (as check), its stand-in values each marked as not from the rulebooks, the cards "
                 "it leaves out listed on the contents page (file names end in -playtest)."),
)
BUILD_SHEETS = options(
    click.option("--paper", type=click.Choice(["a4", "letter", "legal"]), default="a4", show_default=True),
    click.option("--layout", "layout_name", default="grid", show_default=True,
                 help=f"Sheet layout: {', '.join(shipped_layouts())}, or a pack's own layouts/NAME.json."),
    click.option("--mark-inset", type=click.FloatRange(3, 80), default=None, callback=_finite_or_none,
                 help="Print-and-cut layouts: distance of the registration marks from the paper edges, mm "
                 "(default: the layout's, 10 mm; 15.875 for Silhouette's auto sheet feeder)."),
    click.option("--gutter", type=click.FloatRange(0, 20), default=0.0, show_default=True, callback=_finite,
                 help="Space between cards, mm."),
    click.option("--marks", type=click.Choice(["cards", "page-edge", "none"]), default="cards", show_default=True,
                 help="Crop marks at every card edge, only at the page edges, or none."),
    click.option("--duplex", type=click.Choice(["long", "short", "none"]), default="long", show_default=True,
                 help="Back pages mirrored for long-edge or short-edge flipping, or no backs."),
    click.option("--back-offset", default="0,0", show_default=True, help="Shift of back pages X,Y in mm."),
)
BUILD_OUTPUTS = options(
    click.option("--out", type=click.Path(path_type=Path, file_okay=False), default=Path("build"), show_default=True),
    click.option("--cards/--no-cards", "card_sheets", default=True, show_default=True, help="Build card sheets."),
    click.option("--docs/--no-docs", default=True, show_default=True, help="Build rulebooks and FAQ indexes."),
    click.option("--png", is_flag=True, help="Also write 300 dpi PNG images of every card (print shops)."),
    click.option("--jpeg-quality", type=click.IntRange(1, 95), default=None,
                 help="Re-encode the cards' art as JPEG at this quality (1-95) for smaller files; default: lossless. "
                 "Not with --png."),
    click.option("--strict", is_flag=True, help="Fail when a card's text overflows its box or prints under the smallest legible size."),
    click.option("--jobs", type=click.IntRange(1, 64), default=None,
                 help="Render in N processes (default: one per processor, at most 4)."),
    click.option("--scheduler", help="Dask scheduler address (tcp://HOST:PORT): lay card faces out on that cluster's "
                 "workers (they need cardworks and the same paths); sheets and documents are made here."),
    click.option("--watch", is_flag=True, help="Stay running and build again each time a file of the database or "
                 "of the packs is saved (one warm process: a rebuild pays no start-up). Ctrl-C stops."),
)
BUILD_LANGUAGES = options(
    click.option("--locale", "locales", multiple=True,
                 help="Locale to build (repeatable; an alias or qps-ploc too; default: every locale)."),
    click.option("--allow-fallback", is_flag=True, help="Fill missing translations from the game's fallback chain."),
    click.option("--proof", is_flag=True, help="Mark fallback texts visibly in the documents (for translators) and add a "
                 "contact sheet per deck: ids, trim, bleed and safe-area lines, warnings on the cards."),
)
BUILD_SECTIONS = {
    "Which deck": ("game", "selection", "players", "merge", "optional", "edition"),
    "Sheets": ("paper", "layout_name", "mark_inset", "gutter", "marks", "duplex", "back_offset"),
    "Outputs": ("out", "card_sheets", "docs", "png", "jpeg_quality", "strict", "jobs", "scheduler", "watch"),
    "Languages": ("locales", "allow_fallback", "proof"),
}


def sheet_layout(given: dict[str, Any]) -> SheetLayout:
    """The sheet options of ``build`` (``BUILD_SHEETS``) as one ``SheetLayout``."""
    from ..render.impose import SheetLayout

    offset_x, offset_y = _offset(given["back_offset"])
    return SheetLayout(paper=given["paper"], gutter=given["gutter"], marks=given["marks"], duplex=given["duplex"],
                       offset_x=offset_x, offset_y=offset_y, name=given["layout_name"], mark_inset=given["mark_inset"])


def build_options(packs: tuple[Path, ...], given: dict[str, Any]) -> BuildOptions:
    """``BuildOptions`` from the parsed options of ``build``, each group read by its own part."""
    from ..render.build import BuildOptions, default_jobs

    optional = given["optional"]
    return BuildOptions(out=given["out"], game=given["game"], selection=given["selection"],
                        locales=list(given["locales"]) or None, players=given["players"], layout=sheet_layout(given),
                        jobs=given["jobs"] or default_jobs(), png=given["png"], strict=given["strict"],
                        jpeg_quality=given["jpeg_quality"],
                        cards=given["card_sheets"], documents=given["docs"],
                        allow_fallback=given["allow_fallback"] or given["proof"], proof=given["proof"],
                        packs=list(packs), merge=given["merge"], edition=given["edition"], scheduler=given["scheduler"],
                        optional=tuple(p.strip() for p in optional.split(",") if p.strip()) if optional else ())


@click.command(cls=SectionedCommand, sections=BUILD_SECTIONS)
@PACKS
@BUILD_DECK
@BUILD_SHEETS
@BUILD_OUTPUTS
@BUILD_LANGUAGES
@click.pass_obj
def build(cards_root: Path, packs: tuple[Path, ...], **given: Any) -> None:
    """Build card sheets, print-shop files, rulebooks and FAQ indexes under OUT, listed in OUT/manifest.json.

    With PACKS, build each pack's cards (alone, or with --with-game in the game's deck) under OUT/<pack id>/.
    """
    from ..render.build import build as run_build

    options = build_options(packs, given)

    def build_once() -> None:
        with progress_bar() as progress:
            report = run_build(cards_root, options, progress)
        print_build_report(report)
        from ..render.fonts import SUBSETTER_WARNING, fast_subsetter

        rendered = any(o.rendered or o.faces for o in report.outcomes) or any(r for _, _, r in report.documents)
        if rendered and not fast_subsetter():  # once per build that made PDFs, after the report, where it is seen
            click.echo(SUBSETTER_WARNING, err=True)  # (a no-op build skips the check: it loads WeasyPrint, ~1 s)

    if not given["watch"]:
        build_once()
        return
    from .watch import watch_builds, watched_roots

    watch_builds(watched_roots(cards_root, options.packs), options.out, build_once)


@click.group()
def i18n() -> None:
    """Translation workflow: export and import PO/XLIFF files, report status."""


def _one_game(cards_root: Path, game: str | None, packs: tuple[Path, ...] = ()):
    """The one game (or pack, with the game it extends) a translation command works on."""
    if packs:
        from ..loading.packs import open_packs

        if len(packs) > 1:
            raise click.UsageError("one PACK at a time")
        return open_packs(cards_root, list(packs))[0]
    databases = load_games(cards_root, game)
    if len(databases) > 1:
        raise click.UsageError("several games here; choose one with --game")
    return databases[0]


def _game_with_locale(cards_root: Path, game: str | None, locale: str):
    """The game to export: the one named, else the only one translated into ``locale``."""
    databases = load_games(cards_root, game)
    if len(databases) == 1:
        return databases[0]
    from ..i18n.locales import known_locale

    having = [db for db in databases if known_locale(db.game_doc, locale) not in (None, db.game_doc.source_locale)]
    if len(having) == 1:
        return having[0]
    names = ", ".join(db.game_doc.id for db in having) or "none of the games"
    raise click.UsageError(f"locale {locale!r} is translated in {names}; choose one with --game")


TO_FILE = click.option("--out", type=click.Path(path_type=Path, dir_okay=False),
                       help="File to write (default: standard output).")


@i18n.command("export")
@PACKS
@click.option("--locale", required=True, help="Target locale, e.g. ca or es.")
@click.option("--game", help="Game id (needed when there are several).")
@click.option("--format", "fmt", type=click.Choice(["po", "xliff"]), default="po", show_default=True)
@TO_FILE
@click.pass_obj
def i18n_export(cards_root: Path, packs: tuple[Path, ...], locale: str, game: str | None, fmt: str,
                out: Path | None) -> None:
    """Export every translatable string for LOCALE (of a PACK: the pack's own), with context, comments and fuzzy stale entries."""
    from ..i18n.workflow import export_catalog

    db = _one_game(cards_root, game, packs) if packs else _game_with_locale(cards_root, game, locale)
    _emit(export_catalog(db, locale, fmt), out)


def _emit(data: bytes, out: Path | None) -> None:
    """Write a translators' file to ``out`` (atomically), or to standard output."""
    from ..fileio import write_bytes_atomic

    if out is None:
        click.echo(data.decode("utf-8"), nl=False)
    else:
        write_bytes_atomic(out, data)
        click.echo(f"{out}: written", err=True)


@i18n.command("import")
@click.argument("file", type=click.Path(path_type=Path, dir_okay=False, exists=True))
@PACKS
@click.option("--game", help="Game id (default: the one the file names).")
@click.option("--locale", help="Locale the file must be for (default: the file's own Language).")
@click.pass_obj
def i18n_import(cards_root: Path, file: Path, packs: tuple[Path, ...], game: str | None, locale: str | None) -> None:
    """Write the translations of a PO or XLIFF FILE back into the locale file (of a PACK: the pack's), or refuse it whole."""
    from ..i18n.workflow import import_catalog, read_translator_file

    games = {folder.name for folder in game_folders(cards_root)}
    if game is None and len(games) > 1 and not packs:  # the file says which game it belongs to
        game = read_translator_file(file).game
        if game not in games:
            raise DataError(f"{file} names game {game!r}, which is not here; give --game",
                            [Problem(str(file), "", "wrong-game", f"no game {game!r} in {cards_root}")])
    result = import_catalog(_one_game(cards_root, game, packs), file, locale)
    for warning in result.warnings:
        click.echo(f"warning: {warning}", err=True)
    click.echo(f"{result.path}: {result.changed} changed, {result.unchanged} unchanged, "
               f"{result.skipped} untranslated or fuzzy skipped")


@i18n.command("glossary")
@click.option("--locale", required=True, help="Locale of the glossary, e.g. ca.")
@click.option("--game", help="Game id (needed when several games have a glossary for the locale).")
@click.option("--format", "fmt", type=click.Choice(["tbx", "csv"]), default="tbx", show_default=True)
@TO_FILE
@click.pass_obj
def i18n_glossary(cards_root: Path, locale: str, game: str | None, fmt: str, out: Path | None) -> None:
    """Export the game's terms for LOCALE (required translation, forbidden variants) as TBX or CSV."""
    from ..i18n.glossary import glossary_locales, to_csv, to_tbx
    from ..i18n.locales import known_locale

    having = [(db, known) for db in load_games(cards_root, game)
              if (known := known_locale(db.game_doc, locale)) in glossary_locales(db)]
    if len(having) != 1:
        names = ", ".join(db.game_doc.id for db, _ in having) or "no game"
        raise click.UsageError(f"{names} has a glossary for {locale!r}; choose one game with --game")
    _emit((to_tbx if fmt == "tbx" else to_csv)(*having[0]), out)


@i18n.command("status")
@PACKS
@click.option("--game", help="Game id (default: every game).")
@click.option("--build", "build_dir", type=click.Path(path_type=Path, file_okay=False), default=Path("build"),
              show_default=True, help="Build folder whose manifest tells which cards overflow.")
@FORMAT
@click.pass_obj
def i18n_status(cards_root: Path, packs: tuple[Path, ...], game: str | None, build_dir: Path, fmt: str) -> None:
    """Per locale and set: strings translated, stale, missing, and cards that overflow their box."""
    from ..i18n.workflow import translation_status
    from ..render.manifest import overflow_from_manifest

    if packs:
        db = _one_game(cards_root, game, packs)
        found = [(db.output_id, translation_status(db, overflow_from_manifest(build_dir, db.output_id)))]
    else:
        found = []
        for db in load_games(cards_root, game):
            rows = translation_status(db, overflow_from_manifest(build_dir, db.game_doc.id))
            if rows:
                found.append((db.game_doc.id, rows))
    if fmt == "json":
        click.echo(json.dumps([{"game": name, **row.__dict__, "total": row.total} for name, rows in found for row in rows],
                              indent=2))
    else:
        for number, (name, rows) in enumerate(found):
            click.echo(("\n" if number else "") + f"{name}:")
            print_status(rows)


@click.command()
@PACKS
@click.option("--game", default="fallera", show_default=True, help="Game id (with PACKS: the game they extend).")
@click.option("--scenarios", "scenario_paths", multiple=True, type=click.Path(path_type=Path, exists=True),
              help="More scenario files or folders (the game's own scenarios always run).")
@click.option("--playouts", type=click.IntRange(0, 1_000_000), default=100, show_default=True,
              help="Random games per configuration.")
@click.option("--seed", type=SEED, default=1, show_default=True, help="Seed of the playouts (0 to 2**63-1).")
@click.option("--save-failures", type=click.Path(path_type=Path, file_okay=False),
              help="Write each failed playout here as a scenario that replays it (never over a file that is "
                   "there: the next one is <id>-2.json).")
@click.option("--pack", "pack_options", multiple=True, type=click.Path(path_type=Path, exists=True, file_okay=False),
              help="A pack folder to play with the game: its cards join every selection, its scenarios run.")
@click.option("--selection", help="Play only this deck selection (a forbidden one is refused, exit 1).")
@click.option("--players", "player_count", type=click.IntRange(1, 20),
              help="Play only this player count (a count the rules forbid is refused, exit 1).")
@click.option("--thorough", is_flag=True,
              help="Check every playout step in full (default: the opening, the ending, each rare kind of step, "
                   "every 25th and a seeded sample of the rest; cheap invariants at every step).")
@FORMAT
@click.pass_obj
def check(cards_root: Path, packs: tuple[Path, ...], game: str, scenario_paths: tuple[Path, ...], playouts: int,
          seed: int, save_failures: Path | None, pack_options: tuple[Path, ...], selection: str | None,
          player_count: int | None, thorough: bool, fmt: str) -> None:
    """Run the game's scenarios, then seeded random playouts checking invariants."""
    from ..engine.check import check_game
    from ..engine.playouts import DEFAULT, THOROUGH
    from .no_rules import no_rules_line, rule_less_game
    from .output import print_check

    packs = (*packs, *pack_options)
    if packs:
        from ..loading.packs import open_packs

        databases = open_packs(cards_root, list(packs))
        if len({db.game_doc.id for db in databases}) > 1:
            raise click.UsageError("these packs extend different games; check one game at a time")
        game = databases[0].game_doc.id
    rule_less = rule_less_game(click.get_current_context(), cards_root, game)
    if rule_less is not None:  # nothing failed: there is nothing to check (exit 0)
        click.echo(no_rules_line(rule_less, "check"))
        raise SystemExit(0)
    report = check_game(cards_root, game, list(scenario_paths), playouts, seed, save_failures,
                        selection=selection, players=player_count, packs=list(packs),
                        schedule=THOROUGH if thorough else DEFAULT)
    from ..loading.database import display_path

    for written, kept in report.saved:
        if kept is not None:
            click.echo(f"cardworks: {display_path(kept)} is there already and is kept; this failure is saved as "
                       f"{written.name}", err=True)
    if fmt == "json":
        click.echo(json.dumps(check_json(report), indent=2))
    else:
        print_check(report)
    raise SystemExit(1 if report.failed else 0)


def check_json(report) -> dict:
    return {
        "game": report.game,
        "scenarios": [{"id": s.id, "file": s.file, "passed": s.passed, "messages": s.messages} for s in report.scenarios],
        "playouts": [{"configuration": p.configuration, "games": p.games, "lengths": p.lengths,
                      "endings": dict(p.endings),
                      "failures": [{"configuration": f.configuration, "seed": f.seed, "step": f.step,
                                    "message": f.message, "log": f.log} for f in p.failures]}
                     for p in report.playouts],
        "schedule": {"thorough": report.schedule.thorough, "description": report.schedule.describe(),
                     "steps_in_full": report.checked_in_full[0], "steps": report.checked_in_full[1]},
        "left_out": report.left_out, "not_played_yet": report.later,
        "declared_not_played": report.unplayed,
        "features_waited_on": {name: {"cards": needing, "freed_alone": alone}
                               for name, (needing, alone) in report.waiting.items()},
        "rulings": {ruling: {"checked": c.checked, "scenarios": list(c.passing), "reason": c.reason}
                    for ruling, c in sorted(report.rulings.items())},
    }


@click.command()
@click.argument("packs", nargs=-1, type=click.Path(path_type=Path, file_okay=False))
@click.option("--game", help="Game id (default: the game the packs extend, else the only game with card faces).")
@click.option("--set", "selection", help="Deck selection or sets joined by '+' (default: the packs' sets, else the game's deck).")
@click.option("--locale", help="Locale shown first (default: the game's source locale).")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on; others can reach the page only if you change it.")
@click.option("--port", type=click.IntRange(1, 65535), default=8000, show_default=True)
@click.option("--render-timeout", type=click.FloatRange(0.5, 3600), default=60, show_default=True,
              help="Seconds a batch of faces may take to render before it is stopped and shown as failed.")
@click.pass_obj
def serve(cards_root: Path, packs: tuple[Path, ...], game: str | None, selection: str | None, locale: str | None,
          host: str, port: int, render_timeout: float) -> None:
    """Preview the deck in a browser; pages update as you edit the data (read-only)."""
    from ..serve import ServeOptions, run

    run(ServeOptions(cards_root, packs, game, selection, locale, render_timeout), host, port, echo=click.echo)


@click.command("new")
@click.argument("folder", type=click.Path(path_type=Path, file_okay=False))
@click.option("--from", "sheet", type=click.Path(path_type=Path, dir_okay=False, exists=True), required=True,
              help="The spreadsheet (.csv or .xlsx): row 1 names the fields, each other row is a card.")
@click.option("--art", "art", type=click.Path(path_type=Path, file_okay=False, exists=True),
              help="Folder of art: an 'art' column names each card's file, else a file named as the card's id "
                   "(fire-drake.png); SVG icons in its icons/ folder.")
@click.option("--size", "sizes", multiple=True,
              help="Card size WIDTHxHEIGHT in mm (default 63x88, poker), or SET=WIDTHxHEIGHT for one set (repeatable).")
@click.option("--name", "names", multiple=True,
              help="The game's name (default: from the folder's name); LOCALE=NAME gives it in another language.")
@click.option("--locale", default="en", show_default=True, help="Language the sheet is written in.")
@click.option("--template", type=click.Path(path_type=Path, dir_okay=False, exists=True),
              help="Your own face template (Jinja), copied to templates/cards/face.html.j2.")
@click.option("--css", "stylesheet", type=click.Path(path_type=Path, dir_okay=False, exists=True),
              help="Your own card stylesheet, copied to templates/<id>/cards.css.")
def new(folder: Path, sheet: Path, art: Path | None, sizes: tuple[str, ...], names: tuple[str, ...], locale: str,
        template: Path | None, stylesheet: Path | None) -> None:
    """Make a game without rules in FOLDER from a spreadsheet and a folder of art (no Python).

    FOLDER's name is the game's id. Every other command then takes it with --cards FOLDER.
    """
    import re

    from ..export.own_game import make_game

    if not re.fullmatch(r"[a-z]{2,3}(-[A-Za-z0-9]{2,8})*", locale):  # models.base.Locale
        raise UsageError(f"--locale {locale!r} is not a language tag (en, ca, pt-br)")
    made = make_game(folder, sheet, art, list(sizes), list(names), locale, template, stylesheet)
    for name in made.unused_art:
        click.echo(f"warning: {art / name}: no card uses this picture (name it as a card's id, or give an art column)",
                   err=True)
    for problem in made.warnings:  # what validate will say of the game, said now (never only at a later command)
        click.echo(problem.text(), err=True)
    click.echo(f"{folder}: {len(made.files)} file(s) written; next: cardworks --cards {folder} build")


ALL = [validate, cards, schema, freeze, build, i18n, check, serve, new]
