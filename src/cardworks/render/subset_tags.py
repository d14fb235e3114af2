"""Font subset tags that name one subset each (ISO 32000-1, 9.6.4).

WeasyPrint derives a subset's six-letter tag from the font's description, so
every document it lays out names its subset of DejaVu Sans ``BKXMRQ+CardSans``
whatever glyphs it holds. Once several documents' pages are merged into one
file (faces laid out in chunks, rulebook parts), one tag names several
different subsets, which the standard forbids and preflight tools flag. Here
each tag is derived from the embedded font program itself: equal subsets keep
one tag, different subsets get different tags, and the same input still gives
the same bytes.
"""

from __future__ import annotations

import hashlib
import re

import pikepdf

from .pdfwalk import reachable

TAG = re.compile(r"^[A-Z]{6}\+")
FONT_FILES = ("/FontFile2", "/FontFile3", "/FontFile")


def tag_for(program: bytes, name: str) -> str:
    """Six capital letters from a hash of the font program and its name."""
    number = int.from_bytes(hashlib.sha256(name.encode() + b"\0" + program).digest()[:8], "big")
    letters = []
    for _ in range(6):
        number, digit = divmod(number, 26)
        letters.append(chr(ord("A") + digit))
    return "".join(letters)


def descriptor(font: pikepdf.Dictionary) -> pikepdf.Dictionary | None:
    """The font descriptor of a simple font, or of a Type 0 font's descendant."""
    if "/FontDescriptor" in font:
        return font.FontDescriptor
    descendants = font.get("/DescendantFonts")
    if descendants is not None and len(descendants) and "/FontDescriptor" in descendants[0]:
        return descendants[0].FontDescriptor
    return None


def font_program(font: pikepdf.Dictionary) -> pikepdf.Stream | None:
    """The embedded font file of ``font``, or None when the font is not embedded."""
    found = descriptor(font)
    return next((found[key] for key in FONT_FILES if found is not None and key in found), None)


def retag_subsets(pdf: pikepdf.Pdf) -> int:
    """Give every subset font ``pdf`` will save (those its trailer reaches) a tag derived from its program;
    return how many fonts were retagged."""
    changed = 0
    for obj in reachable(pdf):
        if not isinstance(obj, pikepdf.Dictionary) or obj.get("/Type") != "/Font" or obj.get("/Subtype") in ("/CIDFontType0", "/CIDFontType2"):
            continue  # descendant CID fonts are renamed with their Type0 parent
        base = str(obj.get("/BaseFont", ""))[1:] if "/BaseFont" in obj else ""
        if not TAG.match(base):
            continue
        program = font_program(obj)
        if program is None:
            continue
        name = base[7:]
        new = f"{tag_for(program.read_bytes(), name)}+{name}"
        if new == base:
            continue
        obj.BaseFont = pikepdf.Name("/" + new)
        for descendant in obj.get("/DescendantFonts", []):
            descendant.BaseFont = pikepdf.Name("/" + new)
        descriptor(obj).FontName = pikepdf.Name("/" + new)
        changed += 1
    return changed
