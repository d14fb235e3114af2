"""Faces that are only an image, written without HTML layout.

A back with art (drawn by the shipped back template) and a card of layout ``art-only`` are one picture
covering trim and bleed. Laying such a face out with WeasyPrint was most of an art deck's build, for a page
that holds one image. Here it is written as a one-page PDF with pikepdf: the PNG's own compressed rows as an
image XObject (:mod:`.rawpng`, the same bytes WeasyPrint would embed), placed as CSS ``background-size: cover``
places it around its focus point, clipped to the page. The sheets then place that page like any other face.

A face whose look could draw it otherwise (a deck template or back template of its own, a stylesheet that
does more than set custom properties), whose file the renderer's fetcher would refuse, or whose image cannot
go in undecoded (a JPEG, transparency, a palette) is left to WeasyPrint: the same page, only slower.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urlparse
from urllib.request import url2pathname

from ..resources import data_dir
from .rawpng import PngRows, png_rows

MM_PT = 72 / 25.4
DECK_TEMPLATE = "cards/cards.html.j2"
BACK_TEMPLATE = "cards/back.html.j2"


@dataclass(frozen=True)
class ImageFace:
    """A face drawn as its image alone: the page's size in mm (trim + bleed), the image and its focus point."""

    width_mm: float
    height_mm: float
    rows: PngRows
    focus: tuple[float, float]
    """From 0 to 1 across and down: the point of the image kept in view when it is cropped (CSS position)."""


def plain_stylesheet(text: str) -> bool:
    """True when a stylesheet does nothing but set custom properties on ``:root`` (a game's colours): it cannot
    change how an opaque image covering the page is drawn."""
    import tinycss2

    for rule in tinycss2.parse_stylesheet(text, skip_comments=True, skip_whitespace=True):
        if rule.type != "qualified-rule" or tinycss2.serialize(rule.prelude).strip() != ":root":
            return False
        declarations = tinycss2.parse_declaration_list(rule.content, skip_comments=True, skip_whitespace=True)
        if not all(d.type == "declaration" and d.name.startswith("--") for d in declarations):
            return False
    return True


def plain_look(overrides: tuple[str, ...], stylesheets: tuple[str, ...], template: str) -> bool:
    """True when a look draws a face of ``template`` (the back's, or none for an ``art-only`` card) the way the
    shipped templates do: no override folder holds the deck template or that one, and every stylesheet but
    the shipped ``cards/cards.css`` only sets custom properties."""
    names = [DECK_TEMPLATE, *([template] if template else [])]
    if any((Path(folder) / name).is_file() for folder in overrides for name in names):
        return False
    shipped = (data_dir("templates") / "cards" / "cards.css").resolve()
    for sheet in stylesheets:
        path = Path(url2pathname(urlparse(sheet).path)).resolve()
        if path == shipped:
            continue
        try:
            if not plain_stylesheet(path.read_text(encoding="utf-8")):
                return False
        except (OSError, UnicodeDecodeError):
            return False  # WeasyPrint reads it, and says what is wrong with it
    return True


def image_face(url: str, width_mm: float, height_mm: float, focus: tuple[float, float],
               roots: list[Path]) -> ImageFace | None:
    """The image face of the art at ``url`` on a page of ``width_mm`` × ``height_mm``, or None when the renderer's
    fetcher would refuse the file or its image cannot go in undecoded (then WeasyPrint draws it, and says why)."""
    from .fetcher import _image_refusal, allowed

    roots = [root.resolve() for root in roots]  # as the fetcher holds them: a database's roots may be relative
    if urlparse(url).scheme != "file" or not url.lower().endswith(".png") or not allowed(url, roots):
        return None
    if _image_refusal(url) is not None:
        return None
    try:
        data = Path(unquote(urlparse(url).path)).read_bytes()
    except OSError:
        return None
    rows = png_rows(data)
    if isinstance(rows, str):
        return None
    return ImageFace(width_mm, height_mm, rows, focus)


def cover(face: ImageFace) -> tuple[float, float, float, float]:
    """Where the image goes on the page, in points from its bottom left: x, y, width, height. Scaled to cover
    the page (the larger of the two ratios), its focus point at the same fraction of the page as of the
    image, as CSS places a background of ``background-size: cover`` at ``background-position: X% Y%``."""
    page_w, page_h = face.width_mm * MM_PT, face.height_mm * MM_PT
    scale = max(page_w / face.rows.width, page_h / face.rows.height)
    width, height = face.rows.width * scale, face.rows.height * scale
    x = (page_w - width) * face.focus[0]
    top = (page_h - height) * face.focus[1]  # CSS measures down from the top
    return x, page_h - top - height, width, height


def _num(value: float) -> str:
    return f"{value:.6f}".rstrip("0").rstrip(".")


def face_pdf(face: ImageFace) -> bytes:
    """The one-page PDF of ``face``: the page at trim + bleed, the image placed by :func:`cover`, clipped to it."""
    import pikepdf

    pdf = pikepdf.new()
    rows = face.rows
    parms = pikepdf.Dictionary(Predictor=15, Columns=rows.width, BitsPerComponent=8, Colors=rows.colours)
    image = pdf.make_stream(rows.data, Type=pikepdf.Name.XObject, Subtype=pikepdf.Name.Image, Width=rows.width,
                            Height=rows.height, BitsPerComponent=8, Interpolate=True,
                            ColorSpace=pikepdf.Name.DeviceRGB if rows.colours == 3 else pikepdf.Name.DeviceGray,
                            Filter=pikepdf.Name.FlateDecode, DecodeParms=parms)
    page_w, page_h = round(face.width_mm * MM_PT, 6), round(face.height_mm * MM_PT, 6)
    x, y, width, height = cover(face)
    content = (f"q 0 0 {_num(page_w)} {_num(page_h)} re W n {_num(width)} 0 0 {_num(height)} {_num(x)} {_num(y)} cm "
               f"/Im0 Do Q").encode("ascii")
    page = pikepdf.Dictionary(Type=pikepdf.Name.Page, MediaBox=[0, 0, page_w, page_h],
                              Resources=pikepdf.Dictionary(XObject=pikepdf.Dictionary(Im0=image)),
                              Contents=pdf.make_stream(content))
    pdf.pages.append(pikepdf.Page(page))
    buffer = io.BytesIO()
    pdf.save(buffer, deterministic_id=True, compress_streams=True)
    return buffer.getvalue()
