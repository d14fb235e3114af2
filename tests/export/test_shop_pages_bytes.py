"""Shop pages copied through ``render/pdfjoin`` (images left on disk) save to the bytes ``copy_foreign`` gave."""

from __future__ import annotations

import io
from pathlib import Path

import pikepdf

from cardworks.export.pages import _num, shop_pages
from cardworks.render.facepdf import save_pdf
from cardworks.render.impose import MM
from cardworks.render.pdfjoin import open_joined


def _face(number: int) -> pikepdf.Pdf:
    """A 69 × 94 mm face with its trim, an image and a font of its own."""
    pdf = pikepdf.new()
    pdf.add_blank_page(page_size=(69 * MM, 94 * MM))
    page = pdf.pages[0].obj
    page.TrimBox = [3 * MM, 3 * MM, 66 * MM, 91 * MM]
    image = pdf.make_stream(bytes(range(256)) * (4 + number), Type=pikepdf.Name.XObject, Subtype=pikepdf.Name.Image,
                            Width=32, Height=8 * (4 + number), ColorSpace=pikepdf.Name.DeviceGray, BitsPerComponent=8)
    font = pdf.make_indirect(pikepdf.Dictionary(Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type1,
                                                BaseFont=pikepdf.Name.Helvetica))
    page.Resources = pikepdf.Dictionary(XObject=pikepdf.Dictionary(Im0=image), Font=pikepdf.Dictionary(F1=font))
    page.Contents = pdf.make_stream(f"q 100 0 0 100 0 0 cm /Im0 Do Q BT /F1 9 Tf (face {number}) Tj ET".encode())
    buffer = io.BytesIO()
    pdf.save(buffer)
    return pikepdf.open(io.BytesIO(buffer.getvalue()))


def _copy_foreign_pages(faces: pikepdf.Pdf, order: list[int], page_mm: tuple[float, float]) -> pikepdf.Pdf:
    """The shop pages as they were made before pdfjoin: each face copied with ``copy_foreign`` when first placed."""
    out, forms = pikepdf.new(), {}
    for index in order:
        if index not in forms:
            forms[index] = out.copy_foreign(faces.pages[index].as_form_xobject())
        x0, y0, x1, y1 = (float(v) for v in faces.pages[index].mediabox)
        page_w, page_h, face_w, face_h = page_mm[0] * MM, page_mm[1] * MM, x1 - x0, y1 - y0
        scale, left, bottom = max(page_w / face_w, page_h / face_h), (page_w - face_w) / 2, (page_h - face_h) / 2
        ops = [f"q {_num(scale)} 0 0 {_num(scale)} {_num((page_w - scale * face_w) / 2)} "
               f"{_num((page_h - scale * face_h) / 2)} cm /F Do Q"] if scale > 1.0001 else []
        ops.append(f"q {_num(left)} {_num(bottom)} {_num(face_w)} {_num(face_h)} re W n "
                   f"1 0 0 1 {_num(left)} {_num(bottom)} cm /F Do Q")
        media = [0, 0, round(page_w, 4), round(page_h, 4)]
        trim = [round((page_w - 63 * MM) / 2, 4), round((page_h - 88 * MM) / 2, 4),
                round((page_w + 63 * MM) / 2, 4), round((page_h + 88 * MM) / 2, 4)]
        out.pages.append(pikepdf.Page(pikepdf.Dictionary(
            Type=pikepdf.Name.Page, MediaBox=media, BleedBox=media, TrimBox=trim,
            Resources=pikepdf.Dictionary(XObject=pikepdf.Dictionary(F=forms[index])),
            Contents=out.make_stream(" ".join(ops).encode("ascii")))))
    return out


def test_shop_pages_save_to_the_bytes_copy_foreign_gave(tmp_path: Path) -> None:
    order = [0, 1, 0, 2, 1]  # faces placed again (front and back) share one copied form
    for page_mm in ((69, 94), (69.85, 95.25)):  # the face's own bleed, and a wider band filled by the face enlarged
        deck = open_joined((_face(n) for n in range(3)), tmp_path)
        expected = save_pdf(_copy_foreign_pages(open_joined((_face(n) for n in range(3)), tmp_path), order, page_mm))
        placed = shop_pages(deck, order, [((63, 88), page_mm)] * len(order))
        assert len(placed.pages) == len(order)
        assert save_pdf(placed) == expected
