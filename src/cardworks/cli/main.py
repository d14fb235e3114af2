"""``cardworks`` entry point: the command group, the shared ``--cards`` option, exit codes.

Exit 0: success. Exit 1: the input is wrong. Exit 2: wrong usage. Exit 130:
interrupted by Ctrl-C (one line, no traceback). Bad input never shows a traceback.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
import threading
import time
from pathlib import Path

import click

from ..errors import CardworksError, DataError, DeveloperError, UsageError
from ..resources import data_dir
from ..fileio import OS_ERROR_CODES, UnsafeFile, end_workers_with_their_parent
from . import commands, export_commands, facts_commands
from .simulate import simulate


INTERRUPT_EXIT = 130
TERMINATE_EXIT = 143
DEFECT_EXIT = 70
"""A mistake in code (sysexits' EX_SOFTWARE): a plugin, a verb's binding, an error no layer converted."""
"""Exit status after SIGTERM (128 + 15), as a shell reports a process the signal ended."""
"""Exit code after Ctrl-C (128 + SIGINT), as shells report a command stopped by it."""
INTERRUPTED = "outputs and data written before this command are as they were"


def default_cards_root() -> Path:
    """The game folder the command runs in (``./game.json``), else ``./cards`` when it exists, else the database
    shipped with the package."""
    if Path("game.json").is_file():
        return Path(".")
    local = Path("cards")
    if local.is_dir():
        return local
    shipped = data_dir("cards")
    return shipped if shipped.is_dir() else local


_MAIN = os.getpid()
_INTERRUPTED: list[bool] = []
_TERMINATED: list[bool] = []


def _on_ctrl_c(signum: int, frame: object) -> None:
    """Ctrl-C reaches the whole process group. In this process it is remembered and raised as usual; a
    worker forked from it (a build's or a check's process pool) leaves at once and quietly, so the pool
    breaks and the main process stops without waiting for the work still queued."""
    if os.getpid() != _MAIN:
        _leave_worker(INTERRUPT_EXIT)
    _INTERRUPTED.append(True)
    raise KeyboardInterrupt


def _on_sigterm(signum: int, frame: object) -> None:
    """SIGTERM (a timeout, ``kill``) ends a command the way Ctrl-C does, so what it was writing is put back and
    its temporary copies and files are removed; a forked worker leaves at once."""
    if os.getpid() != _MAIN:
        _leave_worker(TERMINATE_EXIT)
    _TERMINATED.append(True)
    _on_ctrl_c(signum, frame)


def _leave_worker(code: int) -> None:
    """A worker leaves at once, but first runs the exit finalizers it registered itself (``multiprocessing``
    clears the parent's at fork): ``os._exit`` skips them, and one removes the worker's temporary font folder
    (``render.fonts.shared_font_config``), about 4 MB an interrupted build left behind per worker."""
    from multiprocessing import util

    util._run_finalizers(0)  # what a worker's own normal exit runs (Process._bootstrap); no public name exists
    os._exit(code)


def _quiet_after_ctrl_c() -> None:
    """After Ctrl-C the main thread says one line; what Ctrl-C breaks elsewhere (a pool's helper thread, a
    fork hook it landed in) is a consequence, not news: it is not printed. Anything else is, as before."""
    unraisable, thread_hook = sys.unraisablehook, threading.excepthook

    def on_unraisable(info) -> None:  # type: ignore[no-untyped-def]
        if isinstance(info.exc_value, KeyboardInterrupt):
            _INTERRUPTED.append(True)
            return
        unraisable(info)

    def on_thread(info) -> None:  # type: ignore[no-untyped-def]
        if _INTERRUPTED or isinstance(info.exc_value, KeyboardInterrupt):
            return
        thread_hook(info)

    sys.unraisablehook, threading.excepthook = on_unraisable, on_thread


EXIT_GRACE_S = 10.0
"""How long an interrupted command's ordinary exit (its clean-up, its pools' workers joined) may take."""


def exit_within(seconds: float, code: int) -> None:
    """An interrupted process must end. Its clean-up runs at exit as usual, but exit also waits for its worker
    processes and threads, and one stuck where Ctrl-C cannot reach it (in C code) would hold it forever; after
    ``seconds`` a daemon thread kills the children still alive and ends the process with ``code``."""
    def end() -> None:
        time.sleep(seconds)
        for child in multiprocessing.active_children():
            child.kill()
        os._exit(code)

    threading.Thread(target=end, name="cardworks-exit-deadline", daemon=True).start()


def _interrupted(ctx: click.Context) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # a second Ctrl-C must not cut this line short
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    code = TERMINATE_EXIT if _TERMINATED else INTERRUPT_EXIT
    exit_within(EXIT_GRACE_S, code)
    if _TERMINATED:
        click.echo(f"\ncardworks: terminated (SIGTERM); {INTERRUPTED}", err=True)
        ctx.exit(code)
    click.echo(f"\ncardworks: interrupted (Ctrl-C); {INTERRUPTED}", err=True)
    ctx.exit(code)


class Group(click.Group):
    """Turns cardworks errors into messages and exit codes instead of tracebacks."""

    def invoke(self, ctx: click.Context):  # type: ignore[override]
        if threading.current_thread() is threading.main_thread() and signal.getsignal(signal.SIGINT) is \
                signal.default_int_handler:
            signal.signal(signal.SIGINT, _on_ctrl_c)
            _quiet_after_ctrl_c()
        if threading.current_thread() is threading.main_thread() and signal.getsignal(signal.SIGTERM) is signal.SIG_DFL:
            signal.signal(signal.SIGTERM, _on_sigterm)
        try:
            return self._invoke(ctx)
        except KeyboardInterrupt:  # Ctrl-C: transactions have already put back what they had begun
            _interrupted(ctx)
        except (click.exceptions.Exit, click.ClickException, click.Abort):
            raise
        except Exception:  # a worker pool broken by the same Ctrl-C, say: still an interrupt, not a bug
            if not _INTERRUPTED:
                raise
            _interrupted(ctx)

    def _invoke(self, ctx: click.Context):
        try:
            _report_broken_plugins()
            return super().invoke(ctx)
        except UsageError as exc:
            click.echo(f"cardworks: error: {exc}", err=True)
            ctx.exit(2)
        except DataError as exc:
            for problem in exc.problems:
                click.echo(problem.text(), err=True)
            click.echo(f"cardworks: {exc}", err=True)
            ctx.exit(1)
        except UnsafeFile as exc:  # a file refused while reading, found after validation
            click.echo(f"{exc.path or '?'}: [{exc.code}] {exc}", err=True)
            ctx.exit(1)
        except OSError as exc:  # a full disk, a read-only folder: the environment, not a bug
            if exc.errno not in OS_ERROR_CODES:
                raise
            click.echo(f"{exc.filename or '?'}: [{OS_ERROR_CODES[exc.errno]}] {exc.strerror}; nothing was changed "
                       "there", err=True)
            ctx.exit(1)
        except DeveloperError as exc:
            click.echo(f"cardworks: error: [{exc.code}] {' '.join(str(exc).split())}", err=True)
            ctx.exit(DEFECT_EXIT)
        except CardworksError as exc:  # a module's own error that no layer turned into a DataError: a defect
            click.echo(f"cardworks: error: [{_code_of(exc)}] {' '.join(str(exc).split())}", err=True)
            ctx.exit(DEFECT_EXIT)


def _code_of(exc: BaseException) -> str:
    """``TemplateBudgetError`` → ``template-budget-error``: the class as a code, for errors that carry none."""
    code = getattr(exc, "code", None)
    if isinstance(code, str):
        return code
    name = type(exc).__name__
    return "".join(f"-{c.lower()}" if c.isupper() and i else c.lower() for i, c in enumerate(name))


_SCANNED: list[bool] = []


def _report_broken_plugins() -> None:
    """Every command says, in one line each, which game plugins of other distributions could not be loaded
    (their games are left out; the others work), whether or not it goes on to ask for them."""
    from .. import plugin_registry

    if not _SCANNED:  # once a process (about 15 ms: the installed distributions are read); a test suite calling
        _SCANNED.append(True)  # the command line in its own process again and again pays it once
        loaded = plugin_registry.loaded_entry_points()
        if loaded:  # a plugin that loads but does not keep to GamePlugin is said too
            from ..engine.plugins import checked_entry_points

            checked_entry_points(loaded)
    for broken in plugin_registry.broken_plugins():
        click.echo(broken.line(), err=True)


WRITE_THE_DATABASE = frozenset({"sheet", "i18n", "freeze", "facts"})
"""Commands that write (or export for writing back) the database's own files: they refuse ``--facts``, so no
owner's value can travel into the shipped data (``facts`` reads the database as it is)."""


@click.group(cls=Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--cards", "cards_root", type=click.Path(path_type=Path, file_okay=False), default=None,
              help="Card database folder, or one game's own folder holding its game.json (default: the folder the "
                   "command runs in when it holds a game.json, else ./cards, else the shipped database).")
@click.option("--facts", "facts", type=click.Path(path_type=Path, file_okay=False, exists=True), default=None,
              help="Folder of owner's facts (written by 'facts import'): values read from your own copy, merged "
                   "into the game as it is loaded, never into the database.")
@click.version_option(package_name="cardworks")
@click.pass_context
def cli(ctx: click.Context, cards_root: Path | None, facts: Path | None) -> None:
    """Card-data pipeline and print-and-play generator for card games."""
    from ..loading.overlay import use_owner_facts

    if facts is not None and ctx.invoked_subcommand in WRITE_THE_DATABASE:
        raise UsageError(f"'{ctx.invoked_subcommand}' writes or exports the database itself and does not take --facts: "
                         "the owner's values never enter the database")
    use_owner_facts(facts)
    ctx.call_on_close(lambda: use_owner_facts(None))  # for this command only (a test runs many in one process)
    ctx.obj = cards_root or default_cards_root()


for command in [*commands.ALL, *export_commands.ALL, *facts_commands.ALL]:
    cli.add_command(command)
cli.add_command(simulate)


def main() -> None:
    """Console-script entry point (and ``python -m cardworks``): the processes this one forks end with it."""
    end_workers_with_their_parent()
    sys.exit(cli.main(standalone_mode=True))
