"""``cardworks new`` killed (kill -9) leaves no half-made game: the game is made in a hidden sibling,
``.<id>.staging-<pid>-…``, and renamed into place at the end; the next run removes the staging folders of runs that
have ended, and leaves those of a run still going."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import REPO, run_cli
from own_sheets import designer


def _killed_new(tmp_path: Path, moment: str) -> tuple[subprocess.Popen, str]:
    """``cardworks new`` in a process of its own, killed as kill -9 would at the fault point ``moment``; the
    process (ended) and its stderr."""
    sheet, art = designer(tmp_path)
    env = {**os.environ, "CARDWORKS_KILL_AT": moment,
           "PYTHONPATH": os.pathsep.join([str(REPO / "src"), os.environ.get("PYTHONPATH", "")])}
    with subprocess.Popen([sys.executable, "-m", "cardworks", "new", str(tmp_path / "emberfall"), "--from", str(sheet),
                           "--art", str(art)], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True) as process:
        _, stderr = process.communicate(timeout=300)
    return process, stderr


@pytest.mark.parametrize("moment", ["write", "new-publish"], ids=["writing-schemas", "before-the-rename"])
def test_a_killed_new_leaves_no_game_and_the_next_run_cleans_up(tmp_path: Path, moment: str) -> None:
    killed, stderr = _killed_new(tmp_path, moment)
    assert killed.returncode == -signal.SIGKILL, stderr
    assert not (tmp_path / "emberfall").exists()  # no half-made game where the game goes
    left = [p.name for p in tmp_path.iterdir() if p.name.startswith(".")]
    assert len(left) == 1 and (tmp_path / left[0] / "emberfall").is_dir(), left  # only the hidden staging folder
    alive = tmp_path / f".emberfall.staging-{os.getpid()}-running"  # a run still going (this process): kept
    alive.mkdir()
    run = run_cli("new", str(tmp_path / "emberfall"), "--from", str(tmp_path / "cards.csv"), "--art",
                  str(tmp_path / "art"))
    assert run.exit_code == 0, run.output
    assert (tmp_path / "emberfall" / "game.json").is_file()
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([alive.name, "art", "cards.csv", "emberfall"])
    assert left[0].startswith(f".emberfall.staging-{killed.pid}-")  # named by its run, so found as ended
