"""Writing translation files: hashes stamped, old entries kept, bad entries refused whole."""

from __future__ import annotations

import json

import pytest

from cardworks.errors import DataError
from cardworks.i18n import source_hash
from cardworks.i18n.files import write_translations
from cardworks.loading import load_database
from conftest import GameDir, run_cli, snapshot


def test_written_translations_validate_and_keep_existing_entries(game: GameDir) -> None:
    game.write()
    db = load_database(game.root)
    path, count = write_translations(db, "es", {"olla": {"name": "olla"}, "base": {"name": "Básico"}})
    assert count == 2
    entries = json.loads(path.read_text())["entries"]
    assert entries["olla"]["name"] == {"text": "olla", "source_hash": source_hash("olla"), "source": "olla"}
    assert entries["capita"]["rules"]["text"] == "Roba un {treasure} a un rival."  # kept
    run = run_cli("--cards", str(game.cards_root), "validate", "--format", "json")
    assert run.exit_code == 0 and run.problems == []


@pytest.mark.parametrize("texts, code", [
    ({"ghost": {"name": "x"}}, "dangling-ref"),
    ({"capita": {"colour": "x"}}, "dangling-ref"),
    ({"capita": {"name": "  "}}, "empty-translation"),
])
def test_bad_entries_are_refused_and_nothing_is_written(game: GameDir, texts: dict, code: str) -> None:
    game.write()
    before = snapshot(game.cards_root)
    with pytest.raises(DataError) as info:
        write_translations(load_database(game.root), "es", {"olla": {"name": "olla"}, **texts})
    assert [p.code for p in info.value.problems] == [code]
    assert snapshot(game.cards_root) == before
