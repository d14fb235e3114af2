"""SVG icons drawn once per document and size, as PDF form XObjects, instead of once per use.

WeasyPrint draws an SVG image's paths into the page each time the image is used: a deck's type, kind, stat
and set icons were re-drawn (and their paths re-written into the PDF) on every face, about a tenth of a face's
processor time. Here WeasyPrint's image cache (:class:`SvgForms`) wraps each SVG image it loads: the first use
at a size draws the image, with WeasyPrint's own drawing, into a form XObject, and every use at that size
draws the form. The form's box is far larger than the icon, so an SVG that draws outside its viewport is not
clipped where it was not before. Loading, fetching and refusals stay WeasyPrint's.
"""

from __future__ import annotations

from hashlib import md5
from typing import Any

REACH = 10_000
"""Half the side of a form's box, in PDF units: no clip an icon could reach."""


class SvgForm:
    """One SVG image at one size, drawn into a form: WeasyPrint stores and writes it as it does an image."""

    def __init__(self, url: str, width: float, height: float, form: Any) -> None:
        self.id = md5(f"{url} {width!r} {height!r}".encode(), usedforsecurity=False).hexdigest()
        self.form = form

    def get_x_object(self, interpolate: bool, dpi_ratio: float) -> Any:
        return self.form


class FormSvg:
    """An SVG image of WeasyPrint's whose uses draw the form of their size (see the module's docstring)."""

    def __init__(self, url: str, image: Any) -> None:
        self.url, self.image = url, image
        self.forms: dict[tuple[float, float], SvgForm] = {}

    def get_intrinsic_size(self, resolution: float, font_size: float) -> Any:
        return self.image.get_intrinsic_size(resolution, font_size)

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
            self.image.draw(drawn, width, height, style)
            form = self.forms[(width, height)] = SvgForm(self.url, width, height, drawn)
        stream.draw_x_object(stream.add_image(form, False, 1))


class SvgForms(dict):
    """WeasyPrint's image cache (``HTML.render(cache=...)``) that keeps each SVG image it loads as a
    :class:`FormSvg`; other images (and ones filled in beforehand, see :mod:`.rawpng`) are kept as they are."""

    def __setitem__(self, url: str, image: Any) -> None:
        from weasyprint.images import SVGImage

        super().__setitem__(url, FormSvg(url, image) if isinstance(image, SVGImage) else image)
