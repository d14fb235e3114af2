"""The face cache: one PDF page per card face, kept by a hash of exactly what that face shows.

A face's key covers its own data and translation (the ``Face`` record, which
holds nothing else), the bytes of every file it draws (icons, art, back art),
its look (the shipped and overriding templates and stylesheets), the fonts and
the renderer version. Editing one card's text changes one key per locale, so
one face is laid out again and the deck is only re-assembled and re-imposed.

``deck_faces`` is the entry point for the build and for a preview server:
"these faces, in this locale, using the cache".
"""

from __future__ import annotations

import hashlib
import io
import json
import logging
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from urllib.parse import unquote, urlparse
from urllib.request import url2pathname

import pikepdf

from ..fileio import write_bytes_atomic
from .art import placeholder_ops
from .faces import BLEED_MM, Back, Face, FaceJob, FaceResult, Look, face_renderer
from .fonts import font_files
from .imageface import BACK_TEMPLATE, ImageFace, face_pdf, image_face, plain_look
from .jinja import templates_dir
from .measure import PARTS, SIZED
from .pagetree import set_pages
from .prune import prune_resources

RENDERER_VERSION = "11"
"""Bump when the renderer draws or measures the same inputs differently: every cached face is then laid out
again (4: the overflow verdict names its parts and covers the title, stats and flavour, not only the rules;
5: curly quotes and apostrophes, typeset at render time; 6: a face keeps only the fonts and images it draws; 7: PNG art goes in undecoded, see :mod:`.rawpng`; 8: images and icon forms named by their content, see
:mod:`.svgforms`; 10: the printed type size of each part is measured and kept, see :mod:`.legibility`; 11: a face
that is only an image is written without the layout, see :mod:`.imageface`)."""

Renderer = Callable[[FaceJob, Callable[[FaceResult], None]], FaceResult]
"""Lays out a job's faces, handing each document to the callback as it is read (see ``render_faces``)."""


def _file_digest(url: str, memo: dict[str, str]) -> str:
    if url not in memo:
        parsed = urlparse(url)
        path = Path(unquote(parsed.path)) if parsed.scheme == "file" else None
        memo[url] = hashlib.sha256(path.read_bytes()).hexdigest() if path is not None and path.is_file() else url
    return memo[url]


def _folder_digest(folder: Path) -> str:
    digest = hashlib.sha256()
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        digest.update(str(path.relative_to(folder)).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def look_digest(look: Look, game_id: str) -> str:
    """The templates and stylesheets a look draws with: the shipped card templates, the game's and every override."""
    digest = hashlib.sha256()
    for folder in (templates_dir() / "cards", templates_dir() / game_id, *map(Path, look.overrides)):
        if folder.is_dir():
            digest.update(_folder_digest(folder).encode())
    for sheet in look.stylesheets:  # file URIs: by name and content, so a moved database keeps its faces
        path = Path(url2pathname(urlparse(sheet).path))
        digest.update(f"{path.parent.name}/{path.name}\0".encode() + hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()


def _urls(face: Face | Back) -> list[str]:
    if isinstance(face, Back):
        return [face.emblem_url, face.art_url]
    urls = [icon.url for icon in (*face.type_icons, *face.marks) if icon.url] + [stat["url"] for stat in face.stats]
    if face.kind_icon:
        urls.append(face.kind_icon.url)
    if face.art:
        urls.append(face.art.url)
    return urls


def face_keys(job: FaceJob) -> dict[str, str]:
    """Face id → hash of exactly what that face shows (computed before fitting: every face starts at fit 0)."""
    fonts = "".join(f"{f.path.name}:{f.path.stat().st_size}" for f in font_files())
    looks = {key: look_digest(look, job.game_id) for key, look in job.looks.items()}
    named = [(templates_dir().as_uri(), "<templates>"), *((Path(root).resolve().as_uri(), f"<root {number}>")
                                                          for number, root in enumerate(job.roots))]
    named.sort(key=lambda pair: len(pair[0]), reverse=True)  # a root inside another is replaced first

    def portable(text: str) -> bytes:
        for uri, name in named:
            text = text.replace(uri, name)
        return text.encode()

    memo: dict[str, str] = {}
    keys = {}
    for face in job.faces:
        digest = hashlib.sha256(f"cardworks-face {RENDERER_VERSION} {fonts} {job.lang}".encode())
        # the look and the files' URLs name folders of this machine: they enter by their digests below, so a
        # moved database keeps its faces
        digest.update(portable(json.dumps(asdict(replace(face, fit=0, look="")), sort_keys=True, default=str)))
        if isinstance(face, Face) and face.rules:  # inline icons of the rules text are drawn too
            digest.update(portable(json.dumps(sorted(job.icons.items()))))
        if isinstance(face, Back):
            digest.update(job.title.encode())
        digest.update(looks.get(face.look, "shipped").encode())
        for url in _urls(face):
            digest.update(_file_digest(url, memo).encode())
        keys[face.id] = digest.hexdigest()
    return keys


@dataclass
class CachedFace:
    """One face page (a one-page PDF) and what fitting its text found."""

    stored: bytes | Path
    """The page's bytes (a face not cached), or the cache file that holds them: a cached face is read from its file
    when the deck is put together (one at a time, see :mod:`.pdfjoin`), so a deck's faces are never all in memory."""
    fit: int = 0
    parts: tuple[str, ...] = ()
    """The parts of the face that overflow (see :mod:`.measure`); empty when everything fits."""
    group: str = ""
    """The document the face was laid out in (faces of one document share fonts and icons)."""
    sizes: dict[str, float] = field(default_factory=dict)
    """Part → its printed type size in points at the card's real size (see :mod:`.measure`)."""

    @property
    def pdf(self) -> bytes:
        return self.stored if isinstance(self.stored, bytes) else self.stored.read_bytes()

    @property
    def overflow(self) -> bool:
        return bool(self.parts)


@dataclass
class DeckFaces:
    """Every face of a job: its page, whether its text still overflows, and which faces were laid out now."""

    faces: dict[str, CachedFace] = field(default_factory=dict)
    keys: dict[str, str] = field(default_factory=dict)
    rendered: list[str] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)

    @property
    def overflow(self) -> list[str]:
        return [face_id for face_id, face in self.faces.items() if face.overflow]

    @property
    def parts(self) -> dict[str, tuple[str, ...]]:
        """Face id → the parts that overflow, for the faces that do."""
        return {face_id: face.parts for face_id, face in self.faces.items() if face.overflow}

    @property
    def sizes(self) -> dict[str, dict[str, float]]:
        """Face id → its printed type size per part (see :mod:`.legibility`)."""
        return {face_id: face.sizes for face_id, face in self.faces.items()}


class FaceCache:
    """A folder of face pages by key: ``<key>.pdf`` and ``<key>.json`` (fit step, overflowing parts, group, type
    sizes).

    Metadata that is not in this form (an older cache's, or a damaged file) is a miss: the face is laid out
    again rather than served with a verdict that may be stale.
    """

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def get(self, key: str) -> CachedFace | None:
        try:
            meta = json.loads((self.folder / f"{key}.json").read_text(encoding="utf-8"))
            fit, parts, group, sizes = meta["fit"], meta["parts"], meta.get("group", key), meta["sizes"]
            if not (isinstance(fit, int) and isinstance(parts, list) and all(p in PARTS for p in parts)
                    and isinstance(group, str) and isinstance(sizes, dict)
                    and all(p in SIZED.values() and isinstance(v, (int, float)) for p, v in sizes.items())):
                return None
            if not (self.folder / f"{key}.pdf").is_file():
                return None
            return CachedFace(self.folder / f"{key}.pdf", fit, tuple(parts), group, sizes)
        except (OSError, ValueError, KeyError, TypeError, RecursionError):
            return None

    def put(self, key: str, face: CachedFace) -> CachedFace:
        """Store ``face``; returns it as :meth:`get` would (its page then stays on disk, not in memory)."""
        write_bytes_atomic(self.folder / f"{key}.pdf", face.pdf)  # the page first: metadata names a page that exists
        write_bytes_atomic(self.folder / f"{key}.json",
                           json.dumps({"fit": face.fit, "parts": list(face.parts), "group": face.group,
                                       "sizes": face.sizes}).encode())
        return replace(face, stored=self.folder / f"{key}.pdf")


def split_pages(result: FaceResult) -> dict[str, CachedFace]:
    """Each rendered face as its own one-page PDF, with its placeholder art painted (faces without art)."""
    sources = [pikepdf.open(io.BytesIO(data)) for data in result.pdfs]
    source_pages = [[page.obj for page in source.pages] for source in sources]  # one walk of each page tree
    groups = [hashlib.sha256(data).hexdigest()[:24] for data in result.pdfs]
    pages = {}
    for face_id, (pdf_index, page_index) in result.pages.items():
        single = pikepdf.new()
        [page] = set_pages(single, [source_pages[pdf_index][page_index]])
        prune_resources(page)  # the document's other faces' fonts and images stay out of this face
        if face_id in result.arts:  # the art box was left empty by the template
            page.contents_add(b"q\n", prepend=True)
            page.contents_add(b"Q\n" + placeholder_ops(face_id, result.arts[face_id]))
        buffer = io.BytesIO()
        single.save(buffer, deterministic_id=True, compress_streams=True)
        pages[face_id] = CachedFace(buffer.getvalue(), result.fits.get(face_id, 0), result.parts.get(face_id, ()),
                                    groups[pdf_index], result.sizes.get(face_id, {}))
    return pages


def deck_faces(job: FaceJob, cache: FaceCache | None, render: Renderer | None = None) -> DeckFaces:
    """Every face of ``job``: from the cache where its key is there, the rest laid out by ``render`` (then cached,
    one document at a time; by default here, see ``face_renderer``)."""
    render = render or face_renderer(1)
    out = DeckFaces(keys=face_keys(job))
    missing = []
    for face in job.faces:
        found = cache.get(out.keys[face.id]) if cache is not None else None
        if found is None:
            missing.append(face)
        else:
            out.faces[face.id] = found
    missing = drawn_as_images(job, missing, out, cache)
    if missing:
        def keep(part: FaceResult) -> None:  # each document as it is read: its faces cached, then let go
            for face_id, page in split_pages(part).items():
                out.faces[face_id] = cache.put(out.keys[face_id], page) if cache is not None else page
                out.rendered.append(face_id)

        result = render(replace(job, faces=missing), keep)
        out.refused = result.refused
        for url, reason in sorted(result.decoded.items()):  # slower and larger, never different: said, not hidden
            logging.getLogger(__name__).warning("note: %s is decoded to be drawn because %s (an 8-bit RGB or "
                                                "greyscale PNG without transparency goes in as it is)",
                                                unquote(urlparse(url).path), reason)
    return out


def image_face_of(job: FaceJob, face: Face | Back, plain: dict[tuple[str, str], bool]) -> ImageFace | None:
    """``face`` as its image alone (:mod:`.imageface`) when it is one and its look draws it as the shipped
    templates do; None when it goes through the layout. ``plain`` remembers each look's verdict."""
    if isinstance(face, Back):
        url, focus, template = face.art_url, (0.5, 0.5), "" if face.template else BACK_TEMPLATE
        if not url or not template:
            return None
    elif face.layout == "art-only" and face.art is not None:
        x, y = (float(part.rstrip("%")) / 100 for part in face.art.position.split())
        url, focus, template = face.art.url, (x, y), ""
    else:
        return None
    if (face.look, template) not in plain:
        look = job.looks.get(face.look)
        plain[(face.look, template)] = look is not None and plain_look(look.overrides, look.stylesheets, template)
    if not plain[(face.look, template)]:
        return None
    return image_face(url, face.trim_w + 2 * BLEED_MM, face.trim_h + 2 * BLEED_MM, focus,
                      [Path(root) for root in job.roots])


def drawn_as_images(job: FaceJob, faces: list[Face | Back], out: DeckFaces, cache: FaceCache | None) -> list[Face | Back]:
    """Write the faces that are only an image (see :func:`image_face_of`) straight to PDF, one at a time, into
    ``out`` (and the cache); returns the others, which need the layout."""
    plain: dict[tuple[str, str], bool] = {}
    rest = []
    for face in faces:
        image = image_face_of(job, face, plain)
        if image is None:
            rest.append(face)
            continue
        key = out.keys[face.id]
        page = CachedFace(face_pdf(image), group=key)
        out.faces[face.id] = cache.put(key, page) if cache is not None else page
        out.rendered.append(face.id)
    return rest


def assemble_faces(result: FaceResult, order: list[str], bleed_mm: float, lang: str) -> pikepdf.Pdf:
    """Faces just laid out (not through the cache) as one PDF in ``order``, placeholders painted, boxes set."""
    from .facepdf import assemble

    pages = split_pages(result)
    return assemble({i: p.pdf for i, p in pages.items()}, order, bleed_mm, lang, {i: p.group for i, p in pages.items()})
