"""Make PDFs byte-identical from one build to the next.

The font subsetter stamps each embedded TrueType subset with the current time
(``head.modified``); this resets it to the font's creation time and fixes the
checksums, so the same input gives the same bytes.
"""

from __future__ import annotations

import struct

import pikepdf

from .pdfwalk import reachable


def _checksum(data: bytes) -> int:
    padded = data + b"\0" * (-len(data) % 4)
    return sum(struct.unpack(f">{len(padded) // 4}I", padded)) & 0xFFFFFFFF


def stable_truetype(font: bytes) -> bytes:
    """``font`` with ``head.modified`` set to ``head.created`` and checksums recomputed."""
    if len(font) < 12:
        return font
    tables = struct.unpack(">H", font[4:6])[0]
    data = bytearray(font)
    for i in range(tables):
        entry = 12 + 16 * i
        tag, _, offset, length = struct.unpack(">4sIII", font[entry : entry + 16])
        if tag != b"head" or length < 36:
            continue
        data[offset + 28 : offset + 36] = data[offset + 20 : offset + 28]  # modified := created
        data[offset + 8 : offset + 12] = b"\0\0\0\0"  # checkSumAdjustment is left out of the sums
        struct.pack_into(">I", data, entry + 4, _checksum(bytes(data[offset : offset + length])))
        adjustment = (0xB1B0AFBA - _checksum(bytes(data))) & 0xFFFFFFFF
        struct.pack_into(">I", data, offset + 8, adjustment)
        return bytes(data)
    return font


def stabilise(pdf: pikepdf.Pdf) -> None:
    """Normalise every embedded TrueType font ``pdf`` will save, in place (only those its trailer reaches:
    parsing the unreached copies a joined deck still holds cost about 64 KB a face)."""
    done: set[tuple[int, int]] = set()
    for obj in reachable(pdf):
        if isinstance(obj, pikepdf.Dictionary) and obj.get("/Type") == "/FontDescriptor" and "/FontFile2" in obj:
            stream = obj.FontFile2
            if stream.objgen in done:  # a font file shared by several descriptors: fixed once
                continue
            done.add(stream.objgen)
            original = stream.read_bytes()
            fixed = stable_truetype(original)
            if fixed != original:
                stream.write(fixed)
