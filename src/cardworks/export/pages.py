"""Shop pages: each card face placed on the shop's page, its trim centred, the bleed widened to fill.

Faces are laid out once (trim + 3 mm bleed, ``render/faces.py``); a shop may
want more bleed (DriveThruCards: 1/8 in) or a fixed canvas (The Game Crafter:
825 × 1125 px). The face is drawn at its true size with its trim in the middle
of the shop's page; any band the face's own bleed does not reach is filled by
the same face drawn slightly enlarged underneath, so the band continues the
card's edge colours. Nothing inside the face's bleed box is touched.
"""

from __future__ import annotations

import pikepdf

from ..render.impose import MM
from ..render.pdfjoin import new_with_copies


def _num(value: float) -> str:
    return f"{value:.4f}".rstrip("0").rstrip(".")


def shop_pages(faces: pikepdf.Pdf, order: list[int], sizes: list[tuple[tuple[float, float], tuple[float, float]]]
               ) -> pikepdf.Pdf:
    """A PDF with one page per entry of ``order`` (page indexes into ``faces``).

    ``sizes`` gives, for each entry of ``order``, the card's own trim and the page it goes on (both in mm): each
    page gets a TrimBox of that trim centred on it and a BleedBox equal to the page. A face is never scaled to
    another card's size: its trim must be the one given.
    """
    if len(sizes) != len(order):
        raise ValueError("shop_pages needs one (trim, page) size per page")
    pages = list(faces.pages)  # one walk of the page tree: pages[i] on the Pdf walks it on every call
    # Each face's form, then each page's contents and page, made in ``faces`` and copied out in the order
    # ``copy_foreign`` and ``make_stream`` numbered them (the saved bytes follow the numbers); images stay on disk.
    objects: list[pikepdf.Object] = []
    placed: list[tuple[int, list, list]] = []
    seen: set[int] = set()
    for index, (trim_mm, page_mm) in zip(order, sizes):
        page_w, page_h = page_mm[0] * MM, page_mm[1] * MM
        trim_w, trim_h = trim_mm[0] * MM, trim_mm[1] * MM
        x0, y0, x1, y1 = (float(v) for v in pages[index].mediabox)
        face_w, face_h = x1 - x0, y1 - y0
        own = pages[index].obj.get("/TrimBox")
        if own is not None and (abs(float(own[2]) - float(own[0]) - trim_w) > 0.05 * MM
                                or abs(float(own[3]) - float(own[1]) - trim_h) > 0.05 * MM):
            raise ValueError(f"face page {index} is not {trim_mm[0]:g} × {trim_mm[1]:g} mm: it would be cropped or scaled")
        left, bottom = (page_w - face_w) / 2, (page_h - face_h) / 2
        scale = max(page_w / face_w, page_h / face_h)
        ops = []
        if scale > 1.0001:  # the shop's bleed is wider than the face's: fill the band first
            ops.append(f"q {_num(scale)} 0 0 {_num(scale)} {_num((page_w - scale * face_w) / 2)} "
                       f"{_num((page_h - scale * face_h) / 2)} cm /F Do Q")
        ops.append(f"q {_num(left)} {_num(bottom)} {_num(face_w)} {_num(face_h)} re W n "
                   f"1 0 0 1 {_num(left)} {_num(bottom)} cm /F Do Q")
        media = [0, 0, round(page_w, 4), round(page_h, 4)]
        trim = [round((page_w - trim_w) / 2, 4), round((page_h - trim_h) / 2, 4),
                round((page_w + trim_w) / 2, 4), round((page_h + trim_h) / 2, 4)]
        if index not in seen:
            seen.add(index)
            objects.append(pages[index].as_form_xobject())
        objects += [faces.make_stream(" ".join(ops).encode("ascii")), faces.make_indirect(pikepdf.Dictionary())]
        placed.append((index, media, trim))
    out, copied = new_with_copies(objects)
    forms: dict[int, pikepdf.Object] = {}
    position = 0
    for index, media, trim in placed:
        if index not in forms:
            forms[index] = copied[position]
            position += 1
        contents, page = copied[position], copied[position + 1]
        position += 2
        page.Type, page.MediaBox, page.BleedBox, page.TrimBox = pikepdf.Name.Page, media, media, trim
        page.Resources = pikepdf.Dictionary(XObject=pikepdf.Dictionary(F=forms[index]))
        page.Contents = contents
        out.pages.append(pikepdf.Page(page))
    if "/Lang" in faces.Root:
        out.Root.Lang = faces.Root.Lang
    return out
