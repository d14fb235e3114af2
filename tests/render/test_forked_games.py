"""A build's worker processes draw their pieces from the games the build had loaded when it forked them, not
from a fresh load per piece (render/workers.py ``FORKED_GAMES``); a spawned worker, which has none, loads
its game itself."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pikepdf
import pytest

from cardworks.loading.database import Database, load_game
from cardworks.render.docs import build as docs_build
from cardworks.render import workers
from cardworks.render.impose import SheetLayout
from cardworks.render.pieces import piece_tasks
from conftest import REPO

pytestmark = pytest.mark.slow


@dataclass(frozen=True)
class Drawn:
    """What ``_render`` handed a task: the game it was given, if any."""

    game_root: str
    path: str = "game/en/piece.pdf"

    def render(self, db: Any = None) -> tuple[bytes, int, list[str]]:
        pdf = pikepdf.new()
        pdf.add_blank_page()
        import io

        out = io.BytesIO()
        pdf.save(out)
        return out.getvalue(), 1, ["given" if db is not None else "loaded"]


def test_a_worker_draws_from_the_game_the_build_forked_it_with(monkeypatch) -> None:
    monkeypatch.setattr(workers, "FORKED_GAMES", {"/games/one": object()})
    assert docs_build._render(Drawn("/games/one"))[3] == ["given"]
    assert docs_build._render(Drawn("/games/two"))[3] == ["loaded"], "a game not forked with is loaded by the task"


def test_a_piece_drawn_from_the_forked_game_is_the_piece_drawn_from_a_fresh_load(tmp_path: Path, monkeypatch) -> None:
    root = (REPO / "cards" / "calavera").resolve()
    db = Database(game=load_game(root))
    task = next(t for t in piece_tasks(db, ["en"], SheetLayout(), False, False) if t.kind == "score-sheet")
    fresh = docs_build._render(task)[0]
    monkeypatch.setattr(workers, "FORKED_GAMES", {str(root): db})
    assert docs_build._render(task)[0] == fresh
