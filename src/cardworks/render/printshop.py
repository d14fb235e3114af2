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
    _share_resources(out)
    return out


def _canonical(obj: pikepdf.Object, memo: dict[tuple[int, int], bytes]) -> bytes:
    """A digest of what an object holds (streams by their bytes, references followed), not where it sits."""
    if not isinstance(obj, pikepdf.Object):  # numbers, booleans and strings come back as Python values
        return hashlib.sha256(b"V" + repr(obj).encode()).digest()
    if obj.is_indirect and obj.objgen in memo:
        return memo[obj.objgen]
    if isinstance(obj, pikepdf.Stream):
        entries = {k: v for k, v in obj.items() if k not in ("/Length", "/Filter", "/DecodeParms")}
        body = b"S" + hashlib.sha256(obj.read_bytes()).digest() + _canonical(pikepdf.Dictionary(entries), memo)
    elif isinstance(obj, pikepdf.Dictionary):
        body = b"D" + b"".join(k.encode() + _canonical(v, memo) for k, v in sorted(obj.items()))
    elif isinstance(obj, pikepdf.Array):
        body = b"A" + b"".join(_canonical(v, memo) for v in obj)
    else:
        body = b"V" + repr(obj).encode()
    digest = hashlib.sha256(body).digest()
    if obj.is_indirect:
        memo[obj.objgen] = digest
    return digest


def _share_resources(pdf: pikepdf.Pdf) -> None:
    """Keep one copy of each identical font (dictionary, widths, ToUnicode map, embedded file) and of each
    identical drawn object (icons are form XObjects).

    Each cached face is its own one-page PDF, so faces laid out in one document bring copies of the same
    fonts and icons; pointing every page at one copy keeps the file as small as one document of faces.
    """
    memo: dict[tuple[int, int], bytes] = {}
    shared: dict[bytes, pikepdf.Object] = {}

    def share(group: pikepdf.Object) -> None:
        for name in list(group.keys()):
            inner = group[name].get("/Resources") if isinstance(group[name], pikepdf.Dictionary) else None
            if isinstance(inner, pikepdf.Dictionary):
                walk(inner)  # nested objects first, so equal parents point at the same children
            key = _canonical(group[name], memo)
            if key in shared:
                group[name] = shared[key]
            else:
                shared[key] = group[name]

    def walk(resources: pikepdf.Object) -> None:
        for kind in ("/Font", "/XObject"):
            group = resources.get(kind)
            if isinstance(group, pikepdf.Dictionary):
                share(group)

    for page in pdf.pages:
        if "/Resources" in page.obj:
            walk(page.obj.Resources)


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
