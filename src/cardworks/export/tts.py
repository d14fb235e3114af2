"""``cardworks export tts``: a deck as a Tabletop Simulator saved object.

Tabletop Simulator builds a custom deck from sheet images: a grid of at most
10 × 7 faces, at most 4096 px a side, whose last slot is the face shown for a
hidden card (here: the back). A sheet has one back image, so cards are put on
sheets by their back (the deck's, or their set's or card type's, as
``cardworks build`` prints them), and since every card size has its own back,
each sheet holds one size, its cells shaped like that card. Each card names its face as ``CardID`` = deck
key × 100 + index in the sheet; ``DeckIDs`` lists one CardID per physical card,
so a design with three copies appears three times. The saved object (JSON)
goes into TTS's "Saved Objects" folder; its image URLs are ``file://`` paths
to the written folder, or under ``--base-url`` for hosted images.
"""

from __future__ import annotations

import json
import math
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import UsageError
from ..render.facepdf import PdfiumPages
from ..render.faces import BLEED_MM
from ..render.impose import MM
from .common import DeckFaces
from .target import DeckChoice, run_target

MAX_COLUMNS, MAX_ROWS, MAX_SIDE = 10, 7, 4096
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
    """The smallest grid holding ``faces`` faces plus the hidden slot, cells of this card size (``cell_for``)."""
    slots = faces + 1
    columns = min(MAX_COLUMNS, slots)
    rows = math.ceil(slots / columns)
    return SheetGrid(columns, rows, cell_for(trim_mm))


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


TRANSFORM = {"posX": 0.0, "posY": 1.0, "posZ": 0.0, "rotX": 0.0, "rotY": 180.0, "rotZ": 180.0,
             "scaleX": 1.0, "scaleY": 1.0, "scaleZ": 1.0}


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


def saved_object(faces: DeckFaces, sheets: list[tuple[SheetGrid, list[str]]], urls: list[str], back_urls: list[str],
                 nickname: str) -> dict:
    """The saved-object JSON: one DeckCustom holding every physical card (``back_urls``: each sheet's back)."""
    names = faces.names()
    copies = {entry.card.id: entry.copies for entry in faces.deck.cards}
    custom, contained, deck_ids = {}, [], []
    for key, ((grid, ids), url, back_url) in enumerate(zip(sheets, urls, back_urls), start=1):
        custom[str(key)] = {"FaceURL": url, "BackURL": back_url, "NumWidth": grid.columns, "NumHeight": grid.rows,
                            "BackIsHidden": True, "UniqueBack": False, "Type": 0}
        for index, card_id in enumerate(ids):
            for _ in range(copies[card_id]):
                deck_ids.append(key * 100 + index)
                contained.append({"Name": "Card", "Transform": TRANSFORM, "Nickname": names[card_id],
                                  "GMNotes": card_id, "CardID": key * 100 + index,
                                  "CustomDeck": {str(key): custom[str(key)]}})
    deck = {"Name": "DeckCustom", "Transform": TRANSFORM, "Nickname": nickname, "Description": "",
            "DeckIDs": deck_ids, "CustomDeck": custom, "ContainedObjects": contained}
    return {"SaveName": nickname, "GameMode": "", "Date": "", "Table": "", "Sky": "", "Note": "", "Rules": "",
            "XmlUI": "", "LuaScript": "", "LuaScriptState": "", "ObjectStates": [deck]}


@dataclass(frozen=True)
class Tts:
    """The Tabletop Simulator target of ``run_target``: sheets by back, the back images and the saved object."""

    base_url: str | None = None
    kind: str = "tts"
    prefix: str = "tts"

    def check(self, job: Any) -> None:
        """Every card size fits a sheet: nothing to refuse before rendering."""

    def write(self, faces: DeckFaces, staging: Path, out: Path, label: str) -> dict[str, Any]:
        from PIL import Image

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
        document = saved_object(faces, [(grid, chunk) for grid, (_, chunk) in zip(grids, chunks)], urls, back_urls, nickname)
        (staging / f"{label}.json").write_text(json.dumps(document, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        return {"files": [*sheet_names, *back_names.values(), f"{label}.json"]}

    def verify(self, staging: Path, out: Path) -> None:
        """Nothing beyond what ``write`` made sure of."""


def export_tts(cards_root: Path, *, game: str | None = None, selection: str | None = None, players: int | None = None,
               locale: str | None = None, out: Path | None = None, base_url: str | None = None, jobs: int = 1,
               packs: list[Path] | None = None, face_cache: Path | None = None) -> TtsResult:
    """Write sheets, the back image and the saved object into ``out`` (replaced whole); faces in ``face_cache``
    (a build's face cache) are not laid out again."""
    if base_url is not None:
        check_base_url(base_url)
    chosen = DeckChoice(game, selection, players, locale, list(packs or []), jobs, face_cache)
    done = run_target(cards_root, Tts(base_url), chosen, out)
    deck = done.faces.deck
    sheets = [name for name in done.record["files"] if name.startswith("sheet-")]
    return TtsResult(done.folder, done.folder / f"{done.label}.json", [done.folder / name for name in sheets],
                     len(deck.cards), deck.physical_cards, done.faces.telltale, done.label)
