"""bench/engine.py --check, whose figures docs/performance.md quotes, still runs and times what it says: the
whole ``check`` command, whose games' lengths it reads from the command's JSON report, then a reference loop
over games of those lengths (no figure is asserted: speed is the bench's to print)."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

from conftest import FIXTURE_CARDS

REPO = Path(__file__).resolve().parents[2]
_SPEC = importlib.util.spec_from_file_location("engine_bench", REPO / "bench" / "engine.py")
bench = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(bench)


def test_the_check_command_is_timed_with_the_lengths_of_its_games() -> None:
    cpu, wall, lengths = bench.check_command(REPO, "fallera", 2, cards=FIXTURE_CARDS)
    report = json.loads(subprocess.run(
        [sys.executable, "-m", "cardworks", "--cards", str(FIXTURE_CARDS), "check", "--game", "fallera",
         "--playouts", "2", "--seed", "1", "--format", "json"], capture_output=True, text=True).stdout)
    assert lengths == [n for p in report["playouts"] for n in p["lengths"]]
    assert len(lengths) == 2 * len(report["playouts"]) and min(lengths) > 0
    assert cpu > 0 and wall > 0
    loop_cpu, loop_wall = bench.reference_loop(lengths)
    assert loop_cpu > 0 and loop_wall > 0
    assert bench.check_command(REPO, "fallera", 2, cards=FIXTURE_CARDS, more=("--thorough",))[2] == lengths



def test_parts_prints_every_part_of_a_checked_step() -> None:
    """``--parts`` plays the fixture game's games as check does and prints a row for every part, their sum, the
    whole checked step and the reference loop (the figures are the bench's; only that each is there is asserted)."""
    out = subprocess.run([sys.executable, str(REPO / "bench" / "engine.py"), "--parts", "2", "--only", "base/4p",
                          "--cards", str(FIXTURE_CARDS)], capture_output=True, text=True, check=True).stdout
    rows = {line[:32].strip(): line[32:].split() for line in out.splitlines()[2:]}
    for part in (*bench.PARTS, "sum of the parts, timed apart", "checked step, timed whole",
                 "checked step, default schedule", "dealing, per step of its game", "reference loop step"):
        assert float(rows[part][0]) >= 0, (part, out)
    assert "steps" in out.splitlines()[0]
    parts = sum(float(rows[part][0]) for part in bench.PARTS)
    assert abs(parts - float(rows["sum of the parts, timed apart"][0])) < 0.1 * len(bench.PARTS)
