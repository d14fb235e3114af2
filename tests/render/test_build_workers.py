"""One pool of worker processes for a whole build (render/workers.py): every deck's faces and then the documents
are laid out by the same ``--jobs`` processes, started at the first task and only then, with the games the build
loaded handed to them; each deck starting a pool of its own (seven pools, fourteen workers) paid each worker's
first layout again."""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

import pytest

from cardworks.loading.database import Database, load_game
from cardworks.render.docs import build as docs_build
from cardworks.render.faces import face_renderer
from cardworks.render import workers as workers_module
from cardworks.render.workers import BuildWorkers
from conftest import REPO


def _pid(_: object) -> int:
    return os.getpid()


def test_no_process_is_started_before_a_task_is_sent() -> None:
    with BuildWorkers(2, {}) as workers:
        assert workers._pool is None


def test_the_workers_are_forked_with_the_games_and_serve_every_call_until_the_block_ends() -> None:
    games = {"/games/one": object()}
    with BuildWorkers(2, games) as workers:  # type: ignore[arg-type]
        first = set(workers.map(_pid, range(8)))
        assert workers_module.FORKED_GAMES == games, "the workers are forked with the build's games"
        later = set(workers.map(_pid, range(8))) | {workers.pool().submit(_pid, 0).result()}
        assert len(first | later) <= 2, "the same two processes serve every call"
        assert os.getpid() not in first | later
    assert workers._pool is None and workers_module.FORKED_GAMES == {}


class _Counted:
    """A build's workers that count the calls made through them."""

    def __init__(self) -> None:
        self.calls = 0

    def map(self, function, items):
        self.calls += 1
        return map(function, items)


@pytest.mark.slow  # lays faces out
def test_a_deck_s_faces_are_laid_out_by_the_build_s_workers() -> None:
    from cardworks.render.deck import build_deck
    from cardworks.render.faces import FACES_PER_CHUNK, build_job

    db = Database(game=load_game((REPO / "cards" / "fallera").resolve()))
    job = build_job(db, build_deck(db, None, None, ()), "en", False)
    job = replace(job, faces=[replace(face) for face in job.faces[:FACES_PER_CHUNK + 1]])
    assert len(job.faces) > FACES_PER_CHUNK  # enough for worker processes
    counted = _Counted()
    result = face_renderer(2, workers=counted)(job)
    assert counted.calls >= 1 and set(result.pages) == {face.id for face in job.faces}


def test_a_build_starts_one_pool(monkeypatch, tmp_path: Path) -> None:
    """``build`` hands its one ``BuildWorkers`` to every deck and to the documents."""
    from cardworks.render import build as build_module

    made: list[BuildWorkers] = []
    seen: list[object] = []

    class Recorded(BuildWorkers):
        def __init__(self, *args, **kwargs) -> None:
            super().__init__(*args, **kwargs)
            made.append(self)

    def faces(*args, **kwargs):
        seen.append(args[-1] if len(args) > 6 else kwargs.get("workers"))
        raise RuntimeError("stop here")

    monkeypatch.setattr(build_module, "BuildWorkers", Recorded)
    monkeypatch.setattr(build_module, "_faces", faces)
    options = build_module.BuildOptions(out=tmp_path / "out", game="diables", locales=["en"], jobs=2)
    with pytest.raises(RuntimeError, match="stop here"):
        build_module.build(REPO / "cards", options)
    assert len(made) == 1 and seen == made
