"""The cut file's DXF as ezdxf writes it, and the skeleton the build fills in without ezdxf.

Importing ezdxf (and numpy with it) costs about 0.3 s, more than the rest of a small print-and-cut build's cut
files; so a build writes its DXF from :mod:`.dxfskeleton`, a static copy of the document ezdxf writes, with
the card outlines filled in by string templating (:func:`.cutfiles.cut_dxf`). This module is the reference:
:func:`reference_dxf` makes the same drawing with ezdxf, and ``python -m cardworks.render.dxfreference``
writes the skeleton again from it (after an ezdxf upgrade), checking first that the skeleton gives ezdxf's
bytes for drawings of 0 to 3 outlines. The tests compare the two byte for byte under the ezdxf version the
skeleton records.

Only ezdxf's own handles move with the number of outlines: the outlines take the next free handles, and the
records ezdxf creates while writing (the APPIDs, the WRITTEN_BY_EZDXF variable) and ``$HANDSEED`` follow them.
"""

from __future__ import annotations

import io
import sys
from collections.abc import Sequence
from pathlib import Path

from ..errors import DeveloperError
from ..models.card_size import DEFAULT_CARD_SIZE


class SkeletonError(DeveloperError, RuntimeError):
    """ezdxf's drawing changed in a way the skeleton cannot follow (after an ezdxf upgrade): fix this module."""

    code = "dxf-skeleton"


Outline = Sequence[tuple[float, float, float]]
"""A closed outline's vertices: x, y (mm) and the bulge of the edge to the next vertex."""

SECTION = "  2\nENTITIES\n"
"""Where the outlines go: right after the ENTITIES section's header."""

PROBE: list[tuple[float, float, float]] = [(13.0, 20.0, 0.0), (70.0, 20.0, 0.41421356237309503), (73.0, 23.0, 0.0),
                                           (73.0, 105.0, 0.0)]
"""An outline for working out and checking the skeleton (any outline serves; this one has a bulge)."""


def reference_dxf(outlines: Sequence[Outline]) -> bytes:
    """The drawing as ezdxf writes it: R2010, millimetres, one closed LWPOLYLINE on layer CUT an outline.

    ezdxf stamps a drawing with the time and random GUIDs unless its fixed-metadata option is on; it is on
    while the drawing is written, so the same outlines always give the same bytes.
    """
    import ezdxf

    previous = ezdxf.options.write_fixed_meta_data_for_testing
    ezdxf.options.write_fixed_meta_data_for_testing = True
    try:
        doc = ezdxf.new("R2010", setup=False)
        doc.units = ezdxf.units.MM
        space = doc.modelspace()
        for points in outlines:
            space.add_lwpolyline(points, format="xyb", close=True, dxfattribs={"layer": "CUT"})
        _classes_in_order(doc)
        stream = io.StringIO()
        doc.write(stream)
        return stream.getvalue().encode("utf-8")
    finally:
        ezdxf.options.write_fixed_meta_data_for_testing = previous


def _classes_in_order(doc: object) -> None:
    """Register the drawing's CLASS entries in a fixed order before it is written.

    ezdxf adds a CLASS for each entity type in use by walking a set (``EntityDB.dxf_types_in_use``), whose order
    follows the process's string hash seed: ``ACDBPLACEHOLDER`` and ``LAYOUT`` swapped places between two
    processes, so two builds gave different cut files. Registered here first (the required ones in ezdxf's
    order, then the types in use sorted), writing finds them all there and adds none.
    """
    from ezdxf.sections.classes import REQ_R2004, REQUIRED_CLASSES

    for name in REQUIRED_CLASSES.get(doc.dxfversion, REQ_R2004):  # type: ignore[attr-defined]
        doc.classes.add_class(name)  # type: ignore[attr-defined]
    for name in sorted(doc.entitydb.dxf_types_in_use()):  # type: ignore[attr-defined]
        doc.classes.add_class(name)  # type: ignore[attr-defined]


def _split(text: str) -> tuple[str, str]:
    if text.count(SECTION) != 1:
        raise SkeletonError(f"ezdxf's drawing has {text.count(SECTION)} ENTITIES sections, not one")
    head, tail = text.split(SECTION)
    return head + SECTION, tail


def _shifted(empty: str, one: str, two: str) -> tuple[tuple[str, ...], tuple[int, ...]]:
    """``empty`` (a stretch of the drawing without outlines) cut at each line that is one more in ``one`` and
    two more in ``two`` (a handle after the outlines'): the pieces around them, and their values without
    outlines. Any other difference is an error: the skeleton would not hold."""
    lines, ones, twos = empty.split("\n"), one.split("\n"), two.split("\n")
    if not len(lines) == len(ones) == len(twos):
        raise SkeletonError("ezdxf's drawing grows outside the ENTITIES section with the number of outlines")
    parts, handles, done, offset = [], [], 0, 0
    for index, (zero, first, second) in enumerate(zip(lines, ones, twos)):
        if not zero == first == second:
            base = int(zero, 16)
            if (first, second) != (f"{base + 1:X}", f"{base + 2:X}") or zero != f"{base:X}":
                raise SkeletonError(f"line {index + 1} of ezdxf's drawing changes with the outlines, not as a "
                                     f"handle: {zero!r}, {first!r}, {second!r}")
            parts.append(empty[done:offset])
            handles.append(base)
            done = offset + len(zero)
        offset += len(zero) + 1
    parts.append(empty[done:])
    return tuple(parts), tuple(handles)


def _outline_text(one: str) -> tuple[int, str, str]:
    """Of the drawing with one outline: the outline's handle (the first free one), and its LWPOLYLINE's text
    before the handle and between the handle and its vertex count."""
    entity = _split(one)[1].split("  0\nENDSEC\n")[0]
    start = "  0\nLWPOLYLINE\n  5\n"
    handle = entity[len(start):].split("\n")[0]
    if not entity.startswith(start) or " 90\n" not in entity:
        raise SkeletonError(f"ezdxf's outline does not start as expected: {entity[:80]!r}")
    return int(handle, 16), start, entity[len(start) + len(handle) + 1:entity.index(" 90\n")]


def skeleton_source() -> str:
    """The source of :mod:`.dxfskeleton` for the ezdxf installed, checked against ezdxf for 0 to 3 outlines."""
    import ezdxf

    texts = [reference_dxf([PROBE] * n).decode("utf-8") for n in range(3)]
    first, start, owned = _outline_text(texts[1])
    splits = [_split(text) for text in texts]
    head, head_handles = _shifted(*(head for head, _ in splits))
    tail, tail_handles = _shifted(*(tail[tail.index("  0\nENDSEC\n"):] for _, tail in splits))  # after the outlines
    lines = ['"""The cut file\'s DXF document as ezdxf writes it, cut where the card outlines and the handles after',
             "them go; filled in by :func:`.cutfiles.cut_dxf`, so a build writes DXF without importing ezdxf.",
             "",
             "Generated by ``python -m cardworks.render.dxfreference`` (see :mod:`.dxfreference`); do not edit.",
             '"""',
             "",
             f"EZDXF_VERSION = {ezdxf.__version__!r}",
             '"""The ezdxf version whose output this is."""',
             f"FIRST_HANDLE = 0x{first:X}",
             '"""The first outline\'s handle; the next ones count up from it."""',
             f"ENTITY_START = {start!r}",
             f"ENTITY_OWNED = {owned!r}",
             '"""An outline\'s text between its handle and its vertex count (owner, layer, subclasses)."""',
             "# The text before the outlines (HEAD) and after them (TAIL), cut at each handle after the outlines': the",
             "# *_HANDLES value plus the number of outlines."]
    for name, parts, handles in (("HEAD", head, head_handles), ("TAIL", tail, tail_handles)):
        lines += [f"{name}_HANDLES = ({''.join(f'0x{h:X}, ' for h in handles).rstrip()})", f"{name} = ("]
        lines += [f"{_literal(part)}," for part in parts]
        lines.append(")")
    source = "\n".join(lines) + "\n"
    _check(source)
    return source


def _literal(text: str) -> str:
    """``text`` as a raw triple-quoted literal (the DXF reads as it is), or its repr when it cannot be one."""
    if '"""' in text or "\\" in text or text.endswith('"'):
        return repr(text)
    return 'r"""' + text + '"""'


def _check(source: str) -> None:
    """Raise SkeletonError unless the skeleton ``source`` gives ezdxf's own bytes for 0 to 3 outlines."""
    from . import cutfiles

    skeleton: dict[str, object] = {}
    exec(compile(source, "dxfskeleton", "exec"), skeleton)  # noqa: S102 (the text just made above)
    width, height = float(DEFAULT_CARD_SIZE.width_mm), float(DEFAULT_CARD_SIZE.height_mm)
    square = [(0.0, 0.0, 0.0), (width, 0.0, 0.0), (width, height, 0.0), (0.0, height, 0.0)]
    for outlines in ([], [PROBE], [PROBE, square], [square, PROBE, square]):
        made = cutfiles.fill_dxf(outlines, skeleton)
        if made != reference_dxf(outlines):
            raise SkeletonError(f"the skeleton does not give ezdxf's drawing of {len(outlines)} outline(s)")


def main() -> None:
    """Write :mod:`.dxfskeleton` beside this module from the installed ezdxf."""
    target = Path(__file__).with_name("dxfskeleton.py")
    target.write_text(skeleton_source(), encoding="utf-8")
    print(f"wrote {target.name} (ezdxf {__import__('ezdxf').__version__})", file=sys.stderr)


if __name__ == "__main__":
    main()
