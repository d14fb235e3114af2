"""What every export shares: one game's deck, its faces rendered once, and an output folder published whole."""

from __future__ import annotations

import os
import shutil
import tempfile
from glob import escape as glob_escape
from dataclasses import dataclass, field
from pathlib import Path

import pikepdf

from ..errors import DataError, UsageError
from ..fileio import exchange, fault_point, link_to_no_folder, remove_stale_runs, run_ended
from ..i18n import Localizer
from ..i18n.locales import resolve_locale
from ..loading.database import Database, load_database
from ..loading.records import Index
from ..render.build import has_cards, selected_games
from ..render.deck import Deck, build_deck
from ..render.faces import BLEED_MM, Face, FaceJob, build_job, face_renderer
from ..render.facecache import DeckFaces as CachedFaces, FaceCache, deck_faces
from ..render.facepdf import assemble
from ..render.fetcher import refusal_error
from ..render.legibility import DEFAULT as DEFAULT_MINIMUM, too_small
from ..render.telltale import telltale_backs
from ..validate import validate
from .packs import pack_games

MARKER = "export.json"
"""Every folder an export writes holds this record; only such folders are ever replaced."""


@dataclass
class DeckFaces:
    """A deck in one locale with its faces laid out: one page per design, then each back the deck uses."""

    db: Database
    deck: Deck
    locale: str
    result: CachedFaces
    """The faces and what fitting found (``overflow``, ``parts``), laid out now or read from the face cache."""
    pdf: pikepdf.Pdf
    order: list[str]
    """Face ids in page order: the designs, then the backs (``back``, or a set's or card type's, see
    ``render.faces.build_job``) in the order the deck first uses them."""
    backs: dict[str, str] = field(default_factory=dict)
    """Design id → the id of the back printed behind it (the same resolution as ``cardworks build``)."""
    sizes: dict[str, tuple[float, float]] = field(default_factory=dict)
    """Face id (design or back) → its own trim size in mm: its set's, its pack's or the game's."""
    telltale: dict[str, list[str]] = field(default_factory=dict)
    """Card type → its backs, for types whose cards carry several backs (``render.telltale``): a warning."""
    small: dict[str, dict[str, tuple[float, float]]] = field(default_factory=dict)
    """Face id → its parts printed under the smallest legible size: part → (printed pt, minimum pt), as
    ``cardworks build`` finds them (``render.legibility``): a warning naming card and part."""

    @property
    def back_ids(self) -> list[str]:
        """The backs the deck uses, in page order."""
        return self.order[len(self.deck.cards):]

    def back_copies(self) -> dict[str, int]:
        """Physical cards per back."""
        counts = dict.fromkeys(self.back_ids, 0)
        for entry in self.deck.cards:
            counts[self.backs[entry.card.id]] += entry.copies
        return counts

    def trim_of(self, face_id: str) -> tuple[float, float]:
        """The trim size of one face, never the game's size assumed."""
        return self.sizes[face_id]

    def page_trims(self) -> list[tuple[float, float]]:
        """The trim size of each page of ``pdf`` (``order``)."""
        return [self.sizes[face_id] for face_id in self.order]

    def names(self) -> dict[str, str]:
        """Each design's name in the locale."""
        localizer = Localizer(self.db, self.locale)
        return {c.card.id: localizer.text(c.card.id, "name", c.card.name)[0] for c in self.deck.cards}


def load_deck(cards_root: Path, game: str | None, selection: str | None, players: int | None,
              locale: str | None, packs: list[Path] | None = None) -> tuple[Database, Deck, str]:
    """Validate the database (with ``packs``), then the chosen game's deck and locale.

    With packs and no ``selection``, the deck is the packs' own sets. UsageError/DataError name what is wrong.
    """
    packs = list(packs or [])
    if packs:
        extended = pack_games(packs)
        if len(extended) > 1 or (game is not None and game not in extended):
            raise UsageError(f"the packs extend {', '.join(sorted(extended))}; export one game at a time")
        game = extended.pop()
    report = validate(cards_root, packs or None)
    if report.errors:
        raise DataError(f"the database has {len(report.errors)} error(s); nothing was exported", report.errors)
    folders = [f for f in selected_games(cards_root, game) if has_cards(f)]
    if not folders:
        raise UsageError(f"game {game!r} has no cards to export")
    if len(folders) > 1:
        raise UsageError(f"several games have cards ({', '.join(f.name for f in folders)}); choose one with --game")
    db = load_database(folders[0], packs)
    if packs and selection is None:
        selection = "+".join(r.id for r in Index(db).of_kind("set") if r.bundle is not db.game)
    locale = resolve_locale(db.game_doc, locale) if locale else db.game_doc.source_locale
    deck = build_deck(db, selection, players)
    if not deck.cards:
        raise UsageError(f"the deck {deck.label!r} of {db.game_doc.id} has no cards")
    return db, deck, locale


def face_sizes(job: FaceJob) -> dict[str, tuple[float, float]]:
    """Each face's (and back's) own trim size, known before anything is laid out."""
    return {face.id: (face.trim_w, face.trim_h) for face in job.faces}


def set_sizes(job: FaceJob) -> dict[tuple[str, float, float], int]:
    """(set id, width, height) → number of designs, for messages that name a set and its size."""
    found: dict[tuple[str, float, float], int] = {}
    for face in job.faces:
        if isinstance(face, Face):
            key = (face.set_id, face.trim_w, face.trim_h)
            found[key] = found.get(key, 0) + 1
    return found


def render_deck(db: Database, deck: Deck, locale: str, jobs: int = 1, job: FaceJob | None = None,
                cache: FaceCache | None = None) -> DeckFaces:
    """Lay out every design of ``deck`` once, plus the backs it uses, as the print-shop pages (trim + 3 mm bleed).

    ``job`` is the deck's face job when the caller has already built it (to check sizes before rendering).
    ``cache`` is a face cache (``cardworks build``'s): faces found there are not laid out again, new ones go in.
    """
    job = job or build_job(db, deck, locale)
    backs = {face.id: face.back for face in job.faces if isinstance(face, Face)}

    result = deck_faces(job, cache, face_renderer(jobs))
    if result.refused:
        raise refusal_error(result.refused, f"the {db.output_id} {locale} export")
    designs = [c.card.id for c in deck.cards]
    order = designs + list(dict.fromkeys(backs[card] for card in designs))
    pdf = assemble({i: f.stored for i, f in result.faces.items()}, order, BLEED_MM, locale,
                   {i: f.group for i, f in result.faces.items()})
    buffer = tempfile.TemporaryFile()  # on disk, read back as needed: a deck of art is not held in memory
    pdf.save(buffer)  # reopen so later copies see a plain file, not pages borrowed from the faces
    buffer.seek(0)
    return DeckFaces(db, deck, locale, result, pikepdf.open(buffer), order, backs, face_sizes(job),
                     telltale_backs(job), small_type(job, result, order))


def small_type(job: FaceJob, result: CachedFaces, order: list[str]) -> dict[str, dict[str, tuple[float, float]]]:
    """The faces whose type prints under its minimum (the pack's, else the default), in page order: the same
    check as ``cardworks build``'s, on the same measured sizes."""
    sizes = result.sizes
    return {face_id: found for face_id in order
            if (found := too_small(sizes.get(face_id, {}), job.min_type.get(face_id, DEFAULT_MINIMUM)))}


def refuse_unreadable(faces: DeckFaces) -> None:
    """An export's ``--strict`` (print-shop and tts alike), before any file is written: DataError naming each card
    and part whose text overflows or prints under its minimum, the refusal of ``cardworks build --strict``."""
    from ..render.build import overflow_error, small_type_error

    overflow = faces.result.parts
    designs = {entry.card.id for entry in faces.deck.cards}
    if any(card in designs for card in overflow):
        raise overflow_error(faces.db, faces.locale, {c: p for c, p in overflow.items() if c in designs},
                             "; nothing was exported")
    if faces.small:
        raise small_type_error(faces.db, faces.locale, faces.small, "; nothing was exported")


def staging_folder(out: Path) -> Path:
    """A fresh folder beside ``out`` to write into; refuses to replace a folder no export wrote."""
    if out.exists() and (not out.is_dir() or (any(out.iterdir()) and not (out / MARKER).is_file())):
        raise UsageError(f"{out} exists and was not written by a cardworks export; choose another --out")
    out.parent.mkdir(parents=True, exist_ok=True)
    return Path(tempfile.mkdtemp(dir=out.parent, prefix=f".{out.name}.staging-{os.getpid()}-"))


def export_folder(out: Path) -> Path:
    """The folder an export into ``out`` writes, made ready (:func:`restore`) before anything else is done:
    ``out`` itself or, when ``out`` is a symbolic link, the folder it points to (followed: the link stays, and
    the folder it names is replaced whole, beside itself). A link to nothing, to a file or in a loop is refused."""
    target = Path(os.path.realpath(out)) if out.is_symlink() else out
    restore(target)
    pointed = link_to_no_folder(out)
    if pointed is not None:
        raise UsageError(f"--out {out} is a symbolic link to {pointed}, which is not a folder; point it at a folder "
                         "or choose another --out")
    return target


def restore(out: Path) -> None:
    """Before anything else: put back the earlier export into ``out`` that a run killed between its two renames
    (where a folder cannot be swapped in one step) left hidden as ``.<out>.old-<pid>``, then remove the staging
    and old folders of ended runs."""
    if not os.path.lexists(out):
        hidden = [entry for entry in out.parent.glob(f".{glob_escape(out.name)}.old-*")
                  if run_ended(entry, f".{out.name}.old-")]
        if hidden:
            os.replace(max(hidden, key=lambda entry: entry.stat().st_mtime_ns), out)
    remove_stale(out)


def publish_folder(staging: Path, out: Path) -> None:
    """Replace ``out`` by ``staging``: swapped in one step where the system can (``fileio.exchange``), else by two
    renames; readers see the old folder or the new one, never a mix. Then remove the old one, and what killed
    exports into ``out`` left beside it. Killed at any moment, ``out`` holds the earlier export or this one (or,
    between the two renames, the earlier one is hidden and the next run puts it back first: :func:`restore`)."""
    fault_point("export-publish")
    os.chmod(staging, 0o755)
    if not out.exists():
        os.replace(staging, out)
    elif exchange(staging, out):  # ``staging`` now holds the earlier export
        fault_point("export-exchanged")
        shutil.rmtree(staging, ignore_errors=True)
    else:
        old = out.with_name(f".{out.name}.old-{os.getpid()}")
        os.replace(out, old)
        fault_point("export-between-renames")
        os.replace(staging, out)
        shutil.rmtree(old, ignore_errors=True)
    remove_stale(out)


def remove_stale(out: Path) -> list[Path]:
    """Remove the staging and old folders of exports into ``out`` whose process has ended (killed, or the
    machine stopped): ``.<out>.staging-<pid>-*`` and ``.<out>.old-<pid>`` (``fileio.remove_stale_runs``). A folder
    of an export still running (its process alive) is left alone; one without a process id (older cardworks) is
    stale."""
    return [entry for kind in ("staging", "old") for entry in remove_stale_runs(out.parent, f".{out.name}.{kind}-")]


def discard(staging: Path) -> None:
    shutil.rmtree(staging, ignore_errors=True)
