"""A designer's own deck: a copied example pack with art, its own look and card size, built end to end.

PDFs and 300 dpi PNGs are read back: art pixels in the art box and at the bleed
edge, trim boxes of a smaller card size, cards per sheet, a pack stylesheet that
changes only the pack's cards. Those builds (slow) and the art-resolution report (its dpi is the shipped
Fallera art box's) use the shipped example pack; the refusals of bad art, templates and stylesheets run on a
pack of the fixture game ``mini``.
"""

from __future__ import annotations

import copy
import json
import shutil
import zlib
from pathlib import Path

import pikepdf
import pytest
from PIL import Image

from cardworks.render.impose import MM
from conftest import REPO, GameDir, mini_files, run_cli, snapshot

CARDS = REPO / "cards"
GREEN = (20, 190, 40)
BLUE = (30, 50, 220)
PX_PER_MM = 300 / 25.4


def _png(path: Path, size: tuple[int, int], colour: tuple[int, int, int]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    Image.new("RGB", size, colour).save(path)


def _card(card_id: str, name: str, **extra) -> dict:
    return {"id": card_id, "quantity": 1, "types": ["battle"], "stats": {"attack": 2, "defence": 2}, "name": name,
            "sources": [{"doc": "designer-notes", "certainty": "stated"}], **extra}


def make_pack(folder: Path, cards: list[dict], **set_fields) -> Path:
    """The example pack copied to ``folder``, citing its own notes, with a set ``art-set`` of ``cards``."""
    shutil.copytree(REPO / "examples/fallera-pack", folder)
    manifest = json.loads((folder / "pack.json").read_text(encoding="utf-8"))
    manifest["documents"] = [{"id": "designer-notes", "title": "The designer's own notes"}]
    (folder / "pack.json").write_text(json.dumps(manifest), encoding="utf-8")
    document = {"$schema": "../../../schema/set.schema.json", "id": "art-set", "name": "Art set", "order": 11,
                "cards": cards, **set_fields}
    (folder / "sets/art.json").write_text(json.dumps(document), encoding="utf-8")
    return folder


def make_mini_pack(folder: Path, cards: list[dict], **set_fields) -> Path:
    """A pack ``art-pack`` of the fixture game ``mini`` (written to ``folder.parent / "cards"``), citing its own
    notes, with a set ``art-set`` of ``cards``: the refusals below do not depend on the game's deck or look."""
    game = GameDir(folder.parent / "cards", copy.deepcopy(mini_files()))
    game.write()
    files = {"pack.json": {"$schema": "../../schema/pack.schema.json", "id": "art-pack", "extends": "mini",
                           "name": "Art pack", "documents": [{"id": "designer-notes",
                                                              "title": "The designer's own notes"}]},
             "sets/art.json": {"$schema": "../../../schema/set.schema.json", "id": "art-set", "name": "Art set",
                               "cards": cards, **set_fields}}
    for relative, content in files.items():
        (folder / relative).parent.mkdir(parents=True, exist_ok=True)
        (folder / relative).write_text(json.dumps(content), encoding="utf-8")
    return folder


def _build(pack: Path, out: Path, *args: str):
    """Build ``pack``: with the shipped database, or with the fixture game a ``make_mini_pack`` pack extends."""
    cards = pack.parent / "cards" if (pack.parent / "cards" / "mini").is_dir() else CARDS
    return run_cli("--cards", str(cards), "build", str(pack), "--out", str(out), "--locale", "en", "--jobs", "1", *args)


def _pixel(path: Path, x_mm: float, y_mm: float) -> tuple[int, int, int]:
    with Image.open(path) as image:
        return image.convert("RGB").getpixel((round(x_mm * PX_PER_MM), round(y_mm * PX_PER_MM)))


@pytest.mark.slow
def test_pack_with_art_builds_and_shows_it(tmp_path: Path) -> None:
    pack = make_pack(tmp_path / "pack", [
        _card("framed-art", "framed art", art="art/green.png", artist="A. Designer", art_focus=[0.5, 0.3]),
        _card("bleed-art", "bleed art", art="art/blue.png", layout="full-bleed"),
    ])
    _png(pack / "art/green.png", (800, 480), GREEN)
    _png(pack / "art/blue.png", (900, 1200), BLUE)
    run = _build(pack, tmp_path / "build", "--png")
    assert run.exit_code == 0, run.output
    outputs = {r["path"]: r for r in json.loads((tmp_path / "build/manifest.json").read_text())["outputs"]}
    shop = "example-pack/en/print-shop/cards-example-pack.pdf"
    assert shop in outputs and "example-pack/en/cards-example-pack-a4.pdf" in outputs
    pngs = tmp_path / "build/example-pack/en/print-shop/png-example-pack"
    # the framed card: the art fills its box (trim at 3 mm, art box from 3 + 2.95 + 1.85 mm across, 12.6 mm down)
    assert _pixel(pngs / "framed-art.png", 34.5, 28) == GREEN
    assert _pixel(pngs / "framed-art.png", 1, 1) != GREEN  # the frame is the type colour, not art
    # the full-bleed card: art under the bleed edge and the frame, the panel drawn over it
    assert _pixel(pngs / "bleed-art.png", 0.5, 0.5) == BLUE
    assert _pixel(pngs / "bleed-art.png", 68.5, 93.5) == BLUE
    # a card without art keeps the placeholder (many tints in its art box)
    with Image.open(pngs / "example-cavaller.png") as image:
        box = image.convert("RGB").crop(tuple(round(v * PX_PER_MM) for v in (10, 14, 58, 40)))
        assert len(box.getcolors(100_000)) > 20
    text = "".join(page.extract_text() for page in __import__("pypdf").PdfReader(tmp_path / "build" / shop).pages)
    assert "A. Designer" in text  # the artist's credit is printed


def test_low_resolution_art_is_reported_with_its_dpi(tmp_path: Path) -> None:
    pack = make_mini_pack(tmp_path / "pack", [_card("tiny-art", "tiny art", art="art/tiny.png"),
                                              _card("fair-art", "fair art", art="art/fair.png")])
    _png(pack / "art/tiny.png", (75, 45), GREEN)
    _png(pack / "art/fair.png", (400, 240), GREEN)  # 190 dpi over a 53.4 mm box: a warning only
    run = run_cli("--cards", str(tmp_path / "cards"), "validate", str(pack), "--format", "json")
    found = {p["message"].split("'")[1]: p for p in run.problems if p["code"] == "art-low-resolution"}
    assert found["art/tiny.png"]["severity"] == "error" and "75×45 px: 35.7 dpi" in found["art/tiny.png"]["message"]
    assert found["art/fair.png"]["severity"] == "warning" and "190.3 dpi" in found["art/fair.png"]["message"]
    assert found["art/tiny.png"]["pointer"] == "/cards/0/art"
    before = snapshot(tmp_path)
    build = _build(pack, tmp_path / "build")
    assert build.exit_code == 1 and "[art-low-resolution]" in build.output
    assert snapshot(tmp_path) == before


@pytest.mark.parametrize("content, code", [
    (b"just some text, not a picture\n", "art-not-image"),
    (b"\x89PNG\r\n\x1a\n" + b"\0\0\0\rIHDR" + (IHDR := (100_000).to_bytes(4, "big") * 2 + b"\x08\x02\0\0\0")
     + zlib.crc32(b"IHDR" + IHDR).to_bytes(4, "big"), "art-too-many-pixels"),  # a 10-gigapixel header in 33 bytes
])
def test_bad_art_files_are_refused_and_nothing_is_written(tmp_path: Path, content: bytes, code: str) -> None:
    pack = make_mini_pack(tmp_path / "pack", [_card("bad-art", "bad art", art="art/picture.png")])
    (pack / "art").mkdir()
    (pack / "art/picture.png").write_bytes(content)
    before = snapshot(tmp_path)
    run = _build(pack, tmp_path / "build")
    assert run.exit_code == 1
    assert f"sets/art.json:/cards/0/art: [{code}]" in run.output, run.output
    assert snapshot(tmp_path) == before


@pytest.mark.parametrize("art, code", [("../outside.png", "path-escape"), ("art/none.png", "missing-file")])
def test_art_path_leaving_the_pack_or_missing_is_refused(tmp_path: Path, art: str, code: str) -> None:
    _png(tmp_path / "outside.png", (800, 480), GREEN)
    pack = make_mini_pack(tmp_path / "pack", [_card("lost-art", "lost art", art=art)])
    before = snapshot(tmp_path)
    run = _build(pack, tmp_path / "build")
    assert run.exit_code == 1 and f"sets/art.json:/cards/0/art: [{code}]" in run.output, run.output
    assert snapshot(tmp_path) == before


@pytest.mark.slow
def test_pack_stylesheet_changes_its_own_cards_only(tmp_path: Path) -> None:
    pack = make_pack(tmp_path / "pack", [_card("styled", "styled card")])
    css = (REPO / "cards/fallera/templates/fallera/cards.css").read_text(encoding="utf-8")
    (pack / "templates/fallera").mkdir(parents=True)
    (pack / "templates/fallera/cards.css").write_text(css + "\n.face .inner { background: #ff00ff; }\n", encoding="utf-8")
    run = _build(pack, tmp_path / "build", "--with-game", "--set", "base", "--png")
    assert run.exit_code == 0, run.output
    pngs = tmp_path / "build/example-pack/en/print-shop/png-base+example-pack"
    assert _pixel(pngs / "styled.png", 6.8, 60) == (255, 0, 255)  # the pack's cards: its own panel colour
    assert _pixel(pngs / "example-cavaller.png", 6.8, 60) == (255, 0, 255)
    assert _pixel(pngs / "el-capita-moro.png", 6.8, 60) == (0xFB, 0xF7, 0xEE)  # the game's cards keep the shipped look


@pytest.mark.slow
def test_set_card_size_prints_at_that_size_with_more_cards_per_sheet(tmp_path: Path) -> None:
    cards = [_card(f"mini-{i}", f"mini card {i}") for i in range(20)]
    pack = make_pack(tmp_path / "pack", cards, card_size={"width_mm": 44, "height_mm": 68})
    for extra in [*(pack / "sets").glob("*.json"), *pack.glob("rulings/*.json"), *pack.glob("i18n/*.json"),
                  *pack.glob("scenarios/*.json")]:
        if extra.name != "art.json":  # the pack holds only the small cards
            extra.unlink()
    run = _build(pack, tmp_path / "build")
    assert run.exit_code == 0, run.output
    shop = pikepdf.open(tmp_path / "build/example-pack/en/print-shop/cards-example-pack.pdf")
    for page in shop.pages:
        x0, y0, x1, y1 = (float(v) for v in page.obj.TrimBox)
        assert ((x1 - x0) / MM, (y1 - y0) / MM) == pytest.approx((44, 68), abs=0.01)
    sheets = pikepdf.open(tmp_path / "build/example-pack/en/cards-example-pack-a4.pdf")
    placed = [str(op) for page in sheets.pages[2:3] for _, op in pikepdf.parse_content_stream(page) if str(op) == "Do"]
    assert len(placed) == 16  # 4 × 4 on A4 instead of 3 × 3 poker cards (after the contents page and its blank)
    assert len(sheets.pages) == 2 + 4  # 20 cards: two sheets, each with its back page


@pytest.mark.slow
def test_missing_translation_fails_naming_it_unless_fallback(tmp_path: Path) -> None:
    cards_root = tmp_path / "cards"
    shutil.copytree(CARDS, cards_root)
    path = cards_root / "fallera/i18n/ca.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    del data["entries"]["conill"]["rules"]
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    args = ("--cards", str(cards_root), "build", "--out", str(tmp_path / "build"), "--game", "fallera", "--no-docs",
            "--locale", "ca", "--set", "base", "--jobs", "1")
    run = run_cli(*args)
    assert run.exit_code == 1
    assert "/entries/conill/rules: [translation-missing]" in run.output, run.output
    assert not (tmp_path / "build/fallera").exists()
    allowed = run_cli(*args, "--allow-fallback")
    assert allowed.exit_code == 0, allowed.output
    shop = tmp_path / "build/fallera/ca/print-shop/cards-base.pdf"
    text = " ".join(" ".join(page.extract_text().split()) for page in __import__("pypdf").PdfReader(shop).pages)
    assert "Cuenta como dos ingredientes" in text  # the declared chain (ca, es, en) fills the gap from Spanish
    # never silent: one warning per fallen-back string, the manifest's records, the contents page of the sheets
    warnings = [line for line in allowed.output.splitlines() if line.startswith("warning: [fallback]")]
    assert warnings == ["warning: [fallback] fallera ca base: conill/rules has no ca text; the es text is printed "
                        "(--allow-fallback)"], allowed.output
    manifest = json.loads((tmp_path / "build/manifest.json").read_text(encoding="utf-8"))
    records = {r["path"]: r for r in manifest["outputs"]}
    for path in ("fallera/ca/print-shop/cards-base.pdf", "fallera/ca/cards-base-a4.pdf"):
        assert records[path]["fallbacks"] == [{"string": "conill/rules", "used": "es"}], records[path]
    sheets = __import__("pypdf").PdfReader(tmp_path / "build/fallera/ca/cards-base-a4.pdf")
    contents = " ".join(" ".join(sheets.pages[n].extract_text().split())
                        for n in range(records["fallera/ca/cards-base-a4.pdf"]["contents_pages"]))
    assert "Textos que no estan en esta llengua" in contents and "conill/rules" in contents, contents


@pytest.mark.parametrize("template, expected", [
    ("<section>\n{% if face.name %}\n{{ face.name }\n</section>\n", "face.html.j2:3: [template-error]"),
    ("<section>\n\n{{ face.no_such_field }}\n</section>\n", "face.html.j2:3: [template-error] UndefinedError"),
    ("<section>\n{% include '../../../outside.html' %}\n</section>\n", "face.html.j2:2: [template-error] TemplateNotFound"),
])
def test_failing_pack_template_names_file_and_line_and_writes_nothing(tmp_path: Path, template: str, expected: str) -> None:
    (tmp_path / "outside.html").write_text("secret", encoding="utf-8")
    pack = make_mini_pack(tmp_path / "pack", [_card("templated", "templated card")])
    (pack / "templates/cards").mkdir(parents=True)
    (pack / "templates/cards/face.html.j2").write_text(template, encoding="utf-8")
    before = snapshot(tmp_path)
    run = _build(pack, tmp_path / "build")
    assert run.exit_code == 1 and "Traceback" not in run.output
    assert expected in run.output, run.output
    assert snapshot(tmp_path) == before


def test_template_symlinked_outside_its_folder_is_refused(tmp_path: Path) -> None:
    (tmp_path / "outside.html.j2").write_text("<section>secret</section>", encoding="utf-8")
    pack = make_mini_pack(tmp_path / "pack", [_card("templated", "templated card")])
    (pack / "templates/cards").mkdir(parents=True)
    (pack / "templates/cards/face.html.j2").symlink_to(tmp_path / "outside.html.j2")
    run = _build(pack, tmp_path / "build")
    assert run.exit_code == 1 and "templates/cards/face.html.j2" in run.output and "outside" in run.output, run.output
    # validation refuses the link first ([path-escape]); the template loader would refuse it too ([template-error])
    assert "[path-escape]" in run.output or "[template-error] TemplateEscape" in run.output
    assert not (tmp_path / "build").exists()


def test_stylesheet_reading_outside_the_pack_is_refused(tmp_path: Path) -> None:
    _png(tmp_path / "outside.png", (10, 10), GREEN)
    pack = make_mini_pack(tmp_path / "pack", [_card("styled", "styled card")])
    (pack / "templates/cards").mkdir(parents=True)
    css = (REPO / "templates/cards/cards.css").read_text(encoding="utf-8")
    (pack / "templates/cards/cards.css").write_text(
        css + f'\n.inner {{ background-image: url("{(tmp_path / "outside.png").as_uri()}"); }}\n', encoding="utf-8")
    run = _build(pack, tmp_path / "build")
    assert run.exit_code == 1 and "outside.png: [path-escape]" in run.output, run.output
    assert not (tmp_path / "build/art-pack").exists()


@pytest.mark.slow
def test_backs_per_set_and_per_type(tmp_path: Path) -> None:
    pack = make_pack(tmp_path / "pack", [_card("red-backed", "red backed")], back={"art": "art/red.png"})
    _png(pack / "art/red.png", (830, 1130), (200, 20, 20))
    _png(pack / "art/gold.png", (830, 1130), (230, 180, 20))
    manifest = json.loads((pack / "pack.json").read_text(encoding="utf-8"))
    manifest["backs"] = {"treasure": {"art": "art/gold.png"}}
    (pack / "pack.json").write_text(json.dumps(manifest), encoding="utf-8")
    (pack / "sets/night.json").write_text(json.dumps({
        "$schema": "../../../schema/set.schema.json", "id": "night-set", "name": "Night", "order": 12,
        "back": {"template": "cards/back-night.html.j2"},
        "cards": [_card("night-card", "night card")]}), encoding="utf-8")
    (pack / "templates/cards").mkdir(parents=True)
    (pack / "templates/cards/back-night.html.j2").write_text(
        '<section class="page back" id="{{ face.id }}"><div class="bleed" style="background: #102030"></div></section>\n',
        encoding="utf-8")
    run = _build(pack, tmp_path / "build", "--png")
    assert run.exit_code == 0, run.output
    pngs = tmp_path / "build/example-pack/en/print-shop/png-example-pack"
    assert _pixel(pngs / "back-set-art-set.png", 34.5, 47) == (200, 20, 20)
    assert _pixel(pngs / "back-type-treasure.png", 34.5, 47) == (230, 180, 20)
    assert _pixel(pngs / "back.png", 34.5, 10) != (200, 20, 20)  # the battle card of the example set: the common back
    assert _pixel(pngs / "back-set-night-set.png", 34.5, 47) == (0x10, 0x20, 0x30)  # drawn by the pack's template
    sheets = pikepdf.open(tmp_path / "build/example-pack/en/cards-example-pack-a4.pdf")
    placed = [[page.Resources.XObject[str(operands[0])].objgen
               for operands, op in pikepdf.parse_content_stream(page) if str(op) == "Do"]
              for page in sheets.pages[2:]]  # after the contents page and its blank: a front, its back, and so on
    fronts, backs = placed[0::2], placed[1::2]
    assert len(fronts) == len(backs) >= 1 and all(len(f) == len(b) for f, b in zip(fronts, backs))
    # four different backs over the sheets, each behind its own cards (the example set alone now fills the first)
    assert len({back for sheet in backs for back in sheet}) == 4


@pytest.mark.slow
def test_editing_one_card_lays_out_one_face_per_affected_locale(tmp_path: Path) -> None:
    from cardworks.i18n import source_hash
    from cardworks.render.build import BuildOptions, build

    pack = tmp_path / "pack"
    shutil.copytree(REPO / "examples/fallera-pack", pack)
    example = json.loads((pack / "sets/example.json").read_text(encoding="utf-8"))  # two cards translated into es
    example["cards"] = [c for c in example["cards"] if c["id"] in ("example-orxata", "example-cavaller")]
    example.pop("totals", None)
    (pack / "sets/example.json").write_text(json.dumps(example, ensure_ascii=False), encoding="utf-8")
    spanish = json.loads((pack / "i18n/es.json").read_text(encoding="utf-8"))  # only the texts of the cards kept
    spanish["entries"] = {key: value for key, value in spanish["entries"].items()
                          if key in ("example-orxata", "example-cavaller", "example-set")}
    (pack / "i18n/es.json").write_text(json.dumps(spanish, ensure_ascii=False), encoding="utf-8")
    shutil.rmtree(pack / "scenarios", ignore_errors=True)
    rulings = json.loads((pack / "rulings/example.json").read_text(encoding="utf-8"))
    for ruling in rulings["rulings"]:
        ruling["scenarios"] = []
    (pack / "rulings/example.json").write_text(json.dumps(rulings, ensure_ascii=False), encoding="utf-8")
    out = tmp_path / "build"

    def rebuild(*locales: str) -> dict[str, list[str]]:
        report = build(CARDS, BuildOptions(out=out, packs=[pack], locales=list(locales), jobs=1))
        return {o.locale: o.faces for o in report.outcomes}

    assert {locale: len(faces) for locale, faces in rebuild("en", "es").items()} == {"en": 3, "es": 3}
    assert rebuild("en", "es") == {"en": [], "es": []}  # nothing changed: nothing laid out
    sheet = out / "example-pack/en/cards-example-pack-a4.pdf"
    before = sheet.read_bytes()
    sets = pack / "sets/example.json"
    sets.write_text(sets.read_text(encoding="utf-8").replace('"name": "cavaller d\'exemple"', '"name": "cavaller nou"'),
                    encoding="utf-8")
    assert rebuild("en") == {"en": ["example-cavaller"]}  # one face laid out again, the deck re-imposed
    assert sheet.read_bytes() != before
    translations = pack / "i18n/es.json"
    data = json.loads(translations.read_text(encoding="utf-8"))
    data["entries"]["example-cavaller"]["name"] = {"text": "cavaller nou", "source": "cavaller nou",
                                                   "source_hash": source_hash("cavaller nou")}
    translations.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    assert rebuild("en", "es") == {"en": [], "es": ["example-cavaller"]}  # the renamed card, in Spanish now
    data["entries"]["example-orxata"]["rules"]["text"] = "Un ingrediente de ejemplo: cuenta para tu paella de cinco {ingredient}."
    translations.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    assert rebuild("en", "es") == {"en": [], "es": ["example-orxata"]}  # a one-string import: one Spanish face


@pytest.mark.slow
def test_proof_contact_sheet_marks_what_a_reviewer_must_see(tmp_path: Path) -> None:
    pack = make_pack(tmp_path / "pack", [_card("fair-art", "fair art", art="art/fair.png")])
    _png(pack / "art/fair.png", (400, 240), GREEN)  # 190 dpi: a warning, the build goes on
    run = run_cli("--cards", str(CARDS), "build", str(pack), "--out", str(tmp_path / "build"), "--locale", "ca",
                  "--jobs", "1", "--proof")
    assert run.exit_code == 0, run.output
    proof = tmp_path / "build/example-pack/ca/proof-example-pack.pdf"
    reader = __import__("pypdf").PdfReader(proof)
    text = " ".join(page.extract_text() for page in reader.pages)
    for face_id in ("example-orxata", "example-cavaller", "fair-art", "back"):
        assert face_id in text
    assert "LOW RESOLUTION: 190.3 dpi" in text and "PLACEHOLDER ART" in text
    assert "FALLBACK name (es)" in text  # the pack has no Valencian: its Spanish names are marked
    with pikepdf.open(proof) as pdf:
        strokes = [str(op) for _, op in pikepdf.parse_content_stream(pdf.pages[0]) if str(op) in {"re", "S"}]
        assert strokes.count("S") >= 3 * 4  # bleed, trim and safe-area lines around each face


@pytest.mark.parametrize("art, code", [("../outside.png", "path-escape"), ("art/none.png", "missing-file"),
                                       ("notes.png", "art-not-image")])
def test_bad_back_art_is_refused(tmp_path: Path, art: str, code: str) -> None:
    _png(tmp_path / "outside.png", (830, 1130), GREEN)
    pack = make_mini_pack(tmp_path / "pack", [_card("backed", "backed card")], back={"art": art})
    (pack / "notes.png").write_text("not a picture", encoding="utf-8")
    before = snapshot(tmp_path)
    run = _build(pack, tmp_path / "build")
    assert run.exit_code == 1 and f"sets/art.json:/back/art: [{code}]" in run.output, run.output
    assert snapshot(tmp_path) == before
