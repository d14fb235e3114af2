"""render/imageface.py: a face that is only an image is written without the layout, and prints the same.

A pack of ``art-only`` cards with an image back builds its faces with pikepdf (the page holds one image and
nothing else); the same pack with a stylesheet of its own (a rule that draws nothing new) goes through
WeasyPrint. Their sheets, read back, place every image within 0.01 mm of each other, with the same bytes,
and write the same crop marks, backs and cut files.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pikepdf
import pytest

from cardworks.render.faces import Art, Back, Face, FaceJob, Look
from cardworks.render.facecache import image_face_of
from cardworks.render.imageface import cover, ImageFace, plain_look, plain_stylesheet
from cardworks.render.rawpng import PngRows, png_rows
from conftest import REPO, run_cli
from image_places import image_places

CARDS = REPO / "cards"
MM = 72 / 25.4
SHIPPED_CSS = (REPO / "templates" / "cards" / "cards.css").as_uri()
IMAGE_PAGE = re.compile(rb"^q 0 0 [\d.]+ [\d.]+ re W n [\d.]+ 0 0 [\d.]+ -?[\d.]+ -?[\d.]+ cm /Im0 Do Q$")
"""The whole content stream of a face page written by :mod:`cardworks.render.imageface`."""


def _noise_png(path: Path, size: tuple[int, int] = (825, 1125)) -> None:
    import os

    from PIL import Image

    raw = os.urandom(size[0] * size[1] * 3).translate(bytes(v & 0xC0 for v in range(256)))
    Image.frombytes("RGB", size, raw).save(path, format="PNG", compress_level=1)


def art_pack(folder: Path) -> Path:
    """The example pack emptied and given three ``art-only`` cards (their focus points differ), one full-bleed
    card with text, and an image back for its set."""
    shutil.copytree(REPO / "examples" / "fallera-pack", folder)
    for sub in ("rulings", "scenarios", "i18n"):
        shutil.rmtree(folder / sub)
    (folder / "sets" / "example.json").unlink()
    manifest = json.loads((folder / "pack.json").read_text(encoding="utf-8"))
    manifest["documents"] = [{"id": "designer-notes", "title": "The designer's own notes"}]
    (folder / "pack.json").write_text(json.dumps(manifest), encoding="utf-8")
    (folder / "art").mkdir()
    source = [{"doc": "designer-notes", "certainty": "stated"}]
    cards = []
    for i, focus in enumerate([(0.5, 0.5), (0.0, 1.0), (1.0, 0.2)]):
        _noise_png(folder / "art" / f"only-{i}.png", (825, 1125) if i else (900, 1125))  # one far wider than the card
        cards.append({"id": f"only-{i}", "quantity": 2, "types": ["battle"], "name": f"only {i}", "layout": "art-only",
                      "art": f"art/only-{i}.png", "art_focus": list(focus), "sources": source})
    _noise_png(folder / "art" / "framed.png")
    cards.append({"id": "with-text", "quantity": 1, "types": ["battle"], "name": "with text", "rules": "Win a battle.",
                  "layout": "full-bleed", "art": "art/framed.png", "sources": source})
    _noise_png(folder / "art" / "back.png")
    document = {"$schema": "../../../schema/set.schema.json", "id": "art-set", "name": "Art set", "order": 11,
                "back": {"art": "art/back.png"}, "cards": cards}
    (folder / "sets" / "art.json").write_text(json.dumps(document), encoding="utf-8")
    return folder


def _idat(path: Path) -> bytes:
    rows = png_rows(path.read_bytes())
    assert isinstance(rows, PngRows)
    return rows.data


def _face(**more) -> Face:
    return Face(**{"id": "a", "name": "a", "colour": "#112233", "type_icons": [], "kind_icon": None, "sell": None,
                   "stats": [], "marks": [], "rules": None, "flavour": None, "unverified": "", **more})


def test_a_stylesheet_that_only_sets_custom_properties_is_plain() -> None:
    assert plain_stylesheet("/* colours */\n:root { --back-colour: #2d2420; --back-accent: #e8b923; }")
    assert not plain_stylesheet(":root { --a: 1; color: red; }")
    assert not plain_stylesheet(".back .bleed { background-size: contain; }")
    assert not plain_stylesheet('@import "more.css";')


def test_only_image_faces_of_a_plain_look_skip_the_layout(tmp_path: Path) -> None:
    art = tmp_path / "art.png"
    _noise_png(art, (30, 40))
    url = art.as_uri()
    own = tmp_path / "own"
    (own / "cards").mkdir(parents=True)
    (own / "cards" / "back.html.j2").write_text("<section></section>", encoding="utf-8")
    looks = {"shipped": Look((), (SHIPPED_CSS,)), "own-back": Look((str(own),), (SHIPPED_CSS,))}
    faces = {
        "art-only": _face(id="x", layout="art-only", art=Art(url, "0% 100%")),
        "full-bleed": _face(id="y", layout="full-bleed", art=Art(url)),
        "framed": _face(id="z", art=Art(url)),
        "back": Back("t", "", "", id="b", art_url=url, look="shipped"),
        "back of a template": Back("t", "", "", id="c", art_url=url, template="cards/night.html.j2", look="shipped"),
        "back of an own look": Back("t", "", "", id="d", art_url=url, look="own-back"),
        "back without art": Back("t", "", "", id="e", look="shipped"),
    }
    for face in faces.values():
        if isinstance(face, Face):
            face.look = "shipped"
    job = FaceJob("en", "t", [str(tmp_path)], list(faces.values()), {}, "fallera", looks)
    drawn = {name: image_face_of(job, face, {}) for name, face in faces.items()}
    assert {name for name, image in drawn.items() if image is not None} == {"art-only", "back"}
    assert drawn["art-only"].focus == (0.0, 1.0) and drawn["art-only"].rows.data == _idat(art)
    assert (drawn["back"].width_mm, drawn["back"].height_mm) == (69.0, 94.0)
    outside = FaceJob("en", "t", [str(tmp_path / "elsewhere")], [faces["back"]], {}, "fallera", looks)
    assert image_face_of(outside, faces["back"], {}) is None  # the fetcher would refuse it: WeasyPrint says so


def test_cover_keeps_the_focus_point_where_css_puts_it() -> None:
    rows = PngRows(200, 100, 3, b"")
    x, y, width, height = cover(ImageFace(10 / MM, 10 / MM, rows, (0.25, 0.5)))  # a 10 pt square page
    assert (width, height) == pytest.approx((20, 10)) and x == pytest.approx(-2.5) and y == pytest.approx(0)
    x, y, _, height = cover(ImageFace(10 / MM, 10 / MM, PngRows(100, 200, 3, b""), (0.5, 0.0)))
    assert height == pytest.approx(20) and y == pytest.approx(-10)  # top kept: the image hangs down from it


def test_art_only_without_art_is_refused_by_validate(tmp_path: Path) -> None:
    pack = art_pack(tmp_path / "pack")
    document = json.loads((pack / "sets" / "art.json").read_text(encoding="utf-8"))
    del document["cards"][0]["art"]
    (pack / "sets" / "art.json").write_text(json.dumps(document), encoding="utf-8")
    run = run_cli("--cards", str(CARDS), "validate", str(pack))
    assert run.exit_code != 0
    assert "art.json:/cards/0/layout: [art-only-without-art]" in run.output, run.output


def _build(pack: Path, out: Path, layout: str) -> Path:
    run = run_cli("--cards", str(CARDS), "build", str(pack), "--out", str(out), "--locale", "en", "--jobs", "1",
                  "--no-docs", "--layout", layout)
    assert run.exit_code == 0, run.output
    return out / "fallera+example-pack" / "en" if (out / "fallera+example-pack").is_dir() else next(out.glob("*/en"))


@pytest.mark.slow
@pytest.mark.parametrize("layout", ["grid", "silhouette"])
def test_image_faces_print_where_the_layout_printed_them(tmp_path: Path, layout: str) -> None:
    pack = art_pack(tmp_path / "fast")
    shutil.copytree(pack, tmp_path / "slow")  # the same images
    # a rule of the pack's own that draws nothing new: the look is no longer plain, every face is laid out
    (tmp_path / "slow" / "templates" / "fallera").mkdir(parents=True)
    (tmp_path / "slow" / "templates" / "fallera" / "cards.css").write_text(
        ".art-only .bleed { background-repeat: no-repeat; }", encoding="utf-8")
    fast = _build(pack, tmp_path / "fast-out", layout)
    slow = _build(tmp_path / "slow", tmp_path / "slow-out", layout)
    [shop] = (fast / "print-shop").glob("cards-*.pdf")
    with pikepdf.open(shop) as quick, pikepdf.open(slow / "print-shop" / shop.name) as laid:
        kinds = []
        for page, other in zip(quick.pages, laid.pages):
            assert [page.mediabox, page.obj.TrimBox, page.obj.BleedBox] == \
                [other.mediabox, other.obj.TrimBox, other.obj.BleedBox]
            kinds.append((bool(IMAGE_PAGE.match(page.Contents.read_bytes().strip())),
                          bool(IMAGE_PAGE.match(other.Contents.read_bytes().strip())), "/Font" in page.Resources))
        # the three art-only faces and the back without the layout; the card with text (it has fonts) through it
        assert kinds == [(True, False, False)] * 3 + [(False, False, True)] + [(True, False, False)], kinds
        art = {path.name: _idat(path) for path in (tmp_path / "fast" / "art").glob("*.png")}
        images = [image_places(page)[0][1] for page in quick.pages]
        assert images == [art["only-0.png"], art["only-1.png"], art["only-2.png"], art["framed.png"], art["back.png"]]
    sheets = sorted(p.name for p in fast.glob("cards-*"))
    assert sheets == sorted(p.name for p in slow.glob("cards-*")) and any(name.endswith(".pdf") for name in sheets)
    compared = 0
    for name in sheets:
        if not name.endswith(".pdf"):  # cut files: the same bytes
            assert (fast / name).read_bytes() == (slow / name).read_bytes(), name
            continue
        with pikepdf.open(fast / name) as quick, pikepdf.open(slow / name) as laid:
            assert len(quick.pages) == len(laid.pages)
            for page, other in zip(quick.pages, laid.pages):
                assert page.Contents.read_bytes() == other.Contents.read_bytes()  # placements, crop marks, backs
                mine, theirs = image_places(page), image_places(other)
                assert [data for _, data in mine] == [data for _, data in theirs]
                for (box, _), (their_box, _) in zip(mine, theirs):
                    assert max(abs(a - b) for a, b in zip(box, their_box)) / MM < 0.01, (name, box, their_box)
                    compared += 1
    assert compared >= 14  # 7 fronts and 7 backs at least, in every sheet file
    listing = subprocess.run(["pdfimages", "-list", str(shop)], capture_output=True, text=True, check=True).stdout
    rows = [line.split() for line in listing.splitlines()[2:]]
    assert len(rows) == 5 and all(row[2:8] == ["image", row[3], row[4], "rgb", "3", "8"] for row in rows), listing


@pytest.mark.slow
@pytest.mark.parametrize("with_text", [False, True])
def test_a_deck_of_image_faces_never_loads_the_layout(tmp_path: Path, with_text: bool) -> None:
    """In a fresh interpreter, every face of a deck of ``art-only`` cards with an image back is made, and the
    layout engine was never imported; the card with text alone brings it in."""
    pack = art_pack(tmp_path / "pack")
    document = json.loads((pack / "sets" / "art.json").read_text(encoding="utf-8"))
    document["cards"] = document["cards"][: 4 if with_text else 3]  # the art-only cards, and the one with text
    (pack / "sets" / "art.json").write_text(json.dumps(document), encoding="utf-8")
    script = (
        "import sys\nfrom pathlib import Path\n"
        "from cardworks.loading.packs import open_packs\nfrom cardworks.render.deck import build_deck\n"
        "from cardworks.render.faces import build_job\nfrom cardworks.render.facecache import deck_faces\n"
        f"[db] = open_packs(Path({str(CARDS)!r}), [Path({str(pack)!r})])\n"
        "faces = deck_faces(build_job(db, build_deck(db), 'en'), None)\n"
        "print(sorted(faces.rendered), 'weasyprint' in sys.modules)\n"
    )
    env = {**__import__("os").environ, "PYTHONPATH": str(REPO / "src")}
    run = subprocess.run([__import__("sys").executable, "-c", script], capture_output=True, text=True, env=env, timeout=600)
    assert run.returncode == 0, run.stderr
    faces = "['back-set-art-set', 'only-0', 'only-1', 'only-2'" + (", 'with-text']" if with_text else "]")
    assert run.stdout.split("\n")[0] == f"{faces} {with_text}", run.stdout
