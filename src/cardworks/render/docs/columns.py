"""Two balanced columns per page from one narrow flow, laid out once.

WeasyPrint's own column layout lays each page's columns out at least twice, and many times over to balance
them (44 % of a two-column FAQ's processor time). Here the part of a document in ``.column-flow`` is laid out
once, in one column as wide as a column of the page (docs.css), so each page of that layout is one column,
broken by the stylesheet's own rules (``break-inside``, ``break-after``, orphans and widows). Two such pages
then make one page: the second one's column moved to the right. The last page is balanced by moving its
last whole blocks (a ruling, an index line, a heading with what follows it) to the top of the right column.
The running header and page number of each page are laid out in a small frame document of empty pages,
because the first and last ruling of a page are only known once its two columns are placed.
"""

from __future__ import annotations

import html as html_lib
from dataclasses import dataclass
from typing import Any

FLOW_CLASS = "column-flow"
"""The class of the sections that flow in two columns (docs/faq.html.j2)."""

CONTAINERS = {"section", "div", "ul", "ol"}
"""Blocks of a flow that group whole blocks and print nothing themselves (a topic, a list), except a div that
is a ruling: a ruling is kept whole (``break-inside: avoid``)."""

HEADINGS = {"h1", "h2", "h3"}


@dataclass
class Leaf:
    """A whole block of a flow on a page (a ruling, an index line, a heading, a note) and its box."""

    box: Any
    tag: str

    @property
    def top(self) -> float:
        return self.box.position_y

    @property
    def bottom(self) -> float:
        """The bottom of its border box: its bottom margin is truncated at the foot of a column."""
        return self.box.position_y + self.box.margin_top + self.box.border_height()

    @property
    def after(self) -> float:
        return self.box.position_y + self.box.margin_height()


def _classes(box: Any) -> list[str]:
    element = getattr(box, "element", None)
    return (element.get("class") or "").split() if element is not None and hasattr(element, "get") else []


def _is_container(box: Any) -> bool:
    return box.element_tag in CONTAINERS and "ruling" not in _classes(box) and any(
        _is_block(child) for child in box.children)


def _is_block(box: Any) -> bool:
    from weasyprint.formatting_structure import boxes

    return isinstance(box, boxes.BlockBox)


def flows(box: Any) -> list[Any]:
    """The boxes of the ``.column-flow`` sections under ``box``, in tree order."""
    if FLOW_CLASS in _classes(box):
        return [box]
    return [found for child in getattr(box, "children", []) for found in flows(child)]


def leaves(box: Any) -> list[Leaf]:
    """The whole blocks of a flow's box, in reading order."""
    found = []
    for child in box.children:
        if not _is_block(child):
            continue
        if _is_container(child):
            found.extend(leaves(child))
        else:
            found.append(Leaf(child, child.element_tag))
    return found


def _containers(box: Any) -> list[Any]:
    found = []
    for child in box.children:
        if _is_block(child) and _is_container(child):
            found.append(child)
            found.extend(_containers(child))
    return found


def _column_top(page_box: Any) -> float:
    return page_box.content_box_y()


def _balance(page_box: Any, column_flows: list[Any], right_x: float) -> None:
    """Balance the last page: move its last whole blocks to the top of the right column so the two columns end
    as near level as whole blocks allow, a heading never last in the left column."""
    blocks = [leaf for flow in column_flows for leaf in leaves(flow)]
    if len(blocks) < 2:
        return
    top = _column_top(page_box)
    # Where each block would sit if all of them stood in one column: a block at the head of a column keeps its
    # place; one that follows a block of another column comes right after it.
    stack, offset, previous = [], 0.0, None
    for leaf in blocks:
        if previous is not None and leaf.box.position_x != previous.box.position_x:
            offset = previous.after + offset - leaf.top + (leaf.box.margin_top if leaf.top <= top + 0.01 else 0)
        stack.append(leaf.top + offset)
        previous = leaf
    end = stack[-1] + blocks[-1].bottom - blocks[-1].top

    def heights(k: int) -> tuple[float, float]:
        left = stack[k - 1] + blocks[k - 1].bottom - blocks[k - 1].top - top
        right = end - (stack[k] + blocks[k].box.margin_top)
        return left, right

    room = page_box.height + 0.01  # a column never grows past the page
    choices = [k for k in range(1, len(blocks))
               if blocks[k - 1].tag not in HEADINGS and max(heights(k)) <= room]
    if not choices:
        return
    split = min(choices, key=lambda k: (max(heights(k)), -k))
    left_x = blocks[0].box.position_x
    shift = top - (stack[split] + blocks[split].box.margin_top)
    for k, leaf in enumerate(blocks):
        x = left_x if k < split else right_x
        y = stack[k] + (shift if k >= split else 0)
        leaf.box.translate(x - leaf.box.position_x, y - leaf.top)
    for flow in column_flows:
        for container in _containers(flow):
            inside = leaves(container)
            if inside:
                container.position_x = inside[0].box.position_x
                container.position_y = inside[0].box.position_y


def running_strings(page_box: Any) -> list[tuple[str, str]]:
    """The running strings the page's flow sets, in reading order: ``("chapter", text)`` for each heading that
    names a chapter (``h1``), ``("ruling", number)`` for each ruling (docs.css: ``string-set``)."""
    found = []
    for flow in flows(page_box):
        for box in _descendants(flow):
            if box.element_tag == "h1" and _is_block(box) and box.element is not None:
                found.append(("chapter", " ".join("".join(box.element.itertext()).split())))
            elif _is_block(box) and "ruling" in _classes(box) and box.element.get("data-number"):
                found.append(("ruling", box.element.get("data-number")))
    return found


def _descendants(box: Any) -> list[Any]:
    found = [box]
    for child in getattr(box, "children", []):
        found.extend(_descendants(child))
    return found


def pair_columns(document: Any, balance: bool = True) -> list[Any]:
    """The page boxes of ``document`` with each two pages of its column flow made one page of two columns.

    Pages before the flow are kept as they are; the last page is balanced unless ``balance`` is false (a test
    shows its check failing so); the flow runs to the end of the document (a page after it
    without it is an error: the layout would lose it)."""
    pages = [page._page_box for page in document.pages]
    start = next((i for i, page in enumerate(pages) if flows(page)), None)
    if start is None:
        return pages
    missing = [i + 1 for i in range(start, len(pages)) if not flows(pages[i])]
    if missing:
        raise ValueError(f"pages {missing} follow the two-column flow without being part of it")
    paired = pages[:start]
    for left_index in range(start, len(pages), 2):
        left = pages[left_index]
        column_flows = flows(left)
        width = column_flows[0].margin_width()
        right_x = left.content_box_x() + left.width - width
        if left_index + 1 < len(pages):
            right = pages[left_index + 1]
            root = right.children[0]
            root.translate(right_x - column_flows[0].position_x, 0)
            left.children = [left.children[0], root, *left.children[1:]]
            column_flows = flows(left)
        if balance and left_index + 2 >= len(pages):
            _balance(left, column_flows, right_x)
        paired.append(left)
    return paired


def _css_string(text: str) -> str:
    """``text`` as a CSS string inside a double-quoted HTML attribute."""
    escaped = "".join(ch if ch.isalnum() or ch in " -.,:;!?()" else f"\\{ord(ch):x} " for ch in text)
    return f"'{escaped}'"


def frame_html(document_html: str, page_strings: list[list[tuple[str, str]]], first_page: int) -> str:
    """A document of empty pages with the same head (fonts, stylesheets, page size) whose running headers and
    page numbers are those of the paired pages: ``first_page - 1`` pages before the flow (left without margin
    boxes), then one page per entry of ``page_strings`` (the running strings set on that page, in order)."""
    head = document_html[:document_html.index("<body")]
    pages = [["page: cover;"]] * (first_page - 1)
    for strings in page_strings:
        sets = []
        for kind, value in strings:
            if kind == "chapter":
                sets.append(f"string-set: chapter {_css_string(value)};")
            else:
                sets.append(f"string-set: first-ruling {_css_string(value)}, "
                            f"last-ruling '\\2013' {_css_string(value)};")
        pages.append(["page: faq-body;" + (sets[0] if sets else "")] + sets[1:])
    divs = []
    for index, styles in enumerate(pages):
        for line, style in enumerate(styles):
            brk = " break-before: page;" if index and not line else ""
            divs.append(f'<div style="{style}{brk} height: 0"></div>')
    return head + "<body>" + "".join(divs) + "</body></html>"


def two_columns(document: Any, document_html: str, render: Any) -> Any:
    """``document`` with its column flow on pages of two columns; ``render(html)`` lays out the frame of
    running headers and page numbers (with the document's fonts and fetcher)."""
    from weasyprint.document import Page

    if FLOW_CLASS not in document_html:  # a rulebook: no page to walk
        return document
    pages = pair_columns(document)
    start = next((i for i, page in enumerate(pages) if flows(page)), None)
    if start is None:
        return document
    frame = render(frame_html(document_html, [running_strings(page) for page in pages[start:]], start + 1))
    if len(frame.pages) != len(pages):
        raise ValueError(f"the frame of running headers has {len(frame.pages)} pages for {len(pages)}")
    for page, framed in zip(pages[start:], frame.pages[start:]):
        margins = [box for box in framed._page_box.children if type(box).__name__ == "MarginBox"]
        page.children = [box for box in page.children if type(box).__name__ != "MarginBox"] + margins
    copy = document.copy([Page(page) for page in pages])
    copy.frame = frame  # its fonts stay alive while the document is written
    return copy
