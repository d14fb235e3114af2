"""render/rawpng.py: PNG art goes into the PDF undecoded, looks the same, and what cannot is decoded and said."""

from __future__ import annotations

import io
import json
import logging
import os
import shutil
import struct
import zlib
from pathlib import Path

import pikepdf
import pytest
from PIL import Image

from cardworks.render.rawpng import PngRows, png_rows
from conftest import REPO, run_cli

NOISE = bytes(value & 0xC0 for value in range(256))


def _png(image: Image.Image, **options) -> bytes:
    out = io.BytesIO()
    image.save(out, format="PNG", **options)
    return out.getvalue()


def _noise(size: tuple[int, int], mode: str = "RGB") -> Image.Image:
    channels = len(mode)
    return Image.frombytes(mode, size, os.urandom(size[0] * size[1] * channels).translate(NOISE))


def _idat(data: bytes) -> bytes:
    position, rows = 8, []
    while position < len(data):
        length, kind = struct.unpack(">I4s", data[position : position + 8])
        if kind == b"IDAT":
            rows.append(data[position + 8 : position + 8 + length])
        position += 12 + length
    return b"".join(rows)


def _with_header_byte(data: bytes, offset: int, value: int) -> bytes:
    """``data`` with byte ``offset`` of its IHDR body set to ``value`` and the chunk's CRC made right again."""
    body = bytearray(data[16:29])
    body[offset] = value
    return data[:16] + bytes(body) + zlib.crc32(b"IHDR" + bytes(body)).to_bytes(4, "big") + data[33:]


def test_rgb_and_grey_pngs_pass_with_their_own_rows() -> None:
    rgb = _png(_noise((12, 7)))
    assert png_rows(rgb) == PngRows(12, 7, 3, _idat(rgb))
    grey = _png(_noise((5, 9), "L"))
    assert png_rows(grey) == PngRows(5, 9, 1, _idat(grey))


def test_pngs_whose_pixels_would_change_are_decoded_with_the_reason() -> None:
    rgb = _png(_noise((12, 7)))
    cases = {
        "palette": _png(_noise((12, 7)).convert("P")),
        "RGB with alpha": _png(_noise((12, 7), "RGBA")),
        "greyscale with alpha": _png(_noise((12, 7), "LA")),
        "16-bit": _png(Image.new("I;16", (4, 4), 300)),
        "interlaced": _with_header_byte(rgb, 12, 1),
        "transparent colour": _png(_noise((12, 7)), transparency=(0, 0, 0)),
        "damaged": rgb[:60] + bytes([rgb[60] ^ 0xFF]) + rgb[61:],
        "cut short": rgb[: len(rgb) // 2],
        "not a PNG": b"GIF89a" + rgb[6:],
    }
    reasons = {name: png_rows(data) for name, data in cases.items()}
    assert all(isinstance(reason, str) for reason in reasons.values()), reasons
    assert "palette" in reasons["palette"] and "RGB with alpha" in reasons["RGB with alpha"]
    assert "greyscale with alpha" in reasons["greyscale with alpha"] and "16-bit" in reasons["16-bit"]
    assert "interlaced" in reasons["interlaced"] and "tRNS" in reasons["transparent colour"]
    assert "damaged" in reasons["damaged"] and "damaged or cut short" in reasons["cut short"]
    assert reasons["not a PNG"] == "it is not a PNG"


def _card(card_id: str, **extra) -> dict:
    return {"id": card_id, "quantity": 1, "types": ["battle"], "stats": {"attack": 2, "defence": 2}, "name": card_id,
            "sources": [{"doc": "designer-notes", "certainty": "stated"}], **extra}


def _pack(folder: Path) -> Path:
    """The example pack with three art cards: full-bleed RGB noise, framed greyscale noise, framed palette art."""
    shutil.copytree(REPO / "examples/fallera-pack", folder)
    manifest = json.loads((folder / "pack.json").read_text(encoding="utf-8"))
    manifest["documents"] = [{"id": "designer-notes", "title": "The designer's own notes"}]
    (folder / "pack.json").write_text(json.dumps(manifest), encoding="utf-8")
    (folder / "art").mkdir(exist_ok=True)
    (folder / "art/bleed.png").write_bytes(_png(_noise((420, 570)), compress_level=1))
    (folder / "art/grey.png").write_bytes(_png(_noise((330, 190), "L")))
    (folder / "art/palette.png").write_bytes(_png(_noise((330, 190)).convert("P")))
    cards = [_card("bleed-art", art="art/bleed.png", layout="full-bleed", art_focus=[0.3, 0.6]),
             _card("grey-art", art="art/grey.png"), _card("palette-art", art="art/palette.png")]
    document = {"$schema": "../../../schema/set.schema.json", "id": "art-set", "name": "Art set", "order": 11,
                "cards": cards}
    (folder / "sets/art.json").write_text(json.dumps(document), encoding="utf-8")
    return folder


def _shop(out: Path) -> Path:
    [found] = out.rglob("print-shop/cards-*.pdf")
    return found


def _rasters(path: Path) -> list:
    import numpy
    import pypdfium2

    document = pypdfium2.PdfDocument(path.read_bytes())
    pages = [numpy.asarray(document[i].render(scale=150 / 72).to_pil().convert("RGB"), dtype=int)
             for i in range(len(document))]
    document.close()
    return pages


@pytest.mark.slow
def test_undecoded_art_looks_the_same_as_decoded_art(tmp_path: Path, monkeypatch, caplog) -> None:
    pack = _pack(tmp_path / "pack")
    args = ("--cards", str(REPO / "cards"), "build", str(pack), "--locale", "en", "--jobs", "1", "--no-docs", "--set", "art-set")
    with caplog.at_level(logging.WARNING):
        built = run_cli(*args, "--out", str(tmp_path / "raw"))
    assert built.exit_code == 0, built.output
    notes = [record.getMessage() for record in caplog.records if "decoded to be drawn" in record.getMessage()]
    assert len(notes) == 1 and "palette.png" in notes[0] and "palette" in notes[0].split("because")[1]

    monkeypatch.setattr("cardworks.render.faces.raw_images", lambda urls, fetcher: ({}, {}))  # WeasyPrint's way
    built = run_cli(*args, "--out", str(tmp_path / "decoded"))
    assert built.exit_code == 0, built.output

    raw, decoded = _shop(tmp_path / "raw"), _shop(tmp_path / "decoded")
    with pikepdf.open(raw) as pdf:  # the PNGs' own rows are in the file, byte for byte
        streams = {bytes(obj.read_raw_bytes()) for obj in pdf.objects
                   if isinstance(obj, pikepdf.Stream) and obj.get("/Subtype") == "/Image"}
    assert _idat((pack / "art/bleed.png").read_bytes()) in streams
    assert _idat((pack / "art/grey.png").read_bytes()) in streams
    assert raw.read_bytes() != decoded.read_bytes()
    pages_raw, pages_decoded = _rasters(raw), _rasters(decoded)
    assert len(pages_raw) == len(pages_decoded)
    for mine, theirs in zip(pages_raw, pages_decoded):
        assert mine.shape == theirs.shape and abs(mine - theirs).max() <= 1
