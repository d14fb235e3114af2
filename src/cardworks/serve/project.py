"""What the preview shows, read from disk: the database, its problems, the deck and each card's facts.

A :class:`Snapshot` is rebuilt from scratch whenever a watched file changes;
it is never written back. Every problem keeps its file and gets a line number
(JSON pointers are looked up in the file's text), so the page can say where
to look. When a data file cannot be read, the cards that came from it are
shown as errors, never as their last good picture.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


from ..errors import UsageError
from ..fileio import read_text_limited
from ..i18n import Localizer
from ..loading.database import Database, display_path, load_game, load_pack
from ..loading.jsonfile import MAX_FILE_BYTES
from ..loading.paths import PathEscape, is_inside, resolve_inside
from ..loading.records import Index
from ..markup import MarkupError, parse, plain_text as markup_plain_text
from ..problems import Problem
from ..loading.database import game_folders
from . import adapter
from .pointer_lines import pointer_lines
from .worker import RENDER_TIMEOUT_S


@dataclass(frozen=True)
class ServeOptions:
    """What to preview: a database root, packs, a game, a deck selection and a starting locale."""

    cards_root: Path
    packs: tuple[Path, ...] = ()
    game: str | None = None
    selection: str | None = None
    locale: str | None = None
    render_timeout: float = RENDER_TIMEOUT_S
    """Longest a batch of faces may take to render before it is stopped and shown as failed."""


@dataclass(frozen=True)
class ShownProblem:
    """A problem as the page shows it: ``file:line`` when the line is known, the JSON pointer beside it."""

    severity: str
    file: str
    line: int | None
    location: str
    code: str
    message: str

    @property
    def where(self) -> str:
        if self.line is None:
            return f"{self.file}:{self.location}" if self.location else self.file
        if self.location.count(":") == 1 and self.location.replace(":", "").isdigit():
            return f"{self.file}:{self.location}"  # already line:column
        return f"{self.file}:{self.line}" + (f" ({self.location})" if self.location else "")

    @property
    def text(self) -> str:
        return f"{self.where}: [{self.code}] {self.message}"


@dataclass
class CardInfo:
    """One design of the deck as the pages list it."""

    id: str
    name: str
    set_id: str
    types: tuple[str, ...]
    copies: int
    quantity_source: str
    file: str
    line: int | None
    problems: list[ShownProblem] = field(default_factory=list)
    broken: bool = False
    """True when the card's file cannot be read: the page shows its problems instead of a face."""
    model: Any = None
    art: Path | None = None
    """The card's illustration file, when it names one."""


@dataclass(frozen=True)
class UnreadableFile:
    """A data file that does not parse, with its errors; its cards are unknown until it is fixed."""

    file: str
    problems: list[ShownProblem]

    @property
    def anchor(self) -> str:
        """An HTML id for the file's place on the page."""
        return "file-" + hashlib.sha256(self.file.encode()).hexdigest()[:12]


@dataclass
class Snapshot:
    """The state of the database at one moment, as the pages show it."""

    version: int
    game_id: str
    title: str
    locales: list[str]
    default_locale: str
    db: Database | None
    deck: Any
    cards: list[CardInfo]
    problems: list[ShownProblem]
    """Problems that belong to no card of the deck (game files, rulings, other sets)."""
    blocking: list[ShownProblem]
    """Errors that stop the deck from being shown at all (an unreadable game.json, an unknown selection)."""
    unreadable: list[UnreadableFile] = field(default_factory=list)
    """Data files that do not parse and whose cards were never read: the page shows each in their place."""
    loading: bool = False
    """The data is still being read and checked (the first page is served before it is)."""

    @property
    def errors(self) -> int:
        return sum(p.severity == "error" for p in self.problems) + sum(
            p.severity == "error" for c in self.cards for p in c.problems)

    def card(self, card_id: str) -> CardInfo | None:
        return next((c for c in self.cards if c.id == card_id), None)

    @property
    def sets(self) -> list[str]:
        return list(dict.fromkeys(c.set_id for c in self.cards))

    @property
    def types(self) -> list[str]:
        return sorted({t for c in self.cards for t in c.types})


class LineFinder:
    """Line numbers of JSON pointers, from each file's text (read once per snapshot), and short file names."""

    def __init__(self, roots: list[Path], kept: dict[str, tuple[tuple[int, int], Any]] | None = None,
                 readable: list[Path] | None = None) -> None:
        self._maps: dict[str, dict[str, int] | None] = {}
        self._roots = [root.resolve() for root in roots]
        self._readable = self._roots if readable is None else [root.resolve() for root in readable]
        """Folders whose files may be read for line numbers (the database and the packs): a file whose
        symlink leads elsewhere is never opened."""
        self._kept = {} if kept is None else kept
        """Line maps of earlier snapshots by file, with the (mtime, size) they were made for: an edit
        maps again only the file that changed."""

    def short(self, file: str) -> str:
        """``file`` relative to the database root or a pack's parent: ``<game>/sets/<set>.json``."""
        path = Path(file).parent.resolve() / Path(file).name  # a symlink is named where it is, not where it leads
        for root in self._roots:
            if path.is_relative_to(root):
                return path.relative_to(root).as_posix()
        return file

    def line(self, file: str, location: str) -> int | None:
        if location.count(":") == 1 and location.replace(":", "").isdigit():
            return int(location.split(":")[0])
        if file not in self._maps:
            self._maps[file] = self._source_map(file)
        entries = self._maps[file]
        if not entries:
            return None
        pointer = location
        while pointer not in entries and pointer:  # a pointer to a missing member: its parent's line
            pointer = pointer.rsplit("/", 1)[0]
        return entries.get(pointer)

    def _source_map(self, file: str) -> dict[str, int] | None:
        path = Path(file)
        if not any(is_inside(root, path) for root in self._readable):
            return None  # a symlink out of the database: the loader refused it; it is never opened here
        try:
            status = path.stat()
            stamp = (status.st_mtime_ns, status.st_size)
            if file in self._kept and self._kept[file][0] == stamp:
                return self._kept[file][1]
            # The same checked reader as validate: a FIFO or a device is refused, not waited on or read whole.
            text = read_text_limited(path, MAX_FILE_BYTES)
            json.loads(text)  # only well-formed JSON is mapped; a syntax error already has its line:column
        except (OSError, ValueError):  # UnsafeFile is a ValueError
            return None
        self._kept[file] = (stamp, pointer_lines(text))
        return self._kept[file][1]

    def shown(self, problem: Problem) -> ShownProblem:
        return ShownProblem(problem.severity, self.short(problem.file), self.line(problem.file, problem.location),
                            problem.location, problem.code, problem.message)


def pack_game(pack: Path, read: dict[Path, Any] | None = None) -> str:
    """The id of the game a pack folder extends (its ``pack.json``), or a usage error saying what is missing; the
    pack as read is kept in ``read`` (so starting the server reads each pack once)."""
    if not pack.is_dir():
        raise UsageError(f"pack folder {display_path(pack)!r} does not exist")
    bundle = load_pack(pack)
    if read is not None:
        read[pack] = bundle
    manifests = bundle.docs("pack")
    if not manifests:
        raise UsageError(f"{display_path(pack / 'pack.json')}: a pack needs a readable pack.json naming the game it "
                         "extends; run 'cardworks validate' on it")
    return manifests[0][1].extends


def choose_game(options: ServeOptions, read: dict[Path, Any] | None = None) -> Path:
    """The game folder to preview: the one the packs extend, the one asked for, or the only one with card faces
    (the packs as read kept in ``read``)."""
    folders = {folder.name: folder for folder in game_folders(options.cards_root)}
    wanted = {pack_game(pack, read) for pack in options.packs}
    if options.game:
        wanted.add(options.game)
    if len(wanted) > 1:
        raise UsageError(f"the packs and --game name different games: {', '.join(sorted(wanted))}")
    if not wanted:
        with_faces = [name for name, folder in sorted(folders.items()) if adapter.has_cards(folder)]
        if len(with_faces) != 1:
            raise UsageError(f"several games here; choose one with --game ({', '.join(with_faces)})")
        wanted = {with_faces[0]}
    game = wanted.pop()
    if game not in folders:
        raise UsageError(f"unknown game {game!r}; games here: {', '.join(sorted(folders)) or 'none'}")
    if not adapter.has_cards(folders[game]):
        raise UsageError(f"game {game!r} has no card faces to preview")
    return folders[game]


def _owner(problem: ShownProblem, cards: dict[tuple[str, str], CardInfo], ids: dict[str, CardInfo]) -> CardInfo | None:
    """The card a problem is about: by its place in a set file, or by the card id a translation is keyed by."""
    parts = problem.location.split("/")
    if len(parts) >= 3 and parts[1] == "cards":
        return cards.get((problem.file, f"/cards/{parts[2]}"))
    if len(parts) >= 3 and parts[1] == "entries":
        return ids.get(parts[2].replace("~1", "/").replace("~0", "~"))
    return None


def _readable_part(selection: str | None, db: Database) -> str | None:
    """The sets and selections of ``selection`` the database still knows while a file cannot be read: the
    other sets' cards stay on the page instead of the whole deck going."""
    if selection is None:
        return None
    known = {r.id for r in Index(db).of_kind("set")} | {s.id for s in db.game_doc.selections}
    parts = [p for p in selection.replace(",", "+").split("+") if p in known]
    return "+".join(parts) or None


def _title(db: Database, game_folder: Path) -> str:
    """The packs' names when packs are previewed (the designer's own work), else the game's."""
    names = [doc.name for bundle in db.packs for _, doc in bundle.docs("pack") if getattr(doc, "name", None)]
    if names:
        return " + ".join(names)
    return db.game_doc.name if db.game_doc else game_folder.name


def read_database(options: ServeOptions, game_folder: Path, read: dict[Path, Any] | None = None) -> Database:
    """The game and packs as they are on disk now (read, not yet validated); a pack in ``read`` was read a moment
    ago (``choose_game``) and is not read again."""
    read = read or {}
    return Database(game=load_game(game_folder), packs=[read.get(p) or load_pack(p) for p in options.packs])


def loading_snapshot(options: ServeOptions, game_folder: Path, db: Database) -> Snapshot:
    """What the pages show while the data is being checked: the title and locales, no card yet."""
    game = db.game_doc
    return Snapshot(0, game.id if game else game_folder.name, _title(db, game_folder),
                    list(game.locales) if game else [], options.locale or (game.source_locale if game else ""),
                    None, None, [], [], [], loading=True)


def load_snapshot(options: ServeOptions, game_folder: Path, version: int, previous: Snapshot | None = None,
                  source_maps: dict[str, Any] | None = None, db: Database | None = None) -> Snapshot:
    """Read the game and packs (unless ``db`` was just read), validate them, and describe the deck; never
    raises for bad data.

    ``source_maps`` keeps the files' line maps from one snapshot to the next.
    """
    from ..validate.runner import Report, check_database  # after the first page: not needed for it

    db = db if db is not None else read_database(options, game_folder)
    report = Report()
    check_database(db, report)
    lines = LineFinder([options.cards_root, *(pack.parent for pack in options.packs)], source_maps,
                       readable=[game_folder, *options.packs])
    shown = [lines.shown(p) for p in report.items]
    game = db.game_doc
    title = _title(db, game_folder)
    locales = list(game.locales) if game else ([options.locale] if options.locale else [])
    snapshot = Snapshot(version, game.id if game else game_folder.name, title, locales,
                        options.locale or (game.source_locale if game else ""), db, None, [], [], [])
    if game is None:
        snapshot.blocking = [p for p in shown if p.severity == "error"] or [
            ShownProblem("error", display_path(game_folder / "game.json"), None, "", "missing-file", "no game.json")]
        snapshot.problems = shown
        return snapshot
    broken_files = {lines.short(f.display) for b in db.bundles for f in b.files if f.doc is None}
    try:  # --set, else the packs' own sets, else the game's default deck: read afresh, never the last deck's
        snapshot.deck = adapter.build_deck(db, options.selection)
    except UsageError as exc:
        if not broken_files:  # the selection itself is wrong, not a file being edited
            snapshot.blocking = [ShownProblem("error", display_path(game_folder / "game.json"), None, "/selections",
                                              "deck-selection", str(exc))]
            snapshot.problems = shown
            return snapshot
        readable = _readable_part(options.selection, db)  # a set named by --set is in the broken file
        if readable is not None:
            snapshot.deck = adapter.build_deck(db, readable)
    index = Index(db)
    places = {r.id: r for r in index.of_kind("card")}
    for entry in snapshot.deck.cards if snapshot.deck else ():
        record = places[entry.card.id]
        snapshot.cards.append(CardInfo(entry.card.id, entry.card.name, entry.set_id, tuple(entry.card.types),
                                       entry.copies, entry.quantity_source, lines.short(record.file.display),
                                       lines.line(record.file.display, record.pointer), model=entry.card,
                                       art=_art_inside(record.bundle.root, entry.card.art)))
    by_place = {(lines.short(places[c.id].file.display), places[c.id].pointer): c for c in snapshot.cards}
    by_id = {c.id: c for c in snapshot.cards}
    for problem, seen in zip(report.items, shown):
        owner = _owner(seen, by_place, by_id)
        if owner is not None:
            owner.problems.append(seen)
        elif problem.code != "cross-checks-skipped":
            snapshot.problems.append(seen)
    marked = set()
    if previous is not None:  # cards whose file broke: shown as their file's errors, not as their old face
        for card in previous.cards:
            if card.file in broken_files and card.id not in by_id:
                errors = [p for p in shown if p.file == card.file and p.severity == "error"]
                snapshot.cards.append(CardInfo(card.id, card.name, card.set_id, card.types, card.copies,
                                               card.quantity_source, card.file, card.line, errors, broken=True))
                marked.add(card.file)
    for file in sorted(broken_files - marked):  # never read whole (so far): the file itself stands for its cards
        errors = [p for p in shown if p.file == file and p.severity == "error"]
        snapshot.unreadable.append(UnreadableFile(file, errors))
    return snapshot


def _art_inside(root: Path, art: str | None) -> Path | None:
    """The card's art file when it lies inside its game or pack (validate reports any other)."""
    if not art:
        return None
    try:
        return resolve_inside(root, art)
    except PathEscape:
        return None


def tile_key(card: CardInfo, face_key: str | None, warnings: list[str]) -> str:
    """A hash of everything a card's tile shows; the page replaces a tile only when this changes."""
    data = (card.id, card.name, card.set_id, card.types, card.copies, card.quantity_source, card.broken,
            [p.text for p in card.problems], face_key, warnings)
    return hashlib.sha256(repr(data).encode()).hexdigest()[:16]


def plain_text(text: str, db: Database, locale: str) -> str:
    """Card-text markup as plain text: each ``{token}`` becomes its alt text in the locale, in brackets."""
    localizer = Localizer(db, locale)
    alts = {r.id: f"[{localizer.text(r.id, 'alt', r.model.alt)[0]}]" for r in Index(db).of_kind("icon")}
    try:
        return markup_plain_text(parse(text), alts)
    except MarkupError:
        return text
