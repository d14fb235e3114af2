"""Total ink (TAC) of CMYK colours in content streams: measured, and limited.

A shop's press takes at most so much ink on a spot (DriveThruCards: 240%).
Ghostscript's conversion to CMYK makes RGB black a rich black of about 277%.
``limit_ink`` rewrites every CMYK colour operator whose sum exceeds the limit,
keeping its black and scaling cyan, magenta and yellow down to fit (a simple
under-colour removal); ``colour_ink`` reports the highest sum set anywhere.
Pixels of CMYK images and shadings are measured by ``preflight`` on a raster.
"""

from __future__ import annotations

import math
from collections.abc import Iterator

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


def limit_ink(pdf: pikepdf.Pdf, limit: float) -> int:
    """Rewrite every CMYK colour above ``limit`` (e.g. 2.4 for 240%); returns how many operators changed."""
    changed = 0
    for obj in content_streams(pdf):
        instructions = parse_content(obj)
        rewritten = []
        touched = False
        for operands, operator in instructions:
            values = _cmyk(list(operands)) if str(operator) in CMYK_OPERATORS else None
            if values is not None and sum(values) > limit + 1e-9:
                operands = [round(v, 3) for v in limited(values, limit)]
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
