"""Exports read the build's face cache: a face laid out once is not laid out again, and the file is the same."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from cardworks.export.common import render_deck
from cardworks.loading import load_database
from cardworks.render.deck import build_deck
from cardworks.render.facecache import FaceCache
from cardworks.render.facepdf import save_pdf
from conftest import REPO

pytestmark = pytest.mark.slow


def test_a_second_export_lays_nothing_out_and_writes_the_same_pages(tmp_path: Path) -> None:
    db = load_database(REPO / "cards" / "fallera")
    deck = build_deck(db, "discordia", None)
    deck = replace(deck, cards=deck.cards[:2])
    cache = FaceCache(tmp_path / "faces")
    uncached = render_deck(db, deck, "en")
    first = render_deck(db, deck, "en", cache=cache)
    second = render_deck(db, deck, "en", cache=cache)
    assert len(first.result.rendered) == len(first.order) == 3  # two designs and their back
    assert second.result.rendered == []
    assert save_pdf(second.pdf) == save_pdf(first.pdf) == save_pdf(uncached.pdf)
