"""Lossy art on request (``--jpeg-quality N``): the faces' raster images re-encoded as JPEG before the faces are
placed, for smaller files where a user asks for them.

By default art goes into the PDF losslessly (a PNG's own rows, see :mod:`.rawpng`). With a quality, each face's
opaque 8-bit RGB or greyscale images (the art, an image back) are decoded and written again as JPEG by Pillow at
that quality (``/DCTDecode``); an image with transparency (a soft mask, a colour-key mask) or another kind stays
as it was, and so does art that was a JPEG already. One face is re-encoded at a time, as the print-shop file is
assembled, so a deck of art is still never in memory whole. Outputs that must stay lossless (PNG images of the
cards, PDF/X files for a print shop) refuse the option instead of losing it silently.
"""

from __future__ import annotations

import io
from collections.abc import Iterator, Mapping
from pathlib import Path

from ..errors import UsageError

QUALITIES = range(1, 96)
"""Pillow's JPEG qualities worth asking for: above 95 its own documentation advises against (files grow, little
is gained)."""


def check_quality(quality: int | None, refused_with: str | None = None) -> None:
    """Raise UsageError for a quality outside 1-95, or for any quality when ``refused_with`` names an output that
    must stay lossless (it is said in the message); None (lossless) always passes."""
    if quality is None:
        return
    if isinstance(quality, bool) or not isinstance(quality, int) or quality not in QUALITIES:
        raise UsageError(f"--jpeg-quality takes a whole number from 1 to 95, not {quality!r}")
    if refused_with:
        raise UsageError(f"--jpeg-quality {quality}: {refused_with} must stay lossless; leave --jpeg-quality out "
                         "(art goes in losslessly by default)")


def jpeg_pdf(pdf: object, quality: int) -> int:
    """Re-encode the opaque 8-bit RGB and greyscale images of ``pdf`` (a ``pikepdf.Pdf``) as JPEG at ``quality``,
    in place; return how many were."""
    import pikepdf
    from PIL import Image

    modes = {pikepdf.Name.DeviceRGB: "RGB", pikepdf.Name.DeviceGray: "L"}
    images = [o for o in pdf.objects  # type: ignore[attr-defined]
              if isinstance(o, pikepdf.Stream) and o.get("/Subtype") == pikepdf.Name.Image]
    masks = {image[key].objgen for image in images for key in ("/SMask", "/Mask")
             if isinstance(image.get(key), pikepdf.Stream)}
    done = 0
    for stream in images:
        if stream.objgen in masks or any(key in stream for key in ("/SMask", "/Mask", "/ImageMask", "/Decode")):
            continue  # transparency (an image with a mask, or the mask), or an unusual mapping: JPEG cannot carry it
        space, filters = stream.get("/ColorSpace"), stream.get("/Filter")
        if space not in modes or stream.get("/BitsPerComponent") != 8 or filters == pikepdf.Name.DCTDecode:
            continue
        size = (int(stream.Width), int(stream.Height))
        image = Image.frombytes(modes[space], size, stream.read_bytes())  # qpdf undoes Flate and PNG predictors
        encoded = io.BytesIO()
        image.save(encoded, format="JPEG", quality=quality)
        stream.write(encoded.getvalue(), filter=pikepdf.Name.DCTDecode)
        if "/DecodeParms" in stream:
            del stream.DecodeParms
        done += 1
    return done


def jpeg_face(page: bytes | Path, quality: int) -> bytes:
    """One face's PDF (its bytes, or its cache file) with its images re-encoded (see :func:`jpeg_pdf`)."""
    import pikepdf

    source = io.BytesIO(page) if isinstance(page, bytes) else page
    with pikepdf.open(source) as pdf:
        jpeg_pdf(pdf, quality)
        out = io.BytesIO()
        pdf.save(out, deterministic_id=True)
        return out.getvalue()


class JpegFaces(Mapping[str, bytes]):
    """Face id → its PDF with JPEG art, re-encoded when it is asked for: the print-shop file's assembly reads
    one face at a time, so only that face is in memory."""

    def __init__(self, pages: Mapping[str, bytes | Path], quality: int) -> None:
        check_quality(quality)
        self.pages, self.quality = pages, quality

    def __getitem__(self, face_id: str) -> bytes:
        return jpeg_face(self.pages[face_id], self.quality)

    def __iter__(self) -> Iterator[str]:
        return iter(self.pages)

    def __len__(self) -> int:
        return len(self.pages)
