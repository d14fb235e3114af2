"""Cut-out pieces that can be made as their sheets say, read back from the built PDFs' content streams: the coin
stickers are two equal circles in the colours their labels name, a two-sided counter is a joined pair with a
dashed fold (a PDF dash pattern, operator ``d``), a standee's folds are dashed and its outline solid, the
per-colour groups differ in grey, the faces' legend is at least 6 pt, and the contents page names the option
that prints optional cards as the command line spells it.

The geometry is read by walking each page's operators (and the form XObjects it draws) with the current
transformation, so a shape is measured where it lands on the paper, in millimetres."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pikepdf
import pytest
from pypdf import PdfReader

from cardworks.render.cutouts import BRIDGE, COUNTER_MM, STANDEE_MM, STICKER_MM, grey
from conftest import REPO, run_cli

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not shutil.which("pdftotext"), reason="needs poppler-utils")]

PT = 25.4 / 72
PAINT = {"S", "s", "f", "F", "f*", "B", "B*", "b", "b*"}
STROKED = {"S", "s", "B", "B*", "b", "b*"}


def _mul(a: list[float], b: list[float]) -> list[float]:
    """The product of two PDF matrices [a b c d e f] (``a`` applied first)."""
    return [a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3],
            a[2] * b[0] + a[3] * b[2], a[2] * b[1] + a[3] * b[3],
            a[4] * b[0] + a[5] * b[2] + b[4], a[4] * b[1] + a[5] * b[3] + b[5]]


def shapes(pdf: Path) -> list[list[dict]]:
    """Per page, every painted path: its box in mm on the page, how it was painted, the dash array in force
    (in mm) and the fill and stroke colours (RGB, 0–1)."""
    out = []
    with pikepdf.open(pdf) as document:
        for page in document.pages:
            found: list[dict] = []
            _walk(page.obj, page.Resources, [1, 0, 0, 1, 0, 0], found)
            out.append(found)
    return out


def _walk(holder, resources, ctm: list[float], found: list[dict]) -> None:
    state = {"ctm": ctm, "dash": [], "fill": (0.0, 0.0, 0.0), "stroke": (0.0, 0.0, 0.0), "width": 1.0}
    stack: list[dict] = []
    points: list[tuple[float, float]] = []
    for operands, operator in pikepdf.parse_content_stream(holder):
        op = str(operator)
        if op == "q":
            stack.append(dict(state))
        elif op == "Q":
            state = stack.pop()
        elif op == "cm":
            state["ctm"] = _mul([float(v) for v in operands], state["ctm"])
        elif op == "d":
            scale = (abs(state["ctm"][0]) + abs(state["ctm"][3])) / 2 or 1.0
            state["dash"] = [float(v) * scale * PT for v in operands[0]]
        elif op == "w":
            state["width"] = float(operands[0])
        elif op == "rg":
            state["fill"] = tuple(float(v) for v in operands)
        elif op == "RG":
            state["stroke"] = tuple(float(v) for v in operands)
        elif op in ("m", "l"):
            points.append(_at(state["ctm"], float(operands[0]), float(operands[1])))
        elif op in ("c", "v", "y") and points:  # the curve itself, sampled: its control points lie outside it
            given = [_at(state["ctm"], float(operands[i]), float(operands[i + 1])) for i in range(0, len(operands), 2)]
            controls = {"c": given, "v": [points[-1], *given], "y": [given[0], *given]}[op]
            points += [_bezier(points[-1], *controls, t / 16) for t in range(1, 17)]
        elif op == "re":
            x, y, w, h = (float(v) for v in operands)
            points += [_at(state["ctm"], x, y), _at(state["ctm"], x + w, y + h),
                       _at(state["ctm"], x + w, y), _at(state["ctm"], x, y + h)]
        elif op in PAINT or op == "n":
            if op != "n" and points:
                xs, ys = [p[0] for p in points], [p[1] for p in points]
                found.append({"x": min(xs) * PT, "y": min(ys) * PT, "w": (max(xs) - min(xs)) * PT,
                              "h": (max(ys) - min(ys)) * PT, "op": op, "dash": state["dash"],
                              "fill": state["fill"], "stroke": state["stroke"]})
            points = []
        elif op == "Do" and resources is not None:
            xobject = resources.get("/XObject", {}).get(str(operands[0]))
            if xobject is not None and xobject.get("/Subtype") == "/Form":
                matrix = [float(v) for v in xobject.get("/Matrix", [1, 0, 0, 1, 0, 0])]
                _walk(xobject, xobject.get("/Resources", resources), _mul(matrix, state["ctm"]), found)


def _bezier(p0, p1, p2, p3, t: float) -> tuple[float, float]:
    u = 1 - t
    return tuple(u ** 3 * a + 3 * u * u * t * b + 3 * u * t * t * c + t ** 3 * d for a, b, c, d in zip(p0, p1, p2, p3))


def _at(ctm: list[float], x: float, y: float) -> tuple[float, float]:
    return ctm[0] * x + ctm[2] * y + ctm[4], ctm[1] * x + ctm[3] * y + ctm[5]


def _near(value: float, target: float, tolerance: float = 0.6) -> bool:
    return abs(value - target) <= tolerance


def _flat(text: str) -> str:
    return re.sub(r"[\s\u00ad\u2010]+", "", text)


def _pages(pdf: Path) -> list[str]:
    out = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    return out.split("\f")


@pytest.fixture(scope="module")
def kits(tmp_path_factory) -> dict[str, Path]:
    """Fallera's base + expansion 2 deck (the Misteri d'Elx is optional there) in en, ca and es without the
    rulebooks, and Diables in English."""
    outs = {}
    for name, args in {"fallera": ["--game", "fallera", "--set", "base-2", "--locale", "en", "--locale", "ca",
                                   "--locale", "es", "--no-docs"],
                       "diables": ["--game", "diables", "--locale", "en", "--no-docs"]}.items():
        out = tmp_path_factory.mktemp(name)
        run = run_cli("--cards", str(REPO / "cards"), "build", "--out", str(out), "--jobs", "2", *args)
        assert run.exit_code == 0, run.output
        outs[name] = out
    return outs


def test_the_coin_stickers_are_two_equal_circles_in_the_colours_their_labels_name(kits) -> None:
    found = [s for page in shapes(kits["fallera"] / "fallera/en/stickers-a4.pdf") for s in page]
    round_ = [s for s in found if _near(s["w"], STICKER_MM) and _near(s["h"], STICKER_MM)]
    discs = [s for s in round_ if s["op"] in ("f", "B") and max(s["fill"]) > 0.3]  # the fills
    outlines = [s for s in round_ if s not in discs]  # a border: a ring filled even-odd, or a stroke
    assert len(discs) == 2 and len(outlines) == 2, [(round(s["w"], 1), round(s["h"], 1), s["op"]) for s in found]
    assert all(_near(s["w"], s["h"], 0.2) for s in round_), "circles, not ovals"
    heads, tails = discs
    assert heads["fill"][1] > heads["fill"][0] and heads["fill"][1] > heads["fill"][2], "heads: green"
    assert tails["fill"][0] > tails["fill"][1] and tails["fill"][0] > tails["fill"][2], "tails: red"
    assert all(not s["dash"] for s in outlines), "a sticker's outline is cut: solid"


def test_a_two_sided_counter_is_a_joined_pair_folded_on_a_dashed_line(kits) -> None:
    found = [s for page in shapes(kits["diables"] / "diables/en/counters-a4.pdf") for s in page]
    pairs = [s for s in found if s["op"] in STROKED and not s["dash"] and _near(s["w"], 2 * COUNTER_MM)
             and _near(s["h"], COUNTER_MM)]
    folds = [s for s in found if s["op"] in STROKED and s["dash"] and _near(s["h"], BRIDGE * COUNTER_MM, 0.8)
             and s["w"] < 0.5]
    assert pairs, "no joined pair"
    assert len(folds) == len(pairs), (len(folds), len(pairs))
    for pair in pairs:  # each pair's fold crosses its middle, where the two discs mirror each other
        assert any(_near(fold["x"], pair["x"] + COUNTER_MM, 0.3) and pair["y"] < fold["y"] < pair["y"] + COUNTER_MM
                   for fold in folds), pair
    assert all(fold["dash"][0] > 0.5 and fold["dash"][1] > 0.3 for fold in folds), "a visible dash pattern, in mm"


def test_the_colour_groups_differ_in_colour_and_in_grey_and_carry_their_number(kits) -> None:
    pdf = kits["diables"] / "diables/en/counters-a4.pdf"
    found = [s for page in shapes(pdf) for s in page]
    fills = {tuple(round(c, 3) for c in s["fill"]) for s in found if s["op"] in ("f", "B")
             and _near(s["w"], COUNTER_MM) and _near(s["h"], COUNTER_MM)}
    greys = sorted(grey("#" + "".join(f"{round(c * 255):02x}" for c in fill)) for fill in fills)
    coloured = [g for g in greys if g < 240]  # the cream of counters of no colour aside
    assert len(coloured) >= 4, greys
    assert all(b - a >= 25 for a, b in zip(coloured, coloured[1:])), f"too close in grey: {coloured}"
    text = _flat(" ".join(_pages(pdf)))
    for number in range(1, 5):
        assert f"{number}Cameratokens" in text, f"colour group {number} prints its number on its counters"


def test_standees_are_cut_on_a_solid_outline_and_folded_on_dashed_lines_with_a_legend(kits) -> None:
    width, height = STANDEE_MM
    total = 2 * width * 0.6 + 2 * height
    for game in ("diables",):  # the one standee of La Fallera Calavera is expansion 3's (same template)
        pdf = kits[game] / f"{game}/en/standees-a4.pdf"
        found = [s for page in shapes(pdf) for s in page]
        outlines = [s for s in found if s["op"] in STROKED and not s["dash"] and _near(s["w"], width) and _near(s["h"], total)]
        folds = [s for s in found if s["op"] in STROKED and s["dash"] and _near(s["w"], width) and s["h"] < 0.5]
        assert outlines and len(folds) == 3 * len(outlines), (game, len(outlines), len(folds))
        text = " ".join(_pages(pdf))
        assert "cut" in text and "fold" in text, "the legend of the lines"
        legend = [s for s in found if s["op"] in STROKED and s["h"] < 0.5 and _near(s["w"], 10, 0.2)]
        assert {bool(s["dash"]) for s in legend} == {True, False}, "the legend draws a solid and a dashed line"


@pytest.mark.parametrize("locale", ["en", "ca", "es"])
def test_the_contents_page_names_the_option_as_the_command_line_spells_it(kits, locale: str) -> None:
    first = _flat(_pages(kits["fallera"] / f"fallera/{locale}/cards-base-2-a4.pdf")[0])
    assert "--with-optional" in first and "(--optional)" not in first


def test_the_option_the_contents_page_names_is_accepted_and_the_old_one_refused(tmp_path: Path) -> None:
    refused = run_cli("--cards", str(REPO / "cards"), "build", "--game", "fallera", "--optional", "--out", str(tmp_path))
    assert refused.exit_code == 2
    help_text = run_cli("build", "--help").output
    assert "--with-optional" in help_text


def test_the_faces_legend_prints_at_six_points_or_more(kits) -> None:
    pdf = kits["fallera"] / "fallera/en/print-shop/cards-base-2.pdf"
    sizes: list[float] = []

    def visit(text, cm, tm, font, size) -> None:
        if "rulebooks" in text or "unknown" in text:
            scale = (tm[0] ** 2 + tm[1] ** 2) ** 0.5 * (cm[0] ** 2 + cm[1] ** 2) ** 0.5
            sizes.append(size * scale)

    reader = PdfReader(pdf)
    for page in reader.pages[:20]:
        page.extract_text(visitor_text=visit)
    assert sizes and min(sizes) >= 5.95, sorted(sizes)[:5]
    manifest = json.loads((kits["fallera"] / "manifest.json").read_text(encoding="utf-8"))
    assert any(r["path"].endswith("print-shop/cards-base-2.pdf") for r in manifest["outputs"])
