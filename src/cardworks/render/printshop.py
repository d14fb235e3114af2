"""Print-shop files: one card per page at trim + bleed with TrimBox and BleedBox, and 300 dpi PNGs."""

from __future__ import annotations

import io
from pathlib import Path

import pikepdf

from .art import placeholder_ops
from .determinism import stabilise
from .faces import FaceResult
from .impose import MM
from .subset_tags import retag_subsets


def assemble(result: FaceResult, order: list[str], bleed_mm: float, lang: str) -> pikepdf.Pdf:
    """The faces in ``order`` as one PDF, each page with its TrimBox (the cut), BleedBox (the page) and art."""
    sources = [pikepdf.open(io.BytesIO(data)) for data in result.pdfs]
    out = pikepdf.new()
    out.Root.Lang = pikepdf.String(lang)  # readers and screen readers pick the language
    for face_id in order:
        pdf_index, page_index = result.pages[face_id]
        out.pages.append(sources[pdf_index].pages[page_index])
        page = out.pages[-1]
        x0, y0, x1, y1 = (float(v) for v in page.mediabox)
        inset = bleed_mm * MM
        page.obj.TrimBox = pikepdf.Array([round(x0 + inset, 4), round(y0 + inset, 4), round(x1 - inset, 4), round(y1 - inset, 4)])
        page.obj.BleedBox = pikepdf.Array([x0, y0, x1, y1])
        if face_id in result.arts:  # the art box was left empty by the template
            page.contents_add(b"q\n", prepend=True)
            page.contents_add(b"Q\n" + placeholder_ops(face_id, result.arts[face_id]))
    return out


def save_pdf(pdf: pikepdf.Pdf) -> bytes:
    """Serialise deterministically (the same input always gives the same bytes), one tag per font subset."""
    stabilise(pdf)
    retag_subsets(pdf)
    if "/Info" in pdf.trailer:
        for key in ("/CreationDate", "/ModDate"):
            if key in pdf.trailer.Info:
                del pdf.trailer.Info[key]
    if "/ID" in pdf.trailer:  # an ID from an earlier save (random unless it was deterministic) would be kept
        del pdf.trailer["/ID"]
    buffer = io.BytesIO()
    pdf.save(buffer, deterministic_id=True, compress_streams=True,
             object_stream_mode=pikepdf.ObjectStreamMode.generate)
    return buffer.getvalue()


def render_pngs(pdf_bytes: bytes, names: list[str], folder: Path, dpi: int = 300) -> dict[str, bytes]:
    """PNG bytes of each page at ``dpi``, keyed by the file name to write in ``folder``."""
    import pypdfium2

    document = pypdfium2.PdfDocument(pdf_bytes)
    images = {}
    for index, name in enumerate(names):
        page = document[index]
        size = (round(page.get_width() / 72 * dpi), round(page.get_height() / 72 * dpi))
        image = page.render(scale=dpi / 72).to_pil()
        if image.size != size:  # pdfium rounds partial pixels up; keep the exact 300 dpi size
            image = image.crop((0, 0, *size))
        buffer = io.BytesIO()
        image.save(buffer, format="PNG", dpi=(dpi, dpi), optimize=False)
        images[str(folder / f"{name}.png")] = buffer.getvalue()
    document.close()
    return images
