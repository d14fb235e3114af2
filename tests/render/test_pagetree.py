"""render/pagetree.py and the print-shop assembly built on it: pages in order, boxes set, linear cost."""

from __future__ import annotations

import io

import pikepdf
import pytest

from cardworks.render.pagetree import set_pages
from cardworks.render.facepdf import assemble, save_pdf


def _face(width: float) -> bytes:
    pdf = pikepdf.new()
    pdf.add_blank_page(page_size=(width, 200))
    buffer = io.BytesIO()
    pdf.save(buffer)
    return buffer.getvalue()


def test_foreign_and_own_pages_come_in_the_order_given() -> None:
    sources = [pikepdf.open(io.BytesIO(_face(100 + i))) for i in range(3)]
    out = pikepdf.new()
    own = pikepdf.Dictionary(Type=pikepdf.Name.Page, MediaBox=[0, 0, 50, 50])
    pages = set_pages(out, [sources[2].pages[0].obj, own, sources[0].pages[0].obj])
    assert [float(p.mediabox[2]) for p in pages] == [102, 50, 100]
    reread = pikepdf.open(io.BytesIO(save_pdf(out)))
    assert [float(p.mediabox[2]) for p in reread.pages] == [102, 50, 100]


def test_a_pdf_that_has_pages_already_is_refused() -> None:
    out = pikepdf.new()
    out.add_blank_page()
    with pytest.raises(ValueError, match="no pages yet"):
        set_pages(out, [pikepdf.Dictionary(Type=pikepdf.Name.Page, MediaBox=[0, 0, 5, 5])])


def test_assembled_faces_keep_order_and_boxes() -> None:
    faces = {f"f{i}": _face(100 + i) for i in range(4)}
    order = ["f3", "f1", "f0", "f2"]
    pdf = pikepdf.open(io.BytesIO(save_pdf(assemble(faces, order, 3.0, "en"))))
    assert [float(p.mediabox[2]) for p in pdf.pages] == [103, 101, 100, 102]
    inset = round(3.0 * 72 / 25.4, 4)
    assert [float(v) for v in pdf.pages[0].obj.TrimBox] == pytest.approx([inset, inset, 103 - inset, 200 - inset])


def test_setting_pages_reads_the_page_list_the_same_number_of_times_at_any_count(monkeypatch) -> None:
    """The linear cost, counted rather than timed: pikepdf looks through the whole page list at each ``pages``
    lookup or append, so a fill that reads the list once a page costs the square of the deck's size
    (``bench/pagetree.py`` times it: about 1.0x a page at 1,500 pages against 150, appending 6 to 7x)."""
    reads = [0]
    pages_of = pikepdf.Pdf.pages

    def counted(pdf):  # type: ignore[no-untyped-def]
        reads[0] += 1
        return pages_of.__get__(pdf)

    monkeypatch.setattr(pikepdf.Pdf, "pages", property(counted))
    counts = {}
    for name, fill in (("set_pages", set_pages), ("append", _append)):
        for count in (3, 300):
            reads[0] = 0
            pdf = pikepdf.new()
            fill(pdf, [pikepdf.Dictionary(Type=pikepdf.Name.Page, MediaBox=[0, 0, 9, count]) for _ in range(count)])
            counts[name, count] = reads[0]
            assert len(pdf.pages) == count and float(pdf.pages[-1].mediabox[3]) == count
    assert counts["set_pages", 3] == counts["set_pages", 300] <= 2, counts
    assert counts["append", 300] > 100 * counts["append", 3] / 3, counts  # the way it was: a read per page


def _append(pdf: pikepdf.Pdf, pages: list[pikepdf.Dictionary]) -> None:
    for page in pages:  # what assemble did: each append and pages[-1] look through the whole page list
        pdf.pages.append(pikepdf.Page(page))
        pdf.pages[-1]
