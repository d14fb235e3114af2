"""bench/simulate.py --overhead, whose figures the Dask overhead goal is judged by, still runs and counts what it
says: a cluster started as commands with ``cluster.QUIET`` (with nannies and without), every process of it
apart, against local processes on the same games, and no process of it left behind (no figure is asserted)."""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys

import pytest

from conftest import REPO

pytestmark = pytest.mark.slow

_SPEC = importlib.util.spec_from_file_location("simulate_bench", REPO / "bench" / "simulate.py")
bench = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(bench)


def test_a_command_cluster_runs_quiet_and_ends_every_process_it_started() -> None:
    import psutil
    from distributed import Client

    with bench.command_cluster(2, nanny=True) as (address, processes):
        assert {"scheduler", "worker 1", "worker 2", "nannies"} <= set(processes)
        with Client(address) as client:
            profiling = client.run(lambda dask_worker: "profile" in dask_worker.periodic_callbacks)
        alive = [psutil.Process(pid) for pid in processes.values()]
    assert list(profiling.values()) == [False, False]
    gone, still = psutil.wait_procs(alive, timeout=10)
    assert not still, still


def test_overhead_prints_each_process_and_the_ratio_against_local_processes() -> None:
    out = subprocess.run([sys.executable, str(REPO / "bench" / "simulate.py"), "--overhead", "--overhead-games", "40",
                          "--overhead-rounds", "1", "--no-nanny"], capture_output=True, text=True, check=True).stdout
    assert "local processes:" in out and "Dask, with nannies" in out and "Dask, no nannies" in out
    for figure in ("workers and client", "+ scheduler", "+ nannies (every process)", "every process"):
        assert f"{figure} " in out and "% against local" in out, out
    assert re.search(r"nannies \d+\.\d\d,", out) and re.search(r"scheduler \d+\.\d\d,", out), out
