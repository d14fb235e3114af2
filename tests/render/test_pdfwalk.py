"""Saving passes walk only the objects a save writes: a joined deck's replaced font copies are not parsed,
and the saved bytes are those a walk over every object gives."""

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


def test_replaced_font_copies_are_not_reached(tmp_path) -> None:
    deck = assemble(_faces(), ["a", "b", "c"], 3, "en", groups={"a": "pair", "b": "pair", "c": "c"}, scratch=tmp_path)
    every, walked = _fonts(deck.objects), _fonts(reachable(deck))
    assert walked < every  # face b's own copy of the pair's font is in the file, replaced by face a's
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
    orphans = _fonts(deck.objects) - _fonts(reachable(deck))
    before = {objgen: str(deck.get_object(objgen).BaseFont) for objgen in orphans}
    assert subset_tags.retag_subsets(deck) == 2  # the two reached subsets each get their own tag
    assert {objgen: str(deck.get_object(objgen).BaseFont) for objgen in orphans} == before
