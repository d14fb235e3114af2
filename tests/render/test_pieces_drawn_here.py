"""After an edit that changes none of a piece's pages, the build draws that piece here from the layout cache
instead of starting worker processes; a page the cache lacks still goes to the workers, laid out there."""

from __future__ import annotations

import concurrent.futures
import copy
from dataclasses import dataclass
from pathlib import Path

import pytest

from cardworks.render import workers
from cardworks.render.docs import build as docs_build
from cardworks.render.manifest import OutputRecord
from cardworks.render.piecepdf import NotLaidOut, layout_cache, piece_pdf
from conftest import GameDir, mini_files

pytestmark = pytest.mark.slow  # lays out two one-line pages


@dataclass(frozen=True)
class _Page:
    """A stand-in piece: one page of ``words`` laid out through the layout cache, as every piece is."""

    game_root: str
    words: str
    game: str = "mini"
    locale: str = "en"
    kind: str = "page"
    record_selection: None = None
    paper: str = "a4"

    @property
    def path(self) -> str:
        return f"mini/en/{self.words}.pdf"

    def render(self, db=None):
        html = f"<html><body><p>{self.words}</p></body></html>"
        return piece_pdf(html, Path(self.game_root)), 1, []


def test_cached_only_serves_a_kept_page_and_refuses_a_new_one(tmp_path: Path) -> None:
    html = "<html><body><p>Kept</p></body></html>"
    with layout_cache(tmp_path / "layouts"):
        laid_out = piece_pdf(html, tmp_path)
    with layout_cache(tmp_path / "layouts", cached_only=True):
        assert piece_pdf(html, tmp_path) == laid_out
        with pytest.raises(NotLaidOut):
            piece_pdf("<html><body><p>New</p></body></html>", tmp_path)
    assert len(list((tmp_path / "layouts").glob("*.pdf"))) == 1, "a refused page is not laid out"


def test_only_pieces_with_uncached_pages_go_to_the_workers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    game = GameDir(tmp_path / "cards", copy.deepcopy(mini_files()))
    game.write()
    out = tmp_path / "out"
    kept_page, new_page, other = (_Page(str(game.root), words) for words in ("kept", "new", "other"))
    with layout_cache(out / docs_build.LAYOUT_CACHE):
        kept_page.render()  # built before: its page is in the layout cache
    sent: list[_Page] = []

    class Workers(concurrent.futures.ThreadPoolExecutor):  # records what would go to worker processes
        def submit(self, fn, task, *args, **kwargs):
            sent.append(task)
            return super().submit(fn, task, *args, **kwargs)
    monkeypatch.setattr(workers, "ProcessPoolExecutor", Workers)
    before = {page.path: OutputRecord(game="mini", locale="en", kind="page", path=page.path, pages=1, sha256="",
                                      input_hash="before the edit") for page in (kept_page, new_page, other)}
    results = docs_build.build_documents([kept_page, new_page, other], out, before, jobs=2)
    assert [task for task, _, rendered in results if rendered] == [kept_page, new_page, other]
    assert sent == [new_page, other]  # two pages to lay out: worth the workers
    assert len(list((out / docs_build.LAYOUT_CACHE).glob("*.pdf"))) == 3
