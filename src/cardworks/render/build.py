"""``cardworks build``: card sheets and print-shop files for each game, deck and locale.

The input hash of each deck × locale covers the game's data files, the
templates, the fonts and the options; when it matches the manifest and the
files are intact, nothing is rendered again.
"""

from __future__ import annotations

import hashlib
import io
import os
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path

import pikepdf

from ..errors import DataError, UsageError
from ..i18n.pseudo import PSEUDO_LOCALE
from ..fileio import MAX_ASSET_BYTES, read_limited
from ..loading.database import Database, display_path, load_game, unsafe_entry
from ..problems import Problem
from ..validate import validate
from ..validate.runner import game_folders
from .deck import Deck, build_deck
from .docs.build import DocTask, build_documents, doc_tasks
from .faces import BLEED_MM, FACES_PER_CHUNK, FaceJob, FaceResult, build_job, render_faces
from .fonts import font_files
from .impose import SheetLayout, calibration, impose
from .jinja import templates_dir
from .pieces import PieceTask, piece_tasks
from .manifest import OutputRecord, read_manifest, still_valid, write_manifest, write_output
from .printshop import assemble, render_pngs, save_pdf
from .transaction import BuildTransaction

RENDERER_VERSION = "2"

Progress = Callable[[str, int, int], None]


def default_jobs() -> int:
    """One job per processor, at most four."""
    return max(1, min(4, os.cpu_count() or 1))


@dataclass
class BuildOptions:
    """What to build and how; the command line fills it."""

    out: Path = Path("build")
    game: str | None = None
    selection: str | None = None
    locales: list[str] | None = None
    players: int | None = None
    layout: SheetLayout = field(default_factory=SheetLayout)
    jobs: int = field(default_factory=lambda: default_jobs())
    png: bool = False
    strict: bool = False
    cards: bool = True
    """Build card sheets and print-shop files."""
    documents: bool = True
    """Build each game's rulebook and FAQ index."""
    allow_fallback: bool = False
    """Let a missing translation come from the game's fallback chain instead of failing."""
    proof: bool = False
    """Mark every fallback text visibly (for translators)."""


@dataclass
class DeckOutcome:
    """One deck × locale: what was written or reused, and cards whose text overflowed."""

    game: str
    locale: str
    deck: str
    designs: int
    cards: int
    assumed_quantities: int
    records: list[OutputRecord]
    overflow: list[str]
    rendered: bool
    """True when faces were rendered; False when the print-shop file was reused."""
    imposed: bool = True
    """True when the sheets were laid out again."""

    @property
    def status(self) -> str:
        return "rendered" if self.rendered else ("re-imposed" if self.imposed else "unchanged")


@dataclass
class BuildReport:
    outcomes: list[DeckOutcome] = field(default_factory=list)
    documents: list[tuple[DocTask | PieceTask, OutputRecord, bool]] = field(default_factory=list)
    """Rulebooks, FAQ indexes and pieces: task, record, and whether it was rendered (else reused)."""
    manifest: Path | None = None
    skipped: list[str] = field(default_factory=list)
    """Games left out of a build of every game because the chosen deck or player count is not theirs."""

    @property
    def overflow(self) -> list[tuple[str, str, str]]:
        return [(o.game, o.locale, card) for o in self.outcomes for card in o.overflow]


def hash_files(digest: "hashlib._Hash", paths: list[Path], root: Path) -> None:
    """Feed each file's path (relative to ``root``) and bytes into ``digest``, in path order."""
    for path in sorted(paths):
        unsafe = unsafe_entry(root, path)
        if unsafe is not None:  # validation reports these; a file swapped in since is refused here too
            raise DataError(f"{display_path(path)}: [{unsafe[0]}] {unsafe[1]}",
                            [Problem(display_path(path), "", *unsafe)])
        data = read_limited(path, MAX_ASSET_BYTES)
        digest.update(str(path.relative_to(root)).encode() + b"\0" + data + b"\0")


def faces_hash(db: Database, deck: Deck, locale: str) -> str:
    """Hash of everything the faces of one deck × locale are made from (not the sheet layout)."""
    digest = hashlib.sha256(f"cardworks-renderer {RENDERER_VERSION}".encode())
    root = db.game.root
    # Paths relative to the game: a database kept under a folder named "scenarios" is still hashed.
    hash_files(digest, [p for p in root.rglob("*") if p.is_file() and "scenarios" not in p.relative_to(root).parts],
               root)
    hash_files(digest, [p for p in templates_dir().rglob("*") if p.is_file()], templates_dir())
    for font in font_files():
        digest.update(font.path.name.encode() + str(font.path.stat().st_size).encode())
    digest.update(repr((deck.label, [(c.card.id, c.copies) for c in deck.cards], locale)).encode())
    return digest.hexdigest()


def sheet_hash(faces_key: str, layout: SheetLayout) -> str:
    """Hash of a sheet file: its faces and its layout."""
    return hashlib.sha256(f"{faces_key} {layout!r}".encode()).hexdigest()


def _render_parallel(job: FaceJob, jobs: int) -> FaceResult:
    if jobs > 1 and len(job.faces) > FACES_PER_CHUNK:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            return render_faces(job, pool.map)
    return render_faces(job)


def _outcome(db: Database, deck: Deck, locale: str, records: list[OutputRecord], overflow: list[str],
             rendered: bool, imposed: bool = True) -> DeckOutcome:
    return DeckOutcome(db.game_doc.id, locale, deck.label, len(deck.cards), deck.physical_cards,
                       sum(1 for c in deck.cards if c.quantity_source != "stated"), records, overflow, rendered, imposed)


def _faces(db: Database, deck: Deck, locale: str, options: BuildOptions, key: str,
           kept: dict[str, OutputRecord]) -> tuple[bytes, list[str], list[OutputRecord], bool]:
    """The print-shop PDF of a deck × locale: reused when its inputs are unchanged, else rendered and written."""
    game = db.game_doc
    base = f"{game.id}/{locale}"
    shop_path = f"{base}/print-shop/cards-{deck.label}.pdf"
    order = [c.card.id for c in deck.cards] + ["back"]
    png_paths = [f"{base}/print-shop/png-{deck.label}/{face_id}.png" for face_id in order] if options.png else []
    previous = [kept.get(path) for path in [shop_path, *png_paths]]
    if all(r is not None and r.input_hash == key and still_valid(options.out, r) for r in previous):
        return (options.out / shop_path).read_bytes(), list(previous[0].overflow), previous, False  # type: ignore[union-attr]
    result = _render_parallel(build_job(db, deck, locale), options.jobs)
    if result.refused:
        raise refusal_error(result.refused, f"{game.id} {locale} cards")
    if options.strict and result.overflow:
        raise DataError(f"{game.id} {locale}: rules text overflows on {', '.join(result.overflow)} (--strict); nothing written")
    shop_bytes = save_pdf(assemble(result, order, BLEED_MM, locale))
    outputs = [("cards-print-shop", shop_path, shop_bytes, len(order))]
    if options.png:
        images = render_pngs(shop_bytes, order, Path(f"{base}/print-shop/png-{deck.label}"))
        outputs += [("card-png", path, data, 1) for path, data in images.items()]
    common = {"game": game.id, "locale": locale, "input_hash": key, "selection": deck.selection,
              "players": deck.players, "overflow": list(result.overflow)}
    records = [OutputRecord(kind=kind, path=path, pages=pages, sha256=write_output(options.out, path, data), **common)
               for kind, path, data, pages in outputs]
    return shop_bytes, list(result.overflow), records, True


def _build_deck(db: Database, deck: Deck, locale: str, options: BuildOptions,
                kept: dict[str, OutputRecord]) -> DeckOutcome:
    """Faces (rendered or reused), then sheets (imposed or reused) for one deck × locale."""
    game = db.game_doc
    layout = replace(options.layout, trim_w=game.card_size.width_mm, trim_h=game.card_size.height_mm, bleed=BLEED_MM)
    faces_key = faces_hash(db, deck, locale)
    shop_bytes, overflow, records, rendered = _faces(db, deck, locale, options, faces_key, kept)
    if options.strict and overflow:
        raise DataError(f"{game.id} {locale}: rules text overflows on {', '.join(overflow)} (--strict)")
    sheet_key = sheet_hash(faces_key, layout)
    sheet_path = f"{game.id}/{locale}/cards-{deck.label}-{layout.paper}.pdf"
    previous = kept.get(sheet_path)
    if previous is not None and previous.input_hash == sheet_key and still_valid(options.out, previous):
        return _outcome(db, deck, locale, [*records, previous], overflow, rendered, imposed=False)
    copies = [i for i, entry in enumerate(deck.cards) for _ in range(entry.copies)]
    sheets = impose(pikepdf.open(io.BytesIO(shop_bytes)), copies, len(deck.cards), layout)
    sheet_bytes = save_pdf(sheets)
    record = OutputRecord(game=game.id, locale=locale, kind="cards", path=sheet_path, pages=len(sheets.pages),
                          sha256=write_output(options.out, sheet_path, sheet_bytes), input_hash=sheet_key,
                          selection=deck.selection, players=deck.players, paper=layout.paper, overflow=overflow)
    return _outcome(db, deck, locale, [*records, record], overflow, rendered)


def selected_games(cards_root: Path, wanted: str | None) -> list[Path]:
    """The game folders to build: every game, or the one asked for."""
    folders = game_folders(cards_root)
    if wanted is not None:
        folders = [f for f in folders if f.name == wanted]
        if not folders:
            raise UsageError(f"unknown game {wanted!r}")
    return folders


def has_card_template(game: str) -> bool:
    """Deck cards are printed for games with a card stylesheet (``templates/<game>/cards.css``)."""
    return (templates_dir() / game / "cards.css").is_file()


def build(cards_root: Path, options: BuildOptions, progress: Progress | None = None) -> BuildReport:
    """Validate, then build every selected deck × locale; reuse outputs whose inputs did not change.

    The build is a transaction (:mod:`.transaction`): outputs are staged and published together with the
    manifest, with the output folder locked, so a failed or killed build leaves the previous one as it was.
    """
    report = validate(cards_root)
    if report.errors:
        raise DataError(f"the database has {len(report.errors)} error(s); nothing was built", report.errors)
    with BuildTransaction(options.out):
        return _build_validated(cards_root, options, progress)


def _build_validated(cards_root: Path, options: BuildOptions, progress: Progress | None) -> BuildReport:
    previous = {r.path: r for r in read_manifest(options.out)}
    kept = {path: r for path, r in previous.items() if (options.out / path).exists()}
    result = BuildReport()
    plans = []
    tasks: list[DocTask | PieceTask] = []
    for folder in selected_games(cards_root, options.game):
        db = Database(game=load_game(folder))
        game = db.game_doc
        locales = options.locales or list(game.locales)
        if options.game is None and options.locales:
            locales = [loc for loc in locales if loc in game.locales or loc == PSEUDO_LOCALE]
        unknown = [loc for loc in locales if loc not in game.locales and loc != PSEUDO_LOCALE]
        if unknown:
            raise UsageError(f"game {game.id!r} has no locale {', '.join(unknown)}; it has {', '.join(game.locales)}")
        try:
            deck = build_deck(db, options.selection, options.players)
        except UsageError as exc:
            if options.game is not None:
                raise
            result.skipped.append(f"{game.id}: {exc}")
            continue
        if options.cards and deck.cards and has_card_template(game.id):
            plans += [(db, deck, locale) for locale in locales]
        if options.cards:
            tasks += piece_tasks(db, locales, options.layout, options.allow_fallback, options.proof)
        if options.documents:
            tasks += doc_tasks(db, locales, deck.selection, options.allow_fallback, options.proof)
    for step, (db, deck, locale) in enumerate(plans):
        if progress:
            progress(f"{db.game_doc.id} {locale} {deck.label}", step, len(plans))
        outcome = _build_deck(db, deck, locale, options, kept)
        for record in outcome.records:
            kept[record.path] = record
        result.outcomes.append(outcome)
    if result.skipped and not plans and not tasks:
        raise UsageError("nothing to build: " + "; ".join(result.skipped))
    if tasks:
        if progress:
            progress(f"{len(tasks)} rulebooks, FAQ indexes and printable pieces", len(plans), len(plans) + 1)
        result.documents = build_documents(tasks, options.out, kept, options.jobs)
        for _, record, _ in result.documents:
            kept[record.path] = record
    if progress:
        progress("done", len(plans) + 1, len(plans) + 1)
    calibration_path = f"calibration-{options.layout.paper}.pdf"
    calibration_bytes = save_pdf(calibration(options.layout))
    kept[calibration_path] = OutputRecord(game="*", locale=None, kind="calibration", path=calibration_path, pages=2,
                                          paper=options.layout.paper, input_hash=hashlib.sha256(calibration_bytes).hexdigest(),
                                          sha256=write_output(options.out, calibration_path, calibration_bytes))
    result.manifest = write_manifest(options.out, list(kept.values()))
    return result
