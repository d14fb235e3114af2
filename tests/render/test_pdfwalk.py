"""Faces of one document are joined with one copy of its fonts, and saving passes walk only the objects a
save writes; the saved bytes are those a walk over every object gives."""

from __future__ import annotations

import io

import pikepdf
from weasyprint import HTML

from cardworks.render import determinism, subset_tags
from cardworks.render.facepdf import assemble, save_pdf
from cardworks.render.pdfwalk import reachable


def _faces() -> dict[str, bytes]:
    """Two faces laid out in one document (one subset, one tag) and one of another (another subset, the same tag)."""
    pair = HTML(string="<p>abc</p><p style='break-before: page'>abd</p>").write_pdf()
    other = HTML(string="<p>xyz</p>").write_pdf()
    faces = {}
    for name, data, page in (("a", pair, 0), ("b", pair, 1), ("c", other, 0)):
        pdf = pikepdf.open(io.BytesIO(data))
        single = pikepdf.new()
        single.pages.append(pdf.pages[page])
        buffer = io.BytesIO()
        single.save(buffer)
        faces[name] = buffer.getvalue()
    return faces


def _fonts(objects) -> set[tuple[int, int]]:
    return {o.objgen for o in objects if isinstance(o, pikepdf.Dictionary) and o.get("/Type") == "/Font"}


def _orphan_one_font(deck: pikepdf.Pdf) -> None:
    """Point face c's font names at face a's fonts: c's own font stays in the file, reached by nothing."""
    fonts_a, fonts_c = deck.pages[0].Resources.Font, deck.pages[2].Resources.Font
    for name in list(fonts_c.keys()):
        fonts_c[name] = fonts_a[next(iter(fonts_a.keys()))]


def test_faces_of_one_document_are_joined_with_one_copy_of_its_fonts(tmp_path) -> None:
    deck = assemble(_faces(), ["a", "b", "c"], 3, "en", groups={"a": "pair", "b": "pair", "c": "c"}, scratch=tmp_path)
    assert _fonts(deck.objects) == _fonts(reachable(deck))  # no copy of the pair's font left unreached
    assert [f.objgen for f in deck.pages[0].Resources.Font.values()] == \
        [f.objgen for f in deck.pages[1].Resources.Font.values()]
    apart = assemble(_faces(), ["a", "b", "c"], 3, "en", scratch=tmp_path)  # no groups: each face its own copy
    assert len(_fonts(apart.objects)) > len(_fonts(deck.objects))


def test_unreached_objects_are_not_walked(tmp_path) -> None:
    deck = assemble(_faces(), ["a", "b", "c"], 3, "en", groups={"a": "pair", "b": "pair", "c": "c"}, scratch=tmp_path)
    _orphan_one_font(deck)
    every, walked = _fonts(deck.objects), _fonts(reachable(deck))
    assert walked < every
    saved = pikepdf.open(io.BytesIO(save_pdf(deck)))
    assert len(_fonts(saved.objects)) == len(walked)  # what the save wrote: exactly the fonts walked


def test_walking_only_the_reached_objects_saves_the_same_bytes(tmp_path, monkeypatch) -> None:
    faces = _faces()
    order, groups = ["a", "b", "c"], {"a": "pair", "b": "pair", "c": "c"}
    walked = save_pdf(assemble(faces, order, 3, "en", groups=groups, scratch=tmp_path))
    monkeypatch.setattr(determinism, "reachable", lambda pdf: iter(pdf.objects))
    monkeypatch.setattr(subset_tags, "reachable", lambda pdf: iter(pdf.objects))
    everything = save_pdf(assemble(faces, order, 3, "en", groups=groups, scratch=tmp_path))
    assert walked == everything


def test_an_unreached_font_is_neither_normalised_nor_retagged(tmp_path) -> None:
    deck = assemble(_faces(), ["a", "b", "c"], 3, "en", groups={"a": "pair", "b": "pair", "c": "c"}, scratch=tmp_path)
    _orphan_one_font(deck)
    orphans = _fonts(deck.objects) - _fonts(reachable(deck))
    before = {objgen: str(deck.get_object(objgen).BaseFont) for objgen in orphans}
    assert orphans
    assert subset_tags.retag_subsets(deck) == 1  # the one reached subset (the pair's); c's is reached no more
    assert {objgen: str(deck.get_object(objgen).BaseFont) for objgen in orphans} == before
