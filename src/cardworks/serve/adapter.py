"""The one place the preview server calls the renderer and the engine.

Everything ``serve`` needs from ``render/`` (what a face shows, laying faces
out with WeasyPrint, rasterising them with pdfium) and from the engine (the
scenarios and their outcome) goes through the functions here, so a change of
those packages (a shared per-face cache, games moving into their own
packages) is met by editing this module only.
"""

from __future__ import annotations

import hashlib
import io
from collections.abc import Iterable
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote, urlparse

from ..fileio import MAX_ASSET_BYTES, UnsafeFile, read_limited
from ..loading.database import Database
from ..render.jinja import environment, templates_dir

if TYPE_CHECKING:
    from ..render.deck import Deck
    from ..render.faces import FaceJob

# The face layout, the PDF assembling and rasterising modules (pikepdf, pdfium), the deck and the build are
# imported where they are used: faces are built after the first page and drawn in the rendering process, so
# the server answers its first page without loading them.

__all__ = ["FaceImage", "FaceSet", "build_deck", "environment", "face_set", "has_cards", "render_face_images",
           "run_scenarios", "scenario_games", "templates_dir"]

PREVIEW_DPI = 150
"""Enough for a card at twice its printed size on a screen; a face is about 40 kB of PNG."""


@dataclass(frozen=True)
class FaceImage:
    """One rendered face: its PNG, whether its text still overflowed, and where its art box is."""

    png: bytes
    overflow: bool
    art_box_mm: tuple[float, float] | None
    """Width and height of the face's art box in millimetres (None for a back)."""
    refused: tuple[str, ...] = ()
    """Files the face asked for that the renderer's fetcher refused."""
    parts: tuple[str, ...] = ()
    """The parts that overflowed (``name``, ``stats``, ``rules``, ``flavour``; see ``render.measure``)."""
    type_sizes: tuple[tuple[str, float], ...] = ()
    """Each part's printed type size in points at the card's real size (``render.measure``), as the build reads it."""

    def small_type(self, minimum: Any) -> dict[str, tuple[float, float]]:
        """The parts printed under ``minimum`` (a ``TypeMinimum``): part → (printed pt, minimum pt), the check of
        ``cardworks build`` (``render.legibility``)."""
        from ..render.legibility import too_small

        return too_small(dict(self.type_sizes), minimum)

    def small_type_warnings(self, minimum: Any) -> list[str]:
        """The type too small to read, in words, one line for the face (empty when every part is large enough)."""
        small = self.small_type(minimum)
        if not small:
            return []
        parts = ", ".join(f"{part} {size:.1f} pt (at least {least:g} pt)" for part, (size, least) in small.items())
        return [f"[type-too-small] printed under the smallest legible size: {parts}; docs/templates.md"]

    def overflow_warnings(self) -> list[str]:
        """What overflowed, in words, one line per part."""
        from ..render.measure import SAYS

        if not self.overflow:
            return []
        return [SAYS[part] for part in self.parts] or ["its text overflows its place on the card"]


@dataclass
class FaceSet:
    """The faces of one deck in one locale, each with the hash of exactly what it shows."""

    job: FaceJob
    keys: dict[str, str]
    """Face id (card id, or ``back``) → hash of what that face shows."""
    backs: dict[str, str]
    """Card id → the id of its back face, as the PDFs print it (``render.faces.build_job``: the set's back,
    else the card type's, else the common one, each at the card's size)."""
    sizes: dict[str, tuple[float, float]]
    """Face id → its trim (width, height) in millimetres, bleed not included."""

    def minimum(self, face_id: str) -> Any:
        """The smallest type the face may print (its pack's ``min_type_pt``, else the default)."""
        from ..render.legibility import DEFAULT

        return self.job.min_type.get(face_id, DEFAULT)


def build_deck(db: Database, selection: str | None = None, players: int | None = None) -> Deck:
    """The deck of ``selection`` (``render.deck.build_deck``)."""
    from ..render.deck import build_deck as build

    return build(db, selection, players)


def bleed_mm() -> float:
    """The bleed every face is drawn with (``render.faces.BLEED_MM``)."""
    from ..render.faces import BLEED_MM

    return BLEED_MM


def has_cards(folder: Path) -> bool:
    """Whether a game folder has card faces to show: it holds set files, as ``render.build.has_cards`` decides.
    Asked before the first page is served, so the build (and all it imports) is not loaded for it."""
    from ..models.files import has_set_files

    return has_set_files(folder)


def _file_of(url: str) -> Path | None:
    parsed = urlparse(url)
    return Path(unquote(parsed.path)) if parsed.scheme == "file" else None


def _bytes(path: Path) -> bytes:
    """A file's bytes through the checked reader; a refused file hashes as its refusal (validate reports it)."""
    try:
        return read_limited(path, MAX_ASSET_BYTES)
    except UnsafeFile as exc:
        return f"refused: {exc.code}".encode()


def _context_digest(job: FaceJob) -> bytes:
    """What every face of a job depends on besides its own fields: renderer, templates, fonts, icon files."""
    from ..render.facecache import RENDERER_VERSION
    from ..render.fonts import font_files

    digest = hashlib.sha256(f"cardworks-renderer {RENDERER_VERSION} {PREVIEW_DPI}dpi".encode())
    root = templates_dir()
    for path in sorted(p for p in root.rglob("*") if p.is_file() and "serve" not in p.relative_to(root).parts):
        digest.update(str(path.relative_to(root)).encode() + b"\0" + _bytes(path))
    for folder in sorted({folder for look in job.looks.values() for folder in look.overrides}):  # the game's own look
        for path in sorted(p for p in Path(folder).rglob("*") if p.is_file()):
            digest.update(str(path.relative_to(folder)).encode() + b"\0" + _bytes(path))
    for font in font_files():
        digest.update(font.path.name.encode() + str(font.path.stat().st_size).encode())
    for token, (url, alt) in sorted(job.icons.items()):
        path = _file_of(url)
        digest.update(f"{token}\0{url}\0{alt}\0".encode() + (_bytes(path) if path else b""))
    digest.update(repr((job.lang, job.title, job.game_id, job.roots, sorted(job.looks.items()))).encode())
    return digest.digest()


def face_set(db: Database, deck: Deck, locale: str) -> FaceSet:
    """What each face of ``deck`` shows in ``locale``, and its hash (the cache key)."""
    from ..render.faces import build_job

    job = build_job(db, deck, locale, allow_fallback=True)  # a preview shows the fallback; missing strings are problems elsewhere
    context = _context_digest(job)
    keys = {face.id: hashlib.sha256(context + repr(asdict(face)).encode()).hexdigest() for face in job.faces}
    backs = {face.id: face.back for face in job.faces if not face.is_back}
    sizes = {face.id: (face.trim_w, face.trim_h) for face in job.faces}
    return FaceSet(job, keys, backs, sizes)


def render_face_images(faces: FaceSet, ids: Iterable[str], dpi: int = PREVIEW_DPI) -> dict[str, FaceImage]:
    """Lay out the faces ``ids`` of ``faces`` (one document per 16 faces, text fitted) and rasterise them to PNG."""
    from ..models.face import art_box_mm
    from ..render.facecache import assemble_faces
    from ..render.faces import BLEED_MM, render_faces
    from ..render.facepdf import render_pngs

    wanted = set(ids)
    chosen = [replace(face) for face in faces.job.faces if face.id in wanted]  # render_faces steps ``fit`` in place
    if not chosen:
        return {}
    result = render_faces(replace(faces.job, faces=chosen))
    order = [face.id for face in chosen]
    buffer = io.BytesIO()
    assemble_faces(result, order, BLEED_MM, faces.job.lang).save(buffer)
    pngs = render_pngs(buffer.getvalue(), order, Path("."), dpi=dpi)
    refused = tuple(result.refused)
    images = {}
    for face_id in order:
        art = result.arts.get(face_id)  # the placeholder's box, measured after layout
        face = next(f for f in chosen if f.id == face_id)
        box = ((art.width / 72 * 25.4, art.height / 72 * 25.4) if art else
               art_box_mm(face.trim_w, face.trim_h, face.layout) if getattr(face, "art", None) else None)
        images[face_id] = FaceImage(pngs[str(Path(".") / f"{face_id}.png")], face_id in result.overflow, box, refused,
                                    result.parts.get(face_id, ()), tuple(sorted(result.sizes.get(face_id, {}).items())))
    return images


def scenario_games() -> tuple[str, ...]:
    """Ids of the games whose scenarios the engine can play."""
    from ..engine.plugins import registered

    return tuple(registered())


def run_scenarios(db: Database) -> list[Any]:
    """Every scenario of the game, run: objects with ``id``, ``file``, ``passed`` and ``messages``."""
    from ..engine.scenarios import run_scenarios as run

    return run(db)
