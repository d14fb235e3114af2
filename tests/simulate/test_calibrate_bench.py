"""bench/calibrate_verdicts.py, whose confusion table docs/performance.md quotes, still runs on a tiny budget and
prints what it says: one row per planted card counting every seed once, the goals, and the sweep's in-line values.
Its figures (and its speed) are the bench's to print, not this test's."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path


REPO = Path(__file__).resolve().parents[2]
PLANTED = ("twin-capita", "twin-delica", "twin-taronger", "twin-conill", "op-attack", "op-battle", "op-draw", "op-actions",
           "weak-battle", "weak-discard", "weak-sell", "twin-cagallo")


def test_the_calibration_bench_prints_a_confusion_table_goals_and_a_sweep() -> None:
    env = {**os.environ, "PYTHONPATH": str(REPO / "src")}
    done = subprocess.run([sys.executable, str(REPO / "bench" / "calibrate_verdicts.py"), "--games", "12", "--seeds",
                           "1-2", "--workers", "1", "--sweep-games", "12", "--sweep-values", "2,10"],
                          capture_output=True, text=True, env=env,
                          timeout=600, check=True)
    out = done.stdout
    assert "Confusion table: 2 seeds x 12 paired games, agents random" in out
    header = next(line for line in out.splitlines() if line.startswith("card "))
    assert header.split()[:3] == ["card", "kind", "in"]
    for card in PLANTED:
        row = next(line for line in out.splitlines() if line.startswith(card + " "))
        rest = row[len(card):].strip()
        kind = next(k for k in ("plain twin", "overpowered", "weak") if rest.startswith(k))
        counts = [int(n) for n in rest[len(kind):].split()[:7]]
        assert sum(counts) == 2, row  # each seed gives each planted card exactly one answer
    for kind in ("plain twin", "overpowered", "weak"):
        assert re.search(rf"^all {kind}\s+\d+", out, re.M)
    assert re.search(r"^Goal: no plain twin ever strong or weak: \d+ of 10 -> (met|NOT MET)$", out, re.M)
    assert len(re.findall(r"^Goal: op-\w+ strong or decides in >= 95% of seeds: \d/2 ", out, re.M)) == 4
    assert re.search(r"^  attack 2: .*: (in line|not decided|strong|weak|not judged)", out, re.M)
    assert re.search(r"^Goal: in line at a contiguous range of attack values excluding 10: in line at .* -> (met|NOT MET)$",
                     out, re.M)


def test_the_battle_log_reads_each_battle_of_op_attack_and_tombatossals_off_the_games() -> None:
    env = {**os.environ, "PYTHONPATH": str(REPO / "src")}
    out = subprocess.run([sys.executable, str(REPO / "bench" / "calibrate_verdicts.py"), "--agent", "greedy", "--seeds",
                          "1", "--battles", "6"], capture_output=True, text=True, env=env, timeout=600, check=True).stdout
    battles = re.findall(r"^    game (\d+), step \d+: p\d attacks \S+ of p\d with (\S+) \((\d+)\); defence (.+): (stolen|kept)$",
                         out, re.M)
    assert battles, out
    for _, weapon, attack, _, _ in battles:
        assert (weapon, attack) != ("op-attack", "6")  # the printed attack is the card's own
    assert any("op-attack" in line for line in out.splitlines() if line.startswith("    game"))
    for card in ("op-attack (10/10)", "tombatossals (6/1)"):
        assert re.search(rf"^  {re.escape(card)}: .*largest defence it attacked: \S+, largest attack it defended against",
                         out, re.M), out
