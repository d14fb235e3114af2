"""Where a PDF page draws its images: each image's box in page points, read back from the content streams.

The current transformation matrix is followed through ``q``/``Q``/``cm`` and into form XObjects (their
``/Matrix``), so an image inside a face placed on a sheet is found where the sheet prints it.
"""

from __future__ import annotations

import pikepdf

Matrix = tuple[float, float, float, float, float, float]
IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


def _times(m: Matrix, n: Matrix) -> Matrix:
    """``m`` then ``n`` (PDF order: a point is transformed by m, then by n)."""
    a, b, c, d, e, f = m
    p, q, r, s, t, u = n
    return (a * p + b * r, a * q + b * s, c * p + d * r, c * q + d * s, e * p + f * r + t, e * q + f * s + u)


def _box(m: Matrix) -> tuple[float, float, float, float]:
    """The unit square under ``m``: x0, y0, x1, y1."""
    corners = [(m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]) for x, y in ((0, 0), (1, 0), (0, 1), (1, 1))]
    xs, ys = [p[0] for p in corners], [p[1] for p in corners]
    return min(xs), min(ys), max(xs), max(ys)


def image_places(page: pikepdf.Page) -> list[tuple[tuple[float, float, float, float], bytes]]:
    """Each image the page draws, in drawing order: its box (x0, y0, x1, y1 in points) and its stream's raw
    (still compressed) bytes."""
    found: list[tuple[tuple[float, float, float, float], bytes]] = []

    def walk(holder: pikepdf.Object, resources: pikepdf.Object, ctm: Matrix, depth: int) -> None:
        assert depth < 20, "forms nested too deep"
        stack = []
        xobjects = resources.get("/XObject", pikepdf.Dictionary()) if resources is not None else pikepdf.Dictionary()
        for operands, operator in pikepdf.parse_content_stream(holder):
            name = str(operator)
            if name == "q":
                stack.append(ctm)
            elif name == "Q":
                ctm = stack.pop()
            elif name == "cm":
                ctm = _times(tuple(float(v) for v in operands), ctm)  # type: ignore[arg-type]
            elif name == "Do":
                xobject = xobjects[str(operands[0])]
                if xobject.Subtype == pikepdf.Name.Image:
                    found.append((_box(ctm), xobject.read_raw_bytes()))
                else:
                    matrix = tuple(float(v) for v in xobject.get("/Matrix", IDENTITY))
                    walk(xobject, xobject.get("/Resources", resources), _times(matrix, ctm), depth + 1)  # type: ignore[arg-type]

    walk(page.obj, page.obj.get("/Resources"), IDENTITY, 0)
    return found
