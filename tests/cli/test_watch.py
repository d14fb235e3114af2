"""``cardworks build --watch``: one warm process building again after each save; a save that makes the data
wrong is reported and the watch goes on, the last good build standing."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cardworks.cli.watch import relevant, watch_builds
from cardworks.errors import DataError
from cardworks.problems import Problem
from conftest import REPO, GameDir


def test_only_saves_a_build_reads_start_one(tmp_path: Path, capsys) -> None:
    out = tmp_path / "build"
    built: list[int] = []

    def build_once() -> None:
        built.append(len(built))
        if len(built) == 3:
            raise DataError("1 problem", [Problem("sets/base.json", "/cards/0", "schema", "not a card")])

    saves = [{(1, str(tmp_path / "cards" / "sets" / "base.json"))},
             {(2, str(out / "manifest.json")), (1, str(out / ".cache" / "x"))},  # the build's own writes
             {(2, str(tmp_path / "cards" / ".base.json.swp"))},  # an editor's swap file
             {(2, str(tmp_path / "cards" / "rules" / "en" / "01.md"))},
             {(2, str(tmp_path / "cards" / "sets" / "base.json"))}]
    watch_builds([tmp_path / "cards"], out, build_once, changes=saves)
    said = capsys.readouterr().err
    assert built == [0, 1, 2, 3]  # the first build, then one per batch that touched the database
    assert "sets/base.json:/cards/0: [schema] not a card" in said
    assert "the last good build stands, waiting for the next save" in said
    assert said.rstrip().endswith("stopped watching; the last build stands")
    assert relevant([(1, str(out / "x.pdf"))], out) == []


@pytest.mark.slow
def test_a_saved_edit_is_built_by_the_running_watch(game: GameDir, tmp_path: Path) -> None:
    """The real command with the real file watcher: an edited rules text reaches the card sheet without a new
    process; Ctrl-C while it waits ends it with exit 0."""
    game.write()
    out = tmp_path / "build"
    env = {**os.environ, "PYTHONPATH": str(REPO / "src")}
    watch = subprocess.Popen([sys.executable, "-m", "cardworks", "--cards", str(game.cards_root), "build", "--game",
                              "mini", "--no-docs", "--jobs", "1", "--locale", "en", "--out", str(out), "--watch"],
                             env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             preexec_fn=_ctrl_c_as_a_terminal_gives_it)
    try:
        manifest = out / "manifest.json"
        _wait(lambda: manifest.is_file(), watch)
        first = manifest.stat().st_mtime_ns
        time.sleep(0.5)
        sets = game.root / "sets" / "base.json"
        data = json.loads(sets.read_text(encoding="utf-8"))
        data["cards"][0]["rules"] = "Watched words."
        sets.write_text(json.dumps(data, indent=2), encoding="utf-8")
        _wait(lambda: manifest.stat().st_mtime_ns != first, watch)
        pdf = next(out.rglob("cards-*-a4.pdf"))
        from pypdf import PdfReader

        assert "Watched words." in " ".join(page.extract_text() for page in PdfReader(pdf).pages)
    finally:
        time.sleep(0.5)
        watch.send_signal(signal.SIGINT)
        stdout, stderr = watch.communicate(timeout=60)
    assert watch.returncode == 0, stderr
    assert "stopped watching" in stderr and "Traceback" not in stderr


def _ctrl_c_as_a_terminal_gives_it() -> None:
    """The watch starts with SIGINT at its default, as from a terminal: a process started by a test worker whose
    SIGINT is ignored (an in-process command that was interrupted ignores it from then on) would inherit that."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _wait(done, process: subprocess.Popen, seconds: float = 120) -> None:
    deadline = time.monotonic() + seconds
    while not done():
        assert process.poll() is None, process.communicate()[1]
        assert time.monotonic() < deadline, "the watch did not build in time"
        time.sleep(0.2)
