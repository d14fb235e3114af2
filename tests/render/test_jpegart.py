"""``--jpeg-quality N``: a real build and a print-shop export of an art pack read back with pikepdf hold their art
as JPEG (``/DCTDecode``) at that quality, in smaller files than the lossless default (whose art stays the PNGs'
own rows), and say the quality in the manifest and in ``export.json``. A quality out of 1-95, and outputs that
must stay lossless (``--png``, PNG and PDF/X profiles), are refused before anything is written."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pikepdf
import pytest
from PIL import Image, ImageChops, ImageStat

from cardworks.errors import UsageError
from cardworks.render.imageface import ImageFace, face_pdf
from cardworks.render.jpegart import check_quality, jpeg_pdf
from cardworks.render.rawpng import png_rows
from conftest import REPO, run_cli
from test_image_faces import art_pack

CARDS = REPO / "cards"


def _images(path: Path) -> list[tuple[str, int]]:
    """Each image of the PDF at ``path``: its filter and its width in pixels."""
    with pikepdf.open(path) as pdf:
        return sorted((str(o.get("/Filter")), int(o.Width)) for o in pdf.objects
                      if isinstance(o, pikepdf.Stream) and o.get("/Subtype") == pikepdf.Name.Image)


@pytest.mark.parametrize("bad", [0, 96, -5, True, 80.0, "80"])
def test_a_quality_out_of_range_is_refused(bad: object) -> None:
    with pytest.raises(UsageError, match="1 to 95"):
        check_quality(bad)  # type: ignore[arg-type]
    check_quality(None)
    check_quality(1)
    check_quality(95)
    with pytest.raises(UsageError, match="PNG images must stay lossless"):
        check_quality(80, "PNG images")


def test_opaque_images_become_jpeg_and_transparent_ones_stay(tmp_path: Path) -> None:
    ramp = Image.linear_gradient("L").resize((60, 80))
    Image.merge("RGB", [ramp, ramp.transpose(Image.Transpose.FLIP_TOP_BOTTOM), ramp]).save(tmp_path / "art.png")
    rows = png_rows((tmp_path / "art.png").read_bytes())
    pdf = pikepdf.open(io.BytesIO(face_pdf(ImageFace(20, 25, rows, (0.5, 0.5)))))  # type: ignore[arg-type]
    masked = pdf.make_stream(b"\x00" * 12, Type=pikepdf.Name.XObject, Subtype=pikepdf.Name.Image, Width=2, Height=2,
                             BitsPerComponent=8, ColorSpace=pikepdf.Name.DeviceRGB,
                             SMask=pdf.make_stream(b"\xff" * 4, Type=pikepdf.Name.XObject, Subtype=pikepdf.Name.Image,
                                                   Width=2, Height=2, BitsPerComponent=8,
                                                   ColorSpace=pikepdf.Name.DeviceGray))
    pdf.pages[0].Resources.XObject.Im1 = masked
    assert jpeg_pdf(pdf, 80) == 1  # the art; not the masked image, nor its grey mask (it is a mask)
    art = pdf.pages[0].Resources.XObject.Im0
    assert art.Filter == pikepdf.Name.DCTDecode and "/DecodeParms" not in art
    decoded = Image.open(io.BytesIO(art.read_raw_bytes()))
    assert decoded.format == "JPEG" and decoded.size == (60, 80) and decoded.mode == "RGB"
    error = ImageStat.Stat(ImageChops.difference(decoded, Image.open(tmp_path / "art.png").convert("RGB"))).mean
    assert 0 < sum(error) / 3 < 2, error  # lossy, but the same picture
    assert masked.get("/Filter") is None and masked.read_bytes() == b"\x00" * 12


@pytest.mark.slow
def test_a_build_with_jpeg_quality_writes_jpeg_art_in_smaller_files(tmp_path: Path) -> None:
    pack = art_pack(tmp_path / "pack")
    files = {}
    for name, extra in (("lossless", []), ("q80", ["--jpeg-quality", "80"])):
        out = tmp_path / name
        run = run_cli("--cards", str(CARDS), "build", str(pack), "--out", str(out), "--locale", "en", "--jobs", "1",
                      "--no-docs", "--layout", "silhouette", *extra)
        assert run.exit_code == 0, run.output
        records = json.loads((out / "manifest.json").read_text(encoding="utf-8"))["outputs"]
        files[name] = {r["kind"]: (out / r["path"], r.get("jpeg_quality")) for r in records
                       if r["kind"] in ("cards", "cards-print-shop")}
    for kind in ("cards", "cards-print-shop"):
        lossless, quality = files["lossless"][kind]
        lossy, lossy_quality = files["q80"][kind]
        assert (quality, lossy_quality) == (None, 80)
        assert {f for f, _ in _images(lossless)} == {"/FlateDecode"}
        art = [f for f, width in _images(lossy) if width >= 825]  # the four pictures and the back
        assert art == ["/DCTDecode"] * 5, _images(lossy)
        assert lossy.stat().st_size < 0.8 * lossless.stat().st_size, (lossy.stat().st_size, lossless.stat().st_size)


def test_build_refuses_a_bad_quality_and_png_output(tmp_path: Path) -> None:
    args = ["--cards", str(CARDS), "build", "--game", "diables", "--locale", "en", "--no-docs", "--out", str(tmp_path / "o")]
    run = run_cli(*args, "--jpeg-quality", "0")
    assert run.exit_code == 2 and "1<=x<=95" in run.output
    run = run_cli(*args, "--jpeg-quality", "80", "--png")
    assert run.exit_code == 2 and "--png" in run.output and "must stay lossless" in run.output, run.output
    assert not (tmp_path / "o" / "manifest.json").exists()


@pytest.mark.slow
def test_export_print_shop_with_jpeg_quality(tmp_path: Path) -> None:
    pack = art_pack(tmp_path / "pack")
    sizes = {}
    for name, extra in (("lossless", []), ("q80", ["--jpeg-quality", "80"])):
        out = tmp_path / name
        run = run_cli("--cards", str(CARDS), "export", "print-shop", str(pack), "--locale", "en", "--out", str(out),
                      "--face-cache", str(tmp_path / "faces"), *extra)
        assert run.exit_code == 0, run.output
        record = json.loads((out / "export.json").read_text(encoding="utf-8"))
        assert record["jpeg_quality"] == (80 if extra else None)
        [pdf] = [out / f for f in record["files"]]
        sizes[name] = pdf.stat().st_size
        assert {f for f, width in _images(pdf) if width >= 825} == ({"/DCTDecode"} if extra else {"/FlateDecode"})
    assert sizes["q80"] < 0.8 * sizes["lossless"], sizes


@pytest.mark.parametrize("profile, why", [("thegamecrafter", "PNG images"), ("drivethrucards", "PDF/X files")])
def test_export_profiles_that_need_lossless_refuse_jpeg_quality(tmp_path: Path, profile: str, why: str) -> None:
    out = tmp_path / "out"
    run = run_cli("--cards", str(CARDS), "export", "print-shop", "--game", "diables", "--locale", "en", "--profile",
                  profile, "--out", str(out), "--jpeg-quality", "80")
    assert run.exit_code == 2, run.output
    assert f"the {profile} profile's files (its {why}) must stay lossless" in run.output
    assert not out.exists()
