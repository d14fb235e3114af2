"""What a document prints, hashed, so that a rebuild lays out again only the documents whose print changed.

The key of a rulebook or FAQ index is its generated HTML with every file it names (stylesheet, fonts, icons,
images) replaced by where that file sits inside its folder and a hash of its bytes, plus the code that turns
HTML into PDF. Editing one card's rules text then leaves the rulebooks and FAQ indexes that do not print it
untouched, while an edited rule section, ruling, translation, icon or stylesheet changes the HTML or a named
file and rebuilds them. No absolute path enters the key: a database moved elsewhere is the same input.
"""

from __future__ import annotations

import hashlib
import re
from functools import cache
from pathlib import Path
from urllib.parse import unquote, urlsplit

from ..fonts import font_folders
from ..jinja import templates_dir

_FILE_URI = re.compile(r"file://[^\"'()\s<>]+")


def _digest(path: Path, seen: dict[Path, str] | None = None) -> str:
    """Hash of one file's bytes, read once per ``seen`` (one build: a file edited during it is read again by
    the next build, however close in time)."""
    if seen is None:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    if path not in seen:
        seen[path] = hashlib.sha256(path.read_bytes()).hexdigest()
    return seen[path]


@cache
def _code_digest() -> str:
    """The code between HTML and PDF: this package's renderer and the WeasyPrint and pikepdf versions."""
    from importlib.metadata import version

    digest = hashlib.sha256(f"weasyprint {version('weasyprint')} pikepdf {version('pikepdf')}".encode())
    render = Path(__file__).resolve().parents[1]
    for path in sorted(render.rglob("*.py")):
        digest.update(f"{path.relative_to(render).as_posix()} {_digest(path)}\n".encode())
    return digest.hexdigest()


def _portable(uri: str, roots: dict[str, Path], seen: dict[Path, str]) -> str:
    """``uri`` as its folder's label, its path inside that folder and its bytes' hash. A file outside every
    folder, or missing, stays as written: the fetcher refuses or fails on it when the document is laid out."""
    path = Path(unquote(urlsplit(uri).path))
    for label, root in roots.items():
        if path.is_relative_to(root) and path.is_file():
            return f"{label}:{path.relative_to(root).as_posix()}#{_digest(path, seen)}"
    return uri


def html_key(html: str, game_root: Path, seen: dict[Path, str] | None = None) -> str:
    """Hash of what ``html`` prints when laid out against the templates, fonts and ``game_root``.

    Relative URLs resolve against the templates (:func:`.documents._base_url`), so every template file a
    document could reach is hashed too, except the card-face templates, which no document reads. ``seen``
    remembers file hashes across the documents of one build.
    """
    seen = {} if seen is None else seen
    templates = templates_dir()
    roots = {"game": game_root.resolve(), "templates": templates.resolve(),
             **{f"fonts{i}": folder.resolve() for i, folder in enumerate(font_folders())}}
    digest = hashlib.sha256(_code_digest().encode())
    digest.update(_FILE_URI.sub(lambda m: _portable(m.group(0), roots, seen), html).encode())
    for path in sorted(templates.rglob("*")):
        if path.is_file() and path.relative_to(templates).parts[0] != "cards":
            digest.update(f"{path.relative_to(templates).as_posix()} {_digest(path, seen)}\n".encode())
    return digest.hexdigest()
