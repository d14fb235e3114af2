"""bench/facebound.py's document holds each face's texts on one page of its own, and says so when it does not."""

from __future__ import annotations

import importlib.util
from dataclasses import replace

import pytest

from cardworks.loading import load_database
from cardworks.render.deck import build_deck
from cardworks.render.faces import Face, build_job
from cardworks.render.fetcher import safe_fetcher
from cardworks.render.fonts import font_folders
from conftest import FALLERA, REPO


def _bench():
    """bench/facebound.py as a module (not put on the path: bench/render.py would hide tests/render)."""
    spec = importlib.util.spec_from_file_location("facebound", REPO / "bench" / "facebound.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_bound_holds_each_faces_texts_on_one_page_and_refuses_a_face_that_takes_more() -> None:
    bound_html, one_page_each = _bench().bound_html, _bench().one_page_each
    db = load_database(FALLERA)
    job = build_job(db, build_deck(db, "expert"), "en")
    faces = [face for face in job.faces if isinstance(face, Face) and face.rules and face.flavour][:3]
    assert len(faces) >= 2
    fetcher = safe_fetcher(font_folders())
    html = bound_html(faces, job.icons, job.lang)
    for face in faces:
        assert face.name in html and face.flavour in html  # the face's own strings (quotes left as in the data)
    assert "<img" not in html and "flex" not in html and "position" not in html
    one_page_each(html, len(faces), fetcher)
    long = replace(faces[0], rules=faces[0].rules * 30)
    with pytest.raises(SystemExit, match=rf"{len(faces)} faces. texts took [0-9]+ pages, not one each"):
        one_page_each(bound_html([long, *faces[1:]], job.icons, job.lang), len(faces), fetcher)
