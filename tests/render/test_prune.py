"""render/prune.py: a face split out of a document keeps only the fonts and objects it draws."""

from __future__ import annotations

import pikepdf

from cardworks.render.prune import prune_resources


def _font(pdf: pikepdf.Pdf, name: str) -> pikepdf.Object:
    return pdf.make_indirect(pikepdf.Dictionary(Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type1,
                                                BaseFont=pikepdf.Name(name)))


def _image(pdf: pikepdf.Pdf) -> pikepdf.Object:
    return pdf.make_stream(b"\x00\x00\x00", Type=pikepdf.Name.XObject, Subtype=pikepdf.Name.Image, Width=1, Height=1,
                           ColorSpace=pikepdf.Name.DeviceRGB, BitsPerComponent=8)


def _page(content: bytes) -> tuple[pikepdf.Pdf, pikepdf.Page, pikepdf.Object]:
    """A page whose resources (shared, as WeasyPrint shares them) hold two fonts, two images and a form that
    draws with the same shared font table."""
    pdf = pikepdf.new()
    pdf.add_blank_page()
    page = pdf.pages[0]
    fonts = pdf.make_indirect(pikepdf.Dictionary(F1=_font(pdf, "/Helvetica"), F2=_font(pdf, "/Times-Roman"),
                                                 F3=_font(pdf, "/Courier")))
    xobjects = pikepdf.Dictionary(I1=_image(pdf), I2=_image(pdf))
    form = pdf.make_stream(b"BT /F3 9 Tf (x) Tj ET", Type=pikepdf.Name.XObject, Subtype=pikepdf.Name.Form,
                           BBox=[0, 0, 10, 10], Resources=pikepdf.Dictionary(Font=fonts))
    xobjects.X1 = form
    page.obj.Resources = pikepdf.Dictionary(Font=fonts, XObject=xobjects)
    page.obj.Contents = pdf.make_stream(content)
    return pdf, page, fonts


def test_unused_fonts_and_images_are_dropped_and_what_a_form_draws_stays() -> None:
    pdf, page, fonts = _page(b"BT /F1 12 Tf (a) Tj ET q /I1 Do Q /X1 Do")
    assert prune_resources(page)
    assert set(fonts.keys()) == {"/F1", "/F3"}  # F3 is drawn by the form, through the shared font table
    assert set(page.obj.Resources.XObject.keys()) == {"/I1", "/X1"}


def test_a_page_the_walk_cannot_follow_is_left_whole() -> None:
    for content in (b"/Missing Do", b"BT /F2 9 Tf (b) Tj ET"):
        pdf, page, fonts = _page(content)
        fonts.F2.Subtype = pikepdf.Name.Type3  # its glyphs are content streams with resources of their own
        assert not prune_resources(page)
        assert set(fonts.keys()) == {"/F1", "/F2", "/F3"}
        assert set(page.obj.Resources.XObject.keys()) == {"/I1", "/I2", "/X1"}
