"""How a run's games are cut into chunks: small ones for local processes, about four larger ones per Dask
worker (a Dask task costs more than a local one); every game is in exactly one chunk either way."""

from __future__ import annotations

import pytest

from cardworks.simulate.runner import chunk_size, chunks, dask_chunk_size


@pytest.mark.parametrize(("games", "workers", "local", "dask"), [
    (10_000, 2, 100, 1_000),   # both at their caps
    (4_000, 2, 100, 500),      # four chunks a Dask worker
    (48, 2, 3, 6),
    (3, 4, 1, 1),              # never an empty chunk
    (1_000_000, 64, 100, 1_000),
])
def test_local_and_dask_chunk_sizes(games: int, workers: int, local: int, dask: int) -> None:
    assert chunk_size(games, workers) == local
    assert dask_chunk_size(games, workers) == dask


@pytest.mark.parametrize("workers", [1, 2, 3, 7])
def test_dask_chunks_hold_every_game_once(workers: int) -> None:
    games, first = 10_007, 5
    runs = chunks(games, dask_chunk_size(games, workers), first)
    played = [index for start, count in runs for index in range(start, start + count)]
    assert played == list(range(first, first + games))
    assert len(runs) <= 4 * workers + 1 or dask_chunk_size(games, workers) == 1_000
