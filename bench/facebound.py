"""The bound under a face's layout cost: a document holding exactly the faces' texts, laid out as plain blocks.

Issue 31 item 5 asks a face to cost at most 2× a one-page WeasyPrint floor (``render.weasyprint_floor``).
This document keeps what a face's text costs (the same title, stats values, rules text, flavour and footer
strings, in the same fonts and sizes, rules and flavour hyphenated as on the card) and drops everything else
a face draws: no flex boxes, no images, no absolute positioning, no margin boxes, no frame. If even this is
above 2× the floor, the goal cannot be met without changing what a face shows.

    python bench/facebound.py [--locale en]
"""

from __future__ import annotations

import argparse
import io
import sys
import time
from html import escape
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def bound_html(faces: list, icons: dict[str, tuple[str, str]], lang: str, hyphens: bool = True) -> str:
    """One page per face at the face's layout size: its strings as plain blocks (icons as their alt text)."""
    from cardworks.markup.parser import parse, plain_text
    from cardworks.render.faces import FIT_SIZES
    from cardworks.render.fonts import font_face_css

    alt = {token: text for token, (_, text) in icons.items()}
    hyphenate = "hyphens: auto; hyphenate-limit-zone: 33%;" if hyphens else ""
    css = (f"{font_face_css()} @page {{ size: 69mm 94mm; margin: 0 }} body {{ margin: 0 }}"
           " section { break-after: page; padding: 5mm; font-family: CardSans; color: #231f1a }"
           " .name { font-family: CardCondensed; font-weight: bold; line-height: 1.05; width: 36mm }"
           " .stats { font-weight: bold; font-size: 9pt }"
           f" .rules {{ line-height: 1.18; {hyphenate} width: 52.2mm }}"
           " .flavour { font-family: CardSerif; font-style: italic; font-size: 6.4pt; line-height: 1.15;"
           f" text-align: center; {hyphenate} width: 52.6mm }}"
           " .foot { font-size: 4.2pt }")
    pages = []
    for face in faces:
        stats = " ".join([*(stat["value"] for stat in face.stats), *(m.mark for m in face.marks if m.mark),
                          face.kind_mark + (face.sell or ""), face.type_mark])
        parts = [f'<div class="name" style="font-size: {face.name_size}pt">{escape(face.name)}</div>',
                 f'<div class="stats">{escape(stats)}</div>']
        if face.rules:
            rules = plain_text(parse(face.rules), alt)
            parts.append(f'<div class="rules" style="font-size: {FIT_SIZES[face.fit]}pt">{escape(rules)}</div>')
        if face.flavour:
            parts.append(f'<div class="flavour">{escape(face.flavour)}</div>')
        footer = " ".join(text for text in (f"✎ {face.artist}" if face.artist else "", face.unverified) if text)
        if footer:
            parts.append(f'<div class="foot">{escape(footer)}</div>')
        pages.append(f"<section>{''.join(parts)}</section>")
    return (f'<!DOCTYPE html><html lang="{lang}"><head><meta charset="utf-8"><style>{css}</style></head>'
            f"<body>{''.join(pages)}</body></html>")


def lay_out(html: str, fetcher=None) -> int:
    """Lay ``html`` out and write its PDF, as the floor does; its pages."""
    from weasyprint import HTML

    from cardworks.render.fonts import shared_font_config

    document = HTML(string=html, url_fetcher=fetcher).render(font_config=shared_font_config())
    document.write_pdf(io.BytesIO())
    return len(document.pages)


def one_page_each(html: str, faces: int, fetcher=None) -> None:
    """Raise SystemExit unless each face's texts took exactly one page (else the bound would count page breaks)."""
    pages = lay_out(html, fetcher)
    if pages != faces:
        raise SystemExit(f"{faces} faces' texts took {pages} pages, not one each")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--locale", default="en")
    args = parser.parse_args()
    sys.path.insert(0, str(Path(__file__).parent))
    from render import weasyprint_floor

    from cardworks.loading import load_database
    from cardworks.render.deck import build_deck
    from cardworks.render.faces import Face, build_job, render_faces
    from cardworks.render.fetcher import safe_fetcher
    from cardworks.render.fonts import font_folders

    db = load_database(REPO / "cards" / "fallera")
    job = build_job(db, build_deck(db, "expert"), args.locale)
    render_faces(job)  # each face at the rules size it ends with: the bound lays each face out once
    faces = [face for face in job.faces if isinstance(face, Face)]
    fetcher = safe_fetcher(font_folders())  # the fonts, nothing else
    documents = {"text as plain blocks": bound_html(faces, job.icons, job.lang),
                 "the same, not hyphenated": bound_html(faces, job.icons, job.lang, hyphens=False)}
    weasyprint_floor(1)  # imports and fonts loaded before anything is timed
    for html in documents.values():
        one_page_each(html, len(faces), fetcher)
    floors: list[float] = []
    bounds: dict[str, list[float]] = {name: [] for name in documents}
    for _ in range(3):  # alternated, the least of each
        start = time.process_time()
        weasyprint_floor(32)  # renders its document twice (warm-up, timed)
        floors.append((time.process_time() - start) / 64 * 1000)
        for name, html in documents.items():
            start = time.process_time()
            lay_out(html, fetcher)
            bounds[name].append((time.process_time() - start) / len(faces) * 1000)
    floor_ms = min(floors)
    print(f"expert deck, {args.locale}, {len(faces)} faces; floor {floor_ms:.2f} ms a page (least of 3 alternated runs)")
    for name, times in bounds.items():
        print(f"  {name}: {min(times):.2f} ms a face, {min(times) / floor_ms:.2f}× the floor")


if __name__ == "__main__":
    main()
