"""Languages are judged apart from the other checks: for a big database, in a forked child (started before the
files are read, and sharing its texts with a sibling of its own) where the process may fork, else in a worker
thread. Every way gives
the same warnings in the same places; a child or sibling that dies is made up for, and an error while judging is
not swallowed.

The forking runs in fresh interpreters, as the command does: a process that has used the detector's thread pool
may not fork (the child would wait for the pool's missing threads), and the test process has."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from conftest import GameDir
from test_language_at_scale import EXPECTED_WRONG, write_big_game
from cardworks.validate import check_language
from cardworks.validate import validate

SCRIPT = """
import json, os, sys
from pathlib import Path
from cardworks.validate import check_language, validate
main = os.getpid()
check_language.FORK_MIN_BYTES = 0  # the test game is small
{patch}
report = validate(Path(sys.argv[1]))
print(json.dumps([p.as_dict() for p in report.items]))
"""
SHARED = "check_language.SHARE_MIN = 10"
CHILD_DIES = "check_language._judge_shared = lambda *args: os._exit(9)"
SIBLING_DIES = SHARED + """
share = check_language._judge_share
def dying(*args):
    if os.getpid() != main and os.getppid() != main:  # the child's sibling, not the child
        os._exit(9)
    return share(*args)
check_language._judge_share = dying
"""
FAILS = """
def fails(*args):
    raise LookupError("the detector lost its models")
check_language._judge_shared = fails
"""


def _validate_apart(cards: Path, cache: Path, patch: str = "") -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", SCRIPT.format(patch=patch), str(cards)], capture_output=True,
                          text=True, env={**os.environ, "CARDWORKS_CACHE": str(cache)}, timeout=300)


def _problems(done: subprocess.CompletedProcess) -> list[dict]:
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout)


def _wrong(problems: list[dict]) -> list[tuple[str, str]]:
    return [(Path(p["file"]).name, p["pointer"]) for p in problems if p["code"] == "wrong-language"]


@pytest.fixture
def threaded(game: GameDir, monkeypatch: pytest.MonkeyPatch) -> list[dict]:
    """The big game's problems, judged in a worker thread of this process."""
    write_big_game(game)
    with monkeypatch.context() as patched:
        patched.setattr(check_language, "may_fork", lambda: False)
        return [p.as_dict() for p in validate(game.cards_root).items]


def test_a_fresh_process_may_fork() -> None:
    done = subprocess.run([sys.executable, "-c", "from cardworks.validate.check_language import may_fork; "
                           "print(may_fork())"], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == ("True" if sys.platform.startswith("linux") else "False")


@pytest.mark.parametrize("patch", ["", SHARED], ids=["one-child", "child-and-sibling"])
def test_forked_judging_warns_as_the_thread_does(game: GameDir, threaded: list[dict], tmp_path: Path,
                                                 patch: str) -> None:
    cache = tmp_path / "cache"
    forked = _problems(_validate_apart(game.cards_root, cache, patch))
    assert forked == threaded
    assert _wrong(forked) == EXPECTED_WRONG
    saved = json.loads((cache / "language.json").read_text())  # what the child (and its sibling) judged is kept
    assert len(saved) > 900 and sum(1 for verdict in saved.values() if verdict) >= 3
    assert _problems(_validate_apart(game.cards_root, cache, patch)) == forked  # again, all from the cache


@pytest.mark.parametrize("patch", [CHILD_DIES, SIBLING_DIES], ids=["child", "sibling"])
def test_a_judge_that_dies_is_made_up_for(game: GameDir, threaded: list[dict], tmp_path: Path, patch: str) -> None:
    assert _problems(_validate_apart(game.cards_root, tmp_path / "cache", patch)) == threaded


def test_an_error_while_judging_reaches_the_caller(game: GameDir, tmp_path: Path) -> None:
    write_big_game(game)
    done = _validate_apart(game.cards_root, tmp_path / "cache", FAILS)
    assert done.returncode != 0 and "LookupError: the detector lost its models" in done.stderr


def _fifo(path: Path) -> None:
    os.mkfifo(path)


def _outside(path: Path) -> None:
    path.symlink_to("/etc/passwd")


def _null(path: Path) -> None:
    path.write_text("null")


@pytest.mark.parametrize("spoil, code", [(_fifo, "not-a-regular-file"), (_outside, "path-escape"), (_null, "wrong-type")],
                         ids=["fifo", "symlink-outside", "null"])
def test_the_game_file_read_ahead_for_the_child_is_read_as_safely(game: GameDir, tmp_path: Path, spoil, code: str) -> None:
    """The child is told the game's locales from ``game.json`` before the loader reads it: a FIFO, a link out of
    the game or a null document there must neither hang nor leak, and validation reports it as the loader does."""
    write_big_game(game)
    (game.root / "game.json").unlink()
    spoil(game.root / "game.json")
    problems = _problems(_validate_apart(game.cards_root, tmp_path / "cache"))
    assert [p for p in problems if p["file"].endswith("game.json") and p["code"] == code], problems
    assert "root:" not in json.dumps(problems)  # nothing of /etc/passwd


def test_a_damaged_or_unwritable_cache_changes_no_warning(game: GameDir, threaded: list[dict], tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    cache.mkdir()
    (cache / "language.json").write_text("[]")
    assert _problems(_validate_apart(game.cards_root, cache, SHARED)) == threaded
    assert isinstance(json.loads((cache / "language.json").read_text()), dict)  # started afresh
    blocked = tmp_path / "a-file"  # the cache's folder is a file: the verdicts cannot be saved, even by root
    blocked.write_text("")
    assert _problems(_validate_apart(game.cards_root, blocked, SHARED)) == threaded
    assert blocked.read_text() == ""


def test_a_small_database_is_judged_in_a_thread(game: GameDir) -> None:
    write_big_game(game)
    with check_language.judge_for(game.root, []) as judge:
        assert judge is None


def test_no_fork_beside_another_thread() -> None:
    release = threading.Event()
    other = threading.Thread(target=release.wait)
    other.start()
    try:
        assert not check_language.may_fork()
    finally:
        release.set()
        other.join()
