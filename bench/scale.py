"""Measure how a cold card build scales: processor time and peak memory per design at growing deck sizes.

Run: python bench/scale.py [--sizes 1000,5000,20000] [--art 54,540 [--art-layout art-only|full-bleed]] [--jobs 1] [--tts]
     python bench/scale.py --face-cost [--profile]
Each size is a generated set ``bench`` of text cards (copies of the shipped effect-less Fallera cards,
renamed) in a copy of the Fallera folder, validated once (untimed: the language
verdicts on the new names are cached) and then built cold as a whole command
(``cardworks build --game fallera --set bench --locale en --no-docs``, cards only, one locale) in its own
process. ``--art`` builds decks of art cards instead, each with its own synthetic 825 × 1125 px
noise PNG (about 0.9 MB), by default ``art-only`` (the image is the whole face, the back an image too; with
``--art-layout full-bleed`` the card's text is printed over it), beside a floor in the same run: the same PNGs imposed onto the same A4 sheets
with pikepdf directly; with ``--tts`` the art deck is also exported to Tabletop Simulator (with a
cold face cache, then with the build's). Processor time is
the command's and its worker processes' (``os.wait4``), peak memory the largest resident set of the
command or one of its workers. ``--face-cost`` lays out the expert deck's faces in one process and prints
their processor time a face against ``bench/render.py``'s one-page WeasyPrint floor, measured in the same
process (``--profile``: the share of each stage). The machine may be shared: compare only figures of one run.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
ART_SIZE = (825, 1125)
"""A poker card at 300 dpi with 3 mm bleed on each side (63 × 88 mm + 6 mm)."""


@dataclass
class Run:
    """One whole command: processor seconds (itself and its waited-for workers) and peak resident set, MB."""

    cpu: float
    peak_mb: float


def run(command: list[str], cwd: Path) -> Run:
    """Run ``command`` to its end; stop the bench with its output when it fails."""
    env = dict(os.environ, PYTHONPATH=str(REPO / "src"))
    with tempfile.TemporaryFile() as log:
        process = subprocess.Popen(command, cwd=cwd, env=env, stdout=log, stderr=subprocess.STDOUT)
        _, status, usage = os.wait4(process.pid, 0)
        process.returncode = os.waitstatus_to_exitcode(status)
        if process.returncode:
            log.seek(0)
            raise SystemExit(f"{' '.join(command)} failed ({process.returncode}):\n{log.read().decode()[-3000:]}")
    return Run(usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024)


NOISE = bytes(value & 0xC0 for value in range(256))
"""Four levels a channel: noise PNG cannot compress much, so each file is about 0.9 MB."""


def noise_png(path: Path) -> None:
    """A full-bleed stand-in illustration of its own: coarse random noise (every file differs)."""
    from PIL import Image

    raw = os.urandom(ART_SIZE[0] * ART_SIZE[1] * 3).translate(NOISE)
    Image.frombytes("RGB", ART_SIZE, raw).save(path, format="PNG", compress_level=1)


ART_LAYOUTS = ("art-only", "full-bleed")
"""``art-only``: each image is the whole face, and the deck's back is an image too (``backs/back.png``), so
no face needs the layout; ``full-bleed``: the card's name, stats and text are printed over its art."""


def make_database(folder: Path, designs: int, art: bool = False, layout: str = "art-only") -> Path:
    """A copy of the Fallera folder with a generated set ``bench`` of ``designs`` designs, one copy each; with
    ``art``, each with its own noise PNG in ``art/``, drawn as ``layout`` says (see ``ART_LAYOUTS``)."""
    cards_root = folder / "cards"
    game = cards_root / "fallera"
    shutil.copytree(REPO / "cards" / "fallera", game)
    real = [c for f in sorted((game / "sets").glob("*.json")) for c in json.loads(f.read_text(encoding="utf-8"))["cards"]
            if not c.get("optional") and not c.get("effects")]
    back = None
    if art:
        (game / "art").mkdir()
        if layout == "art-only":
            (game / "backs").mkdir()  # beside the fronts' folder, so a peer given that folder finds fronts only
            noise_png(game / "backs" / "back.png")
            back = {"art": "backs/back.png"}
    generated = []
    for i in range(designs):
        card = dict(real[i % len(real)], id=f"bench-{i:05d}", quantity=1)
        card["name"] = f"{card['name']} {i}"
        if art:
            noise_png(game / "art" / f"bench-{i:05d}.png")
            card.update(art=f"art/bench-{i:05d}.png", layout=layout)
        generated.append(card)
    for number, start in enumerate(range(0, len(generated), SET_SIZE), 1):
        name = "bench" if number == 1 else f"bench{number}"
        bench = {"$schema": "../../../schema/set.schema.json", "id": name, "name": name.title(), "order": 8 + number,
                 "cards": generated[start : start + SET_SIZE], **({"back": back} if back else {})}
        (game / "sets" / f"{name}.json").write_text(json.dumps(bench, ensure_ascii=False), encoding="utf-8")
    return cards_root


SET_SIZE = 5000
"""Designs a generated set file holds: 20,000 in one file (26 MB) would be over the loader's 16 MB limit."""


def selection(cards_root: Path) -> str:
    """The generated sets, joined as ``--set`` takes them (``bench`` alone up to 5,000 designs)."""
    names = sorted((p.stem for p in (cards_root / "fallera" / "sets").glob("bench*.json")), key=lambda n: (len(n), n))
    return "+".join(names)


def warm(cards_root: Path) -> None:
    """Validate once, untimed: the language checks' verdicts on the new names are cached then (in the user's
    cache folder), as they are for a designer after the first ``validate``; the build measured is the next step."""
    run([sys.executable, "-m", "cardworks", "validate"], cards_root.parent)


def build(cards_root: Path, out: Path, jobs: int) -> Run:
    return run([sys.executable, "-m", "cardworks", "build", "--game", "fallera", "--set", selection(cards_root), "--locale", "en",
                "--no-docs", "--out", str(out), "--jobs", str(jobs)], cards_root.parent)


def export_tts(cards_root: Path, out: Path, jobs: int, face_cache: Path) -> Run:
    return run([sys.executable, "-m", "cardworks", "export", "tts", "--game", "fallera", "--set", selection(cards_root), "--locale",
                "en", "--out", str(out), "--jobs", str(jobs), "--face-cache", str(face_cache)], cards_root.parent)


def export_print_shop(cards_root: Path, out: Path, jobs: int, face_cache: Path, profile: str) -> Run:
    return run([sys.executable, "-m", "cardworks", "export", "print-shop", "--profile", profile, "--game", "fallera",
                "--set", selection(cards_root), "--locale", "en", "--out", str(out), "--jobs", str(jobs), "--face-cache", str(face_cache)],
               cards_root.parent)


def png_image(pdf, path: Path):
    """An RGB, 8-bit, non-interlaced PNG as a PDF image without decoding it: its compressed rows are passed
    through with the PNG predictor named (what img2pdf does), the cheapest way to embed it."""
    import pikepdf

    data = path.read_bytes()
    position, rows, header = 8, [], None
    while position < len(data):
        length = int.from_bytes(data[position : position + 4], "big")
        kind = data[position + 4 : position + 8]
        body = data[position + 8 : position + 8 + length]
        if kind == b"IHDR":
            header = body
        elif kind == b"IDAT":
            rows.append(body)
        position += 12 + length
    width, height = int.from_bytes(header[:4], "big"), int.from_bytes(header[4:8], "big")
    if header[8:10] != bytes([8, 2]) or header[12] != 0:
        raise SystemExit(f"{path}: the floor takes RGB 8-bit non-interlaced PNGs only")
    return pdf.make_stream(b"".join(rows), Type=pikepdf.Name.XObject, Subtype=pikepdf.Name.Image, Width=width,
                           Height=height, ColorSpace=pikepdf.Name.DeviceRGB, BitsPerComponent=8,
                           Filter=pikepdf.Name.FlateDecode,
                           DecodeParms=pikepdf.Dictionary(Predictor=15, Colors=3, BitsPerComponent=8, Columns=width))


def floor(images: list[Path], out: Path) -> None:
    """The pikepdf floor: each PNG embedded once as it is, nine to an A4 page at 69 × 94 mm, pages set in one step."""
    import pikepdf

    mm = 72 / 25.4
    pdf = pikepdf.new()
    width, height = 69 * mm, 94 * mm
    pages = []
    for start in range(0, len(images), 9):
        names, ops = {}, []
        for slot, path in enumerate(images[start : start + 9]):
            names[f"/Im{slot}"] = png_image(pdf, path)
            x, y = 8 * mm + (slot % 3) * width, 8 * mm + (slot // 3) * height
            ops.append(f"q {width:.2f} 0 0 {height:.2f} {x:.2f} {y:.2f} cm /Im{slot} Do Q")
        pages.append(pdf.make_indirect(pikepdf.Dictionary(
            Type=pikepdf.Name.Page, MediaBox=[0, 0, 595.28, 841.89], Parent=pdf.Root.Pages,
            Resources=pikepdf.Dictionary(XObject=pikepdf.Dictionary(names)), Contents=pdf.make_stream("\n".join(ops).encode()))))
    pdf.Root.Pages.Kids = pikepdf.Array(pages)
    pdf.Root.Pages.Count = len(pages)
    pdf.save(out)


def folder_mb(folder: Path, pattern: str = "*") -> float:
    return sum(p.stat().st_size for p in folder.rglob(pattern) if p.is_file()) / 1e6


def measure_text(sizes: list[int], jobs: int, tmp: Path) -> None:
    print(f"text cards, cold build of one locale, cards only, --jobs {jobs}")
    print(f"{'designs':>8} {'cpu s':>8} {'ms/design':>10} {'ratio':>6} {'peak MB':>8} {'KB/design':>10}")
    first = None
    for designs in sizes:
        folder = tmp / f"text-{designs}"
        cards_root = make_database(folder, designs)
        warm(cards_root)
        measured = build(cards_root, folder / "out", jobs)
        per = measured.cpu / designs
        first = first or per
        print(f"{designs:>8} {measured.cpu:>8.1f} {per * 1000:>10.2f} {per / first:>6.2f} {measured.peak_mb:>8.0f} "
              f"{measured.peak_mb * 1024 / designs:>10.1f}", flush=True)
        shutil.rmtree(folder)


BUILD_IMPORTS = "import cardworks.cli.commands, cardworks.render.build, cardworks.validate.runner, weasyprint, pikepdf"
"""What any ``cardworks build`` imports before it reads a card: the least a build can cost."""


def measure_art(sizes: list[int], jobs: int, tts: bool, tmp: Path, shops: list[str] = (), layout: str = "art-only") -> None:
    print(f"{layout} art cards ({ART_SIZE[0]} × {ART_SIZE[1]} px noise PNGs), cold build, --jobs {jobs}")
    for designs in sizes:
        folder = tmp / f"art-{designs}"
        cards_root = make_database(folder, designs, art=True, layout=layout)
        images = sorted((cards_root / "fallera" / "art").glob("*.png"))
        listing = folder / "images.txt"
        listing.write_text("\n".join(map(str, images)), encoding="utf-8")
        warm(cards_root)
        base = run([sys.executable, str(Path(__file__).resolve()), "--floor", str(listing), str(folder / "floor.pdf")], folder)
        built = build(cards_root, folder / "out", jobs)
        art_mb, cache_mb = folder_mb(cards_root / "fallera" / "art"), folder_mb(folder / "out" / ".cache")
        print(f"{designs} designs, art {art_mb:.0f} MB: build {built.cpu:.1f} s, peak {built.peak_mb:.0f} MB; "
              f"pikepdf floor {base.cpu:.2f} s, peak {base.peak_mb:.0f} MB; build/floor {built.cpu / base.cpu:.1f}×; "
              f"face cache {cache_mb:.0f} MB ({cache_mb / art_mb:.2f}× the images)", flush=True)
        imports = run([sys.executable, "-c", BUILD_IMPORTS], folder)
        checked = run([sys.executable, "-m", "cardworks", "validate"], cards_root.parent)
        print(f"{designs} designs, parts of the build: importing what a build imports {imports.cpu:.2f} s "
              f"({imports.cpu / base.cpu:.1f}× the floor); validating the game (warm verdicts) {checked.cpu:.2f} s "
              f"({checked.cpu / base.cpu:.1f}×); the rest (layout, assembly, sheets) about "
              f"{built.cpu - checked.cpu:.2f} s", flush=True)
        if tts:
            cold = export_tts(cards_root, folder / "tts", jobs, folder / "tts-cache")
            warm_export = export_tts(cards_root, folder / "tts", jobs, folder / "out" / ".cache" / "faces")
            print(f"{designs} designs: export tts {cold.cpu:.1f} s, peak {cold.peak_mb:.0f} MB with a cold face cache; "
                  f"{warm_export.cpu:.1f} s, peak {warm_export.peak_mb:.0f} MB with the build's", flush=True)
        for profile in shops:
            shop = export_print_shop(cards_root, folder / f"shop-{profile}", jobs, folder / "out" / ".cache" / "faces", profile)
            print(f"{designs} designs: export print-shop --profile {profile} {shop.cpu:.1f} s, peak {shop.peak_mb:.0f} MB "
                  f"with the build's face cache", flush=True)
        shutil.rmtree(folder)


FLOOR_PAGES = 32
"""Pages of the floor's document (``bench/render.py``'s default)."""


def face_cost(locale: str = "en", profiled: bool = False) -> None:
    """Processor time per face of a cold layout of the expert deck in one process, against the one-page floor
    of ``bench/render.py`` measured in the same process; where a face's time goes (cProfile, by stage)."""
    import cProfile
    import pstats
    import time

    sys.path.insert(0, str(Path(__file__).parent))
    from render import weasyprint_floor

    from cardworks.loading import load_database
    from cardworks.render.deck import build_deck
    from cardworks.render.facecache import split_pages
    from cardworks.render.faces import build_job, render_faces

    db = load_database(REPO / "cards" / "fallera")
    job = build_job(db, build_deck(db, "expert"), locale)
    weasyprint_floor(1)  # imports and fonts loaded before either is timed
    render_faces(job)  # the same: the card stylesheet's fonts loaded once
    floors, faces = [], []
    for _ in range(3):  # alternated, the least of each: a shared machine's noise only ever adds time
        start = time.process_time()  # bench/render.py times the floor's document by the clock; here by processor
        weasyprint_floor(FLOOR_PAGES)  # time, as the faces are: it renders the same document twice (warm-up, timed)
        floors.append((time.process_time() - start) / (2 * FLOOR_PAGES) * 1000)
        job = build_job(db, build_deck(db, "expert"), locale)  # fresh faces: every fit step from the start
        start = time.process_time()
        result = render_faces(job)
        split_pages(result)
        faces.append((time.process_time() - start) / len(job.faces) * 1000)
    floor_ms, per_face = min(floors), min(faces)
    print(f"expert deck, {locale}, {len(job.faces)} faces in {len(result.pdfs)} documents: {per_face:.1f} ms of "
          f"processor time a face (laid out, measured, split); floor {floor_ms:.1f} ms a page; "
          f"ratio {per_face / floor_ms:.2f}× (goal 2×; least of 3 alternated runs each)")
    if not profiled:
        return
    profile = cProfile.Profile()
    job = build_job(db, build_deck(db, "expert"), locale)
    profile.enable()
    split_pages(render_faces(job))
    profile.disable()
    stats = pstats.Stats(profile).stats  # type: ignore[attr-defined]
    stages = [("weasyprint/__init__.py", "render", "layout (HTML.render)"),
              ("weasyprint/document.py", "write_pdf", "PDF writing (write_pdf)"),
              ("cardworks/render/measure.py", "measure", "overflow measure"),
              ("cardworks/render/faces.py", "_crop", "crop to the card"),
              ("cardworks/render/sandbox.py", "render_budgeted", "template (Jinja)"),
              ("cardworks/render/typography.py", "typeset", "typesetting quotes"),
              ("cardworks/render/facecache.py", "split_pages", "split into one PDF a face")]
    inside = [("tinyhtml5/parser.py", "parse", "    HTML parsing"),
              ("weasyprint/css/__init__.py", "get_all_computed_styles", "    cascade (selectors, stylesheets)"),
              ("weasyprint/layout/flex.py", "flex_layout", "    flex boxes (header, stats line)"),
              ("weasyprint/layout/inline.py", "iter_line_boxes", "    line breaking (text)"),
              ("weasyprint/layout/page.py", "make_margin_boxes", "    page margin boxes"),
              ("weasyprint/draw/__init__.py", "draw_page", "    drawing (in write_pdf)"),
              ("weasyprint/pdf/fonts.py", "build_fonts_dictionary", "    font subsetting (in write_pdf)")]
    total = max(row[3] for row in stats.values())
    print(f"  profiled: {total:.1f} s in all (profiling slows Python code more than C code)")
    for file, function, label in stages[:2] + inside + stages[2:]:  # parts of layout and writing, indented
        rows = [row for (path, _, name), row in stats.items() if path.endswith(file) and name == function]
        seconds = max(row[3] for row in rows) if file.startswith("tinyhtml5") and rows else sum(row[3] for row in rows)
        print(f"  {label}: {seconds:.2f} s ({seconds / total:.0%})")  # tinyhtml5's parse calls its own parse


def numbers(text: str) -> list[int]:
    return [int(part) for part in text.split(",") if part]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=numbers, default=None,
                        help="text-card deck sizes (default 1000,5000,20000, or none when --art is given)")
    parser.add_argument("--art", type=numbers, default=[], help="art-card deck sizes (e.g. 54,540)")
    parser.add_argument("--art-layout", choices=ART_LAYOUTS, default="art-only",
                        help="art-only: each image is the whole face, the back an image too (default); full-bleed: "
                        "the card's text printed over its art")
    parser.add_argument("--tts", action="store_true", help="also export each art deck to Tabletop Simulator")
    parser.add_argument("--print-shop", default="", help="also export each art deck with these print-shop profiles "
                        "(e.g. pdf,drivethrucards), from the build's face cache")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--face-cost", action="store_true", help="per-face processor time against the one-page floor")
    parser.add_argument("--profile", action="store_true", help="with --face-cost: where a face's time goes")
    parser.add_argument("--floor", nargs=2, metavar=("LIST", "OUT"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.face_cost:
        face_cost(profiled=args.profile)
        return
    if args.floor:
        floor([Path(line) for line in Path(args.floor[0]).read_text(encoding="utf-8").splitlines()], Path(args.floor[1]))
        return
    if args.sizes is None:
        args.sizes = [] if args.art else [1000, 5000, 20000]
    with tempfile.TemporaryDirectory() as tmp:
        if args.sizes:
            measure_text(sorted(args.sizes), args.jobs, Path(tmp))
        if args.art:
            shops = [name for name in args.print_shop.split(",") if name]
            measure_art(sorted(args.art), args.jobs, args.tts, Path(tmp), shops, args.art_layout)


if __name__ == "__main__":
    main()
