"""Preflight: the checks a print shop runs before it accepts a file, one report per file.

PDF: fonts embedded and one subset per tag; TrimBox and BleedBox against the
profile; resolution of every image at its printed size; colour space and
output intent; total ink, both as the colours set in content streams and as
sampled on a Ghostscript CMYK raster; page count against the deck. PNG: pixel
size, resolution and colour mode against the profile's canvas. A folder written
by ``cardworks export`` is checked against the profile and deck recorded in
its ``export.json``.
"""

from __future__ import annotations

import csv
import io
import json
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import pikepdf

from ..errors import UsageError
from ..fileio import copy_limited, read_limited, read_text_limited
from ..render.impose import MM
from ..render.subset_tags import font_program
from .ink import colour_ink, content_streams, image_ink, parse_content
from .pdfx import GS_TIMEOUT, ghostscript
from .profiles import Profile, load_profile

RASTER_DPI = 36
"""Ink is sampled at this resolution: flat card colours fill many pixels even at 36 dpi."""
BOX_TOLERANCE_MM = 0.05
INK_TOLERANCE = 0.02
"""8-bit raster rounding: 2 percentage points."""


@dataclass
class Check:
    name: str
    ok: bool
    message: str


@dataclass
class FileReport:
    path: Path
    checks: list[Check] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return all(check.ok for check in self.checks)

    def add(self, name: str, ok: bool, message: str) -> None:
        self.checks.append(Check(name, ok, message))


@dataclass(frozen=True)
class Expected:
    """What the deck says a file must hold (from ``export.json``), when known."""

    trims_mm: tuple[tuple[float, float], ...] | None = None
    """The card's own trim size on each page (or of the image), in order."""
    pages: int | None = None
    cards: tuple[str, ...] | None = None
    """The card (or back) on each page, in order."""
    faces: dict[str, dict] = field(default_factory=dict, hash=False, compare=False)
    """Card id → its set and art file, as ``export.json`` records them."""

    def trim(self, index: int) -> tuple[float, float] | None:
        if self.trims_mm is None or index >= len(self.trims_mm):
            return None
        return self.trims_mm[index]

    def where(self, number: int) -> str:
        """Page ``number`` (from 1) named by the card on it, its set and art file when the export recorded them."""
        if self.cards is None or number > len(self.cards):
            return f"page {number}"
        card = self.cards[number - 1]
        face = self.faces.get(card, {})
        parts = [f"card {card}"] + ([f"set {face['set']}"] if face.get("set") else []) + \
            ([f"art {face['art']}"] if face.get("art") else [])
        return f"page {number} ({', '.join(parts)})"


# PDF checks -----------------------------------------------------------------------------------------


def _page_fonts(container: pikepdf.Object, found: dict, depth: int = 0, seen: set | None = None) -> None:
    """Every font a page (or a form, pattern or Type 3 glyph in it) can draw with, keyed by object id, or by where it
    is written for a font dictionary written straight into the resources (such fonts are not objects of their own,
    so a walk over the file's objects misses them)."""
    seen = set() if seen is None else seen
    if depth > 16:
        return
    resources = container.get("/Resources", pikepdf.Dictionary())
    fonts = resources.get("/Font", pikepdf.Dictionary())
    for key in fonts.keys():
        font = fonts[key]
        ident = font.objgen if font.is_indirect else (id(fonts), key)
        found.setdefault(ident, font)
        if font.get("/Subtype") == "/Type3" and font.is_indirect and font.objgen not in seen:
            seen.add(font.objgen)
            _page_fonts(font, found, depth + 1, seen)
    for group in ("/XObject", "/Pattern"):
        children = resources.get(group, pikepdf.Dictionary())
        for key in children.keys():
            child = children[key]
            if group == "/XObject" and child.get("/Subtype") != "/Form":
                continue
            if child.is_indirect:
                if child.objgen in seen:
                    continue
                seen.add(child.objgen)
            _page_fonts(child, found, depth + 1, seen)


def check_fonts(pdf: pikepdf.Pdf, report: FileReport, expected: Expected | None = None) -> None:
    """Every font any page draws with embedded (Type 3 fonts are drawings), found by walking each page's resources
    (a font written straight into a page's resources is no object of its own); a font not embedded is named with
    the pages (and cards) that use it. A subset tag never names two different programs."""
    expected = expected or Expected()
    missing: dict[str, list[str]] = {}
    by_tag: dict[str, set[bytes]] = {}
    every: dict = {}
    for number, page in enumerate(pdf.pages, 1):
        found: dict = {}
        _page_fonts(page.obj, found)
        for ident, font in found.items():
            every.setdefault(ident, font)
            if font.get("/Subtype") in ("/Type3",):
                continue
            if font_program(font) is None:
                missing.setdefault(str(font.get("/BaseFont", "/?"))[1:], []).append(expected.where(number))
    for font in every.values():
        if font.get("/Subtype") == "/Type3":
            continue
        name = str(font.get("/BaseFont", "/?"))[1:]
        program = font_program(font)
        if program is not None and len(name) > 7 and name[6] == "+":
            by_tag.setdefault(name[:6], set()).add(program.read_bytes())
    count = sum(1 for font in every.values() if font.get("/Subtype") != "/Type3")

    def pages(where: list[str]) -> str:
        return ", ".join(where[:4]) + (f" and {len(where) - 4} more page(s)" if len(where) > 4 else "")

    report.add("fonts embedded", not missing, f"{count} font(s), all embedded" if not missing
               else "not embedded: " + "; ".join(f"{name} on {pages(where)}" for name, where in sorted(missing.items())))
    reused = sorted(tag for tag, programs in by_tag.items() if len(programs) > 1)
    report.add("subset tags unique", not reused, f"{len(by_tag)} subset tag(s), each names one subset" if not reused
               else f"tag(s) naming several different subsets: {', '.join(reused)}")


def _box(page: pikepdf.Page, name: str) -> tuple[float, float, float, float] | None:
    value = page.obj.get(name)
    return tuple(float(v) for v in value) if value is not None else None  # type: ignore[return-value]


def check_boxes(pdf: pikepdf.Pdf, profile: Profile, expected: Expected, report: FileReport) -> None:
    """Each page's TrimBox (the cut) and BleedBox: the trim is the card's own size (from ``export.json``, else a size
    the profile takes), and the bleed is exactly the profile's on every side, so a face cropped into a smaller
    frame or enlarged into a larger one cannot pass."""
    problems = []
    need_bleed = profile.bleed_mm.value
    for number, page in enumerate(pdf.pages, 1):
        media = tuple(float(v) for v in page.mediabox)
        trim, bleed = _box(page, "/TrimBox"), _box(page, "/BleedBox")
        if trim is None or bleed is None:
            problems.append(f"page {number}: no {'TrimBox' if trim is None else 'BleedBox'}")
            continue
        width, height = (trim[2] - trim[0]) / MM, (trim[3] - trim[1]) / MM
        own = expected.trim(number - 1)
        if own is not None:
            if abs(width - own[0]) > BOX_TOLERANCE_MM or abs(height - own[1]) > BOX_TOLERANCE_MM:
                problems.append(f"page {number}: trim {width:.2f} × {height:.2f} mm, the card on it is "
                                f"{own[0]:g} × {own[1]:g} mm")
        if not profile.takes(width, height):
            problems.append(f"page {number}: trim {width:.2f} × {height:.2f} mm is not a card size {profile.name} takes "
                            f"({profile.size_names()})")
        sides = [(trim[0] - bleed[0]), (trim[1] - bleed[1]), (bleed[2] - trim[2]), (bleed[3] - trim[3])]
        if min(sides) / MM < need_bleed - BOX_TOLERANCE_MM or max(sides) / MM > need_bleed + BOX_TOLERANCE_MM:
            shown = f"{min(sides) / MM:.2f}" if max(sides) - min(sides) < 0.01 * MM else \
                f"{min(sides) / MM:.2f} to {max(sides) / MM:.2f}"
            problems.append(f"page {number}: bleed {shown} mm, {profile.name} wants {need_bleed:g} mm")
        if bleed[0] < media[0] - 0.01 or bleed[1] < media[1] - 0.01 or bleed[2] > media[2] + 0.01 or bleed[3] > media[3] + 0.01:
            problems.append(f"page {number}: BleedBox reaches outside the MediaBox")
    shown = problems[:5] + ([f"and {len(problems) - 5} more"] if len(problems) > 5 else [])
    report.add("page boxes", not problems, f"{len(pdf.pages)} page(s): TrimBox and BleedBox as {profile.name} wants"
               if not problems else "; ".join(shown))


def _matrix(a: list[float], b: list[float]) -> list[float]:
    return [a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3], a[2] * b[0] + a[3] * b[2],
            a[2] * b[1] + a[3] * b[3], a[4] * b[0] + a[5] * b[2] + b[4], a[4] * b[1] + a[5] * b[3] + b[5]]


def _images(container: pikepdf.Object, ctm: list[float], found: list[tuple[str, float, int, int]],
            depth: int = 0) -> None:
    """Collect (image name, lowest ppi, width px, height px) for every image drawn, following Form XObjects."""
    if depth > 8:
        return
    resources = container.get("/Resources", pikepdf.Dictionary())
    xobjects = resources.get("/XObject", pikepdf.Dictionary())
    stack, current = [], ctm
    for operands, operator in parse_content(container):
        op = str(operator)
        if op == "q":
            stack.append(current)
        elif op == "Q" and stack:
            current = stack.pop()
        elif op == "cm":
            current = _matrix([float(v) for v in operands], current)
        elif op == "Do":
            xobject = xobjects.get(str(operands[0]))
            if xobject is None:
                continue
            if xobject.get("/Subtype") == "/Image":
                width_in = (current[0] ** 2 + current[1] ** 2) ** 0.5 / 72
                height_in = (current[2] ** 2 + current[3] ** 2) ** 0.5 / 72
                if width_in > 0 and height_in > 0:
                    ppi = min(int(xobject.Width) / width_in, int(xobject.Height) / height_in)
                    found.append((str(operands[0]), ppi, int(xobject.Width), int(xobject.Height)))
            elif xobject.get("/Subtype") == "/Form":
                matrix = [float(v) for v in xobject.get("/Matrix", [1, 0, 0, 1, 0, 0])]
                _images(xobject, _matrix(matrix, current), found, depth + 1)


def check_images(pdf: pikepdf.Pdf, profile: Profile, report: FileReport, expected: Expected | None = None) -> None:
    """Every image's resolution at its printed size, shown to one decimal and compared as shown (299.7 ppi is under
    300); each image under the profile's figure is named by its page and the card, set and art file on it."""
    expected = expected or Expected()
    wanted = profile.dpi.value
    every: list[float] = []
    low: dict[tuple[int, int, int], tuple[float, str]] = {}
    for number, page in enumerate(pdf.pages, 1):
        found: list[tuple[str, float, int, int]] = []
        _images(page.obj, [1, 0, 0, 1, 0, 0], found)
        for name, ppi, width, height in found:
            shown = round(ppi, 1)
            every.append(shown)
            if shown < wanted:
                key = (number, width, height)  # the same image placed twice on a page (the bleed fill) is one
                if key not in low or shown < low[key][0]:
                    low[key] = (shown, f"{expected.where(number)}: {width} × {height} px image at {shown:.1f} ppi")
    if not every:
        report.add("image resolution", True, "no raster images (vector art and text)")
    elif not low:
        report.add("image resolution", True, f"{len(every)} image placement(s), lowest {min(every):.1f} ppi")
    else:
        lines = [text for _, text in sorted(low.values())]
        shown = "; ".join(lines[:5]) + (f"; and {len(lines) - 5} more" if len(lines) > 5 else "")
        report.add("image resolution", False, f"{len(lines)} image(s) under {wanted} ppi at print size: {shown}")


RGB_OPERATORS = {"rg", "RG"}


def _uses_rgb(pdf: pikepdf.Pdf) -> list[str]:
    found = set()
    for obj in content_streams(pdf):
        for operands, operator in parse_content(obj):
            if str(operator) in RGB_OPERATORS:
                found.add(f"{operator} operator")
            elif str(operator) in ("cs", "CS") and str(operands[0]) == "/DeviceRGB":
                found.add("DeviceRGB colour space")
    for obj in pdf.objects:
        if isinstance(obj, pikepdf.Stream) and obj.get("/Subtype") == "/Image":
            space = obj.get("/ColorSpace")
            if space == pikepdf.Name.DeviceRGB or (isinstance(space, pikepdf.Array) and len(space) > 1
                                                   and space[0] == pikepdf.Name.ICCBased and int(space[1].get("/N", 0)) == 3):
                found.add("RGB image")
    return sorted(found)


def check_colour(pdf: pikepdf.Pdf, profile: Profile, report: FileReport) -> None:
    """CMYK profiles: no RGB anywhere, an output intent GTS_PDFX with its profile, the PDF/X version key."""
    if profile.colour.value.space != "CMYK":
        report.add("colour space", True, f"{profile.name} takes RGB; not checked")
        return
    rgb = _uses_rgb(pdf)
    report.add("colour space", not rgb, "CMYK only" if not rgb else f"RGB found: {', '.join(rgb)}")
    intents = pdf.Root.get("/OutputIntents", [])
    pdfx = [i for i in intents if i.get("/S") == "/GTS_PDFX"]
    has_profile = bool(pdfx) and "/DestOutputProfile" in pdfx[0] and int(pdfx[0].DestOutputProfile.get("/N", 0)) == 4
    version = str(pdf.trailer.get("/Info", {}).get("/GTS_PDFXVersion", ""))
    wanted = profile.pdf_standard.value
    ok = bool(pdfx) and has_profile and (wanted is None or version == wanted)
    report.add("output intent", ok, f"GTS_PDFX with a CMYK profile, {version}" if ok else
               f"output intent GTS_PDFX {'present' if pdfx else 'missing'}, CMYK profile "
               f"{'present' if has_profile else 'missing'}, GTS_PDFXVersion {version or 'missing'} (wanted {wanted})")


def raster_ink(data: bytes | Path) -> list[float]:
    """Highest total ink (0–4) of each page of a PDF (its bytes or its file), sampled on a CMYK raster made by
    Ghostscript."""
    from PIL import Image, ImageMath

    with tempfile.TemporaryDirectory(prefix="cardworks-ink-") as tmp:
        folder = Path(tmp)
        source = data if isinstance(data, Path) else folder / "in.pdf"
        if not isinstance(data, Path):
            source.write_bytes(data)
        command = [ghostscript(), "-q", "-dBATCH", "-dNOPAUSE", "-dSAFER", "-sDEVICE=tiff32nc", f"-r{RASTER_DPI}",
                   f"-sOutputFile={folder / 'page-%05d.tif'}", str(source)]
        run = subprocess.run(command, capture_output=True, text=True, timeout=GS_TIMEOUT)
        if run.returncode != 0:
            raise UsageError(f"Ghostscript could not rasterise the file: {(run.stderr or run.stdout).strip()[:300]}")
        highest = []
        for tif in sorted(folder.glob("page-*.tif")):
            with Image.open(tif) as image:
                c, m, y, k = (band.convert("I") for band in image.split())
                total = ImageMath.lambda_eval(lambda v: v["c"] + v["m"] + v["y"] + v["k"], c=c, m=m, y=y, k=k)
                highest.append(total.getextrema()[1] / 255)
        return highest


def _page_images(container: pikepdf.Object, found: dict, depth: int = 0) -> None:
    """Every image a page (or a Form XObject in it) can draw, by object id."""
    if depth > 8:
        return
    xobjects = container.get("/Resources", pikepdf.Dictionary()).get("/XObject", pikepdf.Dictionary())
    for key in xobjects.keys():
        xobject = xobjects[key]
        if xobject.get("/Subtype") == "/Image":
            found[xobject.objgen] = xobject
        elif xobject.get("/Subtype") == "/Form":
            _page_images(xobject, found, depth + 1)


def image_ink_per_page(pdf: pikepdf.Pdf) -> list[float]:
    """Highest total ink (0–4) of any pixel of any CMYK image on each page: a 36 dpi raster averages one
    saturated pixel away, the image's own samples do not."""
    memo: dict = {}
    highest = []
    for page in pdf.pages:
        found: dict = {}
        _page_images(page.obj, found)
        for key, image in found.items():
            if key not in memo:
                memo[key] = image_ink(image)
        highest.append(max((memo[key] for key in found), default=0.0))
    return highest


def check_ink(pdf: pikepdf.Pdf, data: bytes | Path, profile: Profile, report: FileReport,
              expected: Expected | None = None) -> None:
    """Total ink against the profile's limit: colours set, and per page the highest of the sampled raster and of
    every CMYK image's own pixels (each page's real maximum is reported)."""
    limit = profile.max_ink_percent.value
    if limit is None or profile.colour.value.space != "CMYK":
        report.add("total ink", True, f"{profile.name} sets no ink limit; not checked")
        return
    set_max = colour_ink(pdf)
    pages = [max(sampled, pixel) for sampled, pixel in zip(raster_ink(data), image_ink_per_page(pdf))]
    sampled = max(pages, default=0.0)
    over = [i + 1 for i, value in enumerate(pages) if value > limit / 100 + INK_TOLERANCE]
    ok = set_max <= limit / 100 + 1e-6 and not over
    per_page = ", ".join(f"{number}: {value * 100:.0f}%" for number, value in enumerate(pages, 1))
    report.add("total ink", ok, f"at most {set_max * 100:.0f}% set, {sampled * 100:.0f}% measured (limit {limit}%); "
               f"highest per page {per_page}" if ok
               else f"colours up to {set_max * 100:.0f}% set, {sampled * 100:.0f}% measured on "
               f"{'; '.join((expected or Expected()).where(n) for n in over[:10]) or '-'}; the limit is {limit}%; "
               f"highest per page {per_page}")


def check_pdf(path: Path, profile: Profile, expected: Expected) -> FileReport:
    """Every check of one PDF, read from a checked private copy (a deck of art is never in memory whole)."""
    report = FileReport(path)
    with tempfile.TemporaryDirectory(prefix="cardworks-preflight-") as tmp:
        copy = Path(tmp) / "checked.pdf"
        copy_limited(path, copy, MAX_CHECKED_BYTES)
        try:
            pdf = pikepdf.open(copy, access_mode=pikepdf.AccessMode.stream)
        except pikepdf.PdfError as exc:
            report.add("readable", False, f"not a readable PDF: {exc}")
            return report
        with pdf:
            check_fonts(pdf, report, expected)
            check_boxes(pdf, profile, expected, report)
            check_images(pdf, profile, report, expected)
            check_colour(pdf, profile, report)
            check_ink(pdf, copy, profile, report, expected)
            if expected.pages is not None:
                report.add("page count", len(pdf.pages) == expected.pages,
                           f"{len(pdf.pages)} page(s), the deck needs {expected.pages}")
    return report


MAX_CHECKED_BYTES = 1 << 31
"""Largest file preflight reads (a print-shop PDF of a big deck is some hundreds of MB); a FIFO or a device
is refused by the checked reader, never waited on."""


# PNG checks -----------------------------------------------------------------------------------------


def check_png(path: Path, profile: Profile, expected: Expected = Expected()) -> FileReport:
    """Pixel size against the card's own trim and the profile's bleed or canvas for that size; resolution; colour mode."""
    from PIL import Image

    report = FileReport(path)
    try:
        with Image.open(io.BytesIO(read_limited(path, MAX_CHECKED_BYTES))) as image:
            size, mode, dpi = image.size, image.mode, image.info.get("dpi")
    except OSError as exc:
        report.add("readable", False, f"not a readable image: {exc}")
        return report
    own = expected.trim(0)
    if own is not None:
        wanted_px = profile.page_px(*own)
        ok = size == wanted_px and profile.takes(*own)
        report.add("pixel size", ok, f"{size[0]} × {size[1]} px; a {own[0]:g} × {own[1]:g} mm card at {profile.name} "
                   f"wants {wanted_px[0]} × {wanted_px[1]}" + ("" if profile.takes(*own) else
                                                                f" and {profile.name} does not take that size"))
    elif profile.sizes.value is not None:
        allowed = {profile.page_px(row.width_mm, row.height_mm): row.name for row in profile.sizes.value}
        report.add("pixel size", size in allowed, f"{size[0]} × {size[1]} px; {profile.name} wants " + ", ".join(
            f"{w} × {h} ({name})" for (w, h), name in allowed.items()))
    else:
        report.add("pixel size", False, f"{size[0]} × {size[1]} px; no export.json gives this card's trim and "
                   f"{profile.name} takes any size, so the size cannot be checked")
    wanted = profile.dpi.value
    ok_dpi = dpi is not None and all(abs(float(v) - wanted) < 0.5 for v in dpi)
    report.add("resolution", ok_dpi, f"{'%g × %g' % tuple(dpi) if dpi else 'no'} dpi recorded; {wanted} wanted")
    want_mode = "RGB" if profile.colour.value.space == "RGB" else "CMYK"
    report.add("colour space", mode == want_mode, f"{mode}; {profile.name} wants {want_mode}")
    return report


# Entry point ----------------------------------------------------------------------------------------


def _export_record(folder: Path) -> dict | None:
    record = folder / "export.json"
    if record.is_file():
        return json.loads(read_text_limited(record))
    return None


def preflight(target: Path, profile_name: str | None = None) -> list[FileReport]:
    """Check ``target`` (a PDF, a PNG, or a folder of them) against a profile; one report per file.

    A folder written by ``cardworks export print-shop`` names its profile, trim
    size and page counts in ``export.json``; ``profile_name`` overrides the profile.
    """
    if not target.exists():
        raise UsageError(f"{target}: no such file or folder")
    record = _export_record(target) if target.is_dir() else None
    if record is not None and record.get("export", "print-shop") != "print-shop":
        raise UsageError(f"{target} holds a {record['export']} export; preflight checks print-shop files")
    name = profile_name or (record or {}).get("profile") or "pdf"
    profile = load_profile(name)
    if target.is_dir():
        files = sorted(p for p in target.rglob("*") if p.suffix.lower() in (".pdf", ".png") and p.is_file())
    else:
        files = [target]
    if not files:
        raise UsageError(f"{target}: no PDF or PNG file to check")
    expected = _expected(target, record) if record is not None else {}
    reports = []
    for path in files:
        if path.suffix.lower() == ".png":
            reports.append(check_png(path, profile, expected.get(path.resolve(), Expected())))
        else:
            reports.append(check_pdf(path, profile, expected.get(path.resolve(), Expected())))
    if record is not None and (target / "quantities.csv").is_file():
        reports.append(check_quantities(target, record))
    return reports


def _expected(folder: Path, record: dict) -> dict[Path, Expected]:
    """Each file's page count and the trim of each of its pages, as ``export.json`` records them."""
    pages = record.get("pages", {})
    trims = record.get("trims_mm", {})
    cards = record.get("page_cards", {})
    faces = record.get("faces", {})
    out = {}
    for relative in set(pages) | set(trims) | set(cards):
        own = trims.get(relative)
        out[(folder / relative).resolve()] = Expected(
            tuple(tuple(float(v) for v in trim) for trim in own) if own is not None else None, pages.get(relative),
            tuple(cards[relative]) if relative in cards else None, faces)
    return out


def check_quantities(folder: Path, record: dict) -> FileReport:
    """The quantities list names existing files, and its copies add up to the deck."""
    report = FileReport(folder / "quantities.csv")
    rows = list(csv.DictReader(io.StringIO(read_text_limited(folder / "quantities.csv"), newline="")))
    missing = sorted({row["file"] for row in rows if not (folder / row["file"]).is_file()})
    report.add("files listed exist", not missing, f"{len(rows)} row(s)" if not missing else f"missing: {', '.join(missing)}")
    backs = set(record.get("backs", ["back"]))
    cards = sum(int(row["copies"]) for row in rows if row["card_id"] not in backs)
    report.add("copies add up", cards == record["cards"], f"{cards} card(s) listed, the deck has {record['cards']}")
    return report
