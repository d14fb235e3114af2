"""bench/render.py: its generated deck validates and builds, so the benchmark cannot break unnoticed."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pikepdf
import pytest

from cardworks.validate import validate
from conftest import REPO

_SPEC = importlib.util.spec_from_file_location("render_bench", REPO / "bench" / "render.py")
bench = importlib.util.module_from_spec(_SPEC)
sys.modules["render_bench"] = bench
_SPEC.loader.exec_module(bench)


def test_the_generated_decks_validate(tmp_path: Path) -> None:
    cards_root = bench.make_database(tmp_path / "db", 200, 1)  # every real card copied at least once
    report = validate(cards_root, None, "fallera")
    assert not report.errors, [str(e) for e in report.errors[:5]]  # bonus-mismatch when effects were copied


@pytest.mark.slow
def test_a_small_generated_deck_builds(tmp_path: Path) -> None:
    cards_root = bench.make_database(tmp_path / "db", 3, 2)
    outcomes: list = []
    seconds = bench.timed_build(cards_root, tmp_path / "out", "bench", 1, report=outcomes)
    assert seconds > 0 and [(o.designs, o.cards) for o in outcomes] == [(3, 6)]
    sheet = next(r for r in outcomes[0].records if r.kind == "cards")
    with pikepdf.open(tmp_path / "out" / sheet.path) as pdf:
        assert len(pdf.pages) == sheet.pages >= 2  # fronts and backs


@pytest.mark.slow
def test_the_script_runs_on_a_small_deck() -> None:
    """The script itself, as a command: a two-design deck with one and two jobs, and the floor it compares with."""
    import os
    import subprocess

    done = subprocess.run([sys.executable, str(REPO / "bench" / "render.py"), "--sizes", "2", "--copies", "1",
                           "--generated-only"], capture_output=True, text=True, timeout=600,
                          env={**os.environ, "PYTHONPATH": str(REPO / "src")})
    assert done.returncode == 0, done.stderr[-2000:]
    rows = [line.split() for line in done.stdout.splitlines() if line.split()[:1] == ["bench-2"]]
    assert [(row[1], row[2], row[3]) for row in rows] == [("2", "2", "1"), ("2", "2", "2")]
    assert all(float(row[4]) > 0 for row in rows) and "WeasyPrint floor" in done.stdout
