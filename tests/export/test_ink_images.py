"""Raster art under a CMYK profile's ink limit (issue 33): pixels limited, measured per pixel, read back from files."""

from __future__ import annotations

import io
import json
import shutil
import zlib
from pathlib import Path

import numpy as np
import pikepdf
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from PIL import Image

from cardworks.export import pdfx
from cardworks.export.ink import image_ink, limit_image_ink, limited_pixels
from cardworks.export.preflight import FileReport, check_ink
from cardworks.export.profiles import load_profile
from conftest import REPO, run_cli

CARDS = REPO / "cards"


@given(arrays(np.uint8, (6, 5, 4)), st.floats(1.5, 3.5))
def test_limited_pixels_stay_under_the_limit_and_keep_black(pixels, limit) -> None:
    result = limited_pixels(pixels, limit)
    totals = result.astype(int).sum(axis=-1)
    assert (totals <= np.floor(limit * 255 + 1e-9)).all()
    assert (result[..., 3] == pixels[..., 3]).all()
    assert (result[..., :3] <= pixels[..., :3]).all()  # ink is only ever taken away
    under = pixels.astype(int).sum(axis=-1) <= np.floor(limit * 255 + 1e-9)
    assert (result[under] == pixels[under]).all()  # colours under the limit are untouched


def _cmyk_pdf(pixels: np.ndarray, jpeg: bool = False) -> pikepdf.Pdf:
    """One 1 × 1 in page covered by a CMYK image of ``pixels``."""
    pdf = pikepdf.new()
    page = pdf.add_blank_page(page_size=(72, 72))
    height, width = pixels.shape[:2]
    if jpeg:  # Pillow writes CMYK JPEGs inverted, with an Adobe marker, as Photoshop does
        buffer = io.BytesIO()
        Image.fromarray(pixels, "CMYK").save(buffer, format="JPEG", quality=100)
        image = pikepdf.Stream(pdf, buffer.getvalue(), Filter=pikepdf.Name.DCTDecode)
    else:
        image = pikepdf.Stream(pdf, zlib.compress(pixels.tobytes()), Filter=pikepdf.Name.FlateDecode)
    image.Type, image.Subtype = pikepdf.Name.XObject, pikepdf.Name.Image
    image.Width, image.Height, image.BitsPerComponent = width, height, 8
    image.ColorSpace = pikepdf.Name.DeviceCMYK
    page.obj.Resources = pikepdf.Dictionary(XObject=pikepdf.Dictionary(Im0=image))
    page.obj.Contents = pdf.make_stream(b"q 72 0 0 72 0 0 cm /Im0 Do Q")
    return pdf


def _ink_check(pdf: pikepdf.Pdf):
    buffer = io.BytesIO()
    pdf.save(buffer)
    report = FileReport(Path("x.pdf"))
    check_ink(pikepdf.open(io.BytesIO(buffer.getvalue())), buffer.getvalue(), load_profile("drivethrucards"), report)
    return report.checks[0]


def test_preflight_finds_one_saturated_pixel_the_raster_averages_away() -> None:
    pixels = np.full((300, 300, 4), (100, 100, 100, 100), dtype=np.uint8)  # 157%: under the limit
    pixels[150, 150] = (255, 255, 255, 255)  # one pixel at 400%
    check = _ink_check(_cmyk_pdf(pixels))
    assert not check.ok and "highest per page 1: 400%" in check.message, check.message
    pixels[150, 150] = (100, 100, 100, 100)
    check = _ink_check(_cmyk_pdf(pixels))
    assert check.ok and "highest per page 1: 157%" in check.message, check.message


@pytest.mark.parametrize("decode", [None, [1, 0] * 4])
def test_cmyk_jpeg_samples_are_read_as_ghostscript_reads_them(decode) -> None:
    """Pillow writes CMYK JPEGs inverted with an Adobe marker and undoes that on reading; PDF takes the samples as
    stored unless a Decode array inverts them. The measure agrees with Ghostscript's raster either way."""
    from cardworks.export.preflight import raster_ink

    pdf = _cmyk_pdf(np.full((64, 64, 4), (200, 200, 200, 165), dtype=np.uint8), jpeg=True)
    image = pdf.pages[0].Resources.XObject.Im0
    if decode:
        image.Decode = decode
    buffer = io.BytesIO()
    pdf.save(buffer)
    expected = raster_ink(buffer.getvalue())[0]
    assert expected == pytest.approx(765 / 255 if decode else 255 / 255, abs=0.05)
    assert image_ink(image) == pytest.approx(expected, abs=0.03)
    changed = limit_image_ink(pdf, 2.4)
    assert changed == (1 if decode else 0) and image_ink(image) <= 2.4 + 1e-9
    if decode:
        assert str(image.Filter) == "/FlateDecode" and "/Decode" not in image  # written back losslessly, as PDF reads it
        buffer = io.BytesIO()
        pdf.save(buffer)
        assert raster_ink(buffer.getvalue())[0] == pytest.approx(2.4, abs=0.03)


def _art_pack(folder: Path) -> Path:
    """The example pack with one full-bleed card whose art is dark, saturated bands (about 300% ink in SWOP)."""
    shutil.copytree(REPO / "examples" / "fallera-pack", folder)
    manifest = json.loads((folder / "pack.json").read_text(encoding="utf-8"))
    manifest["documents"] = [{"id": "designer-notes", "title": "The designer's own notes"}]
    (folder / "pack.json").write_text(json.dumps(manifest), encoding="utf-8")
    rng = np.random.default_rng(7)
    height, width = 1110, 815  # 300 dpi over 69 × 94 mm
    colours = np.array([(0, 0, 0), (40, 0, 60), (0, 30, 80), (80, 0, 0), (20, 60, 10), (10, 10, 40)], dtype=np.int16)
    bands = colours[np.arange(height) * len(colours) // height]
    art = np.repeat(bands[:, None, :], width, axis=1) + rng.integers(-10, 10, (height, width, 3))
    (folder / "art").mkdir()
    Image.fromarray(np.clip(art, 0, 255).astype(np.uint8), "RGB").save(folder / "art" / "dark.png", dpi=(300, 300))
    card = {"id": "dark-art", "quantity": 1, "types": ["battle"], "stats": {"attack": 2, "defence": 2},
            "name": "dark art", "layout": "full-bleed", "art": "art/dark.png",
            "sources": [{"doc": "designer-notes", "certainty": "stated"}]}
    document = {"$schema": "../../../schema/set.schema.json", "id": "art-set", "name": "Art set", "order": 11,
                "cards": [card]}
    (folder / "sets" / "art.json").write_text(json.dumps(document), encoding="utf-8")
    return folder


@pytest.mark.slow
def test_saturated_full_bleed_art_passes_drivethrucards_at_240_percent(tmp_path: Path, monkeypatch) -> None:
    pack = _art_pack(tmp_path / "pack")
    args = ("--cards", str(CARDS), "export", "print-shop", str(pack), "--set", "art-set", "--profile", "drivethrucards",
            "--locale", "en")
    monkeypatch.setattr(pdfx, "limit_image_ink", lambda pdf, limit: 0)  # without the pixel limit: refused
    run = run_cli(*args, "--out", str(tmp_path / "unlimited"))
    assert run.exit_code == 1 and "FAIL" not in run.output and "total ink" in run.output, run.output
    assert not (tmp_path / "unlimited").exists()
    monkeypatch.undo()
    out = tmp_path / "dtc"
    run = run_cli(*args, "--out", str(out))
    assert run.exit_code == 0, run.output
    record = json.loads((out / "export.json").read_text(encoding="utf-8"))
    pdf = pikepdf.open(out / record["files"][0])
    images = [obj for obj in pdf.objects if isinstance(obj, pikepdf.Stream) and obj.get("/Subtype") == "/Image"]
    assert images and max(image_ink(image) for image in images) <= 2.4  # every pixel, read back
    report = run_cli("preflight", str(out))
    assert report.exit_code == 0, report.output
    line = next(line for line in report.output.splitlines() if "total ink" in line)
    per_page = [int(part.split(": ")[1].rstrip("%")) for part in line.split("highest per page ")[1].split(", ")]
    assert len(per_page) == len(pdf.pages) and max(per_page) <= 240 and max(per_page) >= 230, line
