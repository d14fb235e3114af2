"""Gutterfold, print-and-cut and print-then-cut sheets read back from the real PDFs and cut files: each
front's trim folds onto its back's, the cut paths lie on the printed trims, the registration marks sit where
silhouette-card-maker puts them, and a game folder's own layout file replaces the shipped one."""

from __future__ import annotations

import io
import json
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import ezdxf
import pikepdf
import pytest

from cardworks.models.layout import LayoutFile
from cardworks.models.sheet_rules import sheet_for
from cardworks.render.impose import MM
from cardworks.render.slots import impose_slots
from conftest import REPO, run_cli

pytestmark = pytest.mark.slow
BLEED = 3.0
TOLERANCE = 0.1


def _faces(width: float, height: float, count: int) -> pikepdf.Pdf:
    """``count`` face pages of a ``width`` × ``height`` mm card with 3 mm bleed."""
    pdf = pikepdf.new()
    for i in range(count):
        page = pikepdf.Dictionary(Type=pikepdf.Name.Page, MediaBox=[0, 0, (width + 2 * BLEED) * MM, (height + 2 * BLEED) * MM],
                                  Contents=pdf.make_stream(f"0 0 {10 + i} 10 re f".encode()))
        pdf.pages.append(pikepdf.Page(page))
    return pdf


def _reread(pdf: pikepdf.Pdf) -> pikepdf.Pdf:
    data = io.BytesIO()
    pdf.save(data)
    return pikepdf.open(io.BytesIO(data.getvalue()))


def _read_page(page: pikepdf.Page) -> dict:
    """Placements (face name, cm matrix with e, f in mm, clip rectangle in mm), filled rectangles and dashed
    and plain segments (mm), parsed from the page's content stream."""
    found = {"placements": [], "filled": [], "dashed": [], "plain": []}
    rects, clip, matrix, dashed, path = [], None, None, False, []
    for operands, op in pikepdf.parse_content_stream(page):
        op = str(op)
        if op == "re":
            rects.append(tuple(float(v) / MM for v in operands))
        elif op == "W":
            clip = rects[-1]
        elif op == "n":
            rects = []
        elif op == "cm":
            a, b, c, d, e, f = (float(v) for v in operands)
            matrix = (a, b, c, d, e / MM, f / MM)
        elif op == "Do":
            found["placements"].append((str(operands[0])[1:], matrix, clip))
        elif op == "f":
            found["filled"] += rects
            rects = []
        elif op == "d":
            dashed = bool(list(operands[0]))
        elif op == "m":
            path.append([float(v) / MM for v in operands])
        elif op == "l":
            path[-1] += [float(v) / MM for v in operands]
        elif op == "S":
            found["dashed" if dashed else "plain"] += [tuple(p) for p in path]
            path = []
        elif op == "Q":
            dashed = False
    return found


def _apply(matrix: tuple[float, ...], x: float, y: float) -> tuple[float, float]:
    a, b, c, d, e, f = matrix
    return a * x + c * y + e, b * x + d * y + f


def _trim(matrix: tuple[float, ...], width: float, height: float) -> tuple[float, float, float, float]:
    """Where a face's trim (its page less the bleed) lands on the sheet, as x0, y0, x1, y1 in mm."""
    corners = [_apply(matrix, x / MM * MM, y) for x, y in
               [(BLEED, BLEED), (BLEED + width, BLEED), (BLEED, BLEED + height), (BLEED + width, BLEED + height)]]
    xs, ys = [p[0] for p in corners], [p[1] for p in corners]
    return min(xs), min(ys), max(xs), max(ys)


def _up(matrix: tuple[float, ...]) -> tuple[float, float]:
    """The direction of a face's top on the sheet."""
    return matrix[2], matrix[3]


def _layout(name: str) -> LayoutFile:
    return LayoutFile.model_validate(json.loads((REPO / "layouts" / f"{name}.json").read_text(encoding="utf-8")))


def _check_folds(page: dict, front_of_back: dict[str, list[str]], width: float, height: float) -> int:
    """Every front's trim, mirrored in the page's fold line, lies on its back's trim within 0.1 mm, the back's
    top where the front's top is; returns the number of pairs checked."""
    (x1, y1, x2, y2), = page["dashed"]
    down = abs(x1 - x2) < 1e-6
    placements = page["placements"]
    pairs = 0
    backs = [(name, m) for name, m, _ in placements if name in front_of_back]
    for name, matrix, _ in placements:
        if name in front_of_back:
            continue
        fx0, fy0, fx1, fy1 = _trim(matrix, width, height)
        folded = (2 * x1 - fx1, fy0, 2 * x1 - fx0, fy1) if down else (fx0, 2 * y1 - fy1, fx1, 2 * y1 - fy0)
        ux, uy = _up(matrix)
        folded_up = (-ux, uy) if down else (ux, -uy)
        partners = [(b, m) for b, m in backs if name in front_of_back[b]
                    and max(abs(p - q) for p, q in zip(_trim(m, width, height), folded)) <= TOLERANCE]
        assert len(partners) == 1, (name, folded, [(b, _trim(m, width, height)) for b, m in backs])
        assert _up(partners[0][1]) == pytest.approx(folded_up, abs=1e-9), name
        pairs += 1
    return pairs


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("size", [(63, 88), (57, 89), (44, 68), (70, 120), (70, 70), (88, 63)])
def test_gutterfold_folds_every_front_onto_its_back(paper: str, size: tuple[float, float]) -> None:
    width, height = size
    sheet = sheet_for(_layout("gutterfold"), paper, width, height, BLEED)
    cards = sheet.fronts * 2 + 1  # two full sheets and one card more
    faces = _faces(width, height, 2 * cards)
    pdf = _reread(impose_slots(faces, list(range(cards)), list(range(cards, 2 * cards)), sheet, BLEED))
    assert len(pdf.pages) == 3
    pairs = 0
    for page in pdf.pages:
        read = _read_page(page)
        assert read["filled"] and read["plain"]  # glue marks and crop ticks
        pairs += _check_folds(read, {f"F{cards + i}": [f"F{i}"] for i in range(cards)}, width, height)
    assert pairs == cards


def test_a_gutterfold_build_says_how_many_fit_and_folds_true(tmp_path: Path) -> None:
    run = run_cli("--cards", str(REPO / "cards"), "build", "--game", "diables", "--locale", "en", "--no-docs",
                  "--layout", "gutterfold", "--paper", "letter", "--out", str(tmp_path))
    assert run.exit_code == 0, run.output
    assert "gutterfold, 63 × 88 mm cards on letter paper: 4 card(s) a sheet" in " ".join(run.output.split())
    records = json.loads((tmp_path / "manifest.json").read_text())["outputs"] if isinstance(
        json.loads((tmp_path / "manifest.json").read_text()), dict) else json.loads((tmp_path / "manifest.json").read_text())
    sheets = [r for r in records if r["kind"] == "cards"]
    assert [r["path"] for r in sheets] == ["diables/en/cards-all-gutterfold-letter.pdf"]
    pdf, pages = _sheet_pages(tmp_path, sheets[0]["path"])
    assert len(pages) == 4  # 16 cards, 4 a sheet
    pairs = 0
    for page in pages:
        read = _read_page(page)
        names = [n for n, _, _ in read["placements"]]
        back = max(set(names), key=names.count)  # every diables card has the one back
        pairs += _check_folds(read, {back: [n for n in names if n != back]}, 63, 88)
    assert pairs == 16


def _manifest(folder: Path) -> list[dict]:
    data = json.loads((folder / "manifest.json").read_text())
    return data["outputs"] if isinstance(data, dict) else data


def _sheet_pages(out: Path, relative: str) -> tuple[pikepdf.Pdf, list[pikepdf.Page]]:
    """A card-sheet file (kept open: its pages live in it) and its pages after the contents page(s), which the
    manifest counts."""
    record = next(r for r in _manifest(out) if r["path"] == relative)
    pdf = pikepdf.open(out / relative)
    return pdf, list(pdf.pages)[record["contents_pages"]:]


def _svg_rects(path: Path, page_height: float) -> list[tuple[float, ...]]:
    root = ET.parse(path).getroot()
    rects = []
    for rect in root.iter("{http://www.w3.org/2000/svg}rect"):
        x, y, w, h = (float(rect.get(k)) for k in ("x", "y", "width", "height"))
        rects.append((x, page_height - y - h, x + w, page_height - y, float(rect.get("rx"))))
    assert root.get("viewBox").split()[3] == f"{page_height:g}"
    return rects


def _dxf_paths(path: Path) -> list[tuple[float, ...]]:
    doc = ezdxf.readfile(path)
    assert doc.units == ezdxf.units.MM
    found = []
    for polyline in doc.modelspace().query("LWPOLYLINE"):
        points = list(polyline.get_points("xyb"))
        assert polyline.closed
        xs, ys = [p[0] for p in points], [p[1] for p in points]
        arc = next(i for i, p in enumerate(points) if p[2])  # a quarter arc: its chord is radius × √2
        start, end = points[arc], points[(arc + 1) % len(points)]
        radius = ((start[0] - end[0]) ** 2 + (start[1] - end[1]) ** 2) ** 0.5 / 2 ** 0.5
        found.append((min(xs), min(ys), max(xs), max(ys), radius))
    return found


@pytest.mark.parametrize("layout, paper, inset, squares", [("silhouette", "a4", None, 1), ("silhouette", "legal", None, 1),
                                                            ("silhouette-4", "letter", 15.875, 0)])
def test_print_and_cut_sheets_cut_files_and_marks_line_up(tmp_path: Path, layout: str, paper: str,
                                                          inset: float | None, squares: int) -> None:
    args = ["--cards", str(REPO / "cards"), "build", "--game", "diables", "--locale", "en", "--no-docs",
            "--layout", layout, "--paper", paper, "--out", str(tmp_path)]
    run = run_cli(*args, *(["--mark-inset", str(inset)] if inset else []))
    assert run.exit_code == 0, run.output
    listed = [r for r in _manifest(tmp_path) if r["kind"] in ("cards", "cut-svg", "cut-dxf")]
    records = {r["kind"]: r for r in listed if ".last." not in r["path"]}  # a partly filled last page has its own
    stem = f"diables/en/cards-all-{layout}-{paper}"
    assert {k: r["path"] for k, r in records.items()} == {"cards": f"{stem}.pdf", "cut-svg": f"{stem}.cut.svg",
                                                           "cut-dxf": f"{stem}.cut.dxf"}
    assert {r["path"] for r in listed if ".last." in r["path"]} <= {f"{stem}.last.cut.svg", f"{stem}.last.cut.dxf"}
    pdf, pages = _sheet_pages(tmp_path, records["cards"]["path"])
    width, height = (float(v) / MM for v in pages[0].MediaBox[2:])
    front = _read_page(pages[0])
    trims = sorted(_trim(m, 63, 88) for _, m, _ in front["placements"])
    for (_, _, clip), trim in zip(sorted(front["placements"], key=lambda p: _trim(p[1], 63, 88)), trims):
        assert clip == pytest.approx((trim[0] - 0.625, trim[1] - 0.625, 63 + 1.25, 88 + 1.25), abs=1e-3)
    svg = sorted(_svg_rects(tmp_path / records["cut-svg"]["path"], height))
    dxf = sorted(_dxf_paths(tmp_path / records["cut-dxf"]["path"]))
    assert len(svg) == len(dxf) == len(trims) >= 6  # 8 poker cards; 6 on letter with the feeder's 15.875 mm inset
    for trim, s, d in zip(trims, svg, dxf):
        assert max(abs(p - q) for p, q in zip(trim, s[:4])) <= TOLERANCE
        assert max(abs(p - q) for p, q in zip(trim, d[:4])) <= TOLERANCE
        assert s[4] == pytest.approx(3.0, abs=1e-6) and d[4] == pytest.approx(3.0, abs=1e-6)
    centre = ((trims[0][0] + max(t[2] for t in trims)) / 2, (min(t[1] for t in trims) + max(t[3] for t in trims)) / 2)
    assert centre == pytest.approx((width / 2, height / 2), abs=0.01)
    at = inset or 10.0
    marks = front["filled"]
    assert len([m for m in marks if abs(m[2] - 6) < 1e-3 and abs(m[3] - 6) < 1e-3]) == squares
    horizontal = [m for m in marks if abs(m[3] - 1) < 1e-3]
    assert {round(m[1] + 0.5, 3) for m in horizontal} == {round(at, 3), round(height - at, 3)}
    assert len(horizontal) == (2 if squares else 4)
    back = _read_page(pages[1])
    assert not back["filled"]
    # the n-th card's back: on a landscape page (long-edge flip), silhouette-card-maker's place for it, the row
    # reversed and the back turned 180°; on a portrait page, mirrored across the vertical centre line
    for (_, front_matrix, _), (_, back_matrix, _) in zip(front["placements"], back["placements"]):
        x0, y0, x1, y1 = _trim(front_matrix, 63, 88)
        landscape = width > height
        expected = (x0, height - y1, x1, height - y0) if landscape else (width - x1, y0, width - x0, y1)
        assert _trim(back_matrix, 63, 88) == pytest.approx(expected, abs=1e-3)
        assert _up(back_matrix) == pytest.approx((0, -1) if landscape else (0, 1))


def test_cricut_pages_fit_print_then_cut_with_bleed(tmp_path: Path) -> None:
    run = run_cli("--cards", str(REPO / "cards"), "build", "--game", "diables", "--locale", "en", "--no-docs",
                  "--layout", "cricut", "--paper", "letter", "--duplex", "none", "--out", str(tmp_path))
    assert run.exit_code == 0, run.output
    sheets = [r for r in _manifest(tmp_path) if r["kind"] == "cards"]
    pdf, pages = _sheet_pages(tmp_path, sheets[0]["path"])
    assert len(pages) == 4  # 16 cards, 4 an image, no back pages
    for page in pages:
        width, height = (float(v) / MM for v in page.MediaBox[2:])
        assert width <= 6.75 * 25.4 + 1e-6 and height <= 9.25 * 25.4 + 1e-6
        for _, matrix, clip in _read_page(page)["placements"]:
            trim = _trim(matrix, 63, 88)
            assert clip == pytest.approx((trim[0] - 2, trim[1] - 2, 67, 92), abs=1e-3)
            assert clip[0] >= -1e-6 and clip[1] >= -1e-6 and clip[0] + clip[2] <= width + 1e-6 and clip[1] + clip[3] <= height + 1e-6
    assert {r["kind"] for r in _manifest(tmp_path)} >= {"cut-svg", "cut-dxf"}


def test_a_game_folders_own_layout_replaces_the_shipped_one(tmp_path: Path) -> None:
    cards = tmp_path / "cards"
    shutil.copytree(REPO / "cards" / "diables", cards / "diables")
    shipped = json.loads((REPO / "layouts" / "grid.json").read_text())
    (cards / "diables" / "layouts").mkdir()
    (cards / "diables" / "layouts" / "grid.json").write_text(json.dumps({**shipped, "$schema": "../../../schema/layout.schema.json",
                                                                         "margin": 40.0}))
    run = run_cli("--cards", str(cards), "build", "--game", "diables", "--locale", "en", "--no-docs", "--out", str(tmp_path / "b"))
    assert run.exit_code == 0, run.output
    pdf, pages = _sheet_pages(tmp_path / "b", "diables/en/cards-all-a4.pdf")
    assert len(pages) == 8  # 16 cards, 4 a sheet inside 40 mm margins (9 with the shipped 6 mm), backs between
    assert len(_read_page(pages[0])["placements"]) == 4


@pytest.mark.parametrize("name, message", [("../../etc/passwd", "layout name"), ("nonesuch", "no layout 'nonesuch'")])
def test_a_layout_name_is_a_name(tmp_path: Path, name: str, message: str) -> None:
    run = run_cli("--cards", str(REPO / "cards"), "build", "--game", "diables", "--locale", "en", "--no-docs",
                  "--layout", name, "--out", str(tmp_path))
    assert run.exit_code == 2 and message in run.output


@pytest.mark.parametrize("options, message", [
    (["--layout", "grid", "--mark-inset", "15"], "--mark-inset moves registration marks; layout 'grid' prints none"),
    (["--layout", "silhouette", "--gutter", "4"], "--gutter and --marks shape the grid"),
    (["--layout", "cricut", "--marks", "page-edge"], "--gutter and --marks shape the grid"),
    (["--layout", "gutterfold", "--back-offset", "1,0"], "--back-offset and --duplex place back pages"),
    (["--layout", "gutterfold", "--duplex", "none"], "--back-offset and --duplex place back pages"),
])
def test_an_option_the_layout_would_ignore_is_refused(tmp_path: Path, options: list[str], message: str) -> None:
    run = run_cli("--cards", str(REPO / "cards"), "build", "--game", "diables", "--locale", "en", "--no-docs",
                  *options, "--out", str(tmp_path))
    assert run.exit_code == 2 and message in " ".join(run.output.split()), run.output
    assert not (tmp_path / "diables").exists()


def test_a_sheet_listed_slot_by_slot_is_drawn_as_listed(tmp_path: Path) -> None:
    cards = tmp_path / "cards"
    shutil.copytree(REPO / "cards" / "diables", cards / "diables")
    (cards / "diables" / "layouts").mkdir()
    sprue = {"$schema": "../../../schema/layout.schema.json", "description": "two cards, one turned", "papers": ["a4"],
             "margin": 5.0, "sheets": [{"paper": "a4", "card_width": 63, "card_height": 88, "bleed": 1.5,
                                        "slots": [{"x": 20, "y": 150}, {"x": 100, "y": 30, "rotation": 90, "card": 1}],
                                        "lines": [{"kind": "crop", "x1": 10, "y1": 150, "x2": 16, "y2": 150}]}]}
    (cards / "diables" / "layouts" / "sprue.json").write_text(json.dumps(sprue))
    run = run_cli("--cards", str(cards), "build", "--game", "diables", "--locale", "en", "--no-docs", "--layout", "sprue",
                  "--duplex", "none", "--out", str(tmp_path / "b"))
    assert run.exit_code == 0, run.output
    pdf, pages = _sheet_pages(tmp_path / "b", "diables/en/cards-all-sprue-a4.pdf")
    assert len(pages) == 8  # 16 cards, 2 a sheet, no back pages
    read = _read_page(pages[0])
    (_, upright, clip0), (_, turned, clip1) = read["placements"]
    assert _trim(upright, 63, 88) == pytest.approx((20, 150, 83, 238), abs=1e-3)
    assert _trim(turned, 63, 88) == pytest.approx((100, 30, 188, 93), abs=1e-3) and _up(turned) == pytest.approx((-1, 0))
    assert clip1 == pytest.approx((98.5, 28.5, 91, 66), abs=1e-3)
    assert read["plain"] == [pytest.approx((10, 150, 16, 150), abs=1e-3)]
