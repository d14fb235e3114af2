"""Card art and back images: real images (read by their first bytes, not their name), of sane size, sharp enough.

An image is recognised by its header: PNG, JPEG and WebP signatures, or an SVG
document. Its pixel count is read from the header alone and capped before
anything decodes it (a small file can claim billions of pixels). Its resolution
where it is printed (the art box, or trim + bleed for full-bleed art and backs)
is a warning under 300 dpi and an error under 150.
"""

from __future__ import annotations

import warnings
from pathlib import Path, PurePosixPath
from typing import Any

from ..loading.assets import image_problems
from ..loading.paths import PathEscape, resolve_inside
from ..loading.records import Index, Record
from ..problems import ProblemList
from ..models.card_size import resolve_card_size
from ..models.face import art_box_mm, effective_dpi

MAX_ART_BYTES = 50 * 1024 * 1024
MAX_ART_PIXELS = 50_000_000
"""About 8,000 × 6,000: far beyond 600 dpi on any card, and a cap on what a decoder is asked to allocate."""
PRINT_DPI = 300
DECK_TEMPLATE = "cards/cards.html.j2"
"""The template that draws a document of faces and backs (a back template may not be it)."""
MIN_DPI = 150
SIGNATURES = {b"\x89PNG\r\n\x1a\n": "PNG", b"\xff\xd8\xff": "JPEG"}


def image_format(head: bytes) -> str | None:
    """``PNG``, ``JPEG``, ``WEBP`` or ``SVG`` from a file's first bytes; None for anything else."""
    for signature, name in SIGNATURES.items():
        if head.startswith(signature):
            return name
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return "WEBP"
    try:
        text = head.decode("utf-8").lstrip("\ufeff \t\r\n")
    except UnicodeDecodeError:
        return None
    return "SVG" if text.startswith("<") and "<svg" in text else None


def image_problem(path: Path) -> tuple[str, str, Any] | None:
    """``(code, message, size)``: a problem code and message, or None and the pixel size (None for SVG)."""
    try:
        if path.stat().st_size > MAX_ART_BYTES:
            return "art-too-large", f"{path.stat().st_size:,} bytes; an image may have at most {MAX_ART_BYTES:,}", None
        with path.open("rb") as handle:
            head = handle.read(4096)
    except OSError as exc:
        return "art-unreadable", f"cannot be read: {exc.strerror or exc}", None
    kind = image_format(head)
    if kind is None:
        return "art-not-image", ("not a PNG, JPEG, WebP or SVG image (its first bytes say so, whatever its name); "
                                 f"it starts with {head[:8]!r}"), None
    if kind == "SVG":
        return None
    if kind == "PNG" and head[12:16] == b"IHDR":  # the size is in the first chunk: check it before any decoder runs
        width, height = int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big")
        if width * height > MAX_ART_PIXELS:
            return "art-too-many-pixels", f"the PNG header claims {width}×{height} px, more than {MAX_ART_PIXELS:,}", None
    from PIL import Image

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(path, formats=[kind]) as image:  # reads the header only
                size = image.size
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        return "art-too-many-pixels", f"the {kind} header claims more than {MAX_ART_PIXELS:,} pixels", None
    except (OSError, ValueError, SyntaxError) as exc:
        return "art-not-image", f"a damaged {kind} image: {exc}", None
    if size[0] * size[1] > MAX_ART_PIXELS:
        return "art-too-many-pixels", f"{size[0]}×{size[1]} px is more than {MAX_ART_PIXELS:,} pixels", None
    return "", kind, size


def _check_image(out: ProblemList, record: Record, pointer: str, relative: str, box_mm: tuple[float, float]) -> None:
    try:
        path = resolve_inside(record.bundle.root, relative)
    except PathEscape:
        return  # reported by the reference checks (path-escape)
    if not path.is_file():
        return  # reported by the reference checks (missing-file)
    found = image_problem(path)
    if found is None:
        return
    code, message, size = found
    where = f"{record.pointer}{pointer}"
    if code:
        out.error(record.file.display, where, code, f"{relative!r}: {message}")
        return
    dpi = round(effective_dpi(size, box_mm), 1)  # shown to one decimal and compared as shown: 299.7 is under 300
    if dpi < PRINT_DPI:
        text = (f"{relative!r} is {size[0]}×{size[1]} px: {dpi:.1f} dpi over its {box_mm[0]:g}×{box_mm[1]:g} mm "
                f"at print size (print needs {PRINT_DPI} dpi, at least {MIN_DPI})")
        (out.error if dpi < MIN_DPI else out.warning)(record.file.display, where, "art-low-resolution", text)


def _back_paths(record: Record) -> list[tuple[str, str, Any]]:
    model = record.model
    found = []
    if record.kind == "set" and model.back is not None:
        found.append(("/back", model.back.art, model.back))
    if record.kind in {"game", "pack"}:
        found += [(f"/backs/{type_id}", back.art, back) for type_id, back in model.backs.items()]
    return [(pointer + "/art", art, back) for pointer, art, back in found if art]


def _back_templates(record: Record) -> list[tuple[str, str]]:
    model = record.model
    found = []
    if record.kind == "set" and model.back is not None:
        found.append(("/back", model.back))
    if record.kind in {"game", "pack"}:
        found += [(f"/backs/{type_id}", back) for type_id, back in model.backs.items()]
    return [(pointer + "/template", back.template) for pointer, back in found if back.template]


def check_back_templates(index: Index, out: ProblemList) -> None:
    """A back template is looked up as the renderer does (the folder's ``templates/``, then the game's, then the
    shipped ones); one found nowhere is an error, not a silent fall back to the common back."""
    from ..resources import data_dir

    for record in index.of_kind("set", "game", "pack"):
        folders = [record.bundle.root / "templates"]
        if record.bundle is not index.db.game:
            folders.append(index.db.game.root / "templates")
        folders.append(data_dir("templates"))
        for pointer, template in _back_templates(record):
            where = f"{record.pointer}{pointer}"
            if PurePosixPath(template) == PurePosixPath(DECK_TEMPLATE):
                out.error(record.file.display, where, "template-loop",
                          f"back template {template!r} is the deck template, which draws every back: it would "
                          "include itself without end")
                continue
            try:
                candidates = [resolve_inside(folder, template) for folder in folders]
            except PathEscape as exc:
                out.error(record.file.display, where, "path-escape", str(exc))
                continue
            if not any(candidate.is_file() for candidate in candidates):
                out.error(record.file.display, where, "missing-template",
                          f"back template {template!r} is in none of: {record.bundle.label}/templates"
                          + (", the game's templates" if len(folders) > 2 else "") + ", the shipped templates")


def check_art(index: Index, out: ProblemList) -> None:
    """Every card's art and every back image: a real image, not too big, sharp enough where it is printed."""
    game = index.game
    sets = {r.id: r for r in index.of_kind("set")}
    packs = {id(r.bundle): r.model for r in index.of_kind("pack")}
    for record in index.of_kind("card", "set", "game", "pack"):
        if record.kind == "card":
            if not record.model.art:
                if record.model.layout == "art-only":
                    out.error(record.file.display, f"{record.pointer}/layout", "art-only-without-art",
                              "the layout 'art-only' prints the card's art alone, and the card names no art")
                continue
            set_model = sets[record.set_id].model if record.set_id in sets else None
            pack = packs.get(id(record.bundle))
            size = resolve_card_size(game, pack, set_model)
            box = art_box_mm(size.width_mm, size.height_mm, record.model.layout)
            _check_image(out, record, "/art", record.model.art, box)
            continue
        # a back of the game, of a pack or of a set: the size of the cards it is printed behind
        pack = packs.get(id(record.bundle))
        size = resolve_card_size(game, pack, record.model if record.kind == "set" else None)
        for pointer, art, _ in _back_paths(record):
            _check_image(out, record, pointer, art, (size.width_mm + 6.0, size.height_mm + 6.0))
            try:
                target = resolve_inside(record.bundle.root, art)
            except PathEscape as exc:  # reported here: the reference checks do not look into backs
                out.error(record.file.display, f"{record.pointer}{pointer}", "path-escape", str(exc))
                continue
            if not target.is_file():
                out.error(record.file.display, f"{record.pointer}{pointer}", "missing-file",
                          f"{art!r} does not exist in {record.bundle.label}")
                continue
            for code, message in image_problems(target):  # a card's art has these from the reference checks
                out.error(record.file.display, f"{record.pointer}{pointer}", code, f"{art}: {message}")
