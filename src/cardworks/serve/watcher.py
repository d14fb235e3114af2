"""Watch the game, pack and template folders and call back once per burst of changes.

Editors save in several steps (a temporary file, a rename): watchfiles groups
the events of one save, yielding once no new event came for ``STEP_MS``.
"""

from __future__ import annotations

import asyncio
import sys
import traceback
from collections.abc import Awaitable, Callable
from pathlib import Path

from watchfiles import awatch

STEP_MS = 30
"""Quiet time that ends a burst of file events (one save)."""
DEBOUNCE_MS = 400
"""Longest a burst is grouped before the page hears of it."""


async def watch(paths: list[Path], changed: Callable[[], Awaitable[None]], stop: asyncio.Event) -> None:
    """Call ``changed`` after each burst of changes under ``paths`` until ``stop`` is set."""
    existing = [path for path in paths if path.exists()]
    async for _ in awatch(*existing, debounce=DEBOUNCE_MS, step=STEP_MS, stop_event=stop):
        try:
            await changed()
        except Exception:  # a reload that fails must not end live reload; the next save tries again
            print("cardworks serve: reloading failed:", file=sys.stderr)
            traceback.print_exc(file=sys.stderr)
