"""Fonts, located by file path and embedded: never whatever fontconfig happens to find.

The project uses DejaVu (Bitstream Vera licence, free to redistribute and embed),
bundled with the package (``cardworks/fonts/``, licence beside them), so Linux,
macOS and Windows render the same; its glyphs cover every locale of the shipped games.
"""

from __future__ import annotations

import hashlib
import os
import socket
import tempfile
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..errors import UsageError
from ..fileio import sweep_dead_temporaries
from ..resources import fonts_dir

FONT_DIRS = (fonts_dir(),)

FACES = {
    ("CardSans", "normal", "normal"): "DejaVuSans.ttf",
    ("CardSans", "bold", "normal"): "DejaVuSans-Bold.ttf",
    ("CardSans", "normal", "italic"): "DejaVuSans-Oblique.ttf",
    ("CardSans", "bold", "italic"): "DejaVuSans-BoldOblique.ttf",
    ("CardSerif", "normal", "italic"): "DejaVuSerif-Italic.ttf",
    ("CardSerif", "normal", "normal"): "DejaVuSerif.ttf",
    ("CardCondensed", "bold", "normal"): "DejaVuSansCondensed-Bold.ttf",
}


@dataclass(frozen=True)
class FontFile:
    family: str
    weight: str
    style: str
    path: Path


@lru_cache(maxsize=1)
def font_files() -> list[FontFile]:
    """The font files the templates use; raises UsageError naming the package when one is missing."""
    found = []
    for (family, weight, style), name in FACES.items():
        path = next((d / name for d in FONT_DIRS if (d / name).is_file()), None)
        if path is None:
            raise UsageError(f"font file {name} not found in {', '.join(map(str, FONT_DIRS))}; "
                             "the cardworks installation is incomplete (reinstall it)")
        found.append(FontFile(family, weight, style, path))
    return found


def font_face_css() -> str:
    """``@font-face`` rules that load each font from its file."""
    rules = []
    for font in font_files():
        rules.append(f'@font-face {{ font-family: "{font.family}"; font-weight: {font.weight}; '
                     f'font-style: {font.style}; src: url("{font.path.as_uri()}"); }}')
    return "\n".join(rules)


_CONFIGS: dict[int, Any] = {}
"""The font configuration of this process, by process id: a worker forked from a process that made one makes
its own (the parent's font folder is the parent's to remove)."""


def shared_font_config() -> Any:
    """One WeasyPrint font configuration per process, for every document it lays out (faces, pieces, rulebooks,
    FAQ indexes): the bundled fonts are loaded once, not once per document; a document prints the same bytes.

    WeasyPrint copies the fonts into a temporary folder (about 4 MB) that the configuration's ``__del__`` removes,
    but the documents and caches of a process keep references to it until the interpreter is torn down, and a
    pool worker leaves through ``os._exit``, where neither that nor ``atexit`` runs: a build left one folder a
    process behind. So a ``multiprocessing`` finalizer, which runs at a worker's exit and at the main
    process's, calls that cleanup itself. The stylesheets of its documents are parsed once each and kept on it
    (:mod:`.stylesheets`), and so are the Pango contexts and font descriptions of their text (:mod:`.textlayouts`);
    font subsetting's glyph arrays are made without a type parsed for each length (:mod:`.cffi_arrays`)."""
    from multiprocessing.util import Finalize

    from weasyprint.text.fonts import FontConfiguration

    from . import cffi_arrays, stylesheets, textlayouts

    pid = os.getpid()
    if pid not in _CONFIGS:
        stylesheets.install()
        textlayouts.install()
        cffi_arrays.install()
        sweep_font_folders()
        config = FontConfiguration()
        # WeasyPrint makes its folder when the first @font-face needs one, unless one is set; it fills and removes
        # the one it finds. Ours is named for this process, so a later one can tell it was left (kill -9).
        config._folder = Path(tempfile.mkdtemp(prefix=font_folder_prefix(pid)))
        _CONFIGS[pid] = config
        Finalize(None, _remove_font_folder, args=(pid,), exitpriority=0)
    return _CONFIGS[pid]


FONT_FOLDER = "cardworks-fonts-"
"""The start of a process's font folder's name in the temporary folder; then the machine's tag and the process id
(``font_folder_prefix``)."""


def _this_machine() -> str:
    """The start of this machine's font folders' names. The machine is named (a hash of its host name) because a
    temporary folder may be shared with containers whose process ids are not this one's."""
    return f"{FONT_FOLDER}{hashlib.sha256(socket.gethostname().encode()).hexdigest()[:8]}-"


def font_folder_prefix(pid: int) -> str:
    """The name a font folder of process ``pid`` on this machine starts with."""
    return f"{_this_machine()}{pid}-"


_SWEPT: list[bool] = []
"""Whether this process, or the one it was forked from, has swept the temporary folder already."""


def sweep_font_folders() -> list[str]:
    """Remove the font folders of this machine's processes that are gone. A process killed outright (kill -9, the
    out-of-memory killer) runs no finalizer, so its folder (about 4 MB) stays; the next process that lays out
    removes it, once: a worker forked after its build swept does not look again. A folder whose process is alive,
    another machine's or another user's is left. Returns the names removed."""
    if _SWEPT:
        return []
    _SWEPT.append(True)
    return sweep_dead_temporaries(_this_machine())


def _remove_font_folder(pid: int) -> None:
    """Remove this process's font folder, and only its own: a forked worker holds a copy of its parent's
    configuration, whose folder the parent still uses."""
    if os.getpid() == pid and pid in _CONFIGS:
        _CONFIGS.pop(pid).__del__()  # WeasyPrint's own cleanup (it removes the folder, errors ignored)


def font_folders() -> list[Path]:
    """Folders the fetcher must allow so the fonts load."""
    return sorted({font.path.parent for font in font_files()})


@lru_cache(maxsize=8)
def _advances(family: str, weight: str, style: str) -> tuple[dict[int, int], int, int]:
    from fontTools.ttLib import TTFont

    path = next(f.path for f in font_files() if (f.family, f.weight, f.style) == (family, weight, style))
    font = TTFont(path, lazy=True)
    metrics = font["hmtx"].metrics
    widths = {code: metrics[name][0] for code, name in font.getBestCmap().items()}
    return widths, font["head"].unitsPerEm, metrics[".notdef"][0]


def text_width(text: str, size: float, family: str = "CardSans", weight: str = "normal", style: str = "normal") -> float:
    """Width of ``text`` at ``size`` (in the unit of ``size``), from the font file's advance widths (no kerning:
    DejaVu's kerning moves a line by a fraction of a percent)."""
    widths, units, missing = _advances(family, weight, style)
    return sum(widths.get(ord(ch), missing) for ch in text) * size / units


def wrapped_lines(text: str, size_pt: float, width_mm: float, family: str = "CardSans", weight: str = "normal") -> int:
    """Lines ``text`` takes when broken at spaces only (no hyphenation) into ``width_mm``; a word wider than
    the line counts as too many lines."""
    to_mm = 25.4 / 72
    space = text_width(" ", size_pt, family, weight) * to_mm
    lines, line = 1, 0.0
    for word in text.split():
        width = text_width(word, size_pt, family, weight) * to_mm
        if width > width_mm:
            return 99
        if line and line + space + width > width_mm:
            lines, line = lines + 1, width
        else:
            line = line + space + width if line else width
    return lines


SUBSETTER_WARNING = ("warning: [slow-font-subsetting] HarfBuzz-Subset (libharfbuzz-subset0, version 4.1 or later) "
                     "is not installed: WeasyPrint subsets fonts with fontTools instead, about 200 ms more per PDF; "
                     "install it (Debian/Ubuntu: apt-get install libharfbuzz-subset0)")


def fast_subsetter() -> bool:
    """True when WeasyPrint can subset fonts with HarfBuzz-Subset (else it falls back to the slower fontTools)."""
    try:
        from weasyprint.text.ffi import harfbuzz, harfbuzz_subset
    except (ImportError, OSError, AttributeError):
        return False
    return bool(harfbuzz_subset) and bool(harfbuzz.hb_version_atleast(4, 1, 0))
