"""Where the games are played: this process, local processes, or a Dask cluster.

Every executor plays the same chunks of seeded games and adds up their tallies, so
the totals, and the report, are the same for any executor and any number of
workers. Dask is optional (``pip install -e '.[cluster]'``); its workers need
cardworks installed and the card database and packs at the same paths.
"""

from __future__ import annotations

import multiprocessing
from itertools import islice
import signal
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Callable

from ..cluster import connect
from ..errors import DataError
from ..loading.overlay import refuse_remote
from .agents import Agent
from .runner import chunk_size, chunks, dask_chunk_size, play_chunk
from .stats import Tally, merged
from .tables import TableSpec, build_table

Progress = Callable[[int], None]
"""Told how many more games have been played."""


def simulate(spec: TableSpec, agents: tuple[Agent, ...], games: int, seed: int, *, workers: int = 1,
             scheduler: str | None = None, client: Any = None, progress: Progress | None = None,
             size: int | None = None, first: int = 0) -> Tally:
    """``games`` seeded games of ``spec``'s table, numbered from ``first``, tallied.

    ``scheduler`` (``tcp://HOST:PORT``) or a Dask ``client`` sends chunks of games to a cluster;
    otherwise ``workers`` local processes play them (one: this process). ``size`` games per chunk
    (default: about eight chunks per worker, at most 100 games each, locally; about four per worker, at most
    1,000 games each, on Dask, whose tasks cost more) changes nothing in the result.
    """
    build_table(spec)  # bad input is reported here, before any worker starts
    tell = progress or (lambda done: None)
    if client is not None or scheduler is not None:
        refuse_remote("a Dask cluster (--scheduler)")
        runs = chunks(games, size or dask_chunk_size(games, _dask_workers(client) if client else max(workers, 2)), first)
        return _on_dask(spec, agents, seed, runs, scheduler, client, tell)
    runs = chunks(games, size or chunk_size(games, workers), first)
    if workers <= 1 or len(runs) == 1:
        parts = []
        for first, count in runs:
            parts.append(play_chunk(spec, agents, seed, first, count))
            tell(count)
        return merged(parts, spec.players)
    return _on_processes(spec, agents, seed, runs, workers, tell)


def _ignore_interrupts() -> None:
    """Workers leave Ctrl-C to the main process, which stops them all (no traceback per worker)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _on_processes(spec: TableSpec, agents: tuple[Agent, ...], seed: int, runs: list[tuple[int, int]], workers: int,
                  tell: Progress) -> Tally:
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    parts = []
    pool = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context(method), initializer=_ignore_interrupts)
    queued, running = iter(runs), {}

    def submit(more: int) -> None:
        for first, count in islice(queued, more):
            running[pool.submit(play_chunk, spec, agents, seed, first, count)] = count

    try:
        # Ctrl-C waits while the workers are forked (the first submit forks them all): a worker interrupted
        # before its initializer ignores SIGINT would die half-started; the parent takes it just after
        blocked = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            submit(2 * workers)
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
        # a few chunks in flight, not all of them: the queue stays small, and this thread is almost never
        # submitting when a killed worker makes the pool's own thread fail what is queued (CPython walks its
        # work list there without a lock: a submit at that moment printed a traceback and left workers behind)
        while running:
            done, _ = wait(running, return_when=FIRST_COMPLETED)
            for future in done:
                parts.append(future.result())
                tell(running.pop(future))
            submit(len(done))
    except BrokenProcessPool:
        # the pool's own thread is already failing the queued games and ending the other workers; cancelling
        # them from here as well races it (CPython's work list changes while that thread walks it: a traceback)
        pool.shutdown(wait=True)
        _kill_workers()  # those the pool's thread did not end, if it failed
        raise DataError("[worker-died] a local worker process ended abruptly (killed, or out of memory); no report was written: "
                        "run again, with fewer --workers if memory is short") from None
    except BaseException:  # Ctrl-C or an error: the games still queued or running are not waited for
        _stop(pool)
        raise
    pool.shutdown()
    return merged(parts, spec.players)


def _stop(pool: ProcessPoolExecutor) -> None:
    """Cancel what is queued and kill the workers now (a chunk of games can run for minutes)."""
    pool.shutdown(wait=False, cancel_futures=True)
    _kill_workers()


def _kill_workers() -> None:
    for child in multiprocessing.active_children():  # this process's only children are the pool's workers
        child.kill()
    for child in multiprocessing.active_children():
        child.join(1)


def _on_dask(spec: TableSpec, agents: tuple[Agent, ...], seed: int, runs: list[tuple[int, int]], scheduler: str | None,
             client: Any, tell: Progress) -> Tally:
    if client is None:
        with connect(scheduler) as own:  # type: ignore[arg-type]
            return _on_dask(spec, agents, seed, runs, None, own, tell)
    from distributed import as_completed as completed

    futures = [client.submit(play_chunk, spec, agents, seed, first, count, pure=False)  # a fresh key each
               for first, count in runs]
    sizes = {future.key: count for future, (_, count) in zip(futures, runs)}
    parts = []
    for future in completed(futures):
        parts.append(future.result())
        tell(sizes[future.key])
    return merged(parts, spec.players)


def _dask_workers(client: Any) -> int:
    try:
        return max(1, len(client.scheduler_info()["workers"]))
    except Exception:  # a scheduler that cannot say: assume two
        return 2
