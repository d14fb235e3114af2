"""Cut files for print-and-cut sheets: each card's trim as a closed path with rounded corners, in SVG and DXF,
on a page the size of the sheet, so the cutting machine's software can lay them over the printed cards.

SVG measures y downwards from the top; DXF, like the PDF, upwards from the bottom. Both are in
millimetres. The paths are the same on every full page of a sheets file (the slots do not move), so one
cut file serves them all; a last page with empty slots gets a cut file of its filled slots only (see
``build.cut_files``).
"""

from __future__ import annotations

import io
import math

import ezdxf

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


def cut_dxf(sheet: Sheet, count: int | None = None) -> bytes:
    """The sheet's cut paths (of its first ``count`` cards) as a DXF drawing in millimetres: one closed polyline
    a card, its corners arcs.

    ezdxf stamps a drawing with the time and random GUIDs unless its fixed-metadata option is on; it is on
    while the drawing is made, so the same sheet always gives the same bytes (a build is reproducible and
    an unchanged cut file is not rewritten).
    """
    previous = ezdxf.options.write_fixed_meta_data_for_testing
    ezdxf.options.write_fixed_meta_data_for_testing = True
    try:
        return _dxf(sheet, count)
    finally:
        ezdxf.options.write_fixed_meta_data_for_testing = previous


def _classes_in_order(doc: "ezdxf.document.Drawing") -> None:
    """Register the drawing's CLASS entries in a fixed order before it is written.

    ezdxf adds a CLASS for each entity type in use by walking a set (``EntityDB.dxf_types_in_use``), whose order
    follows the process's string hash seed: ``ACDBPLACEHOLDER`` and ``LAYOUT`` swapped places between two
    processes, so two builds gave different cut files. Registered here first (the required ones in ezdxf's
    order, then the types in use sorted), writing finds them all there and adds none.
    """
    from ezdxf.sections.classes import REQ_R2004, REQUIRED_CLASSES

    for name in REQUIRED_CLASSES.get(doc.dxfversion, REQ_R2004):
        doc.classes.add_class(name)
    for name in sorted(doc.entitydb.dxf_types_in_use()):
        doc.classes.add_class(name)


def _dxf(sheet: Sheet, count: int | None) -> bytes:
    doc = ezdxf.new("R2010", setup=False)
    doc.units = ezdxf.units.MM
    doc.header["$EXTMIN"] = (0, 0, 0)
    doc.header["$EXTMAX"] = (sheet.width, sheet.height, 0)
    space = doc.modelspace()
    for box in _trims(sheet, count):
        x0, y0, x1, y1 = box
        r = _radius(sheet, box)
        if r <= 0:
            points = [(x0, y0, 0), (x1, y0, 0), (x1, y1, 0), (x0, y1, 0)]
        else:  # anticlockwise: each straight edge, then the quarter arc (bulge) to the next edge
            points = [(x0 + r, y0, 0), (x1 - r, y0, BULGE), (x1, y0 + r, 0), (x1, y1 - r, BULGE),
                      (x1 - r, y1, 0), (x0 + r, y1, BULGE), (x0, y1 - r, 0), (x0, y0 + r, BULGE)]
        space.add_lwpolyline(points, format="xyb", close=True, dxfattribs={"layer": "CUT"})
    _classes_in_order(doc)
    stream = io.StringIO()
    doc.write(stream)
    return stream.getvalue().encode("utf-8")
