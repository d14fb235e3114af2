"""Art that printed wrong without a word: truncated PNG and JPEG (printed partly blank) are refused at their
JSON pointer; 16-bit greyscale PNG (printed black) and the other modes print as they look, checked by sampling
the pixels of the rendered PDF (pdftoppm) against the source image."""

from __future__ import annotations

import io
import json
import struct
import subprocess
import zlib
from pathlib import Path

import pytest
from PIL import Image

from corpus import cardworks, judge, judge_output, mini  # noqa: F401  (fixtures)

FAMILY = "art"
W, H = 64, 16
LEVELS = [round(255 * x / (W - 1)) for x in range(W)]
"""A left-to-right grey ramp, black to white: the source every case encodes in its own way."""


def _saved(image: Image.Image, fmt: str, **options) -> bytes:
    out = io.BytesIO()
    image.save(out, fmt, **options)
    return out.getvalue()


def _ramp(mode: str = "L") -> Image.Image:
    image = Image.new("L", (W, H))
    image.putdata([LEVELS[x] for _ in range(H) for x in range(W)])
    return image if mode == "L" else image.convert(mode)


def _png16(colour_type: int, channels: int) -> bytes:
    """A 16-bit PNG of the ramp written by hand (Pillow writes none of these): grey, grey + alpha, or RGB."""
    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    def pixel(level: int) -> bytes:
        value = struct.pack(">H", level * 257)
        return value * (3 if colour_type == 2 else 1) + (b"\xff\xff" if channels == 2 else b"")

    rows = b"".join(b"\0" + b"".join(pixel(level) for level in LEVELS) for _ in range(H))
    header = struct.pack(">IIBBBBB", W, H, 16, colour_type, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")


MODES = {
    "16-bit greyscale PNG (I;16)": ("png", lambda: _png16(0, 1)),
    "16-bit greyscale + alpha PNG": ("png", lambda: _png16(4, 2)),
    "16-bit RGB PNG": ("png", lambda: _png16(2, 1)),
    "8-bit greyscale PNG": ("png", lambda: _saved(_ramp(), "PNG")),
    "palette PNG": ("png", lambda: _saved(_ramp("P"), "PNG")),
    "greyscale + alpha PNG": ("png", lambda: _saved(_ramp("LA"), "PNG")),
    "RGBA PNG": ("png", lambda: _saved(_ramp("RGBA"), "PNG")),
    "greyscale JPEG": ("jpg", lambda: _saved(_ramp(), "JPEG", quality=95)),
    "CMYK JPEG": ("jpg", lambda: _saved(_ramp("CMYK"), "JPEG", quality=95)),
    "WebP": ("webp", lambda: _saved(_ramp("RGB"), "WEBP", lossless=True)),
}


def _printed_levels(tmp_path: Path, image_file: Path) -> list[int]:
    """The grey levels along the middle row of ``image_file`` drawn 64 × 16 px by WeasyPrint through the build's
    fetcher, read back from the PDF with pdftoppm at 96 dpi, one pixel per CSS px and source pixel."""
    from weasyprint import HTML

    from cardworks.render.fetcher import safe_fetcher

    html = (f"<style>@page {{ size: {W}px {H}px; margin: 0 }} body {{ margin: 0 }} "
            f"img {{ display: block; width: {W}px; height: {H}px }}</style><img src='{image_file.as_uri()}'>")
    fetcher = safe_fetcher([tmp_path])
    pdf = tmp_path / "art.pdf"
    HTML(string=html, url_fetcher=fetcher).write_pdf(pdf)
    assert not fetcher.refused, fetcher.refused
    subprocess.run(["pdftoppm", "-r", "96", "-gray", "-singlefile", "-png", str(pdf), str(tmp_path / "page")],
                   check=True, capture_output=True)
    with Image.open(tmp_path / "page.png") as page:
        grey = page.convert("L")
        return [grey.getpixel((x, H // 2)) for x in range(min(W, grey.width))]


@pytest.mark.parametrize("case", sorted(MODES))
def test_art_prints_as_it_looks_in_every_mode(tmp_path: Path, case: str) -> None:
    suffix, make = MODES[case]
    art = tmp_path / f"art.{suffix}"
    art.write_bytes(make())
    printed = _printed_levels(tmp_path, art)
    worst = max(abs(a - b) for a, b in zip(printed, LEVELS)) if len(printed) == W else 255
    wrong = None if worst <= 12 else (f"printed levels differ from the source by up to {worst}: "
                                      f"{printed[::8]} for {LEVELS[::8]}")
    judge_output(f"art in {case} prints as it looks", FAMILY, wrong)


def _truncated(fmt: str) -> bytes:
    data = _saved(Image.effect_noise((256, 256), 64).convert("RGB"), fmt)
    return data[: len(data) // 2]


def test_truncated_art_is_refused_at_its_pointer(mini) -> None:
    """One ``validate`` run: a truncated PNG and JPEG as card art, a truncated PNG as the set's back."""
    (mini.root / "art").mkdir()
    (mini.root / "art" / "cut.png").write_bytes(_truncated("PNG"))
    (mini.root / "art" / "cut.jpg").write_bytes(_truncated("JPEG"))
    (mini.root / "art" / "back.png").write_bytes(_truncated("PNG"))
    sets = mini.root / "sets" / "base.json"
    doc = json.loads(sets.read_text())
    doc["cards"][0]["art"] = "art/cut.png"
    doc["cards"][1]["art"] = "art/cut.jpg"
    doc["back"] = {"art": "art/back.png"}
    sets.write_text(json.dumps(doc))
    result = cardworks("--cards", str(mini.cards_root), "validate", timeout=30)
    for case, pointer in (("truncated PNG art", "/cards/0/art"), ("truncated JPEG art", "/cards/1/art"),
                          ("truncated PNG back", "/back/art")):
        judge(case, FAMILY, result, refuse=True, names=f"base.json:{pointer}:", code="image-unreadable")


def test_truncated_art_swapped_in_after_validation_is_refused_by_the_fetcher(tmp_path: Path) -> None:
    from cardworks.render.fetcher import refusal_error, safe_fetcher

    art = tmp_path / "cut.jpg"
    art.write_bytes(_truncated("JPEG"))
    fetcher = safe_fetcher([tmp_path])
    with pytest.raises(ValueError):
        fetcher.fetch(art.as_uri())
    assert [(p.file, p.code) for p in refusal_error(fetcher.refused, "art").problems] == [(str(art), "image-unreadable")]
