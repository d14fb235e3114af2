"""Fonts, located by file path and embedded: never whatever fontconfig happens to find.

The project uses DejaVu (Bitstream Vera licence, free to redistribute and embed),
bundled with the package (``cardworks/fonts/``, licence beside them), so Linux,
macOS and Windows render the same; its glyphs cover every locale of the shipped games.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from ..errors import UsageError
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


def font_folders() -> list[Path]:
    """Folders the fetcher must allow so the fonts load."""
    return sorted({font.path.parent for font in font_files()})


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
