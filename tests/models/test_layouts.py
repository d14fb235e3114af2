"""Sheet layouts as data: the shipped layout files, the sheets their rules make, and the checks that
``validate`` runs on a layout file, each shown failing on a sheet with that fault."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cardworks.models.layout import LayoutFile, Line, Mark, Slot
from cardworks.models.sheet_rules import sheet_for
from cardworks.models.sheets import PAPERS, LayoutError, Sheet, sheet_problems
from conftest import REPO, GameDir, run_cli

LAYOUTS = REPO / "layouts"
IN = 25.4
SIZES = {"poker": (63, 88), "bridge": (57, 89), "mini": (44, 68), "tarot": (70, 120), "square": (70, 70),
         "landscape": (88, 63)}


def _layout(name: str) -> LayoutFile:
    return LayoutFile.model_validate(json.loads((LAYOUTS / f"{name}.json").read_text(encoding="utf-8")))


@pytest.mark.parametrize("name", ["grid", "gutterfold", "silhouette", "silhouette-4", "cricut"])
def test_every_shipped_layout_makes_faultless_sheets(name: str) -> None:
    layout = _layout(name)
    assert layout.schema_ref == "../schema/layout.schema.json" and layout.sources
    made = 0
    for paper in layout.papers:
        for width, height in SIZES.values():
            try:
                sheet = sheet_for(layout, paper, width, height, 3.0)
            except LayoutError:
                continue
            assert sheet_problems(sheet) == [], (paper, width, height)
            assert sheet.fronts >= 1
            made += 1
    assert made >= len(layout.papers) * 4


def _sheet(**changes) -> Sheet:
    """A good two-card A4 sheet; ``changes`` spoil it."""
    base = dict(paper="a4", width=210.0, height=297.0, card_width=63.0, card_height=88.0, bleed=1.0,
                printable=(5.0, 5.0, 205.0, 292.0), slots=(Slot(x=20, y=20), Slot(x=100, y=20, card=1)),
                marks=(Mark(kind="registration", x=10, y=200, width=5, height=5),),
                lines=(Line(kind="fold", x1=90, y1=5, x2=90, y2=292),))
    return Sheet(**{**base, **changes})


def test_a_good_sheet_has_no_fault() -> None:
    assert sheet_problems(_sheet()) == []


@pytest.mark.parametrize("changes, pointer, code", [
    ({"slots": (Slot(x=2, y=20), Slot(x=100, y=20, card=1))}, "/slots/0", "layout-slot-outside"),
    ({"slots": (Slot(x=20, y=20), Slot(x=150, y=20, rotation=90, card=1))}, "/slots/1", "layout-slot-outside"),
    ({"slots": (Slot(x=20, y=20), Slot(x=80, y=20, card=1))}, "/slots/1", "layout-slot-overlap"),
    ({"marks": (Mark(kind="registration", x=83.5, y=50, width=2, height=2),)}, "/marks/0", "layout-mark-on-card"),
    ({"marks": (Mark(kind="glue", x=208, y=50, width=5, height=5),)}, "/marks/0", "layout-mark-outside"),
    ({"lines": (Line(kind="fold", x1=83.9, y1=5, x2=83.9, y2=292),)}, "/lines/0", "layout-mark-on-card"),
    ({"slots": (Slot(x=20, y=20), Slot(x=100, y=20, side="back", card=3))}, "/slots/1", "layout-back-without-front"),
])
def test_each_check_fails_on_its_fault(changes: dict, pointer: str, code: str) -> None:
    found = sheet_problems(_sheet(**changes), "/sheets/0")
    assert (f"/sheets/0{pointer}", code) in [(p, c) for p, c, _ in found], found


def _mini_pack(game: GameDir, folder: Path) -> Path:
    """A one-card pack for the fixture game ``mini`` (the game written beside it)."""
    game.write()
    files = {
        "pack.json": {"$schema": "../../schema/pack.schema.json", "id": "seafood", "extends": "mini",
                      "name": "Seafood"},
        "sets/seafood.json": {"$schema": "../../../schema/set.schema.json", "id": "seafood-set", "name": "Seafood",
                              "totals": {"designs": 1, "cards": 1},
                              "cards": [{"id": "gamba", "quantity": 1, "types": ["treasure"], "name": "gamba",
                                         "sources": [{"doc": "rules", "section": "Cards", "lines": "1"}]}]},
    }
    for relative, content in files.items():
        (folder / relative).parent.mkdir(parents=True, exist_ok=True)
        (folder / relative).write_text(json.dumps(content), encoding="utf-8")
    return folder


def test_validate_reports_a_packs_faulty_layout_at_its_pointers(game: GameDir, tmp_path: Path) -> None:
    pack = _mini_pack(game, tmp_path / "pack")
    cards = game.cards_root
    run = run_cli("--cards", str(cards), "validate", str(pack))
    assert run.exit_code == 0, run.output
    (pack / "layouts").mkdir()
    good = {"$schema": "../../schema/layout.schema.json", "description": "two cards", "papers": ["a4"], "margin": 5,
            "sheets": [{"paper": "a4", "card_width": 63, "card_height": 88, "bleed": 1,
                        "slots": [{"x": 10, "y": 10}, {"x": 80, "y": 10, "card": 1}]}]}
    (pack / "layouts" / "sprue.json").write_text(json.dumps(good), encoding="utf-8")
    assert not [line for line in run_cli("--cards", str(cards), "validate", str(pack)).output.splitlines()
                if "sprue.json" in line]
    bad = json.loads(json.dumps(good))
    bad["sheets"][0]["slots"] += [{"x": 100, "y": 10, "card": 2}, {"x": 150, "y": 150, "card": 3}]
    bad["sheets"][0]["marks"] = [{"kind": "registration", "x": 40, "y": 40, "width": 5, "height": 5}]
    bad["sheets"][0]["lines"] = [{"kind": "fold", "x1": 120, "y1": 0, "x2": 120, "y2": 297}]
    (pack / "layouts" / "sprue.json").write_text(json.dumps(bad), encoding="utf-8")
    run = run_cli("--cards", str(cards), "validate", str(pack))
    assert run.exit_code == 1
    lines = [line.split("sprue.json:", 1)[1] for line in run.output.splitlines() if "sprue.json:" in line]
    assert "/sheets/0/slots/2: [layout-slot-overlap] the card overlaps slot 1" in lines
    assert any(line.startswith("/sheets/0/slots/3: [layout-slot-outside]") for line in lines)
    assert any(line.startswith("/sheets/0/marks/0: [layout-mark-on-card]") for line in lines)
    assert any(line.startswith("/sheets/0/lines/0: [layout-mark-on-card]") for line in lines)
    bad["sheets"][0]["slots"][0]["rotation"] = 45
    (pack / "layouts" / "sprue.json").write_text(json.dumps(bad), encoding="utf-8")
    run = run_cli("--cards", str(cards), "validate", str(pack))
    assert run.exit_code == 1 and "sprue.json:/sheets/0/slots/0/rotation:" in run.output


# silhouette-card-maker's assets/layouts.json (commit 0616641), letter paper, "default" variant: orientation,
# rows, columns and the registration arm length its layout script wrote (at most 20 mm is drawn).
SCM_LETTER = {
    "standard": (63, 88, "landscape", 2, 4, 8.04), "poker": (2.5 * IN, 3.5 * IN, "landscape", 2, 4, 7.2),
    "bridge": (2.25 * IN, 3.5 * IN, "landscape", 2, 4, 12.28), "business": (3.5 * IN, 2 * IN, "portrait", 5, 2, 7.2),
    "domino": (1.75 * IN, 3.5 * IN, "landscape", 2, 5, 14.82), "euro_mini": (44, 68, "portrait", 3, 4, 25.15),
    "japanese": (59, 86, "landscape", 2, 4, 10.08), "mini": (1.75 * IN, 2.5 * IN, "landscape", 3, 5, 14.82),
    "tarot": (2.75 * IN, 4.75 * IN, "portrait", 2, 2, 26.16), "catan": (54, 80, "portrait", 3, 3, 14.39),
    "micro": (1.25 * IN, 1.75 * IN, "landscape", 4, 7, 13.46), "american_mini": (41, 63, "portrait", 4, 4, 12.78),
}


@pytest.mark.parametrize("card", sorted(SCM_LETTER))
def test_silhouette_sheets_match_silhouette_card_makers_layouts(card: str) -> None:
    width, height, orientation, rows, cols, arm = SCM_LETTER[card]
    sheet = sheet_for(_layout("silhouette"), "letter", width, height, 3.0)
    assert ("landscape" if sheet.width > sheet.height else "portrait") == orientation
    assert len({round(s.y, 3) for s in sheet.slots}) == rows and len({round(s.x, 3) for s in sheet.slots}) == cols
    boxes = [sheet.footprint(s) for s in sheet.slots]
    centre = ((min(b[0] for b in boxes) + max(b[2] for b in boxes)) / 2, (min(b[1] for b in boxes) + max(b[3] for b in boxes)) / 2)
    assert centre == pytest.approx((sheet.width / 2, sheet.height / 2), abs=1e-6)
    xs = sorted({b[0] for b in boxes})
    assert all(abs(b - a - width - 1.25) < 1e-6 for a, b in zip(xs, xs[1:]))
    lower_left_arm = sheet.marks[0]  # the horizontal arm of the bottom-left L
    assert lower_left_arm.height == 1.0 and lower_left_arm.y == pytest.approx(10 - 0.5)
    assert lower_left_arm.x + lower_left_arm.width - 10 == pytest.approx(min(arm, 20), abs=0.15)
    assert sheet.bleed == 0.625 and sheet.corner_radius == 3.0


@pytest.mark.parametrize("name, squares, ls", [("silhouette", 1, 2), ("silhouette-4", 0, 4)])
def test_registration_patterns_and_the_adjustable_inset(name: str, squares: int, ls: int) -> None:
    for inset in (10.0, 0.625 * IN):
        sheet = sheet_for(_layout(name), "a4", 63, 88, 3.0, mark_inset=inset)
        found = [m for m in sheet.marks if m.width == m.height == 6.0]
        assert len(found) == squares
        arms = [m for m in sheet.marks if m not in found]
        assert len(arms) == 2 * ls
        corners = {(round(m.x + 0.5, 3) if m.width == 1 else None, round(m.y + 0.5, 3) if m.height == 1 else None) for m in arms}
        assert {c for c in corners if c[0] is not None} <= {(round(inset, 3), None), (round(sheet.width - inset, 3), None)}
        if squares:
            square = found[0]
            assert (square.x + 0.5, square.y + square.height - 0.5) == pytest.approx((inset, sheet.height - inset))
        assert sheet_problems(sheet) == []


def test_a_card_too_big_for_a_layout_is_refused() -> None:
    with pytest.raises(LayoutError, match="does not fit"):
        sheet_for(_layout("silhouette"), "letter", 200, 250, 3.0)
    with pytest.raises(LayoutError, match="not legal"):
        sheet_for(_layout("cricut"), "legal", 63, 88, 3.0)


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("size", sorted(SIZES))
def test_gutterfold_mirrors_each_front_onto_its_back(paper: str, size: str) -> None:
    sheet = sheet_for(_layout("gutterfold"), paper, *SIZES[size], 3.0)
    fold = next(line for line in sheet.lines if line.kind == "fold")
    down = fold.x1 == fold.x2
    fronts = {s.card: s for s in sheet.slots if s.side == "front"}
    backs = {s.card: s for s in sheet.slots if s.side == "back"}
    assert set(fronts) == set(backs) and fronts
    for card, front in fronts.items():
        x0, y0, x1, y1 = sheet.footprint(front)
        mirrored = (2 * fold.x1 - x1, y0, 2 * fold.x1 - x0, y1) if down else (x0, 2 * fold.y1 - y1, x1, 2 * fold.y1 - y0)
        assert sheet.footprint(backs[card]) == pytest.approx(mirrored, abs=1e-9)
    assert PAPERS[paper] == (sheet.width, sheet.height)


def test_long_lines_across_many_slots_are_checked_exactly() -> None:
    slots = tuple(Slot(x=6 + (i % 10) * 19.5, y=6 + (i // 10) * 14, card=i) for i in range(200))
    lines = tuple(Line(kind="fold", x1=-2000, y1=6.5 + 14 * (i % 20), x2=2000, y2=6.5 + 14 * (i % 20) + i / 1000)
                  for i in range(1000))  # each crosses a row of cards from far off the sheet
    sheet = _sheet(card_width=19, card_height=13, bleed=0.0, printable=(0, 0, 210, 297), slots=slots, marks=(), lines=lines)
    found = sheet_problems(sheet)  # (sampling each line every 0.05 mm, as a first version did, took hours)
    assert len([f for f in found if f[1] == "layout-mark-on-card"]) == 1000
    touching = _sheet(lines=(Line(kind="fold", x1=84.1, y1=5, x2=84.1, y2=292),))  # along the edge of the bleed
    assert sheet_problems(touching) == []
