"""What makes a face cheaper keeps its look: SVG icons drawn once per document and size as form XObjects
(render/svgforms.py) look as when WeasyPrint draws each use, and are written once; icons and values laid out flat
in the header and stats line (templates/cards/face.html.j2) look as their own flex boxes did, and the stats line
laid out flat (no flex box) as its flex box did."""

from __future__ import annotations

import io
from pathlib import Path
from urllib.parse import quote

import pikepdf
import pytest

from cardworks.loading import load_database
from cardworks.render.deck import build_deck
from cardworks.render.faces import Face, build_job, layout_document
from cardworks.render.fetcher import safe_fetcher
from cardworks.render.fonts import font_folders
from cardworks.render.jinja import templates_dir
from cardworks.render.svgforms import SvgForms
from conftest import REPO
from flex_lines import flex_stats


def _rasters(data: bytes) -> list:
    import numpy
    import pypdfium2

    document = pypdfium2.PdfDocument(data)
    pages = [numpy.asarray(document[i].render(scale=200 / 72).to_pil().convert("RGB"), dtype=int)
             for i in range(len(document))]
    document.close()
    return pages


def _same_pages(mine: bytes, theirs: bytes) -> None:
    pages_mine, pages_theirs = _rasters(mine), _rasters(theirs)
    assert len(pages_mine) == len(pages_theirs)
    for one, other in zip(pages_mine, pages_theirs):
        assert one.shape == other.shape and abs(one - other).max() <= 1  # anti-aliasing rounding at most


def _forms(data: bytes) -> dict[str, int]:
    """Forms drawn where an image is (WeasyPrint names images ``/i…``) → how many pages draw them."""
    drawn: dict[str, int] = {}
    with pikepdf.open(io.BytesIO(data)) as pdf:
        for page in pdf.pages:
            names = {str(operands[0]) for operands, operator in pikepdf.parse_content_stream(page)
                     if str(operator) == "Do"}
            for name in names:
                xobject = page.obj.Resources.XObject[name]
                if name.startswith("/i") and xobject.get("/Subtype") == "/Form":
                    drawn[name] = drawn.get(name, 0) + 1
    return drawn


@pytest.mark.slow  # lays out 16 faces twice
def test_faces_look_the_same_and_write_each_icon_once(monkeypatch: pytest.MonkeyPatch) -> None:
    db = load_database(REPO / "cards" / "fallera")
    job = build_job(db, build_deck(db, "expert"), "en")
    faces = [face for face in job.faces if isinstance(face, Face)][:16]
    fetcher = safe_fetcher([templates_dir(), *map(Path, job.roots), *font_folders()])
    forms = layout_document(job, faces, fetcher).write_pdf()
    monkeypatch.setattr("cardworks.render.faces.SvgForms", dict)  # WeasyPrint's own way: every use drawn
    drawn = layout_document(job, faces, fetcher).write_pdf()
    _same_pages(forms, drawn)
    shared = _forms(forms)
    assert sum(shared.values()) >= len(faces) and max(shared.values()) >= 10  # an icon on many faces, written once
    assert _forms(drawn) == {} and len(forms) < len(drawn)


SVG = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10" width="10" height="10">'
       '<defs><linearGradient id="g"><stop offset="0" stop-color="red"/><stop offset="1" stop-color="blue"/>'
       '</linearGradient></defs><rect x="-4" y="2" width="18" height="6" fill="url(#g)"/>'
       '<circle cx="5" cy="5" r="3" fill="green" opacity="0.5"/></svg>')
"""An icon with a gradient, a translucent shape and a bar reaching out of its viewport."""


def _with_image_and_text() -> str:
    """An icon holding a PNG of its own and a line of text (a font of the document's)."""
    import base64

    from PIL import Image

    png = io.BytesIO()
    Image.new("RGB", (4, 4), (200, 30, 30)).save(png, format="PNG")
    return ('<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 20 20" '
            f'width="20" height="20"><image x="2" y="2" width="8" height="8" xlink:href="data:image/png;base64,'
            f'{base64.b64encode(png.getvalue()).decode()}"/><text x="2" y="18" font-size="8" font-family="DejaVu Sans">'
            'Ab</text></svg>')


@pytest.mark.slow  # renders two small documents twice
@pytest.mark.parametrize("svg", [SVG, _with_image_and_text()], ids=["gradient-translucent-outside", "image-and-text"])
def test_an_icon_at_several_sizes_looks_the_same(svg: str) -> None:
    from weasyprint import HTML

    url = "data:image/svg+xml," + quote(svg)
    body = "".join(f'<p style="margin: 0 0 4mm 6mm"><img src="{url}" style="width: {size}mm"> text</p>'
                   for size in (4, 7, 4, 12))
    html = f"<style>@page {{ size: 60mm 60mm; margin: 3mm }}</style>{body}<p style='break-before: page'>{body}</p>"
    forms = HTML(string=html).render(cache=SvgForms()).write_pdf()
    drawn = HTML(string=html).render(cache={}).write_pdf()
    _same_pages(forms, drawn)
    assert sorted(_forms(forms).values()) == [2, 2, 2]  # three sizes, each on both pages


def _nested(html: str) -> str:
    """The face's markup as it was: each stat's and the kind's icon and value in a flex box of their own."""
    import re

    html = flex_stats(html)
    html = re.sub(r'<img class="stat-icon" ([^>]*)><span class="stat-value">([^<]*)</span>',
                  r'<span class="stat"><img \1>\2</span>', html)
    html = re.sub(r'<img class="kind-icon" ([^>]*)>(?:<span class="kind-value">([^<]*)</span>)?',
                  lambda found: f'<span class="kind"><img {found[1]}>{found[2] or ""}</span>', html)
    return html


@pytest.mark.slow  # lays out the expert deck's faces twice
def test_flat_icons_and_values_look_as_nested_flex_boxes_did(monkeypatch: pytest.MonkeyPatch) -> None:
    from cardworks.render import faces as module
    from cardworks.render.measure import measure

    db = load_database(REPO / "cards" / "fallera")
    job = build_job(db, build_deck(db, "expert"), "en")
    faces = [face for face in job.faces if isinstance(face, Face)]
    fetcher = safe_fetcher([templates_dir(), *map(Path, job.roots), *font_folders()])
    flat = layout_document(job, faces, fetcher)
    typeset = module.typeset
    seen: list[str] = []

    def nested(html: str, lang: str) -> str:
        seen.append(_nested(typeset(html, lang)))
        return seen[-1]

    monkeypatch.setattr(module, "typeset", nested)
    old = layout_document(job, faces, fetcher)
    assert seen[0].count('class="stat"') > 50 and seen[0].count('class="kind"') > 10  # the old markup was laid out
    assert 'class="spacer"' in seen[0] and 'class="marks"' not in seen[0]  # and the flex stats line
    assert measure(flat, {}) == measure(old, {})  # the same overflow verdicts
    _same_pages(flat.write_pdf(), old.write_pdf())
