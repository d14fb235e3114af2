"""``cardworks build``: card sheets and print-shop files for each game, deck and locale.

The input hash of each deck × locale covers the game's data files, the
templates, the fonts and the options; when it matches the manifest and the
files are intact, nothing is rendered again.
"""

from __future__ import annotations

import hashlib
import os
import time
from collections.abc import Callable, Mapping
from contextlib import ExitStack
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ..cluster import connect
from ..errors import DataError, UsageError
from ..i18n.locales import known_locale, resolve_locale
from ..fileio import MAX_ASSET_BYTES, read_limited
from ..loading.database import Database, display_path, load_game
from ..loading.overlay import refuse_remote
from ..loading.packs import open_packs
from ..problems import Problem
from ..loading.database import game_folders
from ..validate.cache import Verdicts
from .deck import Deck, build_deck
from .docs.build import LAYOUT_CACHE, DocTask, build_documents, doc_tasks
from .docs.texts import fallen_back
from .facecache import FaceCache, deck_faces, face_keys
from .fetcher import refusal_error
from .faces import BLEED_MM, Face, FaceJob, build_job, face_renderer
from ..models.card_size import resolve_card_size
from ..models.layout import GridRule, GutterfoldRule, LayoutFile, PrintAndCutRule
from ..models.sheet_rules import sheet_for
from ..models.files import has_set_files
from ..models.sheets import LayoutError, LayoutTooLarge, Sheet, sheet_problems
from .impose import SheetLayout, calibration, impose
from .jpegart import JpegFaces, check_quality
from .layouts import layout_path, read_layout
from .slots import impose_slots
from .measure import describe
from .legibility import DEFAULT, describe_small, too_small
from .contents import contents_pdf
from .kit import contents as kit_contents, deck_sets, play_gaps
from .pieces import PieceTask, piece_tasks
from .manifest import OutputRecord, read_manifest, still_valid, write_manifest, write_output, write_output_file
from .facepdf import assemble, iter_pngs, open_pdf, save_pdf, save_pdf_file
from .piecepdf import layout_cache
from .proof import ProofNotes, contact_sheet
from .telltale import telltale_backs
from .transaction import BuildTransaction
from .workers import BuildWorkers

FACE_CACHE = ".cache/faces"
"""The face cache, inside the build folder (see ``facecache``)."""
VALIDATION_CACHE = ".cache/validation"
"""The last clean verdict on the games validated (:mod:`..validate.cache`): an edit that changes no byte validation
reads does not validate again."""

Progress = Callable[[str, int, int], None]
"""Called with (what is being built, steps done, steps in all); an object that also has
``finished(path, seconds)`` hears of each output as it is written."""


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
    packs: list[Path] = field(default_factory=list)
    """Packs to build (each with the game it extends) instead of the games."""
    merge: bool = False
    """For packs: the pack's cards in the game's deck instead of alone."""
    optional: tuple[str, ...] = ()
    """Optional cards to print as well (``all``, or card ids)."""
    edition: str = "fact"
    """``fact`` (only what the sources give) or ``playtest`` (marked stand-ins fill the unknowns)."""
    jpeg_quality: int | None = None
    """Re-encode the faces' art as JPEG at this quality (1-95, :mod:`.jpegart`); None: lossless (the default)."""
    scheduler: str | None = None
    """A Dask scheduler (``tcp://HOST:PORT``): faces are laid out on its workers, the rest is done here."""


@dataclass(frozen=True)
class DeckChoice:
    """Which cards a deck holds: what :func:`.deck.build_deck` reads of the options."""

    selection: str | None
    players: int | None
    optional: tuple[str, ...]
    edition: str

    @classmethod
    def of(cls, options: BuildOptions) -> DeckChoice:
        return cls(options.selection, options.players, options.optional, options.edition)

    def deck(self, db: Database, with_game: bool = False) -> Deck:
        return build_deck(db, self.selection, self.players, self.optional, with_game=with_game, edition=self.edition)


@dataclass(frozen=True)
class FaceRun:
    """How one deck × locale's faces are laid out and written: what :func:`_faces` reads of the options."""

    out: Path
    jobs: int
    png: bool
    strict: bool
    allow_fallback: bool
    jpeg_quality: int | None = None

    @classmethod
    def of(cls, options: BuildOptions) -> FaceRun:
        return cls(options.out, options.jobs, options.png, options.strict, options.allow_fallback, options.jpeg_quality)


@dataclass
class DeckOutcome:
    """One deck × locale: what was written or reused, and cards whose text overflowed (with the parts that did)."""

    game: str
    locale: str
    deck: str
    designs: int
    cards: int
    assumed_quantities: int
    """Designs whose quantity no source states (one copy in the fact edition, the stand-in in the playtest one)."""
    records: list[OutputRecord]
    overflow: dict[str, tuple[str, ...]]
    """Card id → the parts that overflow (``name``, ``stats``, ``rules``, ``flavour``)."""
    rendered: bool
    """True when the print-shop file was assembled again; False when it was reused."""
    imposed: bool = True
    """True when the sheets were laid out again."""
    faces: list[str] = field(default_factory=list)
    """Faces laid out in this build (the rest came from the face cache)."""
    notes: list[str] = field(default_factory=list)
    """What the layout says about the sheets, e.g. how many cards fit on one."""
    telltale: dict[str, list[str]] = field(default_factory=dict)
    """Card type → its backs, for types whose cards carry several backs in this deck (see ``telltale``)."""
    small: dict[str, dict[str, tuple[float, float]]] = field(default_factory=dict)
    """Card id → its parts printed below the smallest type allowed: part → (size, minimum) in points."""

    @property
    def status(self) -> str:
        if self.faces:
            return f"{len(self.faces)} face(s) rendered"
        return "re-assembled" if self.rendered else ("re-imposed" if self.imposed else "unchanged")

    @property
    def fallbacks(self) -> list[dict[str, str]]:
        """Strings of this deck × locale printed from another locale (``--allow-fallback``), each once, read from
        its outputs' records so that a reused output still reports them."""
        seen: dict[str, str] = {}
        for record in self.records:
            for entry in record.fallbacks:
                seen.setdefault(entry["string"], entry["used"])
        return [{"string": string, "used": used} for string, used in seen.items()]


@dataclass
class BuildReport:
    outcomes: list[DeckOutcome] = field(default_factory=list)
    documents: list[tuple[DocTask | PieceTask, OutputRecord, bool]] = field(default_factory=list)
    """Rulebooks, FAQ indexes and pieces: task, record, and whether it was rendered (else reused)."""
    manifest: Path | None = None
    skipped: list[str] = field(default_factory=list)
    """Games left out of a build of every game because the chosen deck or player count is not theirs."""
    notes: list[str] = field(default_factory=list)
    """What the reader of the summary should know, e.g. that the gutters leave fewer cards a sheet."""
    art_warnings: list[Problem] = field(default_factory=list)
    """The art warnings ``validate`` gives (art under 300 dpi where it is printed), repeated by the build."""

    @property
    def overflow(self) -> list[tuple[str, str, str, tuple[str, ...]]]:
        """(game, locale, card, overflowing parts) for every card whose text does not fit."""
        return [(o.game, o.locale, card, parts) for o in self.outcomes for card, parts in o.overflow.items()]

    @property
    def small(self) -> list[tuple[str, str, str, dict[str, tuple[float, float]]]]:
        """(game, locale, card, part → (printed size, minimum)) for every card whose type is too small."""
        return [(o.game, o.locale, card, parts) for o in self.outcomes for card, parts in o.small.items()]


def faces_hash(keys: dict[str, str], deck: Deck, order: list[str], locale: str, jpeg_quality: int | None = None) -> str:
    """Hash of the print-shop file of one deck × locale: its faces' keys, in order, the copies, and the JPEG
    quality of its art (none: lossless)."""
    digest = hashlib.sha256(f"cardworks-deck {locale} {deck.label}".encode()
                            + (f" jpeg {jpeg_quality}".encode() if jpeg_quality is not None else b""))
    digest.update(repr([(face_id, keys[face_id]) for face_id in order]).encode())
    digest.update(repr([(c.card.id, c.copies) for c in deck.cards]).encode())
    return digest.hexdigest()


def sheet_hash(faces_key: str, layout: SheetLayout, layout_digest: str = "") -> str:
    """Hash of a sheet file: its faces, its layout options and the layout file's bytes."""
    return hashlib.sha256(f"{faces_key} {layout!r} {layout_digest}".encode()).hexdigest()


def overflow_fields(overflow: dict[str, tuple[str, ...]],
                    small: dict[str, dict[str, tuple[float, float]]] | None = None) -> dict[str, Any]:
    """A manifest record's overflow: the cards (what ``i18n status`` reads) and the parts of each; and the parts
    printed below the smallest type allowed."""
    return {"overflow": list(overflow), "overflow_parts": {card: list(parts) for card, parts in overflow.items()},
            "small_type": {card: {part: list(pair) for part, pair in parts.items()} for card, parts in (small or {}).items()}}


def _at_card(db: Database, by_id: dict[str, Any], locale: str, card: str, part: str) -> tuple[str, str]:
    """Where a part of a card's face is given: the card in its set file, or its entry in the locale's translation
    file (its texts in another locale than the source's); the game when the card is not a record (``by_id``:
    the records by id)."""
    record = by_id.get(card)
    if record is None:
        return db.output_id, ""
    if part == "legend":  # the legend of the marks is no field of the card: it follows from them
        return record.file.display, record.pointer
    if part in ("stats", "artist") or locale == db.game_doc.source_locale:
        return record.file.display, f"{record.pointer}/{part}"
    return display_path(record.bundle.root / "i18n" / f"{locale}.json"), f"/entries/{card}/{part}"


def small_type_error(db: Database, locale: str, small: dict[str, dict[str, tuple[float, float]]],
                     note: str = "") -> DataError:
    """``--strict``'s refusal of type printed below the minimum (:mod:`.legibility`): one problem per card and part."""
    from ..loading.records import Index

    by_id, problems = Index(db).by_id, []
    for card, parts in small.items():
        for part, (size, least) in parts.items():
            where, pointer = _at_card(db, by_id, locale, card, part)
            problems.append(Problem(where, pointer, "type-too-small", f"{locale}: the card's {part} prints at {size:.1f} pt, "
                                    f"under the {least:g} pt minimum"))
    return DataError(f"{db.output_id} {locale}: type too small to read on {describe_small(small)} (--strict){note}",
                     problems)


def overflow_error(db: Database, locale: str, overflow: dict[str, tuple[str, ...]], note: str = "") -> DataError:
    """``--strict``'s refusal: each overflowing part as a problem at the text it shows (the card in its set
    file, or its entry in the locale's translation file), and one summary line."""
    from ..loading.records import Index

    by_id, problems = Index(db).by_id, []
    for card, parts in overflow.items():
        for part in parts or ("text",):
            where, pointer = _at_card(db, by_id, locale, card, part)
            problems.append(Problem(where, pointer, "text-overflow", f"{locale}: the card's {part} does not fit its place"))
    return DataError(f"{db.output_id} {locale}: text overflows on {describe(overflow)} (--strict){note}", problems)


def _outcome(db: Database, deck: Deck, locale: str, records: list[OutputRecord], overflow: dict[str, tuple[str, ...]],
             rendered: bool, imposed: bool = True, faces: list[str] | None = None) -> DeckOutcome:
    return DeckOutcome(db.output_id, locale, deck.label, len(deck.cards), deck.physical_cards,
                       sum(1 for c in deck.cards if c.quantity_source != "stated"), records, overflow, rendered, imposed,
                       faces or [])


def _faces(db: Database, deck: Deck, locale: str, run: FaceRun,
           kept: dict[str, OutputRecord], cluster: Any = None, workers: BuildWorkers | None = None) -> tuple[Path, FaceJob, str, dict[str, tuple[str, ...]], list[OutputRecord],
                                                   list[str] | None, dict[str, dict[str, tuple[float, float]]]]:
    """The print-shop PDF of a deck × locale: reused when its faces are unchanged, else assembled from the
    face cache (laying out only the faces whose key is new) and saved straight to its file (staged), never held
    in memory. Returns the file to read it from, the job, its key,
    the overflowing faces with their parts, the records, the faces laid out now (None: the print-shop file was
    reused) and the faces whose type is too small (see :mod:`.legibility`)."""
    base = f"{db.output_id}/{locale}"
    shop_path = f"{base}/print-shop/cards-{deck.label}.pdf"
    job = build_job(db, deck, locale, run.allow_fallback)
    order = [face.id for face in job.faces]
    png_paths = [f"{base}/print-shop/png-{deck.label}/{face_id}.png" for face_id in order] if run.png else []
    keys = face_keys(job)
    key = faces_hash(keys, deck, order, locale, run.jpeg_quality)
    previous = [kept.get(path) for path in [shop_path, *png_paths]]
    if all(r is not None and r.input_hash == key and still_valid(run.out, r) for r in previous):
        shop = previous[0]
        overflow = {card: tuple(shop.overflow_parts.get(card, ())) for card in shop.overflow}  # type: ignore[union-attr]
        small = {card: {part: (pair[0], pair[1]) for part, pair in parts.items()}
                 for card, parts in shop.small_type.items()}  # type: ignore[union-attr]
        return run.out / shop_path, job, key, overflow, previous, None, small  # type: ignore[return-value]
    result = deck_faces(job, FaceCache(run.out / FACE_CACHE), face_renderer(run.jobs, cluster, workers))
    if result.refused:
        raise refusal_error(result.refused, f"{db.output_id} {locale} cards")
    parts = result.parts  # a property that reads every face: once, not once per face
    overflow = {face_id: parts[face_id] for face_id in order if face_id in parts}
    sizes = result.sizes
    small = {face_id: found for face_id in order
             if (found := too_small(sizes.get(face_id, {}), job.min_type.get(face_id, DEFAULT)))}
    if run.strict and overflow:
        raise overflow_error(db, locale, overflow, "; nothing written")
    if run.strict and small:
        raise small_type_error(db, locale, small, "; nothing written")
    stored: Mapping[str, bytes | Path] = {i: f.stored for i, f in result.faces.items()}
    with assemble(JpegFaces(stored, run.jpeg_quality) if run.jpeg_quality else stored, order, BLEED_MM, locale,
                  {i: f.group for i, f in result.faces.items()}) as shop:  # closed once saved
        shop_sha, shop_file = write_output_file(run.out, shop_path, lambda path: save_pdf_file(shop, path))
    common = {"game": db.output_id, "locale": locale, "input_hash": key, "selection": deck.selection,
              "players": deck.players, "edition": deck.edition, "jpeg_quality": run.jpeg_quality,
              **overflow_fields(overflow, small)}
    fallbacks = fallen_back(job.fallbacks)
    records = [OutputRecord(kind="cards-print-shop", path=shop_path, pages=len(order), sha256=shop_sha, **common,
                            fallbacks=fallbacks)]
    if run.png:
        for path, data in iter_pngs(shop_file, order, Path(f"{base}/print-shop/png-{deck.label}")):  # each written as made
            records.append(OutputRecord(kind="card-png", path=path, pages=1, sha256=write_output(run.out, path, data),
                                        **common, fallbacks=fallbacks))
    return shop_file, job, key, overflow, records, result.rendered, small


def size_groups(job: FaceJob, deck: Deck, game_size: tuple[float, float]) -> dict[tuple[float, float], list[int]]:
    """Deck entries by the trim size of their cards (the game's size first): each size is imposed on its own sheets."""
    faces = {face.id: face for face in job.faces}
    groups: dict[tuple[float, float], list[int]] = {game_size: []}
    for i, entry in enumerate(deck.cards):
        face = faces[entry.card.id]
        groups.setdefault((face.trim_w, face.trim_h), []).append(i)
    return {size: entries for size, entries in groups.items() if entries}


def sheet_name(deck: Deck, size: tuple[float, float], sizes: list[tuple[float, float]], game_size: tuple[float, float],
               layout: str, paper: str) -> str:
    """The file name of the card sheets of ``size``: the game's size (or the only one) unmarked, another size with
    ``-<w>x<h>``, a layout other than the grid with its name."""
    width, height = size
    suffix = "" if len(sizes) == 1 or size == game_size else f"-{width:g}x{height:g}"
    named = "" if layout == "grid" else f"-{layout}"
    return f"cards-{deck.label}{suffix}{named}-{paper}.pdf"


def contents_files(deck: Deck, groups: dict[tuple[float, float], list[int]], game_size: tuple[float, float],
                   layout: SheetLayout, pieces: list[tuple[str, str]]) -> dict[str, list[str]]:
    """What the contents page names in its "printed in" column (:func:`.contents.row_files`): each set's (and
    each optional card's) sheet files, by the card sizes its cards have, and the files of the pieces this build
    writes (``pieces``: their kinds and paths), by piece."""
    files: dict[str, list[str]] = {}
    for size, entries in groups.items():
        name = sheet_name(deck, size, list(groups), game_size, layout.name, layout.paper)
        for i in entries:
            entry = deck.cards[i]
            key = entry.card.id if entry.card.optional else entry.set_id
            if name not in files.setdefault(key, []):
                files[key].append(name)
    for kind, path in pieces:  # both board files (``board``, ``board-a3``) print the board's row
        files.setdefault(f"piece:{kind.removesuffix('-a3')}", []).append(path.rsplit("/", 1)[-1])
    return files


def _build_deck(db: Database, deck: Deck, locale: str, run: FaceRun, given: SheetLayout, proof: bool,
                kept: dict[str, OutputRecord], cluster: Any = None,
                pieces: list[tuple[str, str]] | None = None, workers: BuildWorkers | None = None) -> DeckOutcome:
    """Faces (cached, rendered or reused), then sheets (imposed or reused) for one deck × locale, per card size,
    on the layout ``given`` (``--layout`` and its options); with ``proof``, its contact sheet too. ``workers``: the
    build's worker processes, which lay the faces out (else a pool of the deck's own)."""
    game = db.game_doc
    chosen, layout_digest = _chosen_layout(db, given)  # a layout that cannot be used stops before any face is laid out
    shop_file, job, faces_key, overflow, records, laid_out, small = _faces(db, deck, locale, run, kept, cluster, workers)
    if run.strict and overflow:
        raise overflow_error(db, locale, overflow)
    if run.strict and small:
        raise small_type_error(db, locale, small)
    page_of = {face.id: i for i, face in enumerate(job.faces)}
    back_of = {face.id: face.back for face in job.faces if isinstance(face, Face)}
    game_size = resolve_card_size(game).mm
    groups = size_groups(job, deck, game_size)
    imposed = False
    shop = None
    notes: list[str] = []
    rows = kit_contents(db, deck)
    gaps = play_gaps(db, deck, rows)
    files = contents_files(deck, groups, game_size, given, pieces or [])
    contents_key = hashlib.sha256(repr((rows, deck.left_out, deck.removed, gaps, files)).encode()).hexdigest()
    opening = None
    fell_back: list[dict[str, str]] = []
    for (width, height), entries in groups.items():
        layout = replace(given, trim_w=width, trim_h=height, bleed=BLEED_MM)
        sheet = _slot_sheet(db, chosen, layout)
        if sheet is None:  # the grid rule: drawn by .impose with the layout file's numbers
            rule = chosen[0].rule
            layout = replace(layout, min_margin=chosen[0].margin, mark_length=rule.mark_length, mark_gap=rule.mark_gap)  # type: ignore[union-attr]
        else:
            notes += [n for n in sheet.notes if n not in notes]
        sheet_key = sheet_hash(f"{faces_key} {contents_key}", layout, layout_digest)
        sheet_path = f"{db.output_id}/{locale}/" + sheet_name(deck, (width, height), list(groups), game_size,
                                                              layout.name, layout.paper)
        cards = [deck.cards[i].card.id for i in entries for _ in range(deck.cards[i].copies)]
        cuts = cut_files(sheet_path, len(cards), sum(1 for s in sheet.slots if s.side == "front")) \
            if sheet and sheet.corner_radius is not None else []
        previous = [kept.get(path) for path in [sheet_path, *(path for _, path, _ in cuts)]]
        if all(r is not None and r.input_hash == sheet_key and still_valid(run.out, r) for r in previous):
            records += previous  # type: ignore[arg-type]
            continue
        if sheet is None:
            try:
                layout.grid
            except ValueError as exc:
                raise UsageError(f"{db.output_id}: {exc}") from None
        shop = shop or open_pdf(shop_file)
        fronts, backs = [page_of[c] for c in cards], [page_of[back_of[c]] for c in cards]
        if sheet is None:
            sheets = impose(shop, fronts, backs, layout)
        else:
            sheets = impose_slots(shop, fronts, backs, sheet, BLEED_MM, layout.duplex, (layout.offset_x, layout.offset_y))
        duplex = layout.duplex != "none" and not isinstance(chosen[0].rule, GutterfoldRule)  # backs on their own pages
        if opening is None:  # the same page as last build when only a face changed: from the layout cache
            with layout_cache(run.out / LAYOUT_CACHE):
                opening, fell_back = contents_pdf(db, locale, rows, files, layout.paper, duplex, run.allow_fallback,
                                                  deck.edition, job.fallbacks, deck.left_out, gaps,  # type: ignore[arg-type]
                                                  deck.removed if deck.edition == "playtest" else ())
        for number, page in enumerate(opening.pages):
            sheets.pages.insert(number, page)
        sheet_sha, _ = write_output_file(run.out, sheet_path, lambda path: save_pdf_file(sheets, path))
        common = {"game": db.output_id, "locale": locale, "input_hash": sheet_key, "selection": deck.selection,
                  "players": deck.players, "paper": layout.paper, "edition": deck.edition,
                  "jpeg_quality": run.jpeg_quality}
        records.append(OutputRecord(kind="cards", path=sheet_path, pages=len(sheets.pages), sha256=sheet_sha, **common,
                                    contents=[row.record() for row in rows], contents_pages=len(opening.pages),
                                    fallbacks=fell_back, **overflow_fields(overflow, small)))
        if cuts:
            from .cutfiles import cut_dxf, cut_svg  # ezdxf (and numpy) only for a layout that makes cut files

            for kind, path, count in cuts:
                data = (cut_svg if kind == "cut-svg" else cut_dxf)(sheet, count)  # type: ignore[arg-type]
                records.append(OutputRecord(kind=kind, path=path, pages=1, sha256=write_output(run.out, path, data),
                                            **common))
        imposed = True
    if proof:
        records.append(_proof(db, deck, locale, run.out, given.paper, kept, job, faces_key, overflow,
                              shop_file))
    outcome = _outcome(db, deck, locale, records, overflow, laid_out is not None, imposed, laid_out)
    outcome.notes = notes
    outcome.small = small
    outcome.telltale = telltale_backs(job)
    return outcome


def cut_files(sheet_path: str, cards: int, per_page: int) -> list[tuple[str, str, int]]:
    """The cut files of a print-and-cut sheets file of ``cards`` cards, ``per_page`` to a page: (kind, path, cards
    it cuts). ``….cut.svg`` and ``….cut.dxf`` serve every full page; a last page the cards do not fill gets its
    own, ``….last.cut.svg`` and ``….last.cut.dxf``, cutting only its filled slots (a file of one page that is not
    full: the plain names, cutting its cards only). A machine never cuts an empty slot."""
    stem = sheet_path[:-4]
    full, rest = divmod(cards, per_page)
    plan = [(f"{stem}.cut", per_page if full else rest)]
    if full and rest:
        plan.append((f"{stem}.last.cut", rest))
    return [(kind, f"{name}.{ext}", count) for name, count in plan for kind, ext in (("cut-svg", "svg"), ("cut-dxf", "dxf"))]


def _chosen_layout(db: Database, given: SheetLayout) -> tuple[tuple[LayoutFile, str], str]:
    """The layout ``--layout`` names (the pack's or game folder's own before the shipped one) and a digest of
    its file, which goes into each sheet's input hash. Options the layout would ignore are refused."""
    roots = [bundle.root for bundle in db.packs] + [db.game.root]
    path = layout_path(given.name, roots)
    layout = read_layout(path)
    rule, name = layout[0].rule, given.name
    if given.mark_inset is not None and not isinstance(rule, PrintAndCutRule):
        raise UsageError(f"--mark-inset moves registration marks; layout {name!r} prints none")
    if not isinstance(rule, GridRule) and (given.gutter or given.marks != "cards"):
        raise UsageError(f"--gutter and --marks shape the grid; layout {name!r} places its cards and marks itself")
    if isinstance(rule, GutterfoldRule) and (given.offset_x or given.offset_y or given.duplex != "long"):
        raise UsageError(f"--back-offset and --duplex place back pages; layout {name!r} prints each back beside its front")
    return layout, hashlib.sha256(read_limited(path, MAX_ASSET_BYTES)).hexdigest()


def _slot_sheet(db: Database, chosen: tuple[LayoutFile, str], layout: SheetLayout) -> Sheet | None:
    """The sheet of a slot layout for this paper and card size, checked; None for the grid rule (drawn by
    :mod:`.impose`). A layout that cannot take the size, or whose sheet has a fault, stops the build."""
    layout_file, display = chosen
    listed = any(s.paper == layout.paper and abs(s.card_width - layout.trim_w) < 0.01
                 and abs(s.card_height - layout.trim_h) < 0.01 for s in layout_file.sheets)
    if isinstance(layout_file.rule, GridRule) and not listed:
        if layout.paper not in layout_file.papers:
            raise UsageError(f"{display}: the layout is made for {', '.join(layout_file.papers)} paper, not {layout.paper}")
        return None
    try:
        sheet = sheet_for(layout_file, layout.paper, layout.trim_w, layout.trim_h, layout.bleed, layout.mark_inset)
    except LayoutTooLarge as exc:
        raise DataError(f"layout {layout.name!r} cannot be used for {layout.trim_w:g} × {layout.trim_h:g} mm cards",
                        [Problem(display, "/rule", "layout-too-large", f"{layout.trim_w:g} × {layout.trim_h:g} mm cards "
                                 f"on {layout.paper} paper: {exc}")]) from None
    except LayoutError as exc:
        raise UsageError(f"{db.output_id}: layout {layout.name!r} ({display}): {exc}") from None
    faults = sheet_problems(sheet)
    if faults:
        raise DataError(f"layout {layout.name!r} makes a faulty sheet for {layout.trim_w:g} × {layout.trim_h:g} mm cards "
                        f"on {layout.paper} paper", [Problem(display, pointer or "/rule", code, message)
                                                    for pointer, code, message in faults])
    return sheet


def proof_notes(job: FaceJob, overflow: dict[str, tuple[str, ...]]) -> ProofNotes:
    """What a reviewer must look at on each face: overflow, art under 300 dpi, placeholder art, fallback strings."""
    from urllib.parse import unquote, urlparse

    from ..validate.check_art import PRINT_DPI, image_problem
    from ..models.face import art_box_mm, effective_dpi

    notes = ProofNotes()
    for face in job.faces:
        if face.id in overflow:
            notes.add(face.id, "OVERFLOW: " + (", ".join(overflow[face.id]) or "text") + " does not fit")
        if not isinstance(face, Face):
            continue
        if face.art is None:
            notes.add(face.id, "PLACEHOLDER ART")
            continue
        found = image_problem(Path(unquote(urlparse(face.art.url).path)))
        if found is not None and not found[0]:
            dpi = round(effective_dpi(found[2], art_box_mm(face.trim_w, face.trim_h, face.layout)), 1)
            if dpi < PRINT_DPI:
                notes.add(face.id, f"LOW RESOLUTION: {dpi:.1f} dpi")
    for fallback in job.fallbacks:
        face_id = fallback.split("/", 1)[0]
        if any(face.id == face_id for face in job.faces):
            notes.add(face_id, "FALLBACK " + fallback.split("/", 1)[1])
    return notes


def _proof(db: Database, deck: Deck, locale: str, out: Path, paper: str, kept: dict[str, OutputRecord], job: FaceJob,
           faces_key: str, overflow: dict[str, tuple[str, ...]], shop_file: Path) -> OutputRecord:
    """The contact sheet of a deck × locale (``--proof``) on ``paper``, written under ``out``, reused while its
    faces are unchanged."""
    path = f"{db.output_id}/{locale}/proof-{deck.label}.pdf"
    key = hashlib.sha256(f"proof {faces_key} {paper}".encode()).hexdigest()
    previous = kept.get(path)
    if previous is not None and previous.input_hash == key and still_valid(out, previous):
        return previous
    sheet = contact_sheet(open_pdf(shop_file), [face.id for face in job.faces],
                          proof_notes(job, overflow), BLEED_MM, paper)
    sha, _ = write_output_file(out, path, lambda file: save_pdf_file(sheet, file))
    return OutputRecord(game=db.output_id, locale=locale, kind="cards-proof", path=path, pages=len(sheet.pages),
                        sha256=sha, input_hash=key, selection=deck.selection,
                        players=deck.players, paper=paper, edition=deck.edition,
                        **overflow_fields(overflow))


def selected_games(cards_root: Path, wanted: str | None) -> list[Path]:
    """The game folders to build: every game, or the one asked for."""
    folders = game_folders(cards_root)
    if wanted is not None:
        folders = [f for f in folders if f.name == wanted]
        if not folders:
            raise UsageError(f"unknown game {wanted!r}")
    return folders


def has_cards(folder: Path) -> bool:
    """Whether the game folder ``folder`` holds set files, the documents that list cards: such a game's cards are
    printed in its own look (``templates/<game>/cards.css`` in its folder) or, without one, the default card look
    (the shipped ``cards/cards.css``), so a build never prints nothing for a game with cards."""
    return has_set_files(folder)


def _locales(db: Database, asked: list[str] | None, every_game: bool) -> list[str]:
    """The locales to build: the tags ``asked`` (``--locale``: locales, aliases, the pseudo-locale), else every
    locale of the game (of a pack: the game's source locale and the locales the pack translates)."""
    game = db.game_doc
    if asked:
        if every_game:  # each game builds the asked locales it has
            found = (known_locale(game, tag) for tag in asked)
            return list(dict.fromkeys(loc for loc in found if loc is not None))
        return list(dict.fromkeys(resolve_locale(game, tag) for tag in asked))
    if db.packs:
        translated = {doc.locale for b in db.packs for _, doc in b.docs("translations")}
        return [loc for loc in game.locales if loc == game.source_locale or loc in translated]
    return list(game.locales)


def _pack_plans(cards_root: Path, packs: list[Path], choice: DeckChoice, merge: bool,
                locales: list[str] | None) -> list[tuple[Database, Deck, str]]:
    """Each pack's deck (alone, or merged into the game's with ``merge``) in each of its locales (or the
    ``locales`` asked for)."""
    plans = []
    for db in open_packs(cards_root, packs):
        deck = choice.deck(db, with_game=merge)
        if not deck.cards:
            raise UsageError(f"pack {db.output_id!r} has no cards to print in {deck.label!r}")
        plans += [(db, deck, locale) for locale in _locales(db, locales, every_game=False)]
    return plans


def build(cards_root: Path, options: BuildOptions, progress: Progress | None = None) -> BuildReport:
    """Validate, then build every selected deck × locale; reuse outputs whose inputs did not change.

    With ``options.packs``, only the packs' decks, written under ``<out>/<pack id>/``. The build is a
    transaction (:mod:`.transaction`): outputs are staged and published together with the manifest, with the
    output folder locked, so a failed or killed build leaves the previous one as it was. With
    ``options.scheduler``, card faces are laid out on that Dask cluster and all the rest is done here.
    """
    check_quality(options.jpeg_quality, "the PNG images of the cards (--png)" if options.png else None)
    if options.scheduler:
        refuse_remote("--scheduler")
    with ExitStack() as stack:
        cluster = stack.enter_context(connect(options.scheduler)) if options.scheduler else None  # said before work
        verdicts = Verdicts(options.out / VALIDATION_CACHE, cards_root, options.packs or None,
                            None if options.packs else options.game)
        report = verdicts.report()
        if report.errors:
            raise DataError(f"the database has {len(report.errors)} error(s); nothing was built", report.errors)
        stack.enter_context(BuildTransaction(options.out))
        result = _build_validated(cards_root, options, progress, cluster)
        result.art_warnings = [p for p in report.warnings if p.code.startswith("art-")]
    verdicts.keep()  # once the build is published: a failed build writes nothing
    return result


def _build_validated(cards_root: Path, options: BuildOptions, progress: Progress | None, cluster: Any = None) -> BuildReport:
    previous = {r.path: r for r in read_manifest(options.out)}
    kept = {path: r for path, r in previous.items() if (options.out / path).exists()}
    result = BuildReport()
    finished = getattr(progress, "finished", None)
    choice = DeckChoice.of(options)
    plans = _pack_plans(cards_root, options.packs, choice, options.merge, options.locales) if options.packs else []
    tasks: list[DocTask | PieceTask] = []
    games: dict[str, Database] = {}  # each game loaded once, for its decks and its documents
    for folder in [] if options.packs else selected_games(cards_root, options.game):
        db = Database(game=load_game(folder))
        games[str(db.game.root)] = db
        game = db.game_doc
        locales = _locales(db, options.locales, every_game=options.game is None)
        try:
            deck = choice.deck(db)
        except UsageError as exc:
            if options.game is not None:
                raise
            result.skipped.append(f"{game.id}: {exc}")
            continue
        if options.cards and deck.cards:
            plans += [(db, deck, locale) for locale in locales]
        if options.cards:
            tasks += piece_tasks(db, locales, options.layout, options.allow_fallback, options.proof,
                                 deck_sets(db, deck), deck.edition)
        if options.documents:
            boxes = [s.id for s in game.selections] if options.selection is None else []
            tasks += doc_tasks(db, locales, [deck.selection, *(b for b in boxes if b != deck.selection)],
                               options.allow_fallback, options.proof, options.layout.paper)
    run = FaceRun.of(options)
    with BuildWorkers(options.jobs, games) as workers:  # one pool for every deck's faces and the documents
        for step, (db, deck, locale) in enumerate(plans):
            if progress:
                progress(f"{db.game_doc.id} {locale} {deck.label}", step, len(plans))
            started = time.perf_counter()
            pieces = [(t.kind, t.path) for t in tasks if isinstance(t, PieceTask) and t.game_root == str(db.game.root)
                      and t.locale == locale and not options.packs]  # a pack's build makes no pieces
            outcome = _build_deck(db, deck, locale, run, options.layout, options.proof, kept, cluster, pieces, workers)
            if finished and (outcome.rendered or outcome.imposed):
                for record in outcome.records:
                    finished(record.path, time.perf_counter() - started)
            size = resolve_card_size(db.game_doc)
            note = replace(options.layout, trim_w=size.width_mm, trim_h=size.height_mm).fit_note()
            for line in [note] if options.layout.name == "grid" else outcome.notes:
                if line and f"{db.output_id}: {line}" not in result.notes:
                    result.notes.append(f"{db.output_id}: {line}")
            for record in outcome.records:
                kept[record.path] = record
            result.outcomes.append(outcome)
        if not plans and not tasks:  # a calibration sheet alone is no build
            raise UsageError("nothing to build: " + ("; ".join(result.skipped) or "no cards, pieces or documents to "
                                                     "print with these options"))
        if tasks:
            if progress:
                progress(f"{len(tasks)} rulebooks, FAQ indexes and printable pieces", len(plans), len(plans) + 1)
            result.documents = build_documents(tasks, options.out, kept, options.jobs, finished, games, workers)
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
