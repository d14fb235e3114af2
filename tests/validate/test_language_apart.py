"""Languages are judged apart from the other checks: in forked children where the process may fork, else in a
worker thread. Both give the same warnings in the same places; a child that dies is made up for, and an error
while judging is not swallowed."""

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


def _cli_validate(cards: Path, cache: Path) -> list[dict]:
    done = subprocess.run([sys.executable, "-m", "cardworks", "--cards", str(cards), "validate", "--format", "json"],
                          capture_output=True, text=True, env={**os.environ, "CARDWORKS_CACHE": str(cache)}, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout)


def test_a_fresh_command_forks_and_warns_as_the_thread_does(game: GameDir, tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    write_big_game(game)
    fresh = subprocess.run([sys.executable, "-c", "from cardworks.validate.check_language import may_fork; "
                            "print(may_fork())"], capture_output=True, text=True, check=True)
    assert fresh.stdout.strip() == ("True" if sys.platform.startswith("linux") else "False")

    cache = tmp_path / "cache"
    forked = _cli_validate(game.cards_root, cache)
    saved = json.loads((cache / "language.json").read_text())  # the parent saved what its children judged
    assert len(saved) > 300 and sum(1 for verdict in saved.values() if verdict) >= 3

    monkeypatch.setattr(check_language, "may_fork", lambda: False)
    threaded = [p.as_dict() for p in validate(game.cards_root).items]
    assert forked == threaded
    wrong = [(Path(p["file"]).name, p["pointer"]) for p in forked if p["code"] == "wrong-language"]
    assert wrong == EXPECTED_WRONG
    assert _cli_validate(game.cards_root, cache) == forked  # again, every verdict from the cache


def test_a_child_that_dies_is_made_up_for(game: GameDir, monkeypatch: pytest.MonkeyPatch) -> None:
    write_big_game(game)
    parent, judge = os.getpid(), check_language.judge

    def dies_in_child(*args):
        if os.getpid() != parent:
            os._exit(9)  # as a child killed by the system would
        return judge(*args)

    monkeypatch.setattr(check_language, "judge", dies_in_child)
    monkeypatch.setattr(check_language, "may_fork", lambda: True)
    report = validate(game.cards_root)
    assert [(Path(p.file).name, p.location) for p in report.warnings if p.code == "wrong-language"] == EXPECTED_WRONG


def test_an_error_while_judging_reaches_the_caller(game: GameDir, monkeypatch: pytest.MonkeyPatch) -> None:
    write_big_game(game)

    def fails(*args):
        raise LookupError("the detector lost its models")

    monkeypatch.setattr(check_language, "judge", fails)
    monkeypatch.setattr(check_language, "may_fork", lambda: True)
    with pytest.raises(LookupError, match="lost its models"):
        validate(game.cards_root)


def test_no_fork_beside_another_thread() -> None:
    release = threading.Event()
    other = threading.Thread(target=release.wait)
    other.start()
    try:
        assert not check_language.may_fork()
    finally:
        release.set()
        other.join()
