"""``cardworks build --watch``: one warm process that builds again each time a file of the database is saved.

A rebuild in the same process pays no start-up (Python, the package, WeasyPrint, the fonts): after one card's
edit it writes the changed outputs in a fraction of a fresh command's time (bench/edit_loop.py --watch). Each
rebuild is a whole ``build`` with its transaction: a save that makes the data wrong is reported, and the last
good build stays as it was until a later save builds again.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import click

from ..errors import DataError

DEBOUNCE_MS = 150
"""Saves closer together than this are one change (an editor writes a file in several steps)."""


def watched_roots(cards_root: Path, packs: list[Path]) -> list[Path]:
    """The folders whose files a build reads: the database and each pack (their templates and art included)."""
    return [root.resolve() for root in [cards_root, *packs] if root.exists()]


def relevant(changes: Iterable[tuple[Any, str]], out: Path) -> list[Path]:
    """The changed paths a build reads: not the build's own outputs, caches, or editors' swap files."""
    out = out.resolve()
    found = []
    for _, name in changes:
        path = Path(name)
        if path.is_relative_to(out) or path.name.startswith(".") or path.name.endswith(("~", ".swp", ".tmp")):
            continue
        found.append(path)
    return sorted(set(found))


def watch_builds(roots: list[Path], out: Path, build_once: Callable[[], Any], *,
                 changes: Iterable[set[tuple[Any, str]]] | None = None) -> None:
    """Build once, then again after each save under ``roots`` (``changes``: the batches of changes, by default
    from watchfiles). A refused build is said and the watch goes on; Ctrl-C while waiting ends it (exit 0)."""
    _attempt(build_once, "first build")
    click.echo(f"cardworks: watching {', '.join(str(r) for r in roots)} for saves (Ctrl-C to stop)", err=True)
    if changes is None:
        from watchfiles import watch

        changes = watch(*roots, debounce=DEBOUNCE_MS, step=50, raise_interrupt=False)
    batches = iter(changes)
    while True:
        try:  # Ctrl-C while waiting ends the watch; during a build it interrupts that build, as without --watch
            batch = next(batches)
        except (KeyboardInterrupt, StopIteration):
            break
        paths = relevant(batch, out)
        if paths:
            shown = str(paths[0]) + (f" and {len(paths) - 1} more" if len(paths) > 1 else "")
            _attempt(build_once, f"after {shown} changed")
    click.echo("cardworks: stopped watching; the last build stands", err=True)


def _attempt(build_once: Callable[[], Any], why: str) -> None:
    start = time.perf_counter()
    click.echo(f"cardworks: building ({why})", err=True)
    try:
        build_once()
    except DataError as exc:
        for problem in exc.problems:
            click.echo(problem.text(), err=True)
        click.echo(f"cardworks: {exc}; the last good build stands, waiting for the next save", err=True)
        return
    click.echo(f"cardworks: built in {time.perf_counter() - start:.1f} s ({why})", err=True)
