"""Cut files for print-and-cut sheets: each card's trim as a closed path with rounded corners, in SVG and DXF,
on a page the size of the sheet, so the cutting machine's software can lay them over the printed cards.

SVG measures y downwards from the top; DXF, like the PDF, upwards from the bottom. Both are in
millimetres. The paths are the same on every full page of a sheets file (the slots do not move), so one
cut file serves them all; a last page with empty slots gets a cut file of its filled slots only (see
``build.cut_files``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from ..models.sheets import Sheet
from .impose import _num

BULGE = math.tan(math.radians(90) / 4)
"""DXF bulge of a quarter-circle arc (the tangent of a quarter of its angle)."""


def _trims(sheet: Sheet, count: int | None = None) -> list[tuple[float, float, float, float]]:
    """The trims of the first ``count`` front slots (all when None): the slots a page fills, in the order
    ``slots.impose_slots`` fills them."""
    return [sheet.footprint(slot) for slot in sheet.slots if slot.side == "front"][:count]


def _radius(sheet: Sheet, box: tuple[float, float, float, float]) -> float:
    radius = sheet.corner_radius or 0.0
    return min(radius, (box[2] - box[0]) / 2, (box[3] - box[1]) / 2)


def cut_svg(sheet: Sheet, count: int | None = None) -> bytes:
    """The sheet's cut paths (of its first ``count`` cards) as an SVG drawing (hairline red rectangles with
    rounded corners)."""
    rects = []
    for x0, y0, x1, y1 in _trims(sheet, count):
        r = _radius(sheet, (x0, y0, x1, y1))
        rects.append(f'  <rect x="{_num(x0)}" y="{_num(sheet.height - y1)}" width="{_num(x1 - x0)}" '
                     f'height="{_num(y1 - y0)}" rx="{_num(r)}" ry="{_num(r)}"/>')
    text = (f'<?xml version="1.0" encoding="UTF-8"?>\n'
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{_num(sheet.width)}mm" height="{_num(sheet.height)}mm" '
            f'viewBox="0 0 {_num(sheet.width)} {_num(sheet.height)}">\n'
            f'<g id="cut" fill="none" stroke="#ff0000" stroke-width="0.1">\n' + "\n".join(rects) + "\n</g>\n</svg>\n")
    return text.encode("utf-8")


def outline(box: tuple[float, float, float, float], radius: float) -> list[tuple[float, float, float]]:
    """A trim's closed outline for the DXF: its vertices anticlockwise from the bottom edge, each with the bulge
    of the edge after it (a quarter arc at each corner when ``radius`` is above 0)."""
    x0, y0, x1, y1 = box
    r = radius
    if r <= 0:
        return [(x0, y0, 0.0), (x1, y0, 0.0), (x1, y1, 0.0), (x0, y1, 0.0)]
    return [(x0 + r, y0, 0.0), (x1 - r, y0, BULGE), (x1, y0 + r, 0.0), (x1, y1 - r, BULGE),
            (x1 - r, y1, 0.0), (x0 + r, y1, BULGE), (x0, y1 - r, 0.0), (x0, y0 + r, BULGE)]


def cut_dxf(sheet: Sheet, count: int | None = None) -> bytes:
    """The sheet's cut paths (of its first ``count`` cards) as a DXF drawing in millimetres: one closed polyline
    a card on layer CUT, its corners arcs.

    Written from :mod:`.dxfskeleton` (ezdxf's own document for these drawings, see :mod:`.dxfreference`)
    without importing ezdxf, which alone took about 0.3 s; the bytes are ezdxf's, so the same sheet always gives
    the same file (a build is reproducible and an unchanged cut file is not rewritten).
    """
    from . import dxfskeleton

    return fill_dxf([outline(box, _radius(sheet, box)) for box in _trims(sheet, count)], vars(dxfskeleton))


def fill_dxf(outlines: list[list[tuple[float, float, float]]], skeleton: Mapping[str, Any]) -> bytes:
    """The DXF drawing of ``outlines`` from ``skeleton`` (the names of :mod:`.dxfskeleton`): its text with the
    outlines as LWPOLYLINEs in the ENTITIES section, numbered from its first free handle, and every handle after
    them moved on by their number. Numbers are written as ezdxf writes them (Python's ``str`` of a float)."""
    n = len(outlines)
    text: list[str] = []

    def stretch(parts: tuple[str, ...], handles: tuple[int, ...]) -> None:
        text.append(parts[0])
        for handle, part in zip(handles, parts[1:]):
            text.extend((f"{handle + n:X}", part))

    stretch(skeleton["HEAD"], skeleton["HEAD_HANDLES"])
    for number, points in enumerate(outlines):
        text += [skeleton["ENTITY_START"], f"{skeleton['FIRST_HANDLE'] + number:X}\n", skeleton["ENTITY_OWNED"],
                 f" 90\n{len(points)}\n 70\n1\n"]
        for x, y, bulge in points:
            text.append(f" 10\n{float(x)}\n 20\n{float(y)}\n" + (f" 42\n{float(bulge)}\n" if bulge else ""))
    stretch(skeleton["TAIL"], skeleton["TAIL_HANDLES"])
    return "".join(text).encode("utf-8")
