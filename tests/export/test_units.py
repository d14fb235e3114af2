"""Fast checks of the export parts that need no rendering: profiles, ink limiting, TTS grids, sheet cells."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

import pikepdf
import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardworks.errors import UsageError
from cardworks.export.ink import colour_ink, limit_ink, limited
from cardworks.export.profiles import Fact, load_profile, profile_names
from cardworks.export.sheet_columns import Column, convert
from cardworks.export.tts import MAX_COLUMNS, MAX_SIDE, PER_SHEET, grid_for
from conftest import REPO


def test_every_profile_gives_a_source_for_every_fact_and_flags_research_marked_unverified() -> None:
    files = sorted(p.stem for p in (REPO / "src" / "cardworks" / "export" / "profiles").glob("*.json"))
    assert len(files) >= 2 and profile_names() == files  # every data file is a profile, and only they are
    for name in profile_names():
        profile = load_profile(name)
        facts = [value for _, value in profile if isinstance(value, Fact)]
        assert facts and all(fact.source.strip() for fact in facts)
        assert all(row.source.strip() for row in profile.sizes.value or [])
        raw = (resources.files("cardworks.export") / "profiles" / f"{name}.json").read_text()
        if "[unverified]" in raw:
            assert profile.unverified()
        assert "/work/" not in raw and "/home/" not in raw  # no path of any machine's research folder
    assert load_profile("thegamecrafter").canvas_for(63, 88).width == 825
    assert "sizes/poker" in load_profile("makeplayingcards").unverified()
    assert load_profile("drivethrucards").colour.value.icc == "/usr/share/color/icc/ghostscript/default_cmyk.icc"
    with pytest.raises(UsageError, match="unknown print-shop profile"):
        load_profile("kinkos")


def test_profiles_refuse_cards_of_another_size() -> None:
    shop = load_profile("drivethrucards")
    assert shop.takes(63, 88) and shop.takes(63.5, 88.9) and shop.takes(70, 120) and not shop.takes(44, 68)
    assert shop.size_for(70, 120).name == "tarot" and shop.size_for(44.45, 63.5).name == "mini"
    assert load_profile("pdf").takes(70, 120) and load_profile("pdf").takes(44, 68)
    assert shop.page_mm(63, 88) == pytest.approx((63 + 6.35, 88 + 6.35))
    assert load_profile("pdf").page_mm(70, 120) == pytest.approx((76, 126))
    assert load_profile("thegamecrafter").page_px(63, 88) == (825, 1125)
    assert not load_profile("thegamecrafter").takes(44, 68) and "poker 63.5 × 88.9 mm" in shop.size_names()


@pytest.mark.parametrize("trim", [(63, 88), (70, 120), (44, 68), (70, 70), (88, 63), (57, 89)])
def test_tts_cells_keep_each_card_shape(trim) -> None:
    from cardworks.export.tts import cell_for

    cell = cell_for(trim)
    assert cell[0] * MAX_COLUMNS <= MAX_SIDE and cell[1] * 7 <= MAX_SIDE
    assert cell[1] / cell[0] == pytest.approx(trim[1] / trim[0], rel=0.01)


@given(st.lists(st.floats(0, 1), min_size=4, max_size=4), st.floats(1.5, 3.5))
def test_limited_ink_never_exceeds_the_limit_and_keeps_black(values, limit) -> None:
    result = limited(values, limit)
    assert sum(result) <= limit + 1e-9 or result == values
    assert result[3] == values[3]
    assert all(0 <= v <= 1 for v in result)


def test_limit_ink_rewrites_content_streams() -> None:
    pdf = pikepdf.new()
    page = pdf.add_blank_page()
    page.obj.Contents = pdf.make_stream(b"0.7 0.7 0.7 1 k 0 0 10 10 re f 0.1 0.2 0.3 0.4 K")
    assert colour_ink(pdf) == pytest.approx(3.1)
    assert limit_ink(pdf, 2.4) == 1
    assert colour_ink(pdf) <= 2.4
    operators = [(list(map(float, o)), str(op)) for o, op in pikepdf.parse_content_stream(page) if str(op) in "kK"]
    assert operators[0][0][3] == 1 and operators[1][0] == pytest.approx([0.1, 0.2, 0.3, 0.4])


@pytest.mark.parametrize("faces", [1, 9, 16, 68, PER_SHEET])
def test_tts_grids_fit_ten_by_seven_and_4096_px(faces: int) -> None:
    grid = grid_for(faces, (63, 88))
    assert grid.columns <= 10 and grid.rows <= 7 and grid.columns * grid.rows >= faces + 1
    assert max(grid.size) <= MAX_SIDE
    assert grid.cell[1] / grid.cell[0] == pytest.approx(88 / 63, rel=0.01)


@pytest.mark.parametrize(("kind", "cell", "expected"), [
    ("int", 3, 3), ("int", 3.0, 3), ("int", " 4 ", 4), ("int", None, None), ("bool", "TRUE", True),
    ("ids", "treasure, battle", ["treasure", "battle"]), ("names", "a; b", ["a", "b"]), ("ids", None, []),
    ("text", "x", "x"),
])
def test_cells_convert_to_field_values(kind, cell, expected) -> None:
    assert convert(Column("c", kind, "c"), cell) == (expected, None)


@pytest.mark.parametrize(("kind", "cell"), [("int", "three"), ("int", 2.5), ("int", True), ("bool", "yes"), ("text", 5)])
def test_cells_of_the_wrong_type_are_errors(kind, cell) -> None:
    value, error = convert(Column("c", kind, "c"), cell)
    assert error and value is None


def test_preflight_measures_image_resolution_at_print_size() -> None:
    from cardworks.export.preflight import FileReport, check_images

    pdf = pikepdf.new()
    page = pdf.add_blank_page(page_size=(144, 144))
    image = pikepdf.Stream(pdf, b"\x80" * 300 * 300 * 3, Type=pikepdf.Name.XObject, Subtype=pikepdf.Name.Image,
                           Width=300, Height=300, ColorSpace=pikepdf.Name.DeviceRGB, BitsPerComponent=8)
    page.obj.Resources = pikepdf.Dictionary(XObject=pikepdf.Dictionary(Im0=image))
    profile = load_profile("drivethrucards")
    for inches, ok in ((1, True), (2, False)):  # 300 px over 1 in is 300 ppi; over 2 in, 150 ppi
        page.obj.Contents = pdf.make_stream(f"q {72 * inches} 0 0 {72 * inches} 0 0 cm /Im0 Do Q".encode())
        report = FileReport(Path("x.pdf"))
        check_images(pdf, profile, report)
        assert report.checks[0].ok is ok, report.checks[0].message
    assert "150.0 ppi" in report.checks[0].message


def test_shop_pages_refuse_to_place_a_face_at_another_cards_size() -> None:
    from cardworks.export.pages import shop_pages
    from cardworks.render.impose import MM

    faces = pikepdf.new()
    face = faces.add_blank_page(page_size=(69 * MM, 94 * MM))
    face.obj.TrimBox = [3 * MM, 3 * MM, 66 * MM, 91 * MM]
    placed = shop_pages(faces, [0], [((63, 88), (69, 94))])
    assert [round(float(v) / MM, 2) for v in placed.pages[0].TrimBox] == [3, 3, 66, 91]
    with pytest.raises(ValueError, match="is not 70 × 120 mm"):  # a poker face stretched into a tarot page
        shop_pages(faces, [0], [((70, 120), (76, 126))])


def test_gray_colours_become_black_only_cmyk() -> None:
    """Ghostscript keeps some greys as DeviceGray in a CMYK PDF/X; the shop file must set CMYK only."""
    from cardworks.export.ink import gray_as_cmyk

    pdf = pikepdf.new()
    pdf.add_blank_page()
    pdf.pages[0].Contents = pdf.make_stream(b"0.25 g 1 G 0 0 10 10 re B 0 0 0 1 k")
    assert gray_as_cmyk(pdf) == 2
    ops = [(list(map(float, operands)), str(op)) for operands, op in pikepdf.parse_content_stream(pdf.pages[0])]
    assert ops[0] == ([0, 0, 0, 0.75], "k") and ops[1] == ([0, 0, 0, 0], "K")
    assert ops[-1] == ([0, 0, 0, 1], "k")  # CMYK left as it was
