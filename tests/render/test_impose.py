"""Imposition on its own: grids, marks, duplex flips, offsets and the calibration page."""

from __future__ import annotations

import io

import pikepdf
import pytest

from cardworks.render.impose import MM, SheetLayout, calibration, crop_marks, impose


def _faces(count: int) -> pikepdf.Pdf:
    """``count`` blank 69 × 94 mm pages, each with a distinct rectangle."""
    pdf = pikepdf.new()
    for i in range(count):
        page = pikepdf.Dictionary(Type=pikepdf.Name.Page, MediaBox=[0, 0, 69 * MM, 94 * MM],
                                  Contents=pdf.make_stream(f"0 0 {10 + i} 10 re f".encode()))
        pdf.pages.append(pikepdf.Page(page))
    return pdf


@pytest.mark.parametrize("paper, gutter, grid", [("a4", 0, (3, 3)), ("letter", 0, (3, 3)), ("a4", 6, (2, 3))])
def test_grid_fits_paper(paper: str, gutter: float, grid: tuple[int, int]) -> None:
    layout = SheetLayout(paper=paper, gutter=gutter)
    assert layout.grid == grid
    width, height = layout.size
    for x, y in layout.cells():
        assert x >= layout.min_margin and x + 63 <= width - layout.min_margin
        assert y >= layout.min_margin and y + 88 <= height - layout.min_margin


def test_page_edge_marks_stay_in_the_margins() -> None:
    layout = SheetLayout(marks="page-edge")
    cells = layout.cells()
    left = min(x for x, _ in cells)
    right = max(x for x, _ in cells) + 63
    bottom = min(y for _, y in cells)
    top = max(y for _, y in cells) + 88
    marks = crop_marks(layout, cells)
    assert len(marks) == 2 * 4 + 2 * 4  # 4 vertical cut lines, 4 horizontal, both ends
    for x1, y1, x2, y2 in marks:
        outside = max(y1, y2) <= bottom or min(y1, y2) >= top or max(x1, x2) <= left or min(x1, x2) >= right
        assert outside


def test_card_marks_in_gutters_surround_each_card() -> None:
    layout = SheetLayout(gutter=8)
    cells = layout.cells()
    marks = crop_marks(layout, cells)
    assert len(marks) == len(cells) * 8  # every corner of every card keeps both ticks when gutters are wide
    for x1, y1, x2, y2 in marks:
        assert any(abs(x1 - v) < 0.1 for x, _ in cells for v in (x, x + 63)) or \
               any(abs(y1 - v) < 0.1 for _, y in cells for v in (y, y + 88))
    assert crop_marks(SheetLayout(marks="none"), layout.cells()) == []


def test_short_edge_duplex_mirrors_rows_and_applies_offsets() -> None:
    layout = SheetLayout(duplex="short", offset_x=1.5, offset_y=-0.5)
    cells = layout.cells()
    x, y = layout.back_cell(0)  # top-left front → bottom-left back
    assert (x - 1.5, y + 0.5) == pytest.approx(cells[6])


def test_impose_places_each_copy_and_reuses_one_form_per_design() -> None:
    faces = _faces(3)
    copies = [0, 0, 1, 2, 2, 2, 2, 2, 2, 2, 1]  # 11 cards → 2 sheets
    out = impose(faces, copies, back_page=2, layout=SheetLayout())
    assert len(out.pages) == 4
    saved = io.BytesIO()
    out.save(saved)
    reread = pikepdf.open(saved)
    drawn = []
    for page in reread.pages[::2]:
        drawn += [str(ops[0]) for ops, op in pikepdf.parse_content_stream(page) if str(op) == "Do"]
    assert drawn == [f"/F{i}" for i in copies]
    forms = {obj.objgen for obj in reread.objects if isinstance(obj, pikepdf.Stream) and obj.get("/Subtype") == "/Form"}
    assert len(forms) == 3


def test_no_backs_without_duplex() -> None:
    out = impose(_faces(2), [0, 1], back_page=1, layout=SheetLayout(duplex="none"))
    assert len(out.pages) == 1


def test_calibration_has_a_front_ruler_and_a_back_pointer() -> None:
    pdf = calibration(SheetLayout())
    assert len(pdf.pages) == 2
    front = [op for _, op in pikepdf.parse_content_stream(pdf.pages[0]) if str(op) == "l"]
    back = [op for _, op in pikepdf.parse_content_stream(pdf.pages[1]) if str(op) == "l"]
    assert len(front) == 2 * 31 + 2 and len(back) == 2


def test_card_too_big_for_paper_is_refused() -> None:
    with pytest.raises(ValueError):
        SheetLayout(trim_w=250, trim_h=88).grid
