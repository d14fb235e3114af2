"""Typography of card faces, read from WeasyPrint's layout of the real Catalan deck and from its PDF pages:
rules texts hyphenate only when a line would otherwise be short by more than a third, and quotes are curly."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader
from typeset_checks import split_names, straight_quotes

from cardworks.loading.database import load_database
from cardworks.render.deck import build_deck
from cardworks.render.faces import (
    Face,
    build_job,
    chunks,
    layout_document,
    render_faces,
)
from cardworks.render.fetcher import safe_fetcher
from cardworks.render.fonts import font_face_css, font_folders, text_width
from cardworks.render.jinja import templates_dir

REPO = Path(__file__).resolve().parents[2]
HYPHENS = ("‐", "-", "\u00ad")
PX_PT = 0.75


def _lines(box: Any) -> list[Any]:
    from weasyprint.formatting_structure.boxes import LineBox

    found, stack = [], [box]
    while stack:
        current = stack.pop()
        if isinstance(current, LineBox):
            found.append(current)
            continue
        stack.extend(getattr(current, "children", None) or [])
    return found


def _texts(line: Any) -> list[Any]:
    from weasyprint.formatting_structure.boxes import TextBox

    found, stack = [], [line]
    while stack:
        current = stack.pop()
        if isinstance(current, TextBox):
            found.append(current)
        stack.extend(reversed(getattr(current, "children", None) or []))
    return sorted(found, key=lambda box: box.position_x)


def early_hyphenations(block: Any) -> list[tuple[str, float]]:
    """Lines of ``block`` that end in a hyphen although, without the hyphenated piece, they would be short by a
    third or less of the block's width (the line, and how much of the width it would have left free)."""
    bad = []
    width = block.width
    for line in _lines(block):
        texts = _texts(line)
        if not texts or not texts[-1].text.rstrip().endswith(HYPHENS):
            continue
        last = texts[-1]
        words = last.text.rstrip().split(" ")
        piece = words[-1]
        size = last.style["font_size"] * PX_PT
        weight = "bold" if last.style["font_weight"] >= 600 else "normal"
        piece_width = text_width(piece, size, weight=weight) / PX_PT
        used = last.position_x + last.width - block.content_box_x() - piece_width
        free = (width - used) / width
        if free <= 1 / 3 - 0.02:
            bad.append(("".join(t.text for t in texts), round(free, 2)))
    return bad


def _rules_blocks(document: Any) -> dict[str, Any]:
    """Each face's rules box (``.rules``) in a laid-out document of faces, by face id."""
    found: dict[str, Any] = {}
    for page in document.pages:
        stack = [page._page_box]
        while stack:
            box = stack.pop()
            element = getattr(box, "element", None)
            if element is not None and "rules" in (element.get("class") or "").split() and box.element_tag == "div":
                found[element.get("id").removeprefix("rules-")] = box
                continue
            stack.extend(getattr(box, "children", None) or [])
    return found


@pytest.fixture(scope="module")
def catalan() -> tuple[dict[str, Any], list[bytes]]:
    """The expert deck in Catalan: each face's rules box as laid out, and the face PDFs."""
    db = load_database(REPO / "cards" / "fallera")
    job = build_job(db, build_deck(db, "expert"), "ca")
    result = render_faces(job)  # fits each face's rules text size first
    faces = [face for face in job.faces if isinstance(face, Face)]
    fetcher = safe_fetcher([templates_dir(), *map(Path, job.roots), *font_folders()])
    blocks: dict[str, Any] = {}
    for part in chunks(faces):
        blocks.update(_rules_blocks(layout_document(job, part, fetcher)))
    return blocks, result.pdfs


@pytest.mark.slow
def test_catalan_rules_texts_hyphenate_only_lines_that_would_be_short(catalan) -> None:
    blocks, _ = catalan
    assert len(blocks) >= 70  # the faces that have a rules text
    bad = {face: found for face, block in blocks.items() if (found := early_hyphenations(block))}
    assert not bad, bad


@pytest.mark.slow
def test_face_texts_have_no_straight_quotes_and_no_cut_name(catalan) -> None:
    from cardworks.render.typography import database_names

    _, pdfs = catalan
    text = "\n".join(page.extract_text() for data in pdfs for page in PdfReader(io.BytesIO(data)).pages)
    assert "’" in text  # the Catalan deck elides (l’, d’): the check reads real apostrophes
    assert not straight_quotes(text), straight_quotes(text)[:10]
    names = database_names(load_database(REPO / "cards" / "fallera")).every
    assert not split_names(text, names), split_names(text, names)[:10]


def _column(style: str) -> Any:
    from weasyprint import HTML

    html = (f'<html lang="ca"><style>{font_face_css()}</style><body style="margin:0"><div class="rules" id="rules-x" '
            f'style="width: 60mm; font-family: CardSans; font-size: 9pt; hyphens: auto; {style}">Amb un '
            'desenvolupament molt extraordinàriament meravellós</div></body></html>')
    return _rules_blocks(HTML(string=html).render())["x"]


def test_the_check_finds_a_line_hyphenated_with_room_to_spare() -> None:
    """The bad case: ``hyphens: auto`` without a limit zone hyphenates a line that was already 85 % full; with
    the cards' ``hyphenate-limit-zone`` the same text is not hyphenated there."""
    assert early_hyphenations(_column("")) == [("Amb un desenvolupament molt ex‐", 0.15)]
    assert early_hyphenations(_column("hyphenate-limit-zone: 33%")) == []
