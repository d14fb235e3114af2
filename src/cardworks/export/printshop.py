"""``cardworks export print-shop``: a deck as a print shop takes it, with a quantities list, preflighted.

Profiles (``profiles.py``) decide the shape: ``pdf`` is the print-shop file of
``cardworks build`` (one page per design, the backs last); ``drivethrucards`` is
one PDF/X-1a file per deck, front then back of every physical card (each card's
own back: the deck's, its set's or its card type's);
``thegamecrafter`` and ``makeplayingcards`` are one PNG per design at the
shop's canvas. Every profile writes ``quantities.csv`` (file, card id, name,
copies) and ``export.json``. Files are written into a staging folder,
preflighted, and published only when every check passes.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import DataError, UsageError
from ..problems import Problem
from ..render.facepdf import render_pngs, save_pdf, save_pdf_file
from ..render.faces import FaceJob
from .cells import neutralise
from .common import DeckFaces, set_sizes
from .pages import shop_pages
from .pdfx import ghostscript, to_pdfx
from .preflight import FileReport, preflight
from .profiles import Profile, load_profile
from .target import DeckChoice, run_target


@dataclass
class ExportResult:
    folder: Path
    profile: Profile
    files: list[str]
    designs: int
    cards: int
    reports: list[FileReport] = field(default_factory=list)
    overflow: list[str] = field(default_factory=list)
    overflow_parts: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """Card → the parts of its face that overflow (see ``render.measure``)."""
    telltale: dict[str, list[str]] = field(default_factory=dict)
    """Card type → its backs, where one type carries several (a warning, see ``render.telltale``)."""
    deck: str = ""


def _sizes(faces: DeckFaces, profile: Profile, order: list[int]) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    """Each page's own trim and the page the profile wants for it."""
    trims = faces.page_trims()
    return [(trims[i], profile.page_mm(*trims[i])) for i in order]


def _pdf_files(faces: DeckFaces, profile: Profile, stem: str, staging: Path) -> tuple[list[str], dict[str, int], dict[str, list]]:
    """The deck's PDF saved into ``staging`` (straight to its file: a deck of art is never in memory whole), its
    name, its page count and each page's trim (for preflight)."""
    if profile.output == "pdf":
        order = list(range(len(faces.order)))
    else:
        page_of = {face_id: i for i, face_id in enumerate(faces.order)}
        back = [page_of[faces.backs[entry.card.id]] for entry in faces.deck.cards]
        copies = [i for i, entry in enumerate(faces.deck.cards) for _ in range(entry.copies)]
        order = [page for i in copies for page in ((i, back[i]) if profile.page_order.value == "front-back" else (i,))]
    sizes = _sizes(faces, profile, order)
    name = f"{stem}.pdf"
    (staging / name).parent.mkdir(parents=True, exist_ok=True)
    pages = shop_pages(faces.pdf, order, sizes)  # the profile's own bleed, each card at its own trim
    if profile.output == "pdf-x1a":
        to_pdfx(pages, profile, stem, staging / name)
    else:
        save_pdf_file(pages, staging / name)
    return [name], {name: len(order)}, {name: [list(trim) for trim, _ in sizes]}


def _png_files(faces: DeckFaces, profile: Profile) -> tuple[dict[str, bytes], dict[str, list]]:
    """One PNG per face at the profile's canvas for that face's size, and each file's trim (for preflight)."""
    order = list(range(len(faces.order)))
    sizes = _sizes(faces, profile, order)
    images = render_pngs(save_pdf(shop_pages(faces.pdf, order, sizes)), faces.order, Path("png"), dpi=profile.dpi.value)
    return images, {name: [list(trim)] for name, (trim, _) in zip(images, sizes)}


def refuse_sizes(profile: Profile, job: FaceJob) -> None:
    """UsageError (exit 2) naming every set whose cards are a size the profile does not take; before any rendering."""
    refused = [(set_id, w, h) for (set_id, w, h) in set_sizes(job) if not profile.takes(w, h)]
    if refused:
        which = "; ".join(f"set {set_id!r} is {w:g} × {h:g} mm" for set_id, w, h in refused)
        raise UsageError(f"{profile.name} does not take these cards: {which}; it takes {profile.size_names()}; "
                         "nothing was rendered")


def quantities_rows(faces: DeckFaces, files: list[str], per_design: bool) -> list[dict[str, str | int]]:
    """One row per design and per back: the file to upload, the card (or back) id, its name, the copies to order."""
    names = faces.names()
    rows = []
    for index, entry in enumerate(faces.deck.cards):
        rows.append({"file": files[index] if per_design else files[0], "card_id": entry.card.id,
                     "name": names[entry.card.id], "copies": entry.copies})
    designs = len(faces.deck.cards)
    for index, (back, copies) in enumerate(faces.back_copies().items()):
        rows.append({"file": files[designs + index] if per_design else files[0], "card_id": back, "name": "",
                     "copies": copies})
    return rows


def write_quantities(path: Path, rows: list[dict[str, str | int]]) -> None:
    """The order sheet; a name a spreadsheet would run as a formula is written inert (see :mod:`.cells`)."""
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=["file", "card_id", "name", "copies"])
        writer.writeheader()
        writer.writerows({k: neutralise(v) if isinstance(v, str) else v for k, v in row.items()} for row in rows)


@dataclass
class PrintShop:
    """The print-shop target of ``run_target``: the profile's files, ``quantities.csv``, then preflight."""

    profile: Profile
    kind: str = "print-shop"

    @property
    def prefix(self) -> str:
        return self.profile.id

    def check(self, job: FaceJob) -> None:
        refuse_sizes(self.profile, job)

    def write(self, faces: DeckFaces, staging: Path, out: Path, label: str) -> dict[str, Any]:
        profile = self.profile
        if profile.output == "png":
            outputs, trims = _png_files(faces, profile)
            pages: dict[str, int] = {}
            files = list(outputs)
            for relative, data in outputs.items():
                (staging / relative).parent.mkdir(parents=True, exist_ok=True)
                (staging / relative).write_bytes(data)
        else:
            files, pages, trims = _pdf_files(faces, profile, label, staging)
        write_quantities(staging / "quantities.csv", quantities_rows(faces, files, profile.output == "png"))
        return {"profile": profile.id, "trims_mm": trims, "pages": pages, "files": files, "backs": faces.back_ids,
                "unverified": profile.unverified(), "overflow": list(faces.result.overflow),
                "overflow_parts": {card: list(parts) for card, parts in faces.result.parts.items()}}

    def verify(self, staging: Path, out: Path) -> list[FileReport]:
        """Preflight the staged files; DataError (naming each failed check where it will be) when one fails."""
        reports = preflight(staging, self.profile.id)
        failed = [r for r in reports if not r.ok]
        if failed:
            problems = [Problem(str(out / r.path.relative_to(staging)), "", "preflight", f"{c.name}: {c.message}")
                        for r in failed for c in r.checks if not c.ok]
            raise DataError(f"the {self.profile.name} export failed preflight; {out} was left as it was", problems)
        for report in reports:
            report.path = out / report.path.relative_to(staging)
        return reports


def export_print_shop(cards_root: Path, profile_name: str, *, game: str | None = None, selection: str | None = None,
                      players: int | None = None, locale: str | None = None, out: Path | None = None,
                      jobs: int = 1, packs: list[Path] | None = None, face_cache: Path | None = None) -> ExportResult:
    """Write the deck for ``profile_name`` into ``out`` (replaced whole), preflighted; raise DataError when a check fails.
    Faces in ``face_cache`` (a build's face cache) are not laid out again."""
    profile = load_profile(profile_name)
    if profile.output == "pdf-x1a":
        ghostscript()  # before any work: a missing Ghostscript must not leave half an export
    chosen = DeckChoice(game, selection, players, locale, list(packs or []), jobs, face_cache)
    done = run_target(cards_root, PrintShop(profile), chosen, out)
    faces = done.faces
    return ExportResult(done.folder, profile, done.record["files"], len(faces.deck.cards), faces.deck.physical_cards,
                        done.verified, list(faces.result.overflow), dict(faces.result.parts), faces.telltale, done.label)
