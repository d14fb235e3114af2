"""bench/peer_art.py runs end to end on a tiny deck without the peer: the floor always, the lossless check."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from conftest import REPO

pytestmark = pytest.mark.slow


def test_the_peer_bench_prints_the_floor_and_the_lossless_check_without_the_peer() -> None:
    env = {key: value for key, value in os.environ.items() if key != "SILHOUETTE_CARD_MAKER"}
    run = subprocess.run([sys.executable, str(REPO / "bench" / "peer_art.py"), "--sizes", "2"], capture_output=True,
                         text=True, timeout=900, env={**env, "PYTHONPATH": str(REPO / "src")})
    assert run.returncode == 0, run.stdout + run.stderr
    [line] = [line for line in run.stdout.splitlines() if line.startswith("2 art-only cards (grid, A4): cardworks")]
    assert "pikepdf floor" in line and "cardworks/floor" in line and "silhouette-card-maker not run" in line, line
    assert "2 cards: 3 of 3 images in the print-shop file are their PNG's own rows (lossless)" in run.stdout
