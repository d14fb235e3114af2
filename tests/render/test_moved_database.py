"""A database moved to another folder is the same input: a rebuild from there rewrites nothing."""

from __future__ import annotations

import copy
import shutil
from pathlib import Path

import pytest

from conftest import GameDir, mini_files, run_cli

pytestmark = pytest.mark.slow


def _outputs(out: Path) -> dict[str, tuple[bytes, int]]:
    """Every output file with its bytes and modification time (a rewrite with equal bytes changes the time)."""
    return {str(p.relative_to(out)): (p.read_bytes(), p.stat().st_mtime_ns) for p in sorted(out.rglob("*")) if p.is_file()}


def test_rebuild_of_a_moved_database_rewrites_nothing(tmp_path: Path, monkeypatch) -> None:
    game = GameDir(tmp_path / "first" / "cards", copy.deepcopy(mini_files()))
    game.write()
    (game.root / "rules" / "en").mkdir(parents=True)
    (game.root / "rules" / "en" / "01-intro.md").write_text("# Intro\n\nSteal one {treasure} from a rival.\n")
    out = tmp_path / "out"
    args = ["build", "--out", str(out), "--locale", "en", "--jobs", "1"]
    assert run_cli("--cards", str(game.cards_root), *args).exit_code == 0
    before = _outputs(out)
    assert "manifest.json" in before and any(name.endswith("rulebook-all.pdf") for name in before), sorted(before)

    moved = tmp_path / "second" / "elsewhere" / "cards"
    moved.parent.mkdir(parents=True)
    shutil.move(game.cards_root, moved)
    monkeypatch.chdir(moved.parent.parent)  # and named by a relative path, as `cardworks build` names ./cards
    assert run_cli("--cards", "elsewhere/cards", *args).exit_code == 0
    after = _outputs(out)
    # The kept validation verdict is asked per database folder (its messages name paths as seen from there), so
    # the moved database is validated again and its verdict (and its game rules' part) kept beside the first:
    # two entries added, none rewritten.
    added = sorted(after.keys() - before.keys())
    assert len(added) == 2 and all(name.startswith(".cache/validation/") for name in added), added
    assert before.keys() <= after.keys()
    rewritten = sorted(name for name in before if after[name] != before[name])
    assert not rewritten, f"rewritten after the database moved: {rewritten}"

    (moved / "mini" / "rules" / "en" / "01-intro.md").write_text("# Intro\n\nSteal two {treasure} from a rival.\n")
    assert run_cli("--cards", str(moved), *args).exit_code == 0
    changed = _outputs(out)
    assert any(name.endswith("rulebook-all.pdf") and changed[name] != before[name] for name in before), \
        "a changed rulebook section must still rebuild the rulebook"
