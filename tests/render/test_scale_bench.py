"""bench/scale.py runs end to end on tiny decks (text and art), so it cannot break silently."""

from __future__ import annotations

import subprocess
import sys

import pytest

from conftest import REPO

pytestmark = pytest.mark.slow


def test_the_scale_bench_prints_per_design_cost_and_the_art_floor() -> None:
    run = subprocess.run([sys.executable, str(REPO / "bench" / "scale.py"), "--sizes", "2,3", "--art", "1", "--tts"],
                         capture_output=True, text=True, timeout=900)
    assert run.returncode == 0, run.stdout + run.stderr
    rows = [line.split() for line in run.stdout.splitlines() if line.strip()[:1].isdigit() and "designs" not in line]
    assert [row[0] for row in rows] == ["2", "3"]
    assert all(float(row[2]) > 0 and float(row[4]) > 0 for row in rows)  # ms a design, peak MB
    art = [line for line in run.stdout.splitlines() if line.startswith("1 designs, art")]
    assert len(art) == 1 and "build/floor" in art[0] and "face cache" in art[0], run.stdout
    [parts] = [line for line in run.stdout.splitlines() if line.startswith("1 designs, parts of the build")]
    assert "importing what a build imports" in parts and "validating the game" in parts, run.stdout
    assert "with the build's" in run.stdout
