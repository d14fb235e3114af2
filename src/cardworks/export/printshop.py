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
from typing import Any, Callable

from ..errors import DataError, UsageError
from ..problems import Problem
from ..render.facepdf import render_pngs, save_pdf, save_pdf_file
from ..render.faces import FaceJob
from ..render.jpegart import check_quality, jpeg_pdf
from .cells import neutralise
from .common import DeckFaces, refuse_unreadable, set_sizes
from .pages import shop_pages
from .pdfx import ghostscript, to_pdfx
from .preflight import FileReport, preflight
from .profiles import Profile, load_profile
from .target import DeckChoice, run_target

PageNote = Callable[[str, int], None]


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
    products: list[dict[str, Any]] = field(default_factory=list)
    """One per card size: its size, files, designs and cards (``export.json``'s ``products``)."""
    flattened: list[dict[str, Any]] = field(default_factory=list)
    """The PDF/X pages Ghostscript flattened into an image: file, page, card and why."""
    small: dict[str, dict[str, tuple[float, float]]] = field(default_factory=dict)
    """Card → its parts printed under the smallest legible size: part → (printed pt, minimum pt)."""
    game: str = ""
    locale: str = ""


def _sizes(faces: DeckFaces, profile: Profile, order: list[int]) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    """Each page's own trim and the page the profile wants for it."""
    trims = faces.page_trims()
    return [(trims[i], profile.page_mm(*trims[i])) for i in order]


def products(faces: DeckFaces, profile: Profile) -> dict[str, list[int]]:
    """The shop's products the deck makes: size name → the pages of ``faces.pdf`` (designs, then backs) of that
    size, in deck order. A profile that takes any size makes one product, named ``""``."""
    found: dict[str, list[int]] = {}
    for index, trim in enumerate(faces.page_trims()):
        row = profile.size_for(*trim)
        if row is None and profile.sizes.value is not None:  # refused before rendering (``refuse_sizes``): a bug
            raise UsageError(f"{profile.name} takes no {trim[0]:g} × {trim[1]:g} mm card ({faces.order[index]})")
        found.setdefault(row.name if row is not None else "", []).append(index)
    return found


def _file_stem(stem: str, product: str) -> str:
    return f"{stem}-{product}" if product else stem


def _pdf_files(faces: DeckFaces, profile: Profile, stem: str, staging: Path, on_page: PageNote | None = None,
               jpeg_quality: int | None = None
               ) -> tuple[dict[str, str], dict[str, int], dict[str, list], list[dict], dict[str, list[str]]]:
    """One PDF per product (card size) saved into ``staging`` (straight to its file: a deck of art is never in
    memory whole): each face id → its file, each file's page count and each page's trim (for preflight), the
    pages Ghostscript flattened, with the card on each and why, and the card on each page. With
    ``jpeg_quality`` (the ``pdf`` profile only), the art is re-encoded as JPEG first (:mod:`..render.jpegart`)."""
    designs = len(faces.deck.cards)
    page_of = {face_id: i for i, face_id in enumerate(faces.order)}
    file_of: dict[str, str] = {}
    pages: dict[str, int] = {}
    trims: dict[str, list] = {}
    flattened: list[dict] = []
    page_cards: dict[str, list[str]] = {}
    for product, members in products(faces, profile).items():
        name = f"{_file_stem(stem, product)}.pdf"
        if profile.output == "pdf":
            order = members
        else:
            cards = [i for i in members if i < designs]
            back = [page_of[faces.backs[faces.deck.cards[i].card.id]] for i in cards]
            copies = [(i, b) for i, b in zip(cards, back) for _ in range(faces.deck.cards[i].copies)]
            order = [page for i, b in copies for page in ((i, b) if profile.page_order.value == "front-back" else (i,))]
        sizes = _sizes(faces, profile, order)
        pdf = shop_pages(faces.pdf, order, sizes)  # the profile's own bleed, each card at its own trim
        if profile.output == "pdf-x1a":
            for page in to_pdfx(pdf, profile, _file_stem(stem, product), staging / name):
                if page.flattened:
                    flattened.append({"file": name, "page": page.number, "card": faces.order[order[page.number - 1]],
                                      "why": list(page.reasons)})
        else:
            if jpeg_quality is not None:
                jpeg_pdf(pdf, jpeg_quality)
            save_pdf_file(pdf, staging / name)
        file_of.update({faces.order[i]: name for i in members})
        page_cards[name] = [faces.order[i] for i in order]
        pages[name] = len(order)
        trims[name] = [list(trim) for trim, _ in sizes]
        if on_page is not None:
            on_page(name, len(order))
    return file_of, pages, trims, flattened, page_cards


def _png_files(faces: DeckFaces, profile: Profile, on_page: PageNote | None = None
               ) -> tuple[dict[str, bytes], dict[str, str], dict[str, list]]:
    """One PNG per face at the profile's canvas for that face's size, in a folder per product (``png/<size>/``);
    each face id → its file, and each file's trim (for preflight)."""
    images: dict[str, bytes] = {}
    file_of: dict[str, str] = {}
    trims: dict[str, list] = {}
    for product, members in products(faces, profile).items():
        sizes = _sizes(faces, profile, members)
        names = [faces.order[i] for i in members]
        folder = Path("png") / product if product else Path("png")
        done = render_pngs(save_pdf(shop_pages(faces.pdf, members, sizes)), names, folder, dpi=profile.dpi.value)
        for face_id, (relative, data), (trim, _) in zip(names, done.items(), sizes):
            images[relative], file_of[face_id], trims[relative] = data, relative, [list(trim)]
        if on_page is not None:
            on_page(str(folder), len(members))
    return images, file_of, trims


def _face_sources(faces: DeckFaces) -> dict[str, dict[str, str | None]]:
    """Each design's set and art file (as the data names it), so a check that fails names them."""
    return {entry.card.id: {"set": entry.set_id, "art": str(entry.card.art) if getattr(entry.card, "art", None)
                            else None} for entry in faces.deck.cards}


def refuse_sizes(profile: Profile, job: FaceJob) -> None:
    """UsageError (exit 2) naming every set whose cards are a size the profile does not take; before any rendering."""
    refused = [(set_id, w, h) for (set_id, w, h) in set_sizes(job) if not profile.takes(w, h)]
    if refused:
        which = "; ".join(f"set {set_id!r} is {w:g} × {h:g} mm" for set_id, w, h in refused)
        raise UsageError(f"{profile.name} does not take these cards: {which}; it takes {profile.size_names()}; "
                         "nothing was rendered")


def refuse_lossy(profile: Profile, jpeg_quality: int | None) -> None:
    """UsageError (exit 2) for a JPEG quality out of range, or given to a profile whose files must stay lossless
    (PNG images, PDF/X); before any rendering."""
    output = {"png": "its PNG images", "pdf-x1a": "its PDF/X files"}.get(profile.output)
    check_quality(jpeg_quality, f"the {profile.id} profile's files ({output})" if output else None)


def quantities_rows(faces: DeckFaces, file_of: dict[str, str], product_of: dict[str, str]
                   ) -> list[dict[str, str | int]]:
    """One row per design and per back: the file to upload, the product (card size) it belongs to, the card (or
    back) id, its name, the copies to order."""
    names = faces.names()
    rows: list[dict[str, str | int]] = []
    for entry in faces.deck.cards:
        card = entry.card.id
        rows.append({"file": file_of[card], "product": product_of[card], "card_id": card, "name": names[card],
                     "copies": entry.copies})
    for back, copies in faces.back_copies().items():
        rows.append({"file": file_of[back], "product": product_of[back], "card_id": back, "name": "",
                     "copies": copies})
    return rows


def write_quantities(path: Path, rows: list[dict[str, str | int]]) -> None:
    """The order sheet; a name a spreadsheet would run as a formula is written inert (see :mod:`.cells`)."""
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=["file", "product", "card_id", "name", "copies"])
        writer.writeheader()
        writer.writerows({k: neutralise(v) if isinstance(v, str) else v for k, v in row.items()} for row in rows)


@dataclass
class PrintShop:
    """The print-shop target of ``run_target``: the profile's files, ``quantities.csv``, then preflight."""

    profile: Profile
    kind: str = "print-shop"
    on_file: PageNote | None = None
    """Told each file (or PNG folder) written, with its page or image count: progress for long exports."""
    strict: bool = False
    """Refuse, before any file is written, a deck with overflowing text or type too small to read (as
    ``cardworks build --strict`` does)."""
    jpeg_quality: int | None = None
    """Re-encode the art as JPEG at this quality (1-95); None: lossless. Refused by a profile that is not ``pdf``."""

    @property
    def prefix(self) -> str:
        return self.profile.id

    def check(self, job: FaceJob) -> None:
        refuse_lossy(self.profile, self.jpeg_quality)
        refuse_sizes(self.profile, job)

    def write(self, faces: DeckFaces, staging: Path, out: Path, label: str) -> dict[str, Any]:
        if self.strict:
            refuse_unreadable(faces)
        profile = self.profile
        flattened: list[dict] = []
        if profile.output == "png":
            outputs, file_of, trims = _png_files(faces, profile, self.on_file)
            pages: dict[str, int] = {}
            page_cards = {relative: [face_id] for face_id, relative in file_of.items()}
            for relative, data in outputs.items():
                (staging / relative).parent.mkdir(parents=True, exist_ok=True)
                (staging / relative).write_bytes(data)
        else:
            file_of, pages, trims, flattened, page_cards = _pdf_files(faces, profile, label, staging, self.on_file,
                                                                      self.jpeg_quality)
        groups = products(faces, profile)
        product_of = {faces.order[i]: product for product, members in groups.items() for i in members}
        files = list(dict.fromkeys(file_of[face_id] for face_id in faces.order))
        write_quantities(staging / "quantities.csv", quantities_rows(faces, file_of, product_of))
        return {"profile": profile.id, "jpeg_quality": self.jpeg_quality, "trims_mm": trims, "pages": pages,
                "files": files, "backs": faces.back_ids,
                "products": [self._product(faces, product, members, file_of) for product, members in groups.items()],
                "flattened": flattened, "page_cards": page_cards, "faces": _face_sources(faces),
                "unverified": profile.unverified(), "overflow": list(faces.result.overflow),
                "overflow_parts": {card: list(parts) for card, parts in faces.result.parts.items()},
                "small_type": {card: {part: list(pair) for part, pair in parts.items()}
                               for card, parts in faces.small.items()}}

    def _product(self, faces: DeckFaces, product: str, members: list[int], file_of: dict[str, str]) -> dict[str, Any]:
        """One product of the export: its size as the profile gives it (with source and what is unverified), its
        files, designs and physical cards."""
        designs = [i for i in members if i < len(faces.deck.cards)]
        trim = faces.page_trims()[members[0]]
        row = self.profile.size_for(*trim)
        size = row.describe(self.profile) if row is not None else {"size": "", "trim_mm": None, "source":
                                                                   self.profile.sizes.source, "unverified": None}
        return {**size, "files": list(dict.fromkeys(file_of[faces.order[i]] for i in members)),
                "designs": len(designs), "cards": sum(faces.deck.cards[i].copies for i in designs)}

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
                      jobs: int = 1, packs: list[Path] | None = None, face_cache: Path | None = None,
                      stage: Callable[[str], None] | None = None, strict: bool = False,
                      jpeg_quality: int | None = None) -> ExportResult:
    """Write the deck for ``profile_name`` into ``out`` (replaced whole), preflighted; raise DataError when a check fails.
    Faces in ``face_cache`` (a build's face cache) are not laid out again. ``stage`` is told what the export is
    doing as it goes (progress). With ``strict``, overflowing text or type too small to read refuses the export.
    With ``jpeg_quality`` (1-95, the ``pdf`` profile only), the art goes in as JPEG at that quality."""
    profile = load_profile(profile_name)
    refuse_lossy(profile, jpeg_quality)
    if profile.output == "pdf-x1a":
        ghostscript()  # before any work: a missing Ghostscript must not leave half an export
    tell = stage or (lambda text: None)
    tell("checking the data")
    chosen = DeckChoice(game, selection, players, locale, list(packs or []), jobs, face_cache)
    done = run_target(cards_root, _Staged(profile, on_file=lambda name, count: tell(f"wrote {name} ({count} "
                                                                                      f"{'page' if name.endswith('.pdf') else 'image'}s)"),
                                          tell=tell, strict=strict, jpeg_quality=jpeg_quality), chosen, out)
    faces = done.faces
    return ExportResult(done.folder, profile, done.record["files"], len(faces.deck.cards), faces.deck.physical_cards,
                        done.verified, list(faces.result.overflow), dict(faces.result.parts), faces.telltale, done.label,
                        done.record["products"], done.record["flattened"], faces.small, faces.db.output_id,
                        faces.locale)


@dataclass
class _Staged(PrintShop):
    """The print-shop target telling what it does at each step (progress)."""

    tell: Callable[[str], None] = lambda text: None

    def check(self, job: FaceJob) -> None:
        super().check(job)
        self.tell(f"laying out {len(job.faces)} faces")

    def write(self, faces: DeckFaces, staging: Path, out: Path, label: str) -> dict[str, Any]:
        self.tell("writing the files" + (" (Ghostscript converts each to PDF/X)" if self.profile.output == "pdf-x1a"
                                         else ""))
        return super().write(faces, staging, out, label)

    def verify(self, staging: Path, out: Path) -> list[FileReport]:
        self.tell("preflight")
        return super().verify(staging, out)
