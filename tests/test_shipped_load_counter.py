"""The counter of shipped-database loads (``bench/shipped_loads.py``) tells a shipped game, or a copy of one, from
a fixture game: a test that copies the real data to edit it is counted, one on ``mini`` is not."""

from __future__ import annotations

import re
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


SHIPPED_READS = {
    # the engine and simulation tests that still name the shipped database, each a test about the shipped data
    "engine/test_calavera.py": 1,  # check passes on every shipped Calavera scenario
    "engine/test_effects.py": 1,  # every shipped card with effects is played from data, none for want of a handler
    "engine/test_expectations.py": 1,  # every shipped scenario keeps to its game's vocabulary
    "engine/test_fallera_engine.py": 1,  # check passes on every shipped Fallera scenario and configuration
    "engine/test_fallera_fixture.py": 1,  # the fixture is a cut of the shipped cards
    "engine/test_left_out.py": 1,  # what each shipped left-out card says about itself
    "engine/test_ruling_coverage.py": 2,  # how the shipped rulings are covered by scenarios
    "simulate/test_ismcts_strength_bench.py": 1,  # the strength bench's own table
}
"""Where the engine and simulation tests name ``REPO / "cards"``, and how often: every other engine or simulation
test plays a fixture game (``tests/fixtures/cards``), so a new read of the shipped database fails here rather than
creeping back unseen (``bench/shipped_loads.py`` counts the loads themselves, over the whole fast suite)."""


def _shipped_reads(text: str) -> int:
    return len(re.findall(r'REPO / "cards"(?! not in)', text))


def test_the_engine_and_simulation_tests_read_the_shipped_database_only_where_listed() -> None:
    found = {}
    for folder in ("engine", "simulate"):
        for path in sorted((REPO / "tests" / folder).glob("*.py")):
            if reads := _shipped_reads(path.read_text(encoding="utf-8")):
                found[f"{folder}/{path.name}"] = reads
    assert found == SHIPPED_READS


def test_a_new_read_of_the_shipped_database_is_seen() -> None:
    assert _shipped_reads('DB = load_database(REPO / "cards" / "fallera")\n') == 1
    assert _shipped_reads('run_cli("--cards", str(REPO / "cards"), "check")') == 1
    assert _shipped_reads('assert REPO / "cards" not in folder.parents') == 0
    assert _shipped_reads('DB = load_database(FIXTURE_CARDS / "fallera")') == 0
