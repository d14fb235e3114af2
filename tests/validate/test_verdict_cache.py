"""The build's validation verdict cache: a kept verdict is the verdict, and any changed byte validates again."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cardworks.validate import cache, validate
from cardworks.validate.cache import cached_validate, verdict_key


def _with_a_warning(game) -> None:
    """The mini game with its set declaring one design more than it has: a ``set-incomplete`` warning."""
    game.files["sets/base.json"]["totals"]["designs"] += 1
    game.write()


def _entries(folder: Path) -> list[Path]:
    """The kept verdicts in ``folder``, without their game rules' parts (``rules-*.json``, test_rules_view.py)."""
    return [p for p in folder.iterdir() if not p.name.startswith("rules-")]


def _no_validation(*args, **kwargs):
    raise AssertionError("validated again although nothing changed")


def test_a_kept_verdict_is_the_verdict_warnings_included(game, tmp_path: Path, monkeypatch) -> None:
    _with_a_warning(game)
    fresh = validate(game.cards_root, None, "mini")
    assert [p.code for p in fresh.warnings] == ["set-incomplete"] and not fresh.errors
    assert cached_validate(game.cards_root, None, "mini", tmp_path / "verdicts") == fresh
    monkeypatch.setattr(cache, "validate", _no_validation)
    kept = cached_validate(game.cards_root, None, "mini", tmp_path / "verdicts")
    assert kept == fresh and [p.text() for p in kept.items] == [p.text() for p in fresh.items]
    assert kept.completeness == fresh.completeness and kept.files == fresh.files


def test_a_broken_card_after_a_kept_verdict_still_fails(game, tmp_path: Path) -> None:
    _with_a_warning(game)
    assert not cached_validate(game.cards_root, None, "mini", tmp_path / "verdicts").errors
    cards = game.files["sets/base.json"]["cards"]
    cards[0]["types"] = ["no-such-type"]
    game.write()
    report = cached_validate(game.cards_root, None, "mini", tmp_path / "verdicts")
    assert report.errors and report == validate(game.cards_root, None, "mini")
    assert "set-incomplete" in [p.code for p in report.warnings]
    stored = [json.loads(p.read_text(encoding="utf-8")) for p in _entries(tmp_path / "verdicts")]
    assert all(not any(item["severity"] == "error" for item in s["report"]["items"]) for s in stored)
    again = cached_validate(game.cards_root, None, "mini", tmp_path / "verdicts")  # a failed verdict is not kept
    assert again == report


@pytest.mark.parametrize("change", ["card text", "new file", "template", "code", "working folder"])
def test_the_key_changes_with_what_validation_reads(game, tmp_path: Path, monkeypatch, change: str) -> None:
    package = tmp_path / "package"
    (package / "validate").mkdir(parents=True)
    (package / "validate" / "runner.py").write_text("# checks\n", encoding="utf-8")
    templates = tmp_path / "templates"
    (templates / "docs").mkdir(parents=True)
    (templates / "docs" / "labels.json").write_text("{}", encoding="utf-8")
    monkeypatch.setattr(cache, "package_dir", lambda: package)
    monkeypatch.setattr(cache, "data_dir", lambda name: templates if name == "templates" else tmp_path / name)
    game.write()
    before = verdict_key(game.cards_root, None, "mini")
    assert verdict_key(game.cards_root, None, "mini") == before
    if change == "card text":
        game.files["sets/base.json"]["cards"][0]["rules"] = "Edited."
        game.write()
    elif change == "new file":
        (game.root / "art").mkdir(exist_ok=True)
        (game.root / "art" / "new.svg").write_text("<svg/>", encoding="utf-8")
    elif change == "template":
        (templates / "docs" / "labels.json").write_text('{"a": "b"}', encoding="utf-8")
    elif change == "code":
        (package / "validate" / "runner.py").write_text("# checks, changed\n", encoding="utf-8")
    else:
        monkeypatch.chdir(tmp_path)
    assert verdict_key(game.cards_root, None, "mini") != before


def test_another_game_does_not_change_the_key(game, tmp_path: Path) -> None:
    game.write()
    before = verdict_key(game.cards_root, None, "mini")
    other = game.cards_root / "other"
    other.mkdir()
    (other / "notes.txt").write_text("not a game", encoding="utf-8")
    assert verdict_key(game.cards_root, None, "mini") == before
    assert verdict_key(game.cards_root, None, None) != verdict_key(game.cards_root, None, "mini")


def test_a_damaged_entry_is_validated_again_and_replaced(game, tmp_path: Path) -> None:
    _with_a_warning(game)
    folder = tmp_path / "verdicts"
    fresh = cached_validate(game.cards_root, None, "mini", folder)
    [entry] = _entries(folder)
    entry.write_text('{"format": 1, "key": "', encoding="utf-8")
    assert cached_validate(game.cards_root, None, "mini", folder) == fresh
    assert json.loads(entry.read_text(encoding="utf-8"))["key"] == verdict_key(game.cards_root, None, "mini")


def test_a_file_changed_while_validating_is_not_kept(game, tmp_path: Path, monkeypatch) -> None:
    game.write()
    real = cache.validate

    def edited_meanwhile(*args, **kwargs):
        report = real(*args, **kwargs)
        (game.root / "sets" / "base.json").write_text(json.dumps(game.files["sets/base.json"]) + " ",
                                                      encoding="utf-8")
        return report

    monkeypatch.setattr(cache, "validate", edited_meanwhile)
    cached_validate(game.cards_root, None, "mini", tmp_path / "verdicts")
    assert not (tmp_path / "verdicts").exists()


def test_an_unreadable_file_changes_the_key_instead_of_failing_it(game, monkeypatch) -> None:
    """A file validation cannot read is its problem to report: the key notes the error and validation runs."""
    game.write()
    before = verdict_key(game.cards_root, None, "mini")

    def denied(path, *args, **kwargs):
        raise PermissionError(13, "Permission denied", path)

    monkeypatch.setattr(cache, "open", denied, raising=False)
    assert verdict_key(game.cards_root, None, "mini") != before


def test_a_fifo_is_keyed_unopened_and_reported_by_validation(game, tmp_path: Path) -> None:
    import os

    game.write()
    before = verdict_key(game.cards_root, None, "mini")
    os.mkfifo(game.root / "sets" / "pipe.json")
    assert verdict_key(game.cards_root, None, "mini") != before  # returns: the FIFO was not opened
    report = cached_validate(game.cards_root, None, "mini", tmp_path / "verdicts")
    assert "not-a-regular-file" in [p.code for p in report.items]


def test_a_folder_that_cannot_be_written_keeps_nothing_and_fails_nothing(game, tmp_path: Path) -> None:
    """A no-op build into a read-only output folder succeeds (tests/hostile/test_faults.py): the verdict is used,
    not kept."""
    _with_a_warning(game)
    blocked = tmp_path / "file-not-folder"
    blocked.write_text("", encoding="utf-8")
    report = cached_validate(game.cards_root, None, "mini", blocked / "verdicts")
    assert report == validate(game.cards_root, None, "mini") and report.warnings


def test_a_fifo_planted_as_the_entry_is_not_waited_on(game, tmp_path: Path) -> None:
    import os

    game.write()
    folder = tmp_path / "verdicts"
    cached_validate(game.cards_root, None, "mini", folder)
    [entry] = _entries(folder)
    entry.unlink()
    os.mkfifo(entry)
    assert cached_validate(game.cards_root, None, "mini", folder) == validate(game.cards_root, None, "mini")


def test_a_verdict_is_kept_only_when_the_build_says_so(game, tmp_path: Path) -> None:
    """The build keeps a new verdict once it has published its outputs: one that failed after validation
    (a broken template) leaves no trace (tests/render/test_pack_build.py: a failed build writes nothing)."""
    from cardworks.validate.cache import Verdicts

    game.write()
    verdicts = Verdicts(tmp_path / "verdicts", game.cards_root, None, "mini")
    assert not verdicts.report().errors
    assert not (tmp_path / "verdicts").exists()
    verdicts.keep()
    assert len(_entries(tmp_path / "verdicts")) == 1 and len(list((tmp_path / "verdicts").iterdir())) == 2


def test_the_kept_entry_names_no_folder_of_this_machine(game, tmp_path: Path, monkeypatch) -> None:
    """Problems outside the working folder name absolute paths; the entry stores them by number of root (the
    build folder must name no machine path: tests/test_no_machine_paths.py) and reads them back the same."""
    _with_a_warning(game)
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "elsewhere")  # the game outside the working folder: its paths are absolute
    fresh = validate(game.cards_root, None, "mini")
    assert str(game.cards_root) in fresh.warnings[0].file
    folder = tmp_path / "verdicts"
    assert cached_validate(game.cards_root, None, "mini", folder) == fresh
    [entry] = _entries(folder)
    assert all(str(tmp_path) not in kept.read_text(encoding="utf-8") for kept in folder.iterdir())
    monkeypatch.setattr(cache, "validate", _no_validation)
    assert cached_validate(game.cards_root, None, "mini", folder) == fresh
