"""``build --scheduler``: card faces laid out on a real two-worker Dask ``LocalCluster`` (``cluster.local_cluster``, the settings cardworks advises) give
byte-identical outputs to a local build, also when a worker is killed in the middle of laying them out."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from cardworks.cluster import local_cluster
from conftest import REPO, run_cli, snapshot

pytestmark = pytest.mark.slow

BUILD = ("--game", "diables", "--locale", "en", "--no-docs")


def _build(out: Path, *extra: str) -> dict[str, bytes]:
    done = run_cli("--cards", str(REPO / "cards"), "build", *BUILD, "--out", str(out), *extra)
    assert done.exit_code == 0, done.output
    return {name: data for name, data in snapshot(out).items() if "/.cache" not in f"/{name}"}


def _set_environment(variables: dict[str, str]) -> None:
    """Run on a worker (a bound ``os.environ.update`` would be pickled with a copy of this process's environment)."""
    os.environ.update(variables)


def test_faces_laid_out_on_a_two_worker_cluster_are_byte_identical_even_when_a_worker_dies(
        tmp_path: Path) -> None:
    import distributed  # the test extra installs it, so this never skips

    local = _build(tmp_path / "local", "--jobs", "1")
    killed = tmp_path / "killed-once"
    with local_cluster(2) as cluster:
        on_cluster = _build(tmp_path / "cluster", "--scheduler", cluster.scheduler_address)
        with distributed.Client(cluster) as client:
            laid_out = client.run(lambda: __import__("sys").modules.get("cardworks.render.faces") is not None)
            # the first worker to lay a chunk of faces out dies as kill -9 would; the nanny starts a fresh one
            client.run(_set_environment, {"CARDWORKS_KILL_AT": "face-pass", "CARDWORKS_KILL_ONCE": str(killed)})
        survived = _build(tmp_path / "survived", "--scheduler", cluster.scheduler_address)
    assert any(laid_out.values()), "no worker laid a face out"
    assert killed.exists(), "no worker was killed: the test did not test survival"
    faces = [name for name in local if name.endswith(".pdf")]
    assert "diables/en/print-shop/cards-all.pdf" in faces and len(faces) >= 3
    assert on_cluster == local
    assert survived == local


def test_an_unreachable_or_malformed_scheduler_is_said_before_any_work(tmp_path: Path) -> None:
    for address, said in (("tcp://127.0.0.1:9", "cannot reach the Dask scheduler"),
                          ("127.0.0.1:8786", "give a Dask scheduler address as tcp://HOST:PORT")):
        done = run_cli("--cards", str(REPO / "cards"), "build", *BUILD, "--out", str(tmp_path / "out"),
                       "--scheduler", address)
        assert done.exit_code == 2 and said in done.output, done.output
        assert not (tmp_path / "out").exists()
