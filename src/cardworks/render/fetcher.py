"""A WeasyPrint URL fetcher that reads only from allowed folders.

Card data comes from other people: a stylesheet or image URL in it must not
read ``/etc/passwd`` or reach the network. Only ``file:`` URLs under the
allowed roots (templates, fonts, the game folder or pack) and ``data:`` URLs
load; anything else is refused and recorded. Images are also held to the
bounds of :mod:`cardworks.loading.assets` (an SVG that expands without end, a
huge PNG), so a file swapped in after validation cannot hang the renderer.
Each refusal is recorded as ``file: [code] reason``.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from urllib.parse import unquote, urlparse


def allowed(url: str, roots: list[Path]) -> bool:
    """True for ``data:`` URLs and ``file:`` URLs whose real path lies under one of ``roots``."""
    parsed = urlparse(url)
    if parsed.scheme == "data":
        return True
    if parsed.scheme != "file" or parsed.netloc not in ("", "localhost"):
        return False
    path = Path(unquote(parsed.path)).resolve()
    return any(path == root or root in path.parents for root in roots)


_IMAGES = {".svg", ".png", ".jpg", ".jpeg", ".gif", ".webp"}


def _image_refusal(url: str) -> str | None:
    """``file: [code] reason`` when a ``file:`` or ``data:`` image breaks the asset bounds, else None."""
    parsed = urlparse(url)
    if parsed.scheme == "data":
        from ..loading.assets import data_url_media, data_url_problems

        found = data_url_problems(url)
        return f"data:{data_url_media(url)} (an inline image): [{found[0][0]}] {found[0][1]}" if found else None
    if parsed.scheme != "file":
        return None
    path = Path(unquote(parsed.path))
    if path.suffix.lower() not in _IMAGES:
        return None
    try:
        stamp = path.stat()
    except OSError:
        return None  # missing: WeasyPrint reports it
    problems = _checked(str(path), stamp.st_mtime_ns, stamp.st_size)
    return f"{path}: [{problems[0][0]}] {problems[0][1]}" if problems else None


DRAWN_AS_THEY_ARE = {"1", "L", "LA", "P", "RGB", "RGBA", "CMYK"}
"""Pillow modes the PDF writer draws as they look (checked with sampled pixels); others are converted first."""


def _printable(url: str) -> bytes | None:
    """An 8-bit PNG of a raster ``file:`` image whose mode the PDF writer misdraws (16-bit greyscale PNG prints
    black), scaled so it prints as it looks; None for an image drawn as it is (or not a raster)."""
    parsed = urlparse(url)
    if parsed.scheme != "file" or Path(unquote(parsed.path)).suffix.lower() not in _IMAGES - {".svg"}:
        return None
    path = Path(unquote(parsed.path))
    try:
        stamp = path.stat()
    except OSError:
        return None
    return _converted(str(path), stamp.st_mtime_ns, stamp.st_size)


@lru_cache(maxsize=32)
def _converted(path: str, mtime: int, size: int) -> bytes | None:
    import io

    from PIL import Image

    with Image.open(path) as image:
        if image.mode in DRAWN_AS_THEY_ARE:
            return None
        out = io.BytesIO()
        eight_bit(image).save(out, "PNG")
        return out.getvalue()


def eight_bit(image):
    """``image`` in an 8-bit mode that looks the same: 16- and 32-bit greyscale scaled down (not clipped, which
    is what Pillow's own conversion does), anything else converted to RGBA."""
    mode = image.mode
    if mode.startswith("I;16") or mode == "I":  # PNG's 16-bit grey: 0…65535
        return image.convert("I").point(lambda value: value / 257).convert("L")
    if mode == "F":  # floats: taken as 0…1
        return image.point(lambda value: value * 255).convert("L")
    return image.convert("RGBA")


@lru_cache(maxsize=256)
def _checked(path: str, mtime: int, size: int) -> tuple[tuple[str, str], ...]:
    from ..loading.assets import image_problems

    return tuple(image_problems(Path(path)))


@lru_cache(maxsize=1)
def _fetcher_class() -> type:
    from weasyprint.urls import URLFetcher, URLFetcherResponse  # heavy: imported only when rendering

    class Converted(URLFetcherResponse):
        """An image converted in memory: no path, or WeasyPrint would embed the file on disk instead."""

        @property
        def path(self):  # type: ignore[override]
            return None

    class SafeFetcher(URLFetcher):
        """Fetch ``file:`` URLs inside ``roots`` and ``data:`` URLs; refuse and record the rest."""

        def __init__(self, roots: list[Path]) -> None:
            super().__init__(allowed_protocols=("file", "data"))
            self.roots = [root.resolve() for root in roots]
            self.refused: list[str] = []

        def allows(self, url: str) -> bool:
            return allowed(url, self.roots)

        def fetch(self, url, headers=None):  # type: ignore[override]
            if not self.allows(url):
                self.refused.append(f"{url}: [path-escape] outside the allowed folders (templates, fonts, the game)")
                raise ValueError(self.refused[-1])
            reason = _image_refusal(url)
            if reason:
                self.refused.append(reason)
                raise ValueError(reason)
            converted = _printable(url)
            if converted is not None:
                return Converted(url, converted, {"Content-Type": "image/png"})
            return super().fetch(url, headers)

    return SafeFetcher


def safe_fetcher(roots: list[Path]):
    """A WeasyPrint fetcher limited to ``roots`` (its ``refused`` lists what it turned away)."""
    return _fetcher_class()(roots)


def fetch_key(target: str) -> str:
    """One spelling of a fetched file, whether written as a ``file:`` URL (quoted or not) or as a path, so a
    refusal can be matched with the reference that asked for it; other URLs stay as they are."""
    parsed = urlparse(target)
    if parsed.scheme == "file" or (not parsed.scheme and target.startswith("/")):
        return os.path.normpath(unquote(parsed.path))
    return target


def refusal_error(refused: list[str], what: str, asked_by: Mapping[str, str] | None = None):
    """A DataError listing each refused fetch as a problem naming the file, for the output ``what``.

    ``asked_by`` maps a fetched file (see :func:`fetch_key`) to the ``file:line`` that asked for it (a rulebook
    section's image): the problem is then reported there, naming the refused file in its message.
    """
    from ..errors import DataError
    from ..problems import Problem

    problems = []
    for entry in sorted(set(refused)):
        match = re.match(r"(.*?): \[([a-z-]+)\] (.*)", entry)
        file, code, reason = match.groups() if match else (entry, "refused", "refused")
        asker = (asked_by or {}).get(fetch_key(file))
        if asker is not None:
            where, _, line = asker.rpartition(":")
            problems.append(Problem(where, line, code, f"asks for {fetch_key(file)}: {reason} (while rendering {what})"))
        else:
            problems.append(Problem(file.removeprefix("file://"), "", code, f"{reason} (while rendering {what})"))
    return DataError(f"{what}: {len(problems)} file(s) refused while rendering; nothing was written", problems)
