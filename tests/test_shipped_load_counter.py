"""The counter of shipped-database loads (``bench/shipped_loads.py``) tells a shipped game, or a copy of one, from
a fixture game: a test that copies the real data to edit it is counted, one on ``mini`` is not."""

from __future__ import annotations

import shutil
from pathlib import Path

import conftest
from conftest import REPO, GameDir


def test_a_copy_of_a_shipped_game_is_recognised_and_a_fixture_game_is_not(game: GameDir, tmp_path: Path) -> None:
    copy = tmp_path / "copy"
    copy.mkdir()
    shutil.copy(REPO / "cards" / "diables" / "game.json", copy / "game.json")
    assert conftest._shipped_copy(copy) == "cards/diables"
    game.write()
    assert conftest._shipped_copy(game.root) is None
    assert conftest._shipped_copy(tmp_path / "nothing") is None


def test_the_loading_test_is_named(request) -> None:
    assert conftest._loading_test() == request.node.nodeid
