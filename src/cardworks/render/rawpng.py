"""Card art put into the PDF without decoding it: a PNG's compressed rows go in as they are.

WeasyPrint decodes every PNG it draws and compresses its pixels again, which for a deck of full-bleed
illustrations is most of the build's time. A PDF reader can undo PNG's row filters itself (a Flate stream
with ``/Predictor 15``, what img2pdf does), so an 8-bit RGB or greyscale PNG that is not interlaced and has
no transparency or orientation of its own is handed to WeasyPrint already made: it still places it (the same
size, position and clipping, so the page looks the same), but never decodes it. Any other PNG (palette,
alpha, 16-bit, interlaced, a damaged file) is drawn the usual way, decoded, and the reason is reported
(``decoded``), never dropped silently. JPEGs already go in undecoded (``/DCTDecode``).
"""

from __future__ import annotations

import struct
import zlib
from dataclasses import dataclass
from hashlib import md5
from typing import Any

SIGNATURE = b"\x89PNG\r\n\x1a\n"
COLOURS = {0: 1, 2: 3}
"""PNG colour type → colour channels, for the types passed through (greyscale, RGB)."""
DECODED_FOR = {b"tRNS": "it has a transparent colour (tRNS)", b"eXIf": "it has an orientation of its own (eXIf)"}
"""Chunks that make WeasyPrint change the pixels (an alpha channel, a rotation): such a PNG is decoded."""


@dataclass(frozen=True)
class PngRows:
    """A PNG's image data as it is in the file (its IDAT chunks joined), with what a PDF needs to read it."""

    width: int
    height: int
    colours: int
    data: bytes


def png_rows(data: bytes) -> PngRows | str:
    """The rows of ``data`` to pass through, or the reason it must be decoded instead (every chunk's CRC is
    checked, so a damaged file is decoded, and reported by the decoder, rather than embedded broken)."""
    if not data.startswith(SIGNATURE):
        return "it is not a PNG"
    position, header, rows = len(SIGNATURE), b"", []
    while position + 12 <= len(data):
        length, kind = struct.unpack(">I4s", data[position : position + 8])
        body = data[position + 8 : position + 8 + length]
        crc = data[position + 8 + length : position + 12 + length]
        if len(body) != length or len(crc) != 4 or zlib.crc32(kind + body) != int.from_bytes(crc, "big"):
            return f"its {kind.decode('latin-1')} chunk is damaged or cut short"
        if kind in DECODED_FOR:
            return DECODED_FOR[kind]
        if kind == b"IHDR":
            header = body
        elif kind == b"IDAT":
            rows.append(body)
        elif kind == b"IEND":
            break
        position += 12 + length
    else:
        return "it has no end (IEND) chunk"
    if len(header) != 13 or not rows:
        return "it has no header or no image data"
    width, height, depth, colour_type, _, _, interlace = struct.unpack(">IIBBBBB", header)
    if colour_type not in COLOURS:
        kind = {3: "palette", 4: "greyscale with alpha", 6: "RGB with alpha"}.get(colour_type, f"type {colour_type}")
        return f"its colours are {kind}"
    if depth != 8:
        return f"it has {depth}-bit channels"
    if interlace:
        return "it is interlaced"
    return PngRows(width, height, COLOURS[colour_type], b"".join(rows))


def _image_class() -> type:
    from weasyprint.images import RasterImage
    import pydyf

    class RawPng(RasterImage):
        """A WeasyPrint raster image whose PDF object is the PNG's own rows (see the module's docstring)."""

        def __init__(self, url: str, rows: PngRows) -> None:  # no super().__init__: that would open the pixels
            # Named by its pixels, not by its file's URL (WeasyPrint's way): the same art gives the same PDF
            # wherever the game folder is; two files of the same pixels may share one image.
            self.id = md5(rows.data, usedforsecurity=False).hexdigest()
            self._cache, self._jpeg_quality, self._dpi = {}, None, None
            self.mode = "RGB" if rows.colours == 3 else "L"
            self.width, self.height = rows.width, rows.height
            self.ratio = rows.width / rows.height if rows.height else float("inf")
            self.optimize, self.invert_colors, self.format = False, False, "PNG"
            self.rows = rows

        def get_x_object(self, interpolate: bool, dpi_ratio: float) -> Any:
            if dpi_ratio != 1:
                raise AssertionError("art passed through undecoded cannot be resampled (no dpi option is set)")
            parms = pydyf.Dictionary({"Predictor": 15, "Columns": self.width})
            if self.rows.colours == 3:
                parms["Colors"] = 3
            return pydyf.Stream([self.rows.data], pydyf.Dictionary({
                "Type": "/XObject", "Subtype": "/Image", "Width": self.width, "Height": self.height,
                "ColorSpace": "/DeviceRGB" if self.rows.colours == 3 else "/DeviceGray", "BitsPerComponent": 8,
                "Interpolate": "true" if interpolate else "false", "Filter": "/FlateDecode", "DecodeParms": parms}))

    return RawPng


def raw_images(urls: list[str], fetcher: Any) -> tuple[dict[str, Any], dict[str, str]]:
    """WeasyPrint's image cache pre-filled with the PNGs of ``urls`` that can pass undecoded, and the reason
    each other PNG among them is decoded. Each file is fetched through ``fetcher``, so its checks and
    refusals hold as if WeasyPrint had fetched it; a refused or converted file is left to WeasyPrint."""
    cache: dict[str, Any] = {}
    decoded: dict[str, str] = {}
    image = None
    for url in dict.fromkeys(urls):
        if not url or not url.lower().endswith(".png"):
            continue
        try:
            response = fetcher.fetch(url)
        except ValueError:
            continue  # refused: WeasyPrint asks again and the refusal is reported
        if getattr(response, "path", None) is None:
            continue  # converted in memory by the fetcher (see fetcher._printable): drawn as converted
        rows = png_rows(response.read())
        if isinstance(rows, str):
            decoded[url] = rows
            continue
        image = image or _image_class()
        cache[url] = image(url, rows)
    return cache, decoded
