"""``validate`` keeps what a build would refuse between runs (``render.buildable.cached_unbuildable``): asked again
with nothing changed it is answered from the user's cache folder; an edit to the data asks again; a damaged table
is started afresh."""

from __future__ import annotations

from pathlib import Path

from cardworks.problems import Problem
from cardworks.render import buildable
from conftest import GameDir


def test_the_answer_is_kept_until_the_data_changes(game: GameDir, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("CARDWORKS_CACHE", str(tmp_path / "cache"))
    game.write()
    asked: list[int] = []
    said = [Problem("sets/base.json", "/cards/0/name", "missing-translation", "no es name", "warning")]
    monkeypatch.setattr(buildable, "unbuildable", lambda root, packs, locales: asked.append(1) or said)
    assert buildable.cached_unbuildable(game.cards_root, [], []) == said
    assert buildable.cached_unbuildable(game.cards_root, [], []) == said and asked == [1]
    assert buildable.cached_unbuildable(game.cards_root, [], ["es"]) == said and asked == [1, 1]  # other locales
    (game.root / "sets" / "base.json").write_text((game.root / "sets" / "base.json").read_text("utf-8") + " ", "utf-8")
    assert buildable.cached_unbuildable(game.cards_root, [], []) == said and asked == [1, 1, 1]
    (tmp_path / "cache" / buildable.CACHE_TABLE).write_text("[[[", "utf-8")
    assert buildable.cached_unbuildable(game.cards_root, [], []) == said and len(asked) == 4
