"""``cardworks export tts``: a deck as a Tabletop Simulator saved object.

Tabletop Simulator builds a custom deck from sheet images: a grid of at most
10 × 7 faces (at least 2 × 2: its import dialog asks for no fewer), at most
4096 px a side, whose last slot is the face shown for a hidden card (here:
the back). A sheet has one back image, so cards are put on sheets by their
back (the deck's, or their set's or card type's, as ``cardworks build`` prints
them); every card size has its own back, so each sheet holds one size, its
cells shaped like that card. Each back becomes a deck object of its own,
scaled so that its cards are their true size next to the others
(``card_scale``): one pile of mixed sizes would draw every face on one card
shape. Each card names its face as ``CardID`` = sheet key × 100 + index in the
sheet; ``DeckIDs`` lists one CardID per physical card, so a design with three
copies appears three times. The saved object (JSON) goes into TTS's "Saved
Objects" folder; its image URLs are ``file://`` paths to the written folder,
or under ``--base-url`` for hosted images.
"""

from __future__ import annotations

import json
import math
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import UsageError
from ..render.facepdf import PdfiumPages
from ..render.faces import BLEED_MM
from ..render.impose import MM
from .common import DeckFaces, refuse_unreadable
from .target import DeckChoice, run_target

MAX_COLUMNS, MAX_ROWS, MAX_SIDE = 10, 7, 4096
MIN_COLUMNS, MIN_ROWS = 2, 2
"""TTS's custom-deck dialog takes 2 to 10 columns and 2 to 7 rows; a one-row sheet is read wrongly."""
TTS_CARD_MM = (63.5, 88.9)
"""The card TTS draws at scale 1 (2.5 × 3.5 in, poker): every card mesh has this shape before its scale."""
PER_SHEET = MAX_COLUMNS * MAX_ROWS - 1
"""Faces per sheet: the last slot holds the hidden-card face."""


@dataclass(frozen=True)
class SheetGrid:
    columns: int
    rows: int
    cell: tuple[int, int]

    @property
    def size(self) -> tuple[int, int]:
        return self.columns * self.cell[0], self.rows * self.cell[1]

    def position(self, index: int) -> tuple[int, int]:
        row, column = divmod(index, self.columns)
        return column * self.cell[0], row * self.cell[1]


def cell_for(trim_mm: tuple[float, float]) -> tuple[int, int]:
    """The pixel cell of a card of this trim: as large as a full 10 × 7 sheet within 4096 px allows, true to its shape."""
    ratio = trim_mm[1] / trim_mm[0]
    width = min(MAX_SIDE // MAX_COLUMNS, math.floor(MAX_SIDE // MAX_ROWS / ratio))
    return width, min(MAX_SIDE // MAX_ROWS, round(width * ratio))


def grid_for(faces: int, trim_mm: tuple[float, float]) -> SheetGrid:
    """The smallest grid of at least 2 × 2 holding ``faces`` faces plus the hidden slot, cells of this card size
    (``cell_for``); a short sheet is folded into two rows rather than left as one."""
    slots = faces + 1
    if slots > MAX_COLUMNS * MAX_ROWS:
        raise ValueError(f"{faces} faces do not fit one sheet of {MAX_COLUMNS} × {MAX_ROWS} with its hidden slot")
    columns = max(MIN_COLUMNS, min(MAX_COLUMNS, math.ceil(slots / MIN_ROWS)))
    rows = max(MIN_ROWS, math.ceil(slots / columns))
    return SheetGrid(columns, rows, cell_for(trim_mm))


def card_scale(trim_mm: tuple[float, float]) -> dict[str, float]:
    """The ``Transform`` scale that gives a card of this trim its printed size and shape in TTS: the mesh TTS
    draws at scale 1 is ``TTS_CARD_MM``, so width and height are scaled apart (``scaleX`` across, ``scaleZ``
    along the table); ``scaleY`` (thickness) stays 1. Relative sizes are then true: a 44 × 68 mm card lies
    beside a 63 × 88 mm one as it would on a table."""
    return {"scaleX": round(trim_mm[0] / TTS_CARD_MM[0], 4), "scaleY": 1.0,
            "scaleZ": round(trim_mm[1] / TTS_CARD_MM[1], 4)}


class FaceImages:
    """Each face (and back) as a PIL image of exactly the cell of its own size (``cells``: trim → pixels), no bleed,
    rasterised when asked for: a design's image is pasted once and let go, only the backs are kept (every sheet
    shows its back), so memory does not grow with the deck."""

    def __init__(self, faces: DeckFaces, cells: dict[tuple[float, float], tuple[int, int]]) -> None:
        self.file = tempfile.TemporaryFile()  # read by pdfium page by page, not held in memory
        faces.pdf.save(self.file)
        self.file.seek(0)
        self.faces, self.cells = faces, cells
        self.pages = PdfiumPages(self.file)
        self.page_of = {face_id: index for index, face_id in enumerate(faces.order)}
        self.kept: dict[str, object] = {}
        self.backs = set(faces.back_ids)

    def __getitem__(self, face_id: str):
        from PIL import Image

        if face_id in self.kept:
            return self.kept[face_id]
        trim_w, trim_h = self.faces.trim_of(face_id)
        cell = self.cells[(trim_w, trim_h)]
        scale = max(cell[0] / (trim_w * MM), cell[1] / (trim_h * MM), 1.0)  # never below 72 dpi: small cards stay sharp
        bleed = BLEED_MM * MM * scale
        image = self._render(self.page_of[face_id], scale)
        trim_box = (bleed, bleed, min(bleed + trim_w * MM * scale, image.width), min(bleed + trim_h * MM * scale, image.height))
        image = image.resize(cell, Image.Resampling.LANCZOS, box=trim_box)  # exact trim, no rounding shift
        if face_id in self.backs:
            self.kept[face_id] = image
        return image

    def _render(self, index: int, scale: float):
        """One page as an RGB image (pdfium's document opened again as it goes: see ``PdfiumPages``)."""
        page = self.pages[index]
        bitmap = page.render(scale=scale)
        try:
            return bitmap.to_pil().convert("RGB")
        finally:
            bitmap.close()
            page.close()

    def close(self) -> None:
        self.pages.close()
        self.file.close()


def check_base_url(base_url: str) -> None:
    """A ``--base-url`` is written into every ``FaceURL`` as given, so it must be one Tabletop Simulator can
    fetch: ``http://`` or ``https://``, a host, and no space, control or other character a URL cannot hold
    unescaped (a newline would end the URL where TTS reads it)."""
    from urllib.parse import urlsplit

    if not base_url.startswith(("http://", "https://")):
        raise UsageError(f"--base-url must start with http:// or https://, not {base_url!r}")
    bad = next((c for c in base_url if c.isspace() or not c.isprintable() or c in '"<>\\^`{|}'), None)
    if bad is not None:
        raise UsageError(f"--base-url may hold no spaces, control characters or {bad!r} "
                         f"(escape them, e.g. %20 for a space), not {base_url!r}")
    try:
        parts = urlsplit(base_url)
        port = parts.port
    except ValueError as exc:
        raise UsageError(f"--base-url is not a URL ({exc}): {base_url!r}") from None
    if not parts.hostname or parts.query or parts.fragment or port == 0:
        raise UsageError(f"--base-url must name a host and a folder, with no query or fragment "
                         f"(e.g. https://example.org/decks/), not {base_url!r}")


def _url(base_url: str | None, folder: Path, name: str) -> str:
    if base_url:
        return base_url.rstrip("/") + "/" + name
    return (folder.resolve() / name).as_uri()


DECK_SPACING = 4.0
"""TTS units between the decks laid side by side (a poker card is about 2.2 wide)."""


def transform(trim_mm: tuple[float, float], x: float = 0.0) -> dict[str, float]:
    """Face down at ``x`` on the table, scaled to the card's size (``card_scale``)."""
    return {"posX": x, "posY": 1.0, "posZ": 0.0, "rotX": 0.0, "rotY": 180.0, "rotZ": 180.0, **card_scale(trim_mm)}


@dataclass
class TtsResult:
    folder: Path
    saved_object: Path
    sheets: list[Path]
    designs: int
    cards: int
    telltale: dict[str, list[str]]
    """Card type → its backs, where one type carries several (a warning, see ``render.telltale``)."""
    deck: str
    small: dict[str, dict[str, tuple[float, float]]] = field(default_factory=dict)
    """Card → its parts printed under the smallest legible size: part → (printed pt, minimum pt)."""
    game: str = ""
    locale: str = ""


@dataclass(frozen=True)
class SheetPlan:
    """One sheet: its grid, the designs on it, its image URL, and its back's URL and card trim."""

    grid: SheetGrid
    ids: list[str]
    url: str
    back_url: str
    back: str
    trim_mm: tuple[float, float]


def back_words(back: str, trim: tuple[float, float]) -> str:
    """A back's id (:func:`cardworks.render.faces.build_job`) in words for a deck's description: ``back`` is the
    common back, ``back-type-creature`` the back of a card type, ``back-set-events`` a set's; the size suffix is
    dropped (the description gives the size)."""
    bare = back.removesuffix(f"-{trim[0]:g}x{trim[1]:g}")
    for prefix, what in (("back-type-", "type"), ("back-set-", "set")):
        if bare.startswith(prefix):
            return f"back of {what} {bare.removeprefix(prefix)}"
    return "common back" if bare == "back" else f"back {bare}"


def saved_object(faces: DeckFaces, sheets: list[SheetPlan], nickname: str) -> dict:
    """The saved-object JSON: one deck object per back (so per card size), each scaled to its card's size and
    holding every physical card with that back; a back with a single physical card is a lone ``Card``."""
    names = faces.names()
    copies = {entry.card.id: entry.copies for entry in faces.deck.cards}
    by_back: dict[str, list[tuple[int, SheetPlan]]] = {}
    for key, plan in enumerate(sheets, start=1):
        by_back.setdefault(plan.back, []).append((key, plan))
    objects = []
    for place, (back, plans) in enumerate(by_back.items()):
        trim = plans[0][1].trim_mm
        where = transform(trim, place * DECK_SPACING)
        custom, contained, deck_ids = {}, [], []
        for key, plan in plans:
            custom[str(key)] = {"FaceURL": plan.url, "BackURL": plan.back_url, "NumWidth": plan.grid.columns,
                                "NumHeight": plan.grid.rows, "BackIsHidden": True, "UniqueBack": False, "Type": 0}
            for index, card_id in enumerate(plan.ids):
                for _ in range(copies[card_id]):
                    deck_ids.append(key * 100 + index)
                    contained.append({"Name": "Card", "Transform": where, "Nickname": names[card_id],
                                      "GMNotes": card_id, "CardID": key * 100 + index,
                                      "CustomDeck": {str(key): custom[str(key)]}})
        size = f"{trim[0]:g} × {trim[1]:g} mm"
        words = back_words(back, trim)
        if len(contained) == 1:  # TTS keeps no deck of one card: it is a card on its own
            objects.append({**contained[0], "Description": f"{nickname}: {size}, {words}"})
            continue
        named = f"{nickname} · {size}" + ("" if words == "common back" else f" · {words}")  # the usual back unsaid
        objects.append({"Name": "DeckCustom", "Transform": where, "Nickname": named,
                        "Description": f"{len(contained)} cards of {size}, {words}",
                        "DeckIDs": deck_ids, "CustomDeck": custom, "ContainedObjects": contained})
    return {"SaveName": nickname, "GameMode": "", "Date": "", "Table": "", "Sky": "", "Note": "", "Rules": "",
            "XmlUI": "", "LuaScript": "", "LuaScriptState": "", "ObjectStates": objects}


@dataclass(frozen=True)
class Tts:
    """The Tabletop Simulator target of ``run_target``: sheets by back, the back images and the saved object."""

    base_url: str | None = None
    kind: str = "tts"
    prefix: str = "tts"
    strict: bool = False
    """Refuse, before any file is written, a deck with overflowing text or type too small to read (as the
    print-shop export and ``cardworks build`` do under ``--strict``)."""

    def check(self, job: Any) -> None:
        """Every card size fits a sheet: nothing to refuse before rendering."""

    def write(self, faces: DeckFaces, staging: Path, out: Path, label: str) -> dict[str, Any]:
        from PIL import Image

        if self.strict:
            refuse_unreadable(faces)
        deck, db = faces.deck, faces.db
        by_back: dict[str, list[str]] = {}  # one size per back: render.faces gives each size its own back id
        for entry in deck.cards:
            by_back.setdefault(faces.backs[entry.card.id], []).append(entry.card.id)
        chunks = [(back, ids[i : i + PER_SHEET]) for back, ids in by_back.items() for i in range(0, len(ids), PER_SHEET)]
        grids = [grid_for(len(chunk), faces.trim_of(back)) for back, chunk in chunks]
        cells = {faces.trim_of(back): cell_for(faces.trim_of(back)) for back, _ in chunks}
        images = FaceImages(faces, cells)
        back_names = {back: "back.png" if back == "back" else f"{back}.png" for back in by_back}
        sheet_names = []
        for number, (grid, (back, chunk)) in enumerate(zip(grids, chunks), start=1):
            sheet = Image.new("RGB", grid.size, "white")
            for index, card_id in enumerate(chunk):
                sheet.paste(images[card_id], grid.position(index))
            sheet.paste(images[back], grid.position(grid.columns * grid.rows - 1))  # the hidden-card face
            name = f"sheet-{number}.png"
            sheet.save(staging / name, format="PNG")
            sheet_names.append(name)
        for back, name in back_names.items():
            images[back].save(staging / name, format="PNG")
        images.close()
        nickname = f"{db.game_doc.name} {deck.label} ({faces.locale})"
        urls = [_url(self.base_url, out, name) for name in sheet_names]
        back_urls = [_url(self.base_url, out, back_names[back]) for back, _ in chunks]
        plans = [SheetPlan(grid, chunk, url, back_url, back, faces.trim_of(back))
                 for grid, (back, chunk), url, back_url in zip(grids, chunks, urls, back_urls)]
        document = saved_object(faces, plans, nickname)
        (staging / f"{label}.json").write_text(json.dumps(document, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        return {"files": [*sheet_names, *back_names.values(), f"{label}.json"]}

    def verify(self, staging: Path, out: Path) -> None:
        """Nothing beyond what ``write`` made sure of."""


def export_tts(cards_root: Path, *, game: str | None = None, selection: str | None = None, players: int | None = None,
               locale: str | None = None, out: Path | None = None, base_url: str | None = None, jobs: int = 1,
               packs: list[Path] | None = None, face_cache: Path | None = None, strict: bool = False) -> TtsResult:
    """Write sheets, the back image and the saved object into ``out`` (replaced whole); faces in ``face_cache``
    (a build's face cache) are not laid out again. With ``strict``, overflowing text or type too small to read
    refuses the export (DataError, ``out`` left as it was)."""
    if base_url is not None:
        check_base_url(base_url)
    chosen = DeckChoice(game, selection, players, locale, list(packs or []), jobs, face_cache)
    done = run_target(cards_root, Tts(base_url, strict=strict), chosen, out)
    deck = done.faces.deck
    sheets = [name for name in done.record["files"] if name.startswith("sheet-")]
    return TtsResult(done.folder, done.folder / f"{done.label}.json", [done.folder / name for name in sheets],
                     len(deck.cards), deck.physical_cards, done.faces.telltale, done.label, done.faces.small,
                     done.faces.db.output_id, done.faces.locale)
