"""One-page PDFs joined into one file on disk, one source at a time, so that a deck of art is never in memory.

pikepdf copies the data of every stream it takes from another PDF at once (it sets qpdf's "immediate copy"), so
a deck assembled with ``copy_foreign`` held every face's illustration, about 1 MB a face. Here each source's
objects are written out as they are read (a stream's data raw, still compressed) under new numbers, with a
page tree over the first page of each, and the result is opened from its file: saving it then reads each
image from that file while the output is written. The objects, and so the saved bytes, are those that
``copy_foreign`` would have made; one difference: pikepdf hands out a number, name or string that is an
object of its own as a plain value, so such an object is written in place (the same meaning; WeasyPrint's
and qpdf's faces have none).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import BinaryIO

import pikepdf

HEADER = b"%PDF-1.3\n%\xe2\xe3\xcf\xd3\n"
"""The version of ``pikepdf.new()``; qpdf raises it on saving for what the file uses (object streams)."""


class _Writer:
    """A PDF file written object by object, its cross-reference table at the end."""

    def __init__(self, handle: BinaryIO) -> None:
        self.handle, self.offsets = handle, [0]
        handle.write(HEADER)

    def reserve(self) -> int:
        self.offsets.append(0)
        return len(self.offsets) - 1

    def write(self, number: int, body: bytes, data: bytes | None = None) -> None:
        self.offsets[number] = self.handle.tell()
        self.handle.write(b"%d 0 obj\n" % number + body)
        if data is not None:
            self.handle.write(b"\nstream\n" + data + b"\nendstream")
        self.handle.write(b"\nendobj\n")

    def finish(self, root: int) -> None:
        start = self.handle.tell()
        self.handle.write(b"xref\n0 %d\n0000000000 65535 f \n" % len(self.offsets))
        self.handle.write(b"".join(b"%010d 00000 n \n" % offset for offset in self.offsets[1:]))
        self.handle.write(b"trailer\n<< /Root %d 0 R /Size %d >>\nstartxref\n%d\n%%%%EOF\n"
                          % (root, len(self.offsets), start))


class _Source:
    """One source PDF's objects under their new numbers, given in the order ``copy_foreign`` gives them (qpdf
    numbers the saved file's objects by it, so the same order gives the same bytes)."""

    def __init__(self, writer: _Writer) -> None:
        self.writer = writer
        self.numbers: dict[tuple[int, int], int] = {}
        self.objects: list[pikepdf.Object] = []

    def reserve(self, obj: pikepdf.Object, top: bool = False) -> None:
        """Number ``obj`` and what it reaches, depth first, keys in order, the top page's ``/Parent`` left out
        (qpdf's ``reserveObjects``); another page is not entered (qpdf does not cross to other pages)."""
        kind = _kind(obj)
        if kind is None:
            return
        if obj.is_indirect:
            if obj.objgen in self.numbers:
                return
            if not top and _is_page(obj, kind):
                raise ValueError("a face page refers to another page; it cannot be copied on its own")
            self.numbers[obj.objgen] = self.writer.reserve()
            self.objects.append(obj)
        elif kind not in _CONTAINERS or b" R" not in obj.unparse():  # nothing inside to number
            return
        if kind is _STREAM:
            self.reserve(obj.stream_dict)
        elif kind is _DICTIONARY:
            page = top and _is_page(obj, kind)
            for key in sorted(obj.keys()):  # qpdf's order (its dictionaries are sorted maps)
                if not (page and key == "/Parent"):
                    self.reserve(obj.get(key))
        elif kind is _ARRAY:
            for item in obj:
                self.reserve(item)

    def syntax(self, obj: pikepdf.Object, skip: tuple[str, ...] = ()) -> bytes:
        """``obj`` in PDF syntax (a direct one, or an indirect one's body), its indirect objects as references
        to their new numbers. A part without references is written as qpdf writes it, in one call."""
        kind = _kind(obj)
        if kind not in _CONTAINERS:
            return obj.unparse() if kind is not None else pikepdf.Array([obj]).unparse()[1:-1].strip()
        text = obj.unparse()
        if not skip and b" R" not in text:  # a false "maybe" (`` R`` inside a string) only costs the walk
            return text
        if kind is _DICTIONARY:
            items = (b"%s %s" % (pikepdf.Name(key).unparse(), self.value(obj.get(key)))
                     for key in obj.keys() if key not in skip)
            return b"<< " + b" ".join(items) + b" >>"
        return b"[ " + b" ".join(self.value(item) for item in obj) + b" ]"

    def value(self, obj: pikepdf.Object) -> bytes:
        if _kind(obj) is not None and obj.is_indirect:
            return b"%d 0 R" % self.numbers[obj.objgen]
        return self.syntax(obj)

    def write(self, page: pikepdf.Object | None = None, parent: int = 0) -> None:
        """Write every numbered object; a stream's data goes raw, as it is in the source."""
        for obj in self.objects:
            number = self.numbers[obj.objgen]
            if _kind(obj) is _STREAM:
                data = obj.read_raw_bytes()
                body = self.syntax(obj.stream_dict, skip=("/Length",))
                self.writer.write(number, body[:-2] + b"/Length %d >>" % len(data), data)
            elif page is not None and obj.objgen == page.objgen:
                self.writer.write(number, self.syntax(obj, skip=("/Parent",))[:-2] + b"/Parent %d 0 R >>" % parent)
            else:
                self.writer.write(number, self.syntax(obj))


_STREAM, _DICTIONARY, _ARRAY = pikepdf.ObjectType.stream, pikepdf.ObjectType.dictionary, pikepdf.ObjectType.array
_CONTAINERS = (_STREAM, _DICTIONARY, _ARRAY)
"""The kinds of object that can be indirect with something inside (the rest are written by their text)."""


def _kind(obj: object) -> pikepdf.ObjectType | None:
    """The object's type, read once (pikepdf's ``isinstance`` checks cost a call each); None for a Python
    number, true/false or null of a PDF opened to convert them."""
    return obj._type_code if isinstance(obj, pikepdf.Object) else None


def _is_page(obj: pikepdf.Object, kind: pikepdf.ObjectType) -> bool:
    return kind is _DICTIONARY and obj.get("/Type") == pikepdf.Name.Page


def join_first_pages(sources: Iterable[pikepdf.Pdf], handle: BinaryIO, groups: list[str] | None = None) -> int:
    """Write into ``handle`` (a seekable binary file) a PDF whose pages are the first page of each source, in
    order, without each page's old ``/Parent``; each source is closed once its objects are written.
    ``groups[i]`` names the document source i was laid out in: see :func:`_share`. Returns the number of pages."""
    writer = _Writer(handle)
    root, tree = writer.reserve(), writer.reserve()
    kids = []
    shared: dict[tuple[str, str, str], int] = {}
    for i, pdf in enumerate(sources):
        source = _Source(writer)
        page = pdf.pages[0].obj
        first = _share(source, page, groups[i], shared) if groups is not None else []
        source.reserve(page, top=True)
        shared.update((key, source.numbers[objgen]) for key, objgen in first)
        kids.append(source.value(page))
        source.write(page, tree)
        pdf.close()
    writer.write(tree, b"<< /Type /Pages /Kids [ " + b" ".join(kids) + b" ] /Count %d >>" % len(kids))
    writer.write(root, b"<< /Type /Catalog /Pages %d 0 R >>" % tree)
    writer.finish(root)
    return len(kids)


def _share(source: _Source, page: pikepdf.Object, group: str, shared: dict[tuple[str, str, str], int]
           ) -> list[tuple[tuple[str, str, str], tuple[int, int]]]:
    """Point the page's fonts and drawn objects (icons, images) at the copy an earlier page of its document
    ``group`` already wrote under the same resource name (within one document a name always means the same
    object), so each is written once: a deck of text faces is as small as one document of them, and its file
    holds no unreachable per-face copies for a save to parse (about 70 KB a text face). Returns the names this
    page is the first to use, to be recorded once the page is numbered (the numbers follow ``copy_foreign``)."""
    first: list[tuple[tuple[str, str, str], tuple[int, int]]] = []
    resources = page.get("/Resources")
    if not isinstance(resources, pikepdf.Dictionary):
        return first
    for kind in ("/Font", "/XObject"):
        named = resources.get(kind)
        if not isinstance(named, pikepdf.Dictionary):
            continue
        for name in named.keys():
            value = named.get(name)
            if _kind(value) is None or not value.is_indirect:
                continue
            key = (group, kind, name)
            if key in shared:
                source.numbers.setdefault(value.objgen, shared[key])
            else:
                first.append((key, value.objgen))
    return first


COPIES = "/CardworksCopies"
"""The catalog's entry that carries the copies into the opened file; removed once they are taken out."""


def new_with_copies(objects: list[pikepdf.Object], scratch: Path | None = None) -> tuple[pikepdf.Pdf, list[pikepdf.Object]]:
    """A new PDF (as ``pikepdf.new()`` makes it) holding copies of ``objects`` (of one source PDF) as
    ``copy_foreign`` would make them, one after the other, and the copies;
    their streams are read from an unnamed file in ``scratch`` when the PDF is saved, not held in memory."""
    def write(handle: BinaryIO) -> None:
        writer = _Writer(handle)
        root, tree = writer.reserve(), writer.reserve()
        source = _Source(writer)
        for obj in objects:
            source.reserve(obj, top=True)
        source.write()
        writer.write(tree, b"<< /Type /Pages /Kids [ ] /Count 0 >>")
        copies = b" ".join(source.value(obj) for obj in objects)
        writer.write(root, b"<< /Type /Catalog /Pages %d 0 R %s [ %s ] >>" % (tree, COPIES.encode(), copies))
        writer.finish(root)

    pdf = _opened(write, scratch)
    copies = list(pdf.Root[COPIES])
    del pdf.Root[COPIES]
    return pdf, copies


def _opened(write: Callable[[BinaryIO], None], scratch: Path | None) -> pikepdf.Pdf:
    """The PDF ``write`` writes into an unnamed file in ``scratch`` (the system's temporary folder by default),
    read from it as its objects are needed; the file goes when the PDF is closed."""
    import tempfile

    handle = tempfile.TemporaryFile(dir=scratch)
    try:
        write(handle)
        handle.flush()
        handle.seek(0)
        pdf = pikepdf.open(handle, access_mode=pikepdf.AccessMode.stream)
    except BaseException:
        handle.close()
        raise
    pdf.scratch = handle  # type: ignore[attr-defined]  # kept open as long as the PDF
    return pdf


def open_joined(sources: Iterable[pikepdf.Pdf], scratch: Path | None = None, groups: list[str] | None = None
                ) -> pikepdf.Pdf:
    """The first pages of ``sources`` as one PDF, read from an unnamed file in ``scratch`` as its objects are
    needed (see :func:`_opened`); pages of one of ``groups`` share their resources (see :func:`_share`)."""
    return _opened(lambda handle: join_first_pages(sources, handle, groups), scratch)
