"""The FAQ's two columns (``render/docs/columns.py``): each two pages of one narrow flow set side by side, read
back from the PDF: both halves of a page used, the rulings in reading order, the running header naming the
first and last ruling of each page, the last page balanced. Each check is shown failing on a layout that
skips the step it checks."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from conftest import REPO
from faq_pages import entry_numbers, pdf_lines

from cardworks.loading import load_database

pytestmark = pytest.mark.slow  # lays out and reads back PDFs

GAME = REPO / "cards" / "diables"
HEADER = re.compile(r"^(\d+)\u2013(\d+)$")


def _header_ranges(path: Path) -> list[tuple[int, int] | None]:
    """Each page's running ruling range (the top-right header, in the top margin), None where there is none."""
    from faq_pages import MARGIN_PT
    from pypdf import PdfReader

    found = []
    for page in PdfReader(path).pages:
        height = float(page.mediabox.height)
        header: list[str] = []

        def visit(text, cm, tm, font, size, header=header, height=height):
            if height - (cm[5] + cm[3] * tm[5]) < MARGIN_PT and HEADER.match(text.strip()):
                header.append(text.strip())

        page.extract_text(visitor_text=visit)
        match = HEADER.match(header[0]) if header else None
        found.append((int(match.group(1)), int(match.group(2))) if match else None)
    return found


def problems(path: Path, first_page: int = 2) -> list[str]:
    """What is wrong with the two columns of the FAQ at ``path`` (pages from ``first_page``)."""
    pages = pdf_lines(path)
    found = []
    for number, lines in enumerate(pages[first_page - 1:], start=first_page):
        halves = {line.right for line in lines}
        if halves != {False, True}:
            found.append(f"page {number}: text in one half only")
    numbers = entry_numbers(pages)
    if numbers != list(range(1, len(numbers) + 1)):
        found.append(f"rulings out of order: {numbers}")
    for number, (lines, header) in enumerate(zip(pages, _header_ranges(path)), start=1):
        on_page = [n for n in entry_numbers([lines])]
        if on_page and header != (on_page[0], on_page[-1]):
            found.append(f"page {number}: header {header}, rulings {on_page[0]}\u2013{on_page[-1]}")
    last = pages[-1]
    bottoms = [max((line.top for line in last if line.right is side), default=0.0) for side in (False, True)]
    tallest = max(line.size for line in last) * 12  # about the height of one ruling of a few lines
    if abs(bottoms[0] - bottoms[1]) > tallest:
        found.append(f"last page unbalanced: columns end at {bottoms[0]:.0f} and {bottoms[1]:.0f} pt")
    return found


def _faq_html() -> str:
    from cardworks.render.docs.documents import faq_html

    return faq_html(load_database(GAME), "en")


def _write(document, path: Path) -> Path:
    document.write_pdf(path)
    pdf_lines.cache_clear()
    return path


def test_the_faq_is_set_in_two_columns_read_in_order_with_its_ruling_range_in_each_header(tmp_path: Path) -> None:
    from cardworks.render.docs.documents import _layout

    html = _faq_html()
    path = _write(_layout(html, GAME), tmp_path / "faq.pdf")
    assert len(pdf_lines(path)) >= 3  # a cover and at least two pages of rulings: the pairing and the last page
    assert problems(path) == []
    assert len(entry_numbers(pdf_lines(path))) == 21  # every ruling of the game, read back


def _narrow(html: str):
    """The FAQ as laid out before its pages are paired: one narrow column a page."""
    from weasyprint import HTML

    from cardworks.render.docs.documents import _base_url
    from cardworks.render.fetcher import safe_fetcher
    from cardworks.render.fonts import font_folders
    from cardworks.render.jinja import templates_dir

    fetcher = safe_fetcher([templates_dir(), GAME, *font_folders()])
    return HTML(string=html, base_url=_base_url(), url_fetcher=fetcher).render()


def test_the_checks_fail_on_a_layout_that_skips_a_step(tmp_path: Path) -> None:
    from weasyprint.document import Page

    from cardworks.render.docs.columns import pair_columns

    html = _faq_html()
    narrow = _narrow(html)
    assert any("text in one half only" in p for p in problems(_write(narrow, tmp_path / "narrow.pdf")))

    unframed = _narrow(html)  # paired, but each page keeps the header of its left column
    framed_pages = [Page(page) for page in pair_columns(unframed)]
    found = problems(_write(unframed.copy(framed_pages), tmp_path / "unframed.pdf"))
    assert any("header" in p for p in found), found

    unbalanced = _narrow(html)
    pages = pair_columns(unbalanced, balance=False)
    found = problems(_write(unbalanced.copy([Page(page) for page in pages]), tmp_path / "unbalanced.pdf"))
    assert any("last page" in p or "one half only" in p for p in found), found


def test_a_page_after_the_flow_that_is_not_part_of_it_is_refused() -> None:
    from cardworks.render.docs.columns import pair_columns

    html = _faq_html().replace("</body>", '<p style="break-before: page">After the rulings</p></body>')
    with pytest.raises(ValueError, match="follow the two-column flow"):
        pair_columns(_narrow(html))


def test_the_frame_carries_every_running_string_of_a_page(tmp_path: Path) -> None:
    """The frame's pages set the chapter and ruling strings in order, so ``first`` and ``last`` read as in the
    flow; a name with quotes or a backslash is escaped, not cut short."""
    from cardworks.render.docs.columns import frame_html

    frame = frame_html("<html><head></head><body></body></html>",
                       [[("chapter", "It's \"odd\" \\ here"), ("ruling", "1"), ("ruling", "7")]], 2)
    from weasyprint import HTML

    document = HTML(string=frame + "").render()
    assert len(document.pages) == 2
    assert io.BytesIO(document.write_pdf()).getvalue().startswith(b"%PDF")
    assert "'1'" in frame and "'\\2013' '7'" in frame and "\\27 " in frame and "\\22 " in frame
