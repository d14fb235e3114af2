"""One pool of worker processes for a whole build: every deck's faces, then the documents and pieces.

A build started a pool for each deck whose faces it laid out and one more for its documents: seven pools,
fourteen workers on two processors in the default build. Each worker pays for its first layout what later
ones reuse (the fonts loaded into Pango and HarfBuzz, the stylesheets and WeasyPrint's user-agent stylesheet
parsed, hyphenation dictionaries read): a face document took 0.47 s in a fresh worker and 0.27 s after. One
pool, forked once the games are loaded and WeasyPrint is imported (so no worker imports it again), pays it once
a worker. What a worker lays out does not depend on what it laid out before, so the outputs are the same bytes.
"""

from __future__ import annotations

from concurrent.futures import ProcessPoolExecutor
from typing import Any

from ..loading.database import Database

FORKED_GAMES: dict[str, Database] = {}
"""The games the build had loaded when it started its worker processes, by folder: a worker forked from it
draws its pieces from them instead of loading its game again for each piece (a spawned worker finds this
empty and loads the game). ``docs.build`` reads it."""


class BuildWorkers:
    """The build's worker processes, started at the first task sent to them (a build that lays out nothing,
    or only a little, starts none) and stopped when the block ends."""

    def __init__(self, jobs: int, games: dict[str, Database]) -> None:
        self.jobs = jobs
        self.games = games
        """The games loaded so far, by folder: a worker draws pieces from its inherited copy (see
        :data:`FORKED_GAMES`); a game loaded after the fork is loaded again by the worker that needs it."""
        self._pool: ProcessPoolExecutor | None = None

    def pool(self) -> ProcessPoolExecutor:
        if self._pool is None:
            import weasyprint  # noqa: F401  imported before the fork, once, not in each worker

            from ..collector import start_worker

            FORKED_GAMES.clear()
            FORKED_GAMES.update(self.games)
            self._pool = ProcessPoolExecutor(max_workers=self.jobs, initializer=start_worker)
        return self._pool

    def map(self, function: Any, items: Any) -> Any:
        """``pool().map``: the results in order, as they come."""
        return self.pool().map(function, items)

    def __enter__(self) -> BuildWorkers:
        return self

    def __exit__(self, *exc: object) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None
            FORKED_GAMES.clear()
