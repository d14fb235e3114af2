"""Print-shop files: one card per page at trim + bleed with TrimBox and BleedBox, and 300 dpi PNGs."""

from __future__ import annotations

import hashlib
import io
from pathlib import Path

import pikepdf

from .determinism import stabilise
from .impose import MM


def assemble(pages: dict[str, bytes], order: list[str], bleed_mm: float, lang: str) -> pikepdf.Pdf:
    """The one-page face PDFs in ``order`` as one PDF, each page with its TrimBox (the cut) and BleedBox (the page).

    Faces laid out in one document share their font subsets; each subset is kept once.
    """
    out = pikepdf.new()
    out.Root.Lang = pikepdf.String(lang)  # readers and screen readers pick the language
    sources = {face_id: pikepdf.open(io.BytesIO(pages[face_id])) for face_id in order}  # kept open until saved
    out.sources = sources  # type: ignore[attr-defined]
    for face_id in order:
        out.pages.append(sources[face_id].pages[0])
        page = out.pages[-1]
        x0, y0, x1, y1 = (float(v) for v in page.mediabox)
        inset = bleed_mm * MM
        page.obj.TrimBox = pikepdf.Array([round(x0 + inset, 4), round(y0 + inset, 4), round(x1 - inset, 4), round(y1 - inset, 4)])
        page.obj.BleedBox = pikepdf.Array([x0, y0, x1, y1])
    _share_fonts(out)
    return out


def _share_fonts(pdf: pikepdf.Pdf) -> None:
    """Point every font descriptor at one copy of each identical embedded font file."""
    seen: dict[bytes, pikepdf.Object] = {}
    for obj in list(pdf.objects):
        if isinstance(obj, pikepdf.Dictionary) and obj.get("/Type") == "/FontDescriptor" and "/FontFile2" in obj:
            key = hashlib.sha256(obj.FontFile2.read_raw_bytes()).digest()
            if key in seen:
                obj.FontFile2 = seen[key]
            else:
                seen[key] = obj.FontFile2


def save_pdf(pdf: pikepdf.Pdf) -> bytes:
    """Serialise deterministically: the same input always gives the same bytes."""
    stabilise(pdf)
    if "/Info" in pdf.trailer:
        for key in ("/CreationDate", "/ModDate"):
            if key in pdf.trailer.Info:
                del pdf.trailer.Info[key]
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
