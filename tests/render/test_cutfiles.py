"""The cut file's DXF, written without ezdxf from :mod:`cardworks.render.dxfskeleton`, read back with ezdxf: one
closed LWPOLYLINE a card on layer CUT, in millimetres, lying on the card's trim with the layout's rounded corners.
Under the ezdxf version the skeleton records, it is ezdxf's own file byte for byte, and the committed skeleton is
the one ``python -m cardworks.render.dxfreference`` writes; under another version those two checks skip."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import ezdxf
import pytest

from cardworks.models.layout import LayoutFile
from cardworks.models.sheet_rules import sheet_for
from cardworks.models.sheets import Sheet
from cardworks.render import dxfreference, dxfskeleton
from cardworks.render.cutfiles import _radius, _trims, cut_dxf, outline
from conftest import REPO

SHEETS = [("silhouette", "a4", 63, 88), ("silhouette", "letter", 63, 88), ("silhouette", "legal", 44, 63),
          ("silhouette-4", "letter", 63, 88), ("cricut", "letter", 63, 88), ("silhouette", "a4", 70, 120)]
SAME_EZDXF = pytest.mark.skipif(ezdxf.__version__ != dxfskeleton.EZDXF_VERSION,
                                reason=f"the DXF skeleton was made with ezdxf {dxfskeleton.EZDXF_VERSION}, ezdxf "
                                f"{ezdxf.__version__} is installed: its bytes may differ (the drawings read back "
                                "the same)")


def _sheet(name: str, paper: str, width: float, height: float) -> Sheet:
    layout = LayoutFile.model_validate(json.loads((REPO / "layouts" / f"{name}.json").read_text(encoding="utf-8")))
    return sheet_for(layout, paper, width, height, 3.0)


def _read(data: bytes) -> list[tuple[tuple[float, ...], float, str]]:
    """Each outline of a DXF drawing: its bounding box, its corner radius (from its first arc's chord, 0 when
    it has none) and its layer; checks the drawing is in millimetres and every outline is closed."""
    doc = ezdxf.read(io.StringIO(data.decode("utf-8")))
    assert doc.units == ezdxf.units.MM and doc.dxfversion == "AC1024"
    assert [e.dxftype() for e in doc.modelspace()] == ["LWPOLYLINE"] * len(doc.modelspace())
    found = []
    for polyline in doc.modelspace():
        assert polyline.closed
        points = list(polyline.get_points("xyb"))
        xs, ys = [p[0] for p in points], [p[1] for p in points]
        arcs = [i for i, p in enumerate(points) if p[2]]
        radius = 0.0
        if arcs:
            assert [points[i][2] for i in arcs] == [pytest.approx(0.41421356)] * 4  # quarter arcs, anticlockwise
            start, end = points[arcs[0]], points[(arcs[0] + 1) % len(points)]
            radius = ((start[0] - end[0]) ** 2 + (start[1] - end[1]) ** 2) ** 0.5 / 2 ** 0.5
        found.append(((min(xs), min(ys), max(xs), max(ys)), radius, polyline.dxf.layer))
    return found


@pytest.mark.parametrize("name, paper, width, height", SHEETS)
@pytest.mark.parametrize("count", [None, 1, 3])
def test_the_dxf_read_back_cuts_each_card_on_its_trim(name: str, paper: str, width: float, height: float,
                                                      count: int | None) -> None:
    sheet = _sheet(name, paper, width, height)
    assert sheet.corner_radius and sheet.fronts >= 3
    trims = [sheet.footprint(slot) for slot in sheet.slots if slot.side == "front"][:count]
    found = _read(cut_dxf(sheet, count))
    assert len(found) == len(trims)
    for (box, radius, layer), trim in zip(found, trims):
        assert box == pytest.approx(trim, abs=1e-9)
        assert radius == pytest.approx(sheet.corner_radius, abs=1e-9)
        assert layer == "CUT"


def test_square_corners_when_the_layout_gives_no_radius() -> None:
    sheet = _sheet("silhouette", "a4", 63, 88)
    square = Sheet(sheet.paper, sheet.width, sheet.height, sheet.card_width, sheet.card_height, sheet.bleed,
                   sheet.printable, sheet.slots, corner_radius=0.0)
    found = _read(cut_dxf(square, 2))
    assert [(box, radius) for box, radius, _ in found] == [(pytest.approx(t), 0.0) for t in _trims(square, 2)]


def test_writing_a_cut_file_does_not_import_ezdxf() -> None:
    """The point of the skeleton: a print-and-cut build writes its DXF without the 0.3 s of importing ezdxf."""
    code = ("import sys, json; from pathlib import Path; from cardworks.models.layout import LayoutFile; "
            "from cardworks.models.sheet_rules import sheet_for; from cardworks.render.cutfiles import cut_dxf; "
            f"layout = LayoutFile.model_validate(json.loads(Path({str(REPO / 'layouts' / 'silhouette.json')!r}).read_text())); "
            "data = cut_dxf(sheet_for(layout, 'a4', 63, 88, 3.0)); "
            "print(len(data), sorted(m for m in sys.modules if m.split('.')[0] in ('ezdxf', 'numpy')))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    size, imported = done.stdout.split(" ", 1)
    assert int(size) > 10_000 and imported.strip() == "[]"


@SAME_EZDXF
@pytest.mark.parametrize("name, paper, width, height", SHEETS)
def test_the_dxf_is_ezdxfs_own_bytes(name: str, paper: str, width: float, height: float) -> None:
    sheet = _sheet(name, paper, width, height)
    for count in (None, 1, 2):
        outlines = [outline(box, _radius(sheet, box)) for box in _trims(sheet, count)]
        assert cut_dxf(sheet, count) == dxfreference.reference_dxf(outlines)


@SAME_EZDXF
def test_the_committed_skeleton_is_the_one_ezdxf_gives() -> None:
    path = REPO / "src" / "cardworks" / "render" / "dxfskeleton.py"
    assert path.read_text(encoding="utf-8") == dxfreference.skeleton_source(), \
        "run python -m cardworks.render.dxfreference and commit src/cardworks/render/dxfskeleton.py"


def test_a_change_other_than_a_handle_is_refused() -> None:
    """Were ezdxf to write, say, the number of entities somewhere outside ENTITIES, the skeleton could not follow
    it: making it stops instead of writing a skeleton that gives other files than ezdxf."""
    parts, handles = dxfreference._shifted("  5\n2F\n  9\nA\n", "  5\n30\n  9\nA\n", "  5\n31\n  9\nA\n")
    assert (parts, handles) == (("  5\n", "\n  9\nA\n"), (0x2F,))
    with pytest.raises(dxfreference.SkeletonError, match="not as a handle"):
        dxfreference._shifted("  5\n2F\n 90\n0\n", "  5\n30\n 90\n1\n", "  5\n31\n 90\n3\n")
    with pytest.raises(dxfreference.SkeletonError, match="grows"):
        dxfreference._shifted("  9\nA\n", "  9\nA\n  9\nB\n", "  9\nA\n  9\nB\n  9\nB\n")
