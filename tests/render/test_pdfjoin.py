"""Faces joined and forms copied through a scratch file save to the very bytes pikepdf's ``copy_foreign`` gives."""

from __future__ import annotations

import io
from decimal import Decimal
from pathlib import Path

import pikepdf
import pytest

from cardworks.render.facepdf import save_pdf
from cardworks.render.pagetree import set_pages
from cardworks.render.pdfjoin import new_with_copies, open_joined


def _face(number: int, shared_font: bool = True) -> bytes:
    """A one-page PDF with what faces hold: an image stream, a font shared by two names, reals, strings, names
    that need escaping, booleans, null, nested arrays and dictionaries."""
    pdf = pikepdf.new()
    pdf.add_blank_page(page_size=(200 + number, 280))
    image = pdf.make_stream(bytes(range(256)) * (40 + number), Type=pikepdf.Name.XObject, Subtype=pikepdf.Name.Image,
                            Width=16, Height=16, ColorSpace=pikepdf.Name.DeviceGray, BitsPerComponent=8)
    font = pdf.make_indirect(pikepdf.Dictionary(Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type1,
                                                BaseFont=pikepdf.Name("/Card Sans#"), Widths=[Decimal("0.50"), 1, -2]))
    page = pdf.pages[0].obj
    page.Resources = pikepdf.Dictionary(
        XObject=pikepdf.Dictionary(Im0=image),
        Font=pikepdf.Dictionary(F1=font, F2=font if shared_font else pikepdf.Dictionary(Type=pikepdf.Name.Font)),
        ExtGState=pikepdf.Dictionary(a0=pikepdf.Dictionary(ca=Decimal("0.82"), AIS=False, SMask=None)))
    page.Contents = pdf.make_stream(b"q 16 0 0 16 0 0 cm /Im0 Do Q BT /F1 9 Tf (caf\xe9 \\(x\\)) Tj ET")
    page.Annots = pikepdf.Array([pdf.make_indirect(pikepdf.Dictionary(Subtype=pikepdf.Name.Text,
                                                                      Contents=pikepdf.String(f"nota {number}")))])
    buffer = io.BytesIO()
    pdf.save(buffer)
    return buffer.getvalue()


def _open(data: bytes) -> pikepdf.Pdf:
    return pikepdf.open(io.BytesIO(data))


def test_joined_faces_save_to_the_bytes_copy_foreign_gives(tmp_path: Path) -> None:
    faces = [_face(n, shared_font=n % 2 == 0) for n in range(4)]
    reference = pikepdf.new()
    sources = [_open(data) for data in faces]
    set_pages(reference, [source.pages[0].obj for source in sources])
    joined = open_joined((_open(data) for data in faces), tmp_path)
    assert len(joined.pages) == 4
    assert save_pdf(joined) == save_pdf(reference)


def test_copied_forms_save_to_the_bytes_copy_foreign_gives(tmp_path: Path) -> None:
    def sheet(out: pikepdf.Pdf, forms: list[pikepdf.Object]) -> bytes:
        out.pages.append(pikepdf.Page(pikepdf.Dictionary(
            Type=pikepdf.Name.Page, MediaBox=[0, 0, 595, 842],
            Resources=pikepdf.Dictionary(XObject=pikepdf.Dictionary({f"/F{i}": f for i, f in enumerate(forms)})),
            Contents=out.make_stream(b"/F0 Do /F1 Do /F2 Do"))))
        return save_pdf(out)

    deck = open_joined((_open(_face(n)) for n in range(3)), tmp_path)
    reference = pikepdf.new()
    expected = sheet(reference, [reference.copy_foreign(page.as_form_xobject()) for page in deck.pages])
    out, copies = new_with_copies([page.as_form_xobject() for page in deck.pages], tmp_path)
    assert "/CardworksCopies" not in out.Root
    assert sheet(out, copies) == expected


def test_a_face_that_refers_to_another_page_is_refused(tmp_path: Path) -> None:
    pdf = pikepdf.new()
    pdf.add_blank_page()
    pdf.add_blank_page()
    pdf.pages[0].obj.Next = pdf.pages[1].obj  # a link to another page: it cannot be copied on its own
    with pytest.raises(ValueError, match="another page"):
        open_joined([pdf], tmp_path)
