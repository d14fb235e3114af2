"""Fast checks of issue 44's parts that need no rendering: fonts written straight into a page's resources, image
resolution to one decimal with the card named, transparency decided page by page, progress every few seconds."""

from __future__ import annotations

import io
import time
import zlib
from pathlib import Path

import pikepdf
import pytest

from cardworks.cli.output import Heartbeat
from cardworks.export.preflight import Expected, FileReport, check_fonts, check_images
from cardworks.export.profiles import load_profile
from cardworks.export.transparency import drop_opaque_groups

EXPECTED = Expected(cards=("art-2", "back"), faces={"art-2": {"set": "art-set", "art": "art/alpha.png"}})


def _helvetica_page(pdf: pikepdf.Pdf) -> None:
    """A page drawing text in a Helvetica written straight into its resources, as the board tiles did."""
    page = pdf.add_blank_page(page_size=(200, 200))
    font = pikepdf.Dictionary(Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type1, BaseFont=pikepdf.Name.Helvetica)
    page.obj.Resources = pikepdf.Dictionary(Font=pikepdf.Dictionary(Helv=font))
    page.obj.Contents = pdf.make_stream(b"BT /Helv 8 Tf 10 10 Td (A1) Tj ET")


def test_a_font_written_straight_into_a_page_is_found_and_its_page_and_card_named() -> None:
    pdf = pikepdf.new()
    _helvetica_page(pdf)
    assert not any(isinstance(o, pikepdf.Dictionary) and o.get("/Type") == "/Font" for o in pdf.objects)  # missed
    report = FileReport(Path("x.pdf"))
    check_fonts(pdf, report, EXPECTED)
    fonts = report.checks[0]
    assert not fonts.ok and fonts.message == "not embedded: Helvetica on page 1 (card art-2, set art-set, art " \
                                            "art/alpha.png)", fonts.message


def _image_page(pdf: pikepdf.Pdf, pixels: int, points: float, alpha: bool = False) -> pikepdf.Page:
    page = pdf.add_blank_page(page_size=(points, points))
    image = pikepdf.Stream(pdf, zlib.compress(b"\x80" * pixels * pixels * 3), Filter=pikepdf.Name.FlateDecode,
                           Type=pikepdf.Name.XObject, Subtype=pikepdf.Name.Image, Width=pixels, Height=pixels,
                           ColorSpace=pikepdf.Name.DeviceRGB, BitsPerComponent=8)
    if alpha:
        image.SMask = pikepdf.Stream(pdf, zlib.compress(b"\x80" * pixels * pixels), Type=pikepdf.Name.XObject,
                                     Subtype=pikepdf.Name.Image, Width=pixels, Height=pixels,
                                     ColorSpace=pikepdf.Name.DeviceGray, BitsPerComponent=8,
                                     Filter=pikepdf.Name.FlateDecode)
    form = pikepdf.Stream(pdf, f"q {points} 0 0 {points} 0 0 cm /Im0 Do Q".encode(), Type=pikepdf.Name.XObject,
                          Subtype=pikepdf.Name.Form, BBox=[0, 0, points, points],
                          Group=pikepdf.Dictionary(S=pikepdf.Name.Transparency),
                          Resources=pikepdf.Dictionary(XObject=pikepdf.Dictionary(Im0=image)))
    page.obj.Resources = pikepdf.Dictionary(XObject=pikepdf.Dictionary(F=pdf.make_indirect(form)))
    page.obj.Contents = pdf.make_stream(b"/F Do")
    return page


@pytest.mark.parametrize(("pixels", "points", "ok", "shown"), [
    (3000, 720, True, "300.0 ppi"),
    (3000, 720.001, True, "300.0 ppi"),  # 299.9996: what the matrix's last digit does is not a refusal
    (2997, 720, False, "299.7 ppi"),  # used to print as "300 ppi" and fail
    (2996, 720, False, "299.6 ppi"),
])
def test_resolution_is_shown_to_one_decimal_and_compared_as_shown(pixels: int, points: float, ok: bool,
                                                                   shown: str) -> None:
    pdf = pikepdf.new()
    _image_page(pdf, pixels, points)  # 720 pt is 10 in: pixels / 10 ppi
    report = FileReport(Path("x.pdf"))
    check_images(pdf, load_profile("pdf"), report, EXPECTED)
    check = report.checks[0]
    assert check.ok is ok and shown in check.message, check.message
    if not ok:
        assert f"page 1 (card art-2, set art-set, art art/alpha.png): {pixels} × {pixels} px image at {shown}" \
            in check.message
    without = FileReport(Path("x.pdf"))  # a file preflighted on its own: the page, without a card
    check_images(pdf, load_profile("pdf"), without)
    assert ok or f"page 1: {pixels} × {pixels} px image at {shown}" in without.checks[0].message


def test_transparency_groups_go_page_by_page() -> None:
    """An image with alpha on one page used to keep every page's groups (so Ghostscript flattened them all)."""
    pdf = pikepdf.new()
    _image_page(pdf, 10, 72)
    _image_page(pdf, 10, 72, alpha=True)
    _image_page(pdf, 10, 72)
    pages = drop_opaque_groups(pdf)
    assert [page.reasons for page in pages] == [(), ("an image with an alpha channel",), ()]
    assert ["/Group" in page.Resources.XObject.F for page in pdf.pages] == [False, True, False]


def test_a_form_a_translucent_page_paints_keeps_its_group_and_that_page_is_reported() -> None:
    pdf = pikepdf.new()
    opaque = _image_page(pdf, 10, 72)
    translucent = pdf.add_blank_page(page_size=(72, 72))
    translucent.obj.Resources = pikepdf.Dictionary(XObject=pikepdf.Dictionary(F=opaque.Resources.XObject.F),
                                                   ExtGState=pikepdf.Dictionary(A=pikepdf.Dictionary(ca=0.5)))
    translucent.obj.Contents = pdf.make_stream(b"/A gs /F Do")
    pages = drop_opaque_groups(pdf)
    assert pages[1].reasons == ("opacity 0.5",)
    assert pages[0].reasons == ("it draws a drawing that another page paints translucently",)
    assert "/Group" in opaque.Resources.XObject.F  # its blending under 0.5 opacity depends on the group


def test_heartbeat_says_each_stage_and_repeats_it_while_it_lasts() -> None:
    stream = io.StringIO()
    with Heartbeat(every=0.05, stream=stream) as stage:
        stage("writing the files")
        deadline = time.monotonic() + 5
        while stream.getvalue().count("writing the files …") < 2 and time.monotonic() < deadline:
            time.sleep(0.01)
        stage("preflight")
    lines = stream.getvalue().splitlines()
    assert lines[0].endswith("s  writing the files") and lines[-1].endswith("s  preflight")
    assert sum(line.endswith("writing the files …") for line in lines) >= 2
    assert all("\x1b" not in line and "\r" not in line for line in lines)  # plain lines a pipe can read
