"""The preview's start-up answers the first page before it does anything that page does not need (issue 44
item 5: the first page within 2 s): the build is not imported to find the game, and checking the data and
drawing the faces wait until the first deck page is sent (or a grace time passes); the rendering process itself
is started before (a Ctrl-C must never fall into its start)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from cardworks.render.build import has_cards as build_has_cards
from cardworks.serve import Preview, ServeOptions, adapter, create_app
from conftest import REPO
from multisize import multisize_pack

LOCAL = "http://127.0.0.1"


def test_the_preview_finds_games_with_cards_as_the_build_does(tmp_path: Path) -> None:
    folders = [p.parent for p in (REPO / "cards").glob("*/game.json")] + [tmp_path]
    (tmp_path / "game.json").write_text("{}", encoding="utf-8")
    assert len(folders) >= 3
    answers = {folder.name: adapter.has_cards(folder) for folder in folders}
    assert answers == {folder.name: build_has_cards(folder) for folder in folders}
    assert True in answers.values() and answers[tmp_path.name] is False


def test_the_first_page_needs_no_build_import(tmp_path: Path) -> None:
    pack = multisize_pack(tmp_path / "pack")
    code = ("import sys; from pathlib import Path; from cardworks.serve import Preview, ServeOptions, create_app;"
            f"p = Preview(ServeOptions(Path({str(REPO / 'cards')!r}), (Path({str(pack)!r}),), locale='en'), defer=True);"
            "create_app(p); print(p.snapshot.title); print('cardworks.render.build' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["An example expansion pack", "False"]


@pytest.mark.slow
def test_checking_the_data_waits_for_the_first_page(tmp_path: Path) -> None:
    pack = multisize_pack(tmp_path / "pack")
    preview = Preview(ServeOptions(REPO / "cards", (pack,), locale="en"), defer=True)
    try:
        app = create_app(preview, watching=False, first_page_grace=3600)
        with TestClient(app, base_url=LOCAL) as client:  # the server's start-up (lifespan) has run
            assert not preview.ready.is_set()  # the data is not checked before a page
            # the rendering process is started before any page (its start ignores Ctrl-C for a moment: a Ctrl-C
            # sent once a page was answered would otherwise be lost, and the server would not stop)
            assert preview._worker._process is not None
            html = client.get("/deck").text
            assert "reading and checking the data…" in html
            assert preview.ready.wait(120)  # the page sent: the data is checked, then the faces drawn
            assert "18 of 18 designs shown" in client.get("/deck").text
    finally:
        preview.close()


@pytest.mark.slow
def test_without_a_page_the_start_up_begins_after_the_grace_time(tmp_path: Path) -> None:
    pack = multisize_pack(tmp_path / "pack")
    preview = Preview(ServeOptions(REPO / "cards", (pack,), locale="en"), defer=True)
    try:
        with TestClient(create_app(preview, watching=False, first_page_grace=0.0), base_url=LOCAL):
            assert preview.ready.wait(120)  # no page asked for: checked anyway
    finally:
        preview.close()
