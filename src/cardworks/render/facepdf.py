"""Face PDFs: one card per page at trim + bleed with TrimBox and BleedBox, deterministic bytes, and 300 dpi PNGs.

Shared by `build` and every export target; the print-shop export itself lives in ``export/printshop.py``.
"""

from __future__ import annotations

import io
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any, BinaryIO

import pikepdf

from .determinism import stabilise
from .impose import MM
from .pdfjoin import open_joined
from .subset_tags import retag_subsets


def assemble(pages: Mapping[str, bytes | Path], order: list[str], bleed_mm: float, lang: str,
             groups: dict[str, str] | None = None, scratch: Path | None = None) -> pikepdf.Pdf:
    """The one-page face PDFs in ``order`` as one PDF, each page with its TrimBox (the cut) and BleedBox (the page).

    ``groups`` names the document each face was laid out in: faces of one document share its fonts and icons.
    The faces are joined into an unnamed file in ``scratch`` (see :mod:`.pdfjoin`), one face read at a time,
    and the result is read from it: a deck of art is never in memory, and saving it reads each image once.
    """
    out = open_joined((_open(pages[face_id]) for face_id in order), scratch,
                      [(groups or {}).get(face_id, face_id) for face_id in order])
    out.Root.Lang = pikepdf.String(lang)  # readers and screen readers pick the language
    for page in out.pages:
        x0, y0, x1, y1 = (float(v) for v in page.mediabox)
        inset = bleed_mm * MM
        page.obj.TrimBox = pikepdf.Array([round(x0 + inset, 4), round(y0 + inset, 4), round(x1 - inset, 4), round(y1 - inset, 4)])
        page.obj.BleedBox = pikepdf.Array([x0, y0, x1, y1])
    return out


def _open(page: bytes | Path) -> pikepdf.Pdf:
    """A face's PDF (from memory or from its cache file), its objects as they are written (no conversion to
    Python numbers, so :mod:`.pdfjoin` writes them back unchanged)."""
    source = io.BytesIO(page) if isinstance(page, bytes) else page
    return pikepdf.open(source, access_mode=pikepdf.AccessMode.stream, conversion_mode="explicit")


def save_pdf(pdf: pikepdf.Pdf) -> bytes:
    """Serialise deterministically (the same input always gives the same bytes), one tag per font subset."""
    buffer = io.BytesIO()
    _save(pdf, buffer)
    return buffer.getvalue()


def save_pdf_file(pdf: pikepdf.Pdf, path: Path) -> None:
    """:func:`save_pdf` into the file ``path`` (the same bytes): a deck's print-shop file and sheets are written
    as they are serialised, their images read from their sources meanwhile, never the whole file in memory.
    A write that fails (a full disk) raises its OSError here once qpdf is done: raised inside qpdf's writer it can
    end the whole process instead (``terminate called after throwing``)."""
    with open(path, "wb") as handle:
        sink = _Sink(handle)
        _save(pdf, sink)  # type: ignore[arg-type]
        if sink.error is not None:
            raise sink.error


class _Sink(io.RawIOBase):
    """A file qpdf writes into that never fails while it writes: the first error is kept (see ``save_pdf_file``).
    Not a plain file, so pikepdf calls ``write`` rather than writing to the descriptor from C++."""

    def __init__(self, handle: BinaryIO) -> None:
        super().__init__()
        self.handle: BinaryIO = handle
        self.error: OSError | None = None

    def writable(self) -> bool:
        return True

    def write(self, data: bytes) -> int:  # type: ignore[override]
        if self.error is None:
            try:
                self.handle.write(data)
            except OSError as exc:
                self.error = exc
        return len(data)

    def flush(self) -> None:
        if self.error is None:
            try:
                self.handle.flush()
            except OSError as exc:
                self.error = exc


def open_pdf(path: Path) -> pikepdf.Pdf:
    """A PDF read from its file as its objects are needed (streamed, not mapped: its images are not made
    resident by being read once)."""
    return pikepdf.open(path, access_mode=pikepdf.AccessMode.stream)


def _save(pdf: pikepdf.Pdf, target: BinaryIO) -> None:
    stabilise(pdf)
    retag_subsets(pdf)
    if "/Info" in pdf.trailer:
        for key in ("/CreationDate", "/ModDate"):
            if key in pdf.trailer.Info:
                del pdf.trailer.Info[key]
    if "/ID" in pdf.trailer:  # an ID from an earlier save (random unless it was deterministic) would be kept
        del pdf.trailer["/ID"]
    pdf.save(target, deterministic_id=True, compress_streams=True,
             object_stream_mode=pikepdf.ObjectStreamMode.generate)


def render_pngs(pdf_bytes: bytes | Path, names: list[str], folder: Path, dpi: int = 300) -> dict[str, bytes]:
    """PNG bytes of each page at ``dpi`` (of a PDF given as bytes or as its file), keyed by the file name to
    write in ``folder``."""
    return dict(iter_pngs(pdf_bytes, names, folder, dpi))


REOPEN_EVERY = 32
"""Pages pdfium draws from one opening of a document (see :class:`PdfiumPages`)."""


class PdfiumPages:
    """The pages of one PDF (bytes, a path or an open file) for pdfium to draw one at a time. pdfium keeps what
    it read of every page it draws until its document is closed (about 1 MB a face of art), so the document is
    opened again every ``REOPEN_EVERY`` pages asked for: memory stays flat over a deck."""

    def __init__(self, source: Any) -> None:
        self.source, self.asked = source, 0
        self.document = self._open()

    def _open(self) -> Any:
        import pypdfium2

        if hasattr(self.source, "seek"):
            self.source.seek(0)
        return pypdfium2.PdfDocument(self.source)

    def __getitem__(self, index: int) -> Any:
        if self.asked and self.asked % REOPEN_EVERY == 0:
            self.document.close()
            self.document = self._open()
        self.asked += 1
        return self.document[index]

    def close(self) -> None:
        self.document.close()


def iter_pngs(pdf: bytes | Path, names: list[str], folder: Path, dpi: int = 300) -> Iterator[tuple[str, bytes]]:
    """Each page's file name in ``folder`` and PNG bytes at ``dpi``, one page at a time, so that a deck's PNGs
    are written as they are made, never all held."""
    pages = PdfiumPages(pdf)
    try:
        for index, name in enumerate(names):
            page = pages[index]
            size = (round(page.get_width() / 72 * dpi), round(page.get_height() / 72 * dpi))
            image = page.render(scale=dpi / 72).to_pil()
            if image.size != size:  # pdfium rounds partial pixels up; keep the exact 300 dpi size
                image = image.crop((0, 0, *size))
            buffer = io.BytesIO()
            image.save(buffer, format="PNG", dpi=(dpi, dpi), optimize=False)
            yield str(folder / f"{name}.png"), buffer.getvalue()
    finally:
        pages.close()
