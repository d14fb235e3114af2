"""``--paper`` reaches every document (issue 44 item 7): the rulebook and FAQ index print on the paper the card
sheets do, not always on A4; an A4 build keeps its documents as they were (no page-size rule in their HTML)."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path

import pypdf
import pytest

from conftest import GameDir, mini_files

pytestmark = pytest.mark.slow
POINTS = {"a4": (595.28, 841.89), "letter": (612.0, 792.0), "legal": (612.0, 1008.0)}


def _game(tmp_path: Path) -> GameDir:
    files = copy.deepcopy(mini_files())
    files["rules/en/01-play.md"] = "# Play\n\nEach player in turn steals one treasure.\n"
    game = GameDir(tmp_path / "cards", files)
    game.write()
    return game


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_rulebook_and_faq_print_on_the_paper_asked(tmp_path: Path, paper: str) -> None:
    game = _game(tmp_path)
    out = tmp_path / "out"
    done = subprocess.run([sys.executable, "-m", "cardworks", "--cards", str(game.cards_root), "build", "--out", str(out),
                           "--locale", "en", "--jobs", "1", "--paper", paper], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    records = json.loads((out / "manifest.json").read_text())["outputs"]
    documents = [r for r in records if r["kind"] in ("rulebook", "faq")]
    assert {r["kind"] for r in documents} == {"rulebook", "faq"}, [r["kind"] for r in records]
    for record in documents:
        assert record["paper"] == paper, record
        pages = pypdf.PdfReader(out / record["path"]).pages
        assert len(pages) >= 1
        for page in pages:
            box = page.mediabox
            assert (float(box.width), float(box.height)) == pytest.approx(POINTS[paper], abs=0.5), (record["path"], box)
