"""SVG icons drawn once per document and size, as PDF form XObjects, instead of once per use.

WeasyPrint draws an SVG image's paths into the page each time the image is used: a deck's type, kind, stat
and set icons were re-drawn (and their paths re-written into the PDF) on every face, about a tenth of a face's
processor time. Here WeasyPrint's image cache (:class:`SvgForms`) wraps each SVG image it loads: the first use
at a size draws the image, with WeasyPrint's own drawing, into a form XObject, and every use at that size
draws the form. The form's box is far larger than the icon (WeasyPrint clips an image to its box, as before).
Loading, fetching and refusals stay WeasyPrint's; pages look the same (tests/render/test_face_cost.py).

Forms and the raster images WeasyPrint decodes are named by what they draw, where WeasyPrint names them by their
file's URL: a game folder moved elsewhere, or checked out on another machine, gives the same bytes
(tests/render/test_reproducible.py).
"""

from __future__ import annotations

from functools import cache
from hashlib import md5
from typing import Any

REACH = 10_000
"""Half the side of a form's box, in PDF units: the form itself clips nothing."""


class SvgForm:
    """One SVG image at one size, drawn into a form: WeasyPrint stores and writes it as it does an image."""

    def __init__(self, width: float, height: float, form: Any) -> None:
        # Named by what it draws, not by its file's URL (WeasyPrint's way): the same icons give the same PDF
        # wherever the game folder is. Two forms that draw alike may share one name: they are the same drawing.
        drawn = form.data
        self.id = md5(f"{width!r} {height!r} ".encode() + drawn, usedforsecurity=False).hexdigest()
        self.form = form

    def get_x_object(self, interpolate: bool, dpi_ratio: float) -> Any:
        return self.form


@cache
def _form_svg_class() -> type:
    from weasyprint.images import SVGImage

    class FormSvg(SVGImage):
        """An SVG image of WeasyPrint's whose uses draw the form of their size (see the module's docstring)."""

        forms: dict[tuple[float, float], SvgForm]

        def draw(self, stream: Any, width: float, height: float, style: Any) -> None:
            import pydyf

            form = self.forms.get((width, height))
            if form is None:
                resources = pydyf.Dictionary({
                    "ExtGState": pydyf.Dictionary(), "XObject": pydyf.Dictionary(), "Pattern": pydyf.Dictionary(),
                    "Shading": pydyf.Dictionary(), "ColorSpace": stream._resources["ColorSpace"],
                    "Font": None,  # the document's fonts, set when the PDF is written
                })
                box = pydyf.Array((-REACH, -REACH, REACH, REACH))
                drawn = stream.clone(resources=resources, extra=pydyf.Dictionary({
                    "Type": "/XObject", "Subtype": "/Form", "BBox": box, "Resources": resources}))
                super().draw(drawn, width, height, style)
                # kept as a plain stream: the drawing one holds the document's image table, which holds the form
                form = self.forms[(width, height)] = SvgForm(width, height,
                                                             pydyf.Stream(drawn.stream, drawn.extra, drawn.compress))
            stream.draw_x_object(stream.add_image(form, False, 1))

    return FormSvg


class SvgForms(dict):
    """WeasyPrint's image cache (``HTML.render(cache=...)``) that turns each SVG image it loads into a form-drawn
    one; raster images it decoded are renamed by their content (:func:`content_id`); images filled in beforehand (see
    :mod:`.rawpng`) are kept as they are.

    The image object itself changes class: WeasyPrint draws the first use with the object it stored, not with
    what the cache hands back later."""

    def __setitem__(self, url: str, image: Any) -> None:
        from weasyprint.images import RasterImage, SVGImage

        if type(image) is SVGImage:
            image.__class__ = _form_svg_class()
            image.forms = {}
        elif type(image) is RasterImage:
            image.id = content_id(image)
        super().__setitem__(url, image)


def content_id(image: Any) -> str:
    """A raster image WeasyPrint decoded, named by its data and what it became (mode and size), not by its file's
    URL: the same art gives the same PDF wherever the game folder is."""
    described = f" {image.mode} {image.width} {image.height}".encode()
    return md5(image.image_data.data + described, usedforsecurity=False).hexdigest()
