"""Proof contact sheets: every face of a deck with its id and the lines a printer cuts and keeps inside.

``--proof`` adds ``proof-<deck>.pdf`` per deck and locale: faces at 80 % on A4,
each drawn with its bleed edge (blue), trim line (red) and safe area (green,
3 mm inside the trim), its id underneath, and what a reviewer must look at
written on the card in red: rules text that overflows, art under 300 dpi,
placeholder art, strings taken from another locale.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pikepdf

from .impose import MM, PAPERS

SCALE = 0.8
SAFE_MM = 3.0
LABEL_MM = 9.0
MARGIN_MM = 10.0


@dataclass
class ProofNotes:
    """What the proof writes on each face, by face id."""

    notes: dict[str, list[str]] = field(default_factory=dict)

    def add(self, face_id: str, note: str) -> None:
        self.notes.setdefault(face_id, []).append(note)


def _text(value: str) -> str:
    """A PDF string literal (ASCII; anything else becomes '?')."""
    safe = value.encode("ascii", "replace").decode("ascii")
    return "(" + safe.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)") + ")"


def _num(value: float) -> str:
    return f"{value:.3f}".rstrip("0").rstrip(".")


def _face_ops(name: str, x: float, y: float, w: float, h: float, bleed: float, face_id: str, notes: list[str]) -> list[str]:
    """Operators for one face at (x, y) (bottom-left of its bleed box, points), ``w`` × ``h`` its bleed box size."""
    s = SCALE
    ops = [f"q {_num(s)} 0 0 {_num(s)} {_num(x)} {_num(y)} cm /{name} Do Q"]
    b = bleed * MM * s
    safe = (bleed + SAFE_MM) * MM * s
    ops.append(f"q 0.25 w 0 0 1 RG {_num(x)} {_num(y)} {_num(w * s)} {_num(h * s)} re S Q")
    ops.append(f"q 0.4 w 1 0 0 RG {_num(x + b)} {_num(y + b)} {_num(w * s - 2 * b)} {_num(h * s - 2 * b)} re S Q")
    ops.append(f"q 0.3 w [2 2] 0 d 0 0.6 0 RG {_num(x + safe)} {_num(y + safe)} {_num(w * s - 2 * safe)} "
               f"{_num(h * s - 2 * safe)} re S Q")
    ops.append(f"BT /Helv 7 Tf 0 g {_num(x)} {_num(y - 9)} Td {_text(face_id)} Tj ET")
    for i, note in enumerate(notes):  # over the middle of the card (its art), clear of the title and of the
        ty = y + h * s * 0.55 - i * 9  # rules, flavour and marks legend at the foot; white behind the red words
        ops.append(f"q 1 g {_num(x + safe)} {_num(ty - 2)} {_num(w * s - 2 * safe)} 9 re f Q")
        ops.append(f"BT /Helv 6.5 Tf 0.85 0 0 rg {_num(x + safe + 2)} {_num(ty + 0.5)} Td {_text(note)} Tj ET")
    return ops


def contact_sheet(faces: pikepdf.Pdf, order: list[str], notes: ProofNotes, bleed_mm: float,
                  paper: str = "a4") -> pikepdf.Pdf:
    """Every page of ``faces`` (ids in ``order``) on contact sheets, with lines, ids and notes."""
    out = pikepdf.new()
    width, height = (v * MM for v in PAPERS[paper])
    forms = {f"F{i}": out.copy_foreign(faces.pages[i].as_form_xobject()) for i in range(len(order))}
    font = out.make_indirect(pikepdf.Dictionary(Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type1,
                                                BaseFont=pikepdf.Name.Helvetica, Encoding=pikepdf.Name.WinAnsiEncoding))
    cells: list[tuple[int, float, float]] = []
    page_cells: list[list[tuple[int, float, float]]] = []
    x, y, row_h = MARGIN_MM * MM, height - MARGIN_MM * MM, 0.0
    for i in range(len(order)):
        box = faces.pages[i].mediabox
        w, h = float(box[2]) - float(box[0]), float(box[3]) - float(box[1])
        cw, ch = w * SCALE, h * SCALE + LABEL_MM * MM
        if x + cw > width - MARGIN_MM * MM:  # next row
            x, y, row_h = MARGIN_MM * MM, y - row_h, 0.0
        if y - ch < MARGIN_MM * MM:  # next page
            page_cells.append(cells)
            cells, x, y, row_h = [], MARGIN_MM * MM, height - MARGIN_MM * MM, 0.0
        cells.append((i, x, y - h * SCALE))
        x, row_h = x + cw + 4 * MM, max(row_h, ch)
    if cells:
        page_cells.append(cells)
    for cells in page_cells:
        ops: list[str] = []
        for i, cx, cy in cells:
            box = faces.pages[i].mediabox
            w, h = float(box[2]) - float(box[0]), float(box[3]) - float(box[1])
            ops += _face_ops(f"F{i}", cx, cy, w, h, bleed_mm, order[i], notes.notes.get(order[i], []))
        used = {f"F{i}" for i, _, _ in cells}
        page = pikepdf.Dictionary(
            Type=pikepdf.Name.Page, MediaBox=[0, 0, round(width, 4), round(height, 4)],
            Resources=pikepdf.Dictionary(XObject=pikepdf.Dictionary({f"/{n}": forms[n] for n in sorted(used)}),
                                         Font=pikepdf.Dictionary(Helv=font)),
            Contents=out.make_stream("\n".join(ops).encode("ascii")))
        out.pages.append(pikepdf.Page(page))
    return out
