"""Hostile options and faults for ``cardworks simulate``: scheduler addresses no cluster can have, ``--out``
where no folder can be, a local worker killed mid-run, and Ctrl-C (it must stop within 2 s, workers too)."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest

from corpus import REPO, cardworks, group, interrupt, judge

FAMILY = "simulate"
SIMULATE = ("--cards", str(REPO / "cards"), "simulate", "--games", "8", "--workers", "1")
LONG = ("--cards", str(REPO / "cards"), "simulate", "--games", "1000000", "--workers", "2")
"""A run far longer than any test: it is only ever stopped."""


@pytest.mark.parametrize("address", ["tcp://127.0.0.1", "inproc://x"])
def test_a_scheduler_address_without_a_cluster_is_a_usage_error(address: str) -> None:
    result = cardworks(*SIMULATE, "--scheduler", address)
    judge(f"simulate --scheduler {address}", FAMILY, result, refuse=True)
    assert result.exit_code == 2 and len(result.stderr.strip().splitlines()) == 1, result.stderr


@pytest.mark.parametrize("where", ["a file", "/dev/null", "/proc/cardworks-report"])
def test_out_where_no_folder_can_be_is_refused_naming_it(where: str, tmp_path: Path) -> None:
    (tmp_path / "report.txt").write_text("not a folder\n")
    out = {"a file": tmp_path / "report.txt", "under a file": tmp_path / "report.txt" / "sub"}.get(where, Path(where))
    result = cardworks(*SIMULATE, "--out", str(out), timeout=120)
    judge(f"simulate --out {where}", FAMILY, result, refuse=True, names=str(out))
    assert (tmp_path / "report.txt").read_text() == "not a folder\n"


def _workers(process) -> bool:
    """Under way: the command and its two workers are running."""
    return len(group(process.pid)) >= 3


@pytest.mark.slow
def test_ctrl_c_stops_simulate_within_2_s_leaving_no_worker(tmp_path: Path) -> None:
    run = interrupt(*LONG, at="", ready=_workers, tmp=tmp_path)
    judge("simulate: Ctrl-C with two workers playing", FAMILY, run.result, refuse=False, interrupted=True,
          check=lambda: (None if run.paused and run.stop_seconds <= 2 and not run.left else
                         f"stopped after {run.stop_seconds:.1f} s, processes left {run.left}, began {run.paused}"))


@pytest.mark.slow
def test_a_killed_worker_ends_simulate_with_one_line(tmp_path: Path) -> None:
    """kill -9 of one local worker (as the kernel's OOM killer would): one line naming what happened, exit 1."""
    def kill_a_worker(process) -> bool:
        members = [pid for pid in group(process.pid) if pid != process.pid]
        if len(members) < 2:
            return False
        os.kill(max(members), signal.SIGKILL)
        return True

    from corpus import finish, start

    process = start(*LONG)
    import time

    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and process.poll() is None and not kill_a_worker(process):
        time.sleep(0.05)
    result = finish(process, timeout=30)
    left = group(process.pid)
    judge("simulate: a local worker killed", FAMILY, result, refuse=True, code="worker-died")
    lines = [line for line in result.stderr.splitlines() if line.strip() and "games/s" not in line]
    assert len(lines) == 1 and result.exit_code == 1 and not left, (lines, result.exit_code, left)


def test_a_pack_of_more_designs_than_simulate_plays_is_refused_before_dealing(tmp_path: Path, monkeypatch) -> None:
    """The bound (10,000 designs; 100,000 grew to 23 GB) lowered for the test to the game's own designs and 5:
    the game alone is played, the example pack's 14 designs more are refused, naming its pack.json, before any
    game."""
    import shutil

    from conftest import run_cli
    from corpus import Result

    from cardworks.loading.database import load_database
    from cardworks.loading.records import Index
    from cardworks.simulate import tables

    pack = tmp_path / "pack"
    shutil.copytree(REPO / "examples" / "fallera-pack", pack)
    own = len(Index(load_database(REPO / "cards" / "fallera")).of_kind("card"))
    monkeypatch.setattr(tables, "MAX_DECK_DESIGNS", own + 5)
    tables.build_table.cache_clear()
    alone = run_cli("--cards", str(REPO / "cards"), "simulate", "--games", "2", "--workers", "1")
    assert alone.exit_code == 0, alone.output[-1500:]
    run = run_cli("--cards", str(REPO / "cards"), "simulate", str(pack), "--games", "2", "--workers", "1")
    tables.build_table.cache_clear()
    judge("simulate: a deck of more designs than the bound", FAMILY, Result(run.exit_code, "", run.output, 0.0, False),
          refuse=True, names="pack.json", code="simulate-too-large")
    assert "games/s" not in run.output, "games were played before the refusal"
