"""The shipped face's stats line is laid out flat (no flex box, templates/cards/face.html.j2 and cards.css): its
icons, values and marks must stay where the flex box put them, and marks that a long line runs into must still be
reported (render/measure.py)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from cardworks.loading import load_database
from cardworks.render import faces as module
from cardworks.render.deck import build_deck
from cardworks.render.faces import Face, build_job, layout_document
from cardworks.render.fetcher import safe_fetcher
from cardworks.render.fonts import font_folders
from cardworks.render.jinja import templates_dir
from cardworks.render.measure import _leaves, _spills_out, measure
from conftest import FALLERA
from flex_lines import flex_stats


@pytest.fixture(scope="module")
def expert():
    db = load_database(FALLERA)  # the shipped game cut for the tests: the shipped templates, icons and marks
    job = build_job(db, build_deck(db, "expert"), "en")
    fetcher = safe_fetcher([templates_dir(), *map(Path, job.roots), *font_folders()])
    return job, [face for face in job.faces if isinstance(face, Face)], fetcher


def _stats_boxes(document) -> dict[str, tuple]:
    """Face id → the stats line's box and what is drawn in it (kind, x, y, width, height), left to right."""
    found = {}
    for page in document.pages:
        stack = [(page._page_box, None)]
        while stack:
            box, face_id = stack.pop()
            element = getattr(box, "element", None)
            if element is not None and (element.get("id") or "").startswith("card-") and box.element_tag == "section":
                face_id = element.get("id").removeprefix("card-")
            if face_id and element is not None and "stats" in (element.get("class") or "").split() \
                    and box.element_tag == "div":
                found[face_id] = (box, sorted((type(leaf).__name__.endswith("TextBox"), round(leaf.border_box_x(), 2),
                                               round(leaf.border_box_y(), 2), round(leaf.border_width(), 2),
                                               round(leaf.border_height(), 2)) for leaf in _leaves(box)))
                continue
            stack.extend((child, face_id) for child in getattr(box, "children", []))
    return found


def test_the_flat_stats_line_places_what_the_flex_box_placed(expert, monkeypatch: pytest.MonkeyPatch) -> None:
    job, faces, fetcher = expert
    # the faces with the most in their stats line: values, icons and marks, some marks with a dagger
    chosen = sorted(faces, key=lambda face: -(len(face.stats) + len(face.marks) + sum(bool(m.mark) for m in face.marks)))[:8]
    assert any(mark.mark for face in chosen for mark in face.marks) and all(face.stats and face.marks for face in chosen)
    flat = layout_document(job, chosen, fetcher)
    typeset = module.typeset
    monkeypatch.setattr(module, "typeset", lambda html, lang: flex_stats(typeset(html, lang)))
    flexed = layout_document(job, chosen, fetcher)
    mine, theirs = _stats_boxes(flat), _stats_boxes(flexed)
    assert mine.keys() == theirs.keys() == {face.id for face in chosen}
    for face_id in mine:
        assert mine[face_id][0].style["display"] != theirs[face_id][0].style["display"]  # flat against a flex box
        assert [leaf[0] for leaf in mine[face_id][1]].count(False) >= 2  # a stat icon and a mark drawn
        assert mine[face_id][1] == theirs[face_id][1], face_id  # the same places, to a hundredth of a pixel


def test_marks_a_long_stats_line_runs_into_are_reported(expert) -> None:
    job, faces, fetcher = expert
    face = next(face for face in faces if face.stats and face.marks)
    crowded = replace(face, id="crowded", stats=face.stats * 5, marks=face.marks * 3)  # narrower than the line
    document = layout_document(job, [face, crowded], fetcher)
    stats = {face_id: box for face_id, (box, _) in _stats_boxes(document).items()}
    assert not _spills_out(stats["crowded"])  # nothing leaves the line: the marks are drawn over the last stats
    overflow, _ = measure(document, {})
    assert face.id not in overflow and overflow["crowded"].parts == ("stats",)
