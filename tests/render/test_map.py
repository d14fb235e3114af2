"""The Kingdom map diagram: read back from its SVG and from a rendering, labels cross no line, cover no shape,
nothing is clipped, and the legend lists exactly what is drawn, on both sides of the board, in every locale."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from cardworks.loading import load_database
from cardworks.loading.records import Index
from cardworks.render.docs.generated import Generator
from cardworks.render.docs.mapsvg import (HEIGHT, WIDTH, circle_meets_box, map_svg, segment_meets_box,
                                          text_box)
from cardworks.render.docs.texts import DocTexts, icon_urls
from conftest import REPO

SVG = "{http://www.w3.org/2000/svg}"
DB = load_database(REPO / "cards" / "fallera")


def _sides(locale: str):
    texts = DocTexts(DB, locale)
    for board in Index(DB).of_kind("board"):
        for side in board.model.sides:
            names = {s.id: str(texts.text(board.id, f"sides/{side.id}/spaces/{s.id}/name", s.name)) for s in side.spaces}
            yield side, str(map_svg(side, names, str(texts.label("start"))))


def _read(svg: str) -> dict:
    """Lines, circles and text boxes, from the SVG's own coordinates and the font's advance widths."""
    root = ET.fromstring(svg)
    lines = [tuple(float(e.get(k)) for k in ("x1", "y1", "x2", "y2")) for e in root.iter(f"{SVG}line")]
    circles = [(float(e.get("cx")), float(e.get("cy")), float(e.get("r"))) for e in root.iter(f"{SVG}circle")]
    sizes = {m.group(1): float(m.group(2)) for m in re.finditer(r"\.([a-z-]+)\{font-size:([\d.]+)px", svg)}
    texts = [(e.get("class"), e.text, text_box(float(e.get("x")), float(e.get("y")), e.text, sizes[e.get("class")]))
             for e in root.iter(f"{SVG}text")]
    return {"lines": lines, "circles": circles, "texts": texts}


@pytest.mark.parametrize("locale", ["en", "ca", "es"])
def test_labels_cross_no_line_and_cover_no_shape(locale: str) -> None:
    sides = list(_sides(locale))
    assert {side.id for side, _ in sides} == {"normal", "expert"}
    for side, svg in sides:
        drawn = _read(svg)
        labels = [(text, box) for kind, text, box in drawn["texts"] if kind == "label"]
        assert len(labels) == len(side.spaces)
        for text, box in labels:
            assert not [line for line in drawn["lines"] if segment_meets_box(line, box)], (side.id, text)
            assert not [c for c in drawn["circles"] if circle_meets_box(*c, box)], (side.id, text)
            others = [other for kind, t, other in drawn["texts"] if t != text]
            assert not [o for o in others if o[0] < box[2] and box[0] < o[2] and o[1] < box[3] and box[1] < o[3]]
        for kind, text, box in drawn["texts"]:  # nothing is clipped: every label and "?" inside the drawing
            assert 0 <= box[0] and box[2] <= WIDTH and 0 <= box[1] and box[3] <= HEIGHT, (side.id, text)
        for x1, y1, x2, y2 in drawn["lines"]:
            assert all(0 <= v <= WIDTH for v in (x1, x2)) and all(0 <= v <= HEIGHT for v in (y1, y2))


@pytest.mark.slow
def test_rendered_map_shows_each_label_inside_its_box(tmp_path: Path) -> None:
    """Rendered to PNG through WeasyPrint: ink where each label's box is, none outside the drawing."""
    import pypdfium2

    from cardworks.render.docs.documents import render_pdf
    from cardworks.render.fonts import font_face_css

    sides = list(_sides("ca"))
    assert sides
    for side, svg in sides:
        sized = svg.replace("<svg ", f'<svg width="{WIDTH}mm" height="{HEIGHT}mm" ', 1)
        html = (f"<html><head><style>@page {{ size: {WIDTH + 20}mm {HEIGHT + 20}mm; margin: 10mm }} body {{ margin: 0 }}"
                f"{font_face_css()}</style></head><body>{sized}</body></html>")
        path = tmp_path / f"{side.id}.pdf"
        path.write_bytes(render_pdf(html, DB.game.root))
        page = pypdfium2.PdfDocument(path)[0]
        scale = 8  # pixels per millimetre
        image = page.render(scale=scale * 25.4 / 72).to_pil().convert("L")
        pixels = image.load()
        offset = 10 * scale
        for kind, text, (x0, y0, x1, y1) in _read(svg)["texts"]:
            area = [pixels[x, y] for x in range(int(offset + x0 * scale), int(offset + x1 * scale))
                    for y in range(int(offset + y0 * scale), int(offset + y1 * scale))]
            assert min(area) < 128, (side.id, text)  # the glyphs are drawn inside the computed box
        inked = [(x, y) for x in range(0, image.size[0], 2) for y in range(0, image.size[1], 2) if pixels[x, y] < 200]
        assert min(x for x, _ in inked) >= offset - 2 and max(x for x, _ in inked) <= offset + WIDTH * scale + 2
        assert min(y for _, y in inked) >= offset - 2 and max(y for _, y in inked) <= offset + HEIGHT * scale + 2


def test_legend_lists_what_the_side_draws() -> None:
    texts = DocTexts(DB, "es")
    index = Index(DB)
    html = str(Generator(index, texts, ["base", "discordia", "mes-enlla"], icon_urls(index, texts))("map"))
    figures = re.findall(r'<figure class="generated map">(.*?)</figure>', html, re.S)
    assert len(figures) == 2
    for figure in figures:
        svg, caption = figure.split("<figcaption>")
        drawn = {"space"} if 'class="space"' in svg else set()
        drawn |= {"access"} if 'class="access"' in svg else set()
        drawn |= {"unknown"} if 'class="unknown-access"' in svg else set()
        drawn |= {"inferred"} if 'class="inferred-access"' in svg or re.search(r'class="count"[^>]*>\d+†', svg) else set()
        assert set(re.findall(r'data-key="([a-z]+)"', caption)) == drawn
        assert "accesos cuyo destino no da ningún reglamento" in caption
