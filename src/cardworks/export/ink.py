"""Total ink (TAC) of CMYK colours in content streams: measured, and limited.

A shop's press takes at most so much ink on a spot (DriveThruCards: 240%).
Ghostscript's conversion to CMYK makes RGB black a rich black of about 277%.
``limit_ink`` rewrites every CMYK colour operator whose sum exceeds the limit,
keeping its black and scaling cyan, magenta and yellow down to fit (a simple
under-colour removal); ``colour_ink`` reports the highest sum set anywhere.
``limit_image_ink`` applies the same rule to every pixel of the CMYK images
Ghostscript wrote (raster art, and whole pages it had to flatten), so
saturated art also stays under the limit; ``image_ink`` measures them.
Shadings are measured by ``preflight`` on a raster.
"""

from __future__ import annotations

import math
from collections.abc import Iterator

from typing import Callable

import pikepdf

CMYK_OPERATORS = {"k", "K", "sc", "scn", "SC", "SCN"}


def content_streams(pdf: pikepdf.Pdf) -> Iterator[pikepdf.Object]:
    """Every page, Form XObject and tiling pattern whose content sets colours."""
    for page in pdf.pages:
        yield page.obj
    for obj in pdf.objects:
        if isinstance(obj, pikepdf.Stream) and (obj.get("/Subtype") == "/Form" or obj.get("/PatternType") == 1):
            yield obj


def _cmyk(operands: list) -> list[float] | None:
    """Four numbers (pikepdf gives ints and Decimals), else None (a pattern name, a gray or RGB colour)."""
    if len(operands) != 4:
        return None
    try:
        return [float(v) for v in operands]
    except (TypeError, ValueError, AttributeError):
        return None


def limited(values: list[float], limit: float) -> list[float]:
    """CMYK ``values`` (0–1) with cyan, magenta and yellow scaled so the sum is at most ``limit``."""
    c, m, y, k = values
    if c + m + y + k <= limit + 1e-9:
        return values
    if c + m + y == 0:  # black alone over the limit cannot be lowered without changing the colour
        return values
    room = max(0.0, limit - k)
    factor = room / (c + m + y)
    return [math.floor(v * factor * 1000) / 1000 for v in (c, m, y)] + [k]


def parse_content(obj: pikepdf.Object) -> list:
    """The instructions of a page (all its content streams) or of a Form XObject or pattern."""
    if obj.get("/Type") == "/Page":
        return pikepdf.parse_content_stream(pikepdf.Page(obj))
    return pikepdf.parse_content_stream(obj)


def colour_ink(pdf: pikepdf.Pdf) -> float:
    """The highest total ink (0–4) of any four-component colour set in a content stream."""
    highest = 0.0
    for obj in content_streams(pdf):
        for operands, operator in parse_content(obj):
            if str(operator) in CMYK_OPERATORS:
                values = _cmyk(list(operands))
                if values is not None:
                    highest = max(highest, sum(values))
    return highest


def _rewrite(pdf: pikepdf.Pdf, change: Callable[[list, str], tuple[list, str] | None]) -> int:
    """Apply ``change`` to every colour-setting instruction of every content stream; returns how many changed.
    ``change`` returns the new (operands, operator), or None to keep the instruction."""
    changed = 0
    for obj in content_streams(pdf):
        rewritten = []
        touched = False
        for operands, operator in parse_content(obj):
            new = change(list(operands), str(operator))
            if new is not None:
                operands, operator = new[0], pikepdf.Operator(new[1])
                touched = True
                changed += 1
            rewritten.append((operands, operator))
        if not touched:
            continue
        data = pikepdf.unparse_content_stream(rewritten)
        if obj.get("/Type") == "/Page":
            obj.Contents = pdf.make_stream(data)
        else:
            obj.write(data)
    return changed


def limit_ink(pdf: pikepdf.Pdf, limit: float) -> int:
    """Rewrite every CMYK colour above ``limit`` (e.g. 2.4 for 240%); returns how many operators changed."""
    def change(operands: list, operator: str) -> tuple[list, str] | None:
        values = _cmyk(operands) if operator in CMYK_OPERATORS else None
        if values is not None and sum(values) > limit + 1e-9:
            return [round(v, 3) for v in limited(values, limit)], operator
        return None
    return _rewrite(pdf, change)


def gray_as_cmyk(pdf: pikepdf.Pdf) -> int:
    """Turn DeviceGray colours (``g``/``G``, which Ghostscript keeps for some greys) into black-only CMYK, the
    same ink, so a CMYK-only profile's file sets no other colour space; returns how many changed."""
    def change(operands: list, operator: str) -> tuple[list, str] | None:
        if operator in ("g", "G") and len(operands) == 1:
            return [0, 0, 0, round(1 - float(operands[0]), 4)], "k" if operator == "g" else "K"
        return None
    return _rewrite(pdf, change)


def _cmyk_image(obj: pikepdf.Object) -> bool:
    """An 8-bit four-channel image (DeviceCMYK, or ICC-based with four components)."""
    if not isinstance(obj, pikepdf.Stream) or obj.get("/Subtype") != "/Image" or obj.get("/ImageMask", False):
        return False
    space = obj.get("/ColorSpace")
    four = space == pikepdf.Name.DeviceCMYK or (isinstance(space, pikepdf.Array) and len(space) > 1
                                                and space[0] == pikepdf.Name.ICCBased and int(space[1].get("/N", 0)) == 4)
    return four and int(obj.get("/BitsPerComponent", 8)) == 8


def _indexed_cmyk(obj: pikepdf.Object) -> pikepdf.Object | None:
    """The palette (lookup) object of an image whose colours index a CMYK palette, else None."""
    if not isinstance(obj, pikepdf.Stream) or obj.get("/Subtype") != "/Image":
        return None
    space = obj.get("/ColorSpace")
    if isinstance(space, pikepdf.Array) and len(space) == 4 and space[0] == pikepdf.Name.Indexed \
            and space[1] == pikepdf.Name.DeviceCMYK:
        return space
    return None


def _pixels(obj: pikepdf.Object):
    """The image's CMYK samples as a (height, width, 4) uint8 array with PDF's meaning (0 = no ink, Decode applied).

    A CMYK JPEG with an Adobe marker is stored inverted: Pillow undoes that on reading, PDF does not (only the
    image's Decode array inverts), so Pillow's values are inverted back.
    """
    import io

    import numpy as np
    from PIL import Image
    from pikepdf import PdfImage

    filters = obj.get("/Filter")
    names = [str(f) for f in filters] if isinstance(filters, pikepdf.Array) else [str(filters)] if filters else []
    width, height = int(obj.Width), int(obj.Height)
    if names == ["/DCTDecode"]:
        with Image.open(io.BytesIO(obj.read_raw_bytes())) as image:
            pixels = np.asarray(image.convert("CMYK") if image.mode != "CMYK" else image, dtype=np.uint8)
            if "adobe" in image.info:
                pixels = 255 - pixels
    elif all(name in ("/FlateDecode", "/LZWDecode", "/RunLengthDecode", "/ASCII85Decode", "/ASCIIHexDecode")
             for name in names):
        pixels = np.frombuffer(obj.read_bytes(), dtype=np.uint8)[: width * height * 4].reshape(height, width, 4)
    else:
        image = PdfImage(obj).as_pil_image()
        pixels = np.asarray(image if image.mode == "CMYK" else image.convert("CMYK"), dtype=np.uint8)
    decode = [float(v) for v in obj.get("/Decode", [])]
    if decode == [1, 0] * 4:
        pixels = 255 - pixels
    return pixels


def limited_pixels(pixels, limit: float):
    """``pixels`` (uint8 CMYK) with cyan, magenta and yellow scaled down wherever the sum exceeds ``limit`` (2.4 = 240%).

    The rule of :func:`limited`, per pixel: black is kept, the other three shrink in proportion, rounded down.
    """
    import numpy as np

    values = pixels.astype(np.int32)
    cap = math.floor(limit * 255 + 1e-9)
    total = values.sum(axis=-1)
    over = total > cap
    if not over.any():
        return pixels
    colour = values[..., :3].sum(axis=-1)
    room = np.clip(cap - values[..., 3], 0, None)
    factor = np.where(over & (colour > 0), room / np.maximum(colour, 1), 1.0)
    values[..., :3] = np.floor(values[..., :3] * factor[..., None]).astype(np.int32)
    return values.astype(np.uint8)


def image_ink(obj: pikepdf.Object) -> float:
    """The highest total ink (0–4) of any pixel of a CMYK image (or any entry of a CMYK palette), else 0."""
    palette = _indexed_cmyk(obj)
    if palette is not None:
        data = bytes(palette[3].read_bytes() if isinstance(palette[3], pikepdf.Stream) else palette[3])
        sums = [sum(data[i : i + 4]) for i in range(0, len(data) - 3, 4)]
        return max(sums, default=0) / 255
    if not _cmyk_image(obj):
        return 0.0
    return float(_pixels(obj).astype("int32").sum(axis=-1).max()) / 255


def limit_image_ink(pdf: pikepdf.Pdf, limit: float) -> int:
    """Limit the pixels of every CMYK image (and CMYK palette) to ``limit``; returns how many images changed.

    Changed images are written back losslessly (Flate), since recompressing as JPEG would move pixels back
    over the limit.
    """
    import zlib

    changed = 0
    for obj in list(pdf.objects):
        palette = _indexed_cmyk(obj)
        if palette is not None:
            lookup = palette[3]
            data = bytes(lookup.read_bytes() if isinstance(lookup, pikepdf.Stream) else lookup)
            entries = [list(data[i : i + 4]) for i in range(0, len(data) - 3, 4)]
            fixed = [[math.floor(v * 255) for v in limited([c / 255 for c in e], limit)] if sum(e) > limit * 255 else e
                     for e in entries]
            if fixed != entries:
                palette[3] = pikepdf.String(bytes(v for e in fixed for v in e))
                changed += 1
            continue
        if not _cmyk_image(obj):
            continue
        pixels = _pixels(obj)
        result = limited_pixels(pixels, limit)
        if result is pixels:
            continue
        obj.write(zlib.compress(result.tobytes(), 6), filter=pikepdf.Name.FlateDecode)
        obj.ColorSpace = pikepdf.Name.DeviceCMYK
        obj.BitsPerComponent = 8
        for key in ("/DecodeParms", "/Decode"):
            if key in obj:
                del obj[key]
        changed += 1
    return changed
