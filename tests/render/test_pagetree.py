"""render/pagetree.py and the print-shop assembly built on it: pages in order, boxes set, linear cost."""

from __future__ import annotations

import gc
import io
import time

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


def _per_page(count: int, fill) -> float:
    pages = [pikepdf.Dictionary(Type=pikepdf.Name.Page, MediaBox=[0, 0, 10, 10]) for _ in range(count)]
    pdf = pikepdf.new()
    gc.collect()
    start = time.process_time()
    fill(pdf, pages)
    return (time.process_time() - start) / count


def _append(pdf: pikepdf.Pdf, pages: list[pikepdf.Dictionary]) -> None:
    for page in pages:  # what assemble did: each append and pages[-1] look through the whole page list
        pdf.pages.append(pikepdf.Page(page))
        pdf.pages[-1]


def test_setting_pages_costs_the_same_a_page_at_any_count() -> None:
    costs = {}
    for name, fill in (("set_pages", set_pages), ("append", _append)):
        fill(pikepdf.new(), [pikepdf.Dictionary(Type=pikepdf.Name.Page, MediaBox=[0, 0, 9, 9])] * 50)  # warm up
        costs[name] = min(_per_page(150, fill) for _ in range(2)), _per_page(1500, fill)
    ratio = {name: large / small for name, (small, large) in costs.items()}
    assert ratio["set_pages"] < 1.5, f"a page costs {ratio['set_pages']:.2f}× as much at 1,500 pages as at 150"
    assert ratio["append"] > ratio["set_pages"], (ratio, costs)  # the way it was grows with the page count
