"""A sheet of many copies of a few pieces, each piece laid out once and its drawing placed at every copy.

A sheet of standees holds 124 standees of 20 kinds; WeasyPrint laid each one out (a grid per panel, centred
text, an SVG outline), most of the sheet's time, to draw the same 20 pictures again and again. Here the sheet
is laid out twice, cheaply: once as a *frame*, where every copy is an empty box of the copy's size (so the
flow, rows and page breaks are the sheet's own), and once as a *sample* of one copy of each kind, each kind on
a page of its own. Each sample page becomes a form XObject, drawn in the frame at each of its copies, moved
by the offset between the two boxes: the drawing lands exactly where WeasyPrint would have drawn it.

A box to fill is marked ``data-stamp="<kind>"`` in the frame, and the box drawn for that kind is marked the
same in the sample. A frame box no sample page draws, or a sample page without its box, is an error (a copy
would go missing silently).
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pikepdf

from ..errors import CardworksError

PX_PT = 0.75
"""Points per CSS pixel: WeasyPrint writes one CSS pixel as 0.75 pt (96 px to the inch, 72 pt)."""

ATTRIBUTE = "data-stamp"


class StampError(CardworksError):
    """The frame and sample of a stamped sheet do not match (a bug in a template, never in the data)."""


def marked_boxes(document: Any) -> list[list[tuple[str, float, float]]]:
    """For each page of a laid-out WeasyPrint ``document``: (kind, x, y) of each box marked ``data-stamp``,
    at its border box's top left corner, in CSS pixels, in tree order."""
    pages = []
    for page in document.pages:
        found: list[tuple[str, float, float]] = []
        _walk(page._page_box, found)
        pages.append(found)
    return pages


def _walk(box: Any, found: list[tuple[str, float, float]]) -> None:
    element = getattr(box, "element", None)
    kind = element.get(ATTRIBUTE) if element is not None and hasattr(element, "get") else None
    if kind is not None and _is_principal(box):
        found.append((kind, box.border_box_x(), box.border_box_y()))
        return  # a copy's own children are the sample's business
    for child in getattr(box, "children", []):
        _walk(child, found)


def _is_principal(box: Any) -> bool:
    """The box an element makes itself, not an anonymous box or pseudo-element inside it (which carry its
    element too)."""
    return not type(box).__name__.startswith("Anonymous") and "::" not in (box.element_tag or "")


def stamp(frame: Any, sample: Any) -> bytes:
    """The PDF of the laid-out ``frame`` document with, at each box marked ``data-stamp``, the drawing of the
    ``sample`` page that holds that kind's box, moved onto it."""
    sample_pages = marked_boxes(sample)
    where: dict[str, tuple[int, float, float]] = {}
    for number, boxes in enumerate(sample_pages):
        if len(boxes) != 1:
            raise StampError(f"sample page {number + 1} holds {len(boxes)} marked boxes, not one")
        kind, x, y = boxes[0]
        if kind in where:
            raise StampError(f"the sample draws kind {kind!r} twice")
        where[kind] = (number, x, y)
    frame_pages = marked_boxes(frame)
    wanted = {kind for boxes in frame_pages for kind, _, _ in boxes}
    if wanted - where.keys() or where.keys() - wanted:
        raise StampError(f"the frame asks for kinds {sorted(wanted - where.keys())} the sample lacks and the "
                         f"sample draws kinds {sorted(where.keys() - wanted)} the frame never asks for")
    out = pikepdf.open(io.BytesIO(frame.write_pdf()))
    drawn = pikepdf.open(io.BytesIO(sample.write_pdf()))
    forms = {kind: out.copy_foreign(drawn.pages[number].as_form_xobject()) for kind, (number, _, _) in where.items()}
    for page, boxes in zip(out.pages, frame_pages):
        if not boxes:
            continue
        names = {}
        operators = [b"Q"]  # the frame's own drawing ends in the state it began with
        for kind, x, y in boxes:
            if kind not in names:
                names[kind] = _add_form(page, forms[kind], f"/Stamp{where[kind][0]}")
            _, sx, sy = where[kind]
            dx, dy = (x - sx) * PX_PT, -(y - sy) * PX_PT  # PDF's y axis points up, CSS's down
            operators.append(f"q 1 0 0 1 {_num(dx)} {_num(dy)} cm {names[kind]} Do Q".encode())
        page.contents_add(b"q", prepend=True)
        page.contents_add(b"\n".join(operators))
    buffer = io.BytesIO()
    out.save(buffer, deterministic_id=True)
    return buffer.getvalue()


def _add_form(page: pikepdf.Page, form: pikepdf.Object, name: str) -> str:
    """Name ``form`` in the page's resources as ``name`` (a name of our own: the same bytes from one build to
    the next, where pikepdf's own names are random). WeasyPrint's pages share one resource dictionary: a name
    another page gave the same form is kept, one naming anything else is an error."""
    if pikepdf.Name.Resources not in page.obj:
        page.obj.Resources = pikepdf.Dictionary()
    if pikepdf.Name.XObject not in page.obj.Resources:
        page.obj.Resources.XObject = pikepdf.Dictionary()
    xobjects = page.obj.Resources.XObject
    if name in xobjects:
        if xobjects[name].objgen != form.objgen:
            raise StampError(f"the frame page already names another object {name}")
        return name
    xobjects[name] = form
    return name


def _num(value: float) -> str:
    text = f"{value:.6f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


COPIES = "data-copies"


def copied_pages(document: Any) -> bytes:
    """The PDF of the laid-out ``document`` with the pages of each section marked ``data-copies="<n>"``
    printed ``n`` times in a row (a board's sheet, one page per copy of the board): the same pages, laid out
    once. Every page must belong to a marked section (a page of none would be printed once, or lost)."""
    runs: list[tuple[Any, int, list[Any]]] = []  # (section element, copies, its pages)
    for number, page in enumerate(document.pages):
        owner = _copied_section(page._page_box)
        if owner is None:
            raise StampError(f"page {number + 1} belongs to no section marked {COPIES}")
        element, count = owner
        if runs and runs[-1][0] is element:
            runs[-1][2].append(page)
        else:
            runs.append((element, count, [page]))
    return document.copy([page for _, count, run in runs for _ in range(count) for page in run]).write_pdf()


def _copied_section(box: Any) -> tuple[Any, int] | None:
    """The element marked ``data-copies`` a page's boxes come from, and its count; None when there is none."""
    element = getattr(box, "element", None)
    if element is not None and hasattr(element, "get") and element.get(COPIES) is not None:
        count = element.get(COPIES)
        if not count.isdigit() or int(count) < 1:
            raise StampError(f"{COPIES}={count!r}: not a number of copies")
        return element, int(count)
    for child in getattr(box, "children", []):
        found = _copied_section(child)
        if found is not None:
            return found
    return None


def lay_out(html: str, game_root: Path, what: str) -> Any:
    """``html`` laid out by WeasyPrint (a Document), reading only the templates, fonts and ``game_root``; with its
    user-agent stylesheet scoped where that prints the same (:func:`.docs.useragent.lay_out_scoped`)."""
    from .docs.useragent import lay_out_scoped
    from .fetcher import refusal_error, safe_fetcher
    from .fonts import font_folders, shared_font_config
    from .jinja import templates_dir

    roots = [templates_dir(), game_root, *font_folders()]
    fetcher = safe_fetcher(roots)
    document = lay_out_scoped(html, roots, lambda html_type: html_type(
        string=html, base_url=templates_dir().as_uri() + "/", url_fetcher=fetcher).render(
        font_config=shared_font_config()))
    if fetcher.refused:
        raise refusal_error(fetcher.refused, what)
    return document
