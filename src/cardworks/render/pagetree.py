"""Pages of a new PDF set in one step, so that the cost stays linear in the number of pages.

pikepdf's ``pdf.pages[i]`` and ``pdf.pages.append`` look the page up in the whole page list each time
(about 0.1 ms a call at 2,500 pages, 0.5 ms at 10,000), so a loop of them over a deck grows with the square
of its size. Here the pages are copied in (``copy_foreign`` for pages of other PDFs) and the page tree's
``/Kids`` is written once.
"""

from __future__ import annotations

import pikepdf


def set_pages(pdf: pikepdf.Pdf, pages: list[pikepdf.Object]) -> list[pikepdf.Page]:
    """Make ``pages`` (page dictionaries, of ``pdf`` or of other PDFs) the pages of ``pdf``, which has none yet;
    returns them as pdf's pages, in order. A foreign page is copied without its old ``/Parent``."""
    if len(pdf.pages):
        raise ValueError("set_pages fills a PDF that has no pages yet")
    tree = pdf.Root.Pages
    kids = []
    for page in pages:
        if not page.is_indirect:
            own = pdf.make_indirect(page)
        elif page.is_owned_by(pdf):
            own = page
        else:
            own = pdf.copy_foreign(page)
        own.Parent = tree
        kids.append(own)
    tree.Kids = pikepdf.Array(kids)
    tree.Count = len(kids)
    return list(pdf.pages)
