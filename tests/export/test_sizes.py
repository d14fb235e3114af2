"""Exports of a deck of three card sizes (issue 33): every file read back against each card's own trim and bleed.

The pack holds the example set (the game's 63 × 88 mm), a tarot set (70 × 120 mm) and a Euro-mini set
(44 × 68 mm). Print-shop PDFs, PNGs and TTS sheets are checked from the written files; preflight is shown
failing on a face cropped into a smaller frame and on one enlarged into a larger one.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pikepdf
import pytest
from PIL import Image

from cardworks.export import preflight as preflight_module
from cardworks.export import printshop, target
from cardworks.export.pages import shop_pages
from cardworks.export.preflight import preflight
from cardworks.export.profiles import load_profile, profile_names
from cardworks.render.impose import MM
from conftest import REPO, run_cli
from multisize import sized_card

pytestmark = pytest.mark.slow

CARDS = REPO / "cards"
SIZES = {"example-set": (63, 88), "tarot-set": (70, 120), "mini-set": (44, 68)}


def sized_pack(folder: Path, sets: tuple[str, ...] = ("tarot-set", "mini-set")) -> Path:
    """The example pack plus a set per size in ``sets`` (two designs each, two copies of each)."""
    shutil.copytree(REPO / "examples" / "fallera-pack", folder)
    manifest = json.loads((folder / "pack.json").read_text(encoding="utf-8"))
    manifest["documents"] = [{"id": "designer-notes", "title": "The designer's own notes"}]
    (folder / "pack.json").write_text(json.dumps(manifest), encoding="utf-8")
    for order, set_id in enumerate(sets, start=12):
        width, height = SIZES[set_id]
        prefix = set_id.removesuffix("-set")
        document = {"$schema": "../../../schema/set.schema.json", "id": set_id, "name": set_id, "order": order,
                    "card_size": {"width_mm": width, "height_mm": height},
                    "cards": [sized_card(f"{prefix}-a", "battle"), sized_card(f"{prefix}-b", "treasure")]}
        (folder / "sets" / f"{set_id}.json").write_text(json.dumps(document), encoding="utf-8")
    return folder


def _set_of(card_id: str) -> str:
    return next((s for s in SIZES if card_id.startswith(s.removesuffix("-set"))), "example-set")


def _size_of_face(face_id: str) -> tuple[float, float]:
    for set_id, size in SIZES.items():
        if set_id != "example-set" and face_id.endswith(f"{size[0]}x{size[1]}"):
            return size
    return SIZES[_set_of(face_id)]


@pytest.fixture(scope="module")
def pack(tmp_path_factory) -> Path:
    return sized_pack(tmp_path_factory.mktemp("pack") / "pack")


@pytest.fixture(scope="module")
def pdf_export(pack: Path, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("shop") / "pdf"
    run = run_cli("--cards", str(CARDS), "export", "print-shop", str(pack), "--profile", "pdf", "--locale", "en",
                  "--out", str(out))
    assert run.exit_code == 0, run.output
    return out


def _boxes(page: pikepdf.Page) -> tuple[tuple[float, float], list[float]]:
    trim = [float(v) / MM for v in page.TrimBox]
    bleed = [float(v) / MM for v in page.BleedBox]
    return (trim[2] - trim[0], trim[3] - trim[1]), [trim[0] - bleed[0], trim[1] - bleed[1], bleed[2] - trim[2],
                                                    bleed[3] - trim[3]]


def test_pdf_export_keeps_each_cards_own_size_and_standalone_preflight_agrees(pdf_export: Path) -> None:
    record = json.loads((pdf_export / "export.json").read_text(encoding="utf-8"))
    pdf = pikepdf.open(pdf_export / record["files"][0])
    faces = [row.split(",")[2] for row in (pdf_export / "quantities.csv").read_text().splitlines()[1:]]
    assert len(pdf.pages) == len(faces)
    seen = set()
    for face_id, page in zip(faces, pdf.pages):
        trim, sides = _boxes(page)
        assert trim == pytest.approx(_size_of_face(face_id), abs=0.01), face_id
        assert sides == pytest.approx([3.0] * 4, abs=0.01), face_id  # the pdf profile's own bleed
        seen.add(tuple(round(v) for v in trim))
    assert seen == set(SIZES.values())
    for target in (pdf_export, pdf_export / record["files"][0]):  # with and without export.json
        run = run_cli("preflight", str(target))
        assert run.exit_code == 0 and "FAIL" not in run.output, run.output


@pytest.mark.parametrize("profile", [name for name in profile_names() if load_profile(name).sizes.value is not None])
def test_a_size_the_profile_does_not_take_is_refused_before_rendering(pack: Path, tmp_path: Path, monkeypatch,
                                                                      profile: str) -> None:
    def never(*args, **kwargs):
        raise AssertionError("rendered before the sizes were checked")

    monkeypatch.setattr(target, "render_deck", never)
    run = run_cli("--cards", str(CARDS), "export", "print-shop", str(pack), "--profile", profile, "--locale", "en",
                  "--out", str(tmp_path / "out"))
    assert run.exit_code == 2, run.output
    assert "set 'mini-set' is 44 × 68 mm" in run.output  # a Euro mini: no shop's table has it
    assert "tarot-set" not in run.output  # 70 × 120 mm is within 1 mm of every shop's tarot
    assert "Traceback" not in run.output and not (tmp_path / "out").exists()


def test_tts_sheets_are_grouped_per_size_with_cells_of_each_shape(pack: Path, tmp_path: Path) -> None:
    out = tmp_path / "tts"
    run = run_cli("--cards", str(CARDS), "export", "tts", str(pack), "--locale", "en", "--out", str(out))
    assert run.exit_code == 0, run.output
    saved = json.loads(next(out.glob("fallera-*.json")).read_text(encoding="utf-8"))
    shapes = set()
    for deck, key, custom in [(d, k, c) for d in saved["ObjectStates"] for k, c in d["CustomDeck"].items()]:
        sheet = out / custom["FaceURL"].rsplit("/", 1)[1]
        back = out / custom["BackURL"].rsplit("/", 1)[1]
        cards = {c["GMNotes"] for c in deck["ContainedObjects"] if str(c["CardID"] // 100) == key}
        sizes = {SIZES[_set_of(card)] for card in cards}
        assert len(sizes) == 1, cards  # one size per sheet
        width, height = sizes.pop()
        with Image.open(sheet) as image, Image.open(back) as back_image:
            cell = (image.width / custom["NumWidth"], image.height / custom["NumHeight"])
            assert cell[1] / cell[0] == pytest.approx(height / width, rel=0.01), sheet.name
            assert back_image.height / back_image.width == pytest.approx(height / width, rel=0.01), back.name
        shapes.add((width, height))
    assert shapes == set(SIZES.values())


def _rewrite(folder: Path, change) -> Path:
    """The export's PDF with ``change(pdf)`` applied, saved in place."""
    record = json.loads((folder / "export.json").read_text(encoding="utf-8"))
    path = folder / record["files"][0]
    pdf = pikepdf.open(path, allow_overwriting_input=True)
    (change(pdf) or pdf).save(path)
    return path


def _failed(folder: Path) -> list[str]:
    return [f"{c.name}: {c.message}" for r in preflight(folder) for c in r.checks if not c.ok]


def test_preflight_fails_a_face_cropped_into_a_smaller_frame(pdf_export: Path, tmp_path: Path) -> None:
    folder = tmp_path / "cropped"
    shutil.copytree(pdf_export, folder)
    faces = [row.split(",")[2] for row in (folder / "quantities.csv").read_text().splitlines()[1:]]
    tarot = faces.index("tarot-a")

    def crop(pdf: pikepdf.Pdf) -> None:  # the tarot face cut down to a poker frame around its top-left
        page = pdf.pages[tarot]
        width, height = 69 * MM, 94 * MM
        top = float(page.MediaBox[3])
        page.MediaBox = page.BleedBox = [0, top - height, width, top]
        page.TrimBox = [3 * MM, top - height + 3 * MM, width - 3 * MM, top - 3 * MM]

    _rewrite(folder, crop)
    failed = _failed(folder)
    assert any(f"page {tarot + 1}: trim 63.00 × 88.00 mm, the card on it is 70 × 120 mm" in f for f in failed), failed


def test_preflight_fails_a_face_enlarged_into_a_larger_page(pdf_export: Path, tmp_path: Path) -> None:
    folder = tmp_path / "enlarged"
    shutil.copytree(pdf_export, folder)
    faces = [row.split(",")[2] for row in (folder / "quantities.csv").read_text().splitlines()[1:]]
    mini = faces.index("mini-a")

    def enlarge(pdf: pikepdf.Pdf) -> pikepdf.Pdf:  # the 44 × 68 face on a poker page, the band filled by an enlarged copy
        return shop_pages(pdf, list(range(len(pdf.pages))),
                          [(_boxes(page)[0], (69.85, 95.25) if i == mini else tuple(v + 6 for v in _boxes(page)[0]))
                           for i, page in enumerate(pdf.pages)])

    _rewrite(folder, enlarge)
    failed = _failed(folder)
    assert any(f"page {mini + 1}: bleed 12.93 to 13.63 mm, Print-shop PDF wants 3 mm" in f for f in failed), failed


def test_preflight_fails_a_png_cropped_or_enlarged(pack: Path, tmp_path: Path) -> None:
    small = sized_pack(tmp_path / "poker-pack", sets=())
    out = tmp_path / "tgc"
    run = run_cli("--cards", str(CARDS), "export", "print-shop", str(small), "--profile", "thegamecrafter",
                  "--locale", "en", "--out", str(out))
    assert run.exit_code == 0, run.output
    pngs = sorted((out / "png" / "poker").glob("*.png"))
    assert pngs
    for path in pngs:
        with Image.open(path) as image:  # the shop's poker canvas: 1/8 in of bleed around a 63 × 88 card
            assert image.size == (825, 1125) and image.info["dpi"] == pytest.approx((300, 300), abs=0.01)
    for name, change in (("crop", lambda im: im.crop((0, 0, 825, 1000))),
                         ("enlarge", lambda im: im.resize((907, 1237)))):
        with Image.open(pngs[0]) as image:
            change(image).save(pngs[0], dpi=(300, 300))
        failed = _failed(out)
        assert any(f.startswith("pixel size") and "wants 825 × 1125" in f for f in failed), (name, failed)


def test_makeplayingcards_pngs_are_its_canvas(tmp_path: Path) -> None:
    small = sized_pack(tmp_path / "poker-pack", sets=())
    out = tmp_path / "mpc"
    run = run_cli("--cards", str(CARDS), "export", "print-shop", str(small), "--profile", "makeplayingcards",
                  "--locale", "en", "--out", str(out))
    assert run.exit_code == 0, run.output
    pngs = sorted((out / "png" / "poker").glob("*.png"))
    assert pngs
    for path in pngs:
        with Image.open(path) as image:
            assert image.size == (822, 1122)  # 36 px of bleed a side around 750 × 1050 px


def test_the_pdf_output_writes_the_profiles_own_bleed(pack: Path, tmp_path: Path, monkeypatch) -> None:
    """A profile of 2 mm bleed writes 2 mm (not the faces' 3 mm); the shipped 3 mm profile then refuses the file."""
    narrow = load_profile("pdf").model_copy(update={"bleed_mm": load_profile("pdf").bleed_mm.model_copy(
        update={"value": 2.0})})
    monkeypatch.setattr(printshop, "load_profile", lambda name: narrow)
    monkeypatch.setattr(preflight_module, "load_profile", lambda name: narrow)
    out = tmp_path / "narrow"
    run = run_cli("--cards", str(CARDS), "export", "print-shop", str(pack), "--profile", "pdf", "--locale", "en",
                  "--out", str(out))
    assert run.exit_code == 0, run.output
    record = json.loads((out / "export.json").read_text(encoding="utf-8"))
    for page in pikepdf.open(out / record["files"][0]).pages:
        assert _boxes(page)[1] == pytest.approx([2.0] * 4, abs=0.01)
    monkeypatch.undo()
    failed = _failed(out)
    assert any("bleed 2.00 mm, Print-shop PDF wants 3 mm" in f for f in failed), failed
