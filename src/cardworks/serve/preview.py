"""The preview's state: the current snapshot, the rendered faces, and what each page shows.

Faces are kept in memory by the hash of exactly what they show (see
:func:`adapter.face_set`): after an edit only the faces whose hash changed are
laid out again. Rendering runs under one lock, so a page request and a reload
never lay out the same faces twice; the deck page never waits for it: a face not
drawn yet is shown as waiting, drawn in the background, and each batch drawn is
announced (``progress``) so open pages fill in. Each face is shown at its card's
size and with its own back, both as ``render.faces.build_job`` gives them to the
PDFs.
"""

from __future__ import annotations

import io
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from ..fileio import MAX_ASSET_BYTES, UnsafeFile, read_limited
from ..i18n import Localizer
from ..i18n.locales import known_locale, resolve_locale
from ..loading.records import Index
from ..models.card_size import resolve_card_size
from . import adapter
from .worker import RenderTimeout, RenderWorker
from .project import (CardInfo, ServeOptions, ShownProblem, choose_game, load_snapshot, loading_snapshot, plain_text,
                      read_database, tile_key)

PRINT_DPI = 300
"""Art below this resolution at its printed size looks soft in print."""
BATCH = 16
"""Faces sent to the rendering process at once (one WeasyPrint document); the time limit is per batch, and
open pages fill in after each."""
FIRST_BATCH = 4
"""The first batch is small, so the first faces appear soon after the page."""
TILE_PX_PER_MM = 204 / 69
"""Deck-page scale: a 63 × 88 mm card with its 3 mm bleed is 204 px wide; every size is drawn at this scale."""
LARGE_PX_PER_MM = 407 / 69
"""Card-page scale of the large front and back."""
CACHE_FACES = 4000
"""Faces kept in memory (about 40 kB each); the oldest are dropped first."""


@dataclass
class Tile:
    """One card as the deck page shows it."""

    card: CardInfo
    name: str
    face: str | None
    """Hash of the face (its image URL), or None when the card cannot be shown."""
    warnings: list[str]
    missing: str = ""
    """Why no face is shown, when none is."""
    size: tuple[int, int] = (204, 278)
    """Width and height on the page in px: the card's trim and bleed at ``TILE_PX_PER_MM``."""
    waiting: bool = False
    """The face is being drawn: the page fills it in when it is."""
    key: str = ""
    small: str = ""
    """The face's type too small to read, in words (a mark on the face), '' when every part is large enough."""

    @property
    def has_problems(self) -> bool:
        return bool(self.card.problems or self.warnings or self.card.broken)


@dataclass(frozen=True)
class RefreshTiming:
    """How long the last reload took: reading and validating the data, then rendering the faces that changed."""

    read_s: float
    faces_s: float
    faces: int


@dataclass
class LocaleView:
    """One card in one locale, for the card page."""

    locale: str
    name: str
    status: str
    face: str | None
    back: str | None
    warnings: list[str] = field(default_factory=list)
    large: tuple[int, int] = (407, 555)
    """Front and back on the card page, px (the card's size at ``LARGE_PX_PER_MM``)."""
    small: tuple[int, int] = (204, 278)
    """The face among the other locales, px (``TILE_PX_PER_MM``)."""
    small_type: str = ""
    """The face's type too small to read, in words (a mark on the face), '' when every part is large enough."""


def shown_size(trim_mm: tuple[float, float], px_per_mm: float) -> tuple[int, int]:
    """A face's size on a page: its trim and bleed at one scale for every card, so sizes compare as printed."""
    return (round((trim_mm[0] + 2 * adapter.bleed_mm()) * px_per_mm), round((trim_mm[1] + 2 * adapter.bleed_mm()) * px_per_mm))


def low_resolution(art: Path | None, box_mm: tuple[float, float] | None) -> str | None:
    """A warning when a card's raster art has under 300 pixels per inch at the size its box prints it."""
    if art is None or box_mm is None:
        return None
    from PIL import Image, UnidentifiedImageError  # once faces are drawn: the first page does not need it

    try:  # the checked reader: a FIFO, a device or a huge file is refused, never waited on or read whole
        with Image.open(io.BytesIO(read_limited(art, MAX_ASSET_BYTES))) as image:
            width, height = image.size
    except (UnidentifiedImageError, OSError, UnsafeFile):  # vector art (SVG) has no resolution to check
        return None
    dpi = min(width / (box_mm[0] / 25.4), height / (box_mm[1] / 25.4))
    if dpi >= PRINT_DPI:
        return None
    return f"art {art.name} is {width}×{height} px: {dpi:.0f} dpi at its printed size, {PRINT_DPI} needed"


def _small(warnings: list[str]) -> str:
    """The type-too-small warning among a face's warnings (the mark on the face says it), or ''."""
    return next((warning for warning in warnings if warning.startswith("[type-too-small]")), "")


class Preview:
    """Everything the server shows, rebuilt from disk by :meth:`refresh`."""

    def __init__(self, options: ServeOptions, defer: bool = False) -> None:
        """Read the data and check the options (a wrong one is a usage error here, before anything is served);
        with ``defer``, checking the data waits for :meth:`start`, so the first page can be served at once."""
        self.options = options
        read: dict[Path, object] = {}
        self.game_folder = choose_game(options, read)
        # Deferred (the server's start-up), the rendering process starts once serving began (``start``): on a
        # busy machine its import of the renderer would otherwise slow the first page down.
        self._worker = RenderWorker(options.render_timeout, start=not defer)
        self._source_maps: dict = {}
        db = read_database(options, self.game_folder, read)
        if options.locale and db.game_doc is not None:  # an alias is shown as the locale it names; unknown tags stop here
            self.options = replace(options, locale=resolve_locale(db.game_doc, options.locale))
        self.ready = threading.Event()
        """Set once the data is checked and the first snapshot made."""
        self.snapshot = loading_snapshot(self.options, self.game_folder, db)
        self._first_read = db if defer else None
        if not defer:
            self._load(db)
        self._lock = threading.RLock()
        """Guards the snapshot and the face sets (held briefly: pages never wait for a render under it)."""
        self._render_lock = threading.Lock()
        self._images_lock = threading.Lock()
        """Guards the image cache alone: a face request never waits for a render in progress."""
        self._images: OrderedDict[str, adapter.FaceImage] = OrderedDict()
        self._face_sets: dict[str, adapter.FaceSet] = {}
        self.locales_in_use: set[str] = {self.snapshot.default_locale}
        self._scenarios: tuple[int, list] | None = None
        self.failed: dict[str, str] = {}
        """Face hash → why the renderer could not draw it."""
        self.faces_rendered = 0
        self.last_refresh: RefreshTiming | None = None
        self.progress: Callable[[], None] | None = None
        """Called after each batch of faces drawn (the app tells open pages)."""
        self._drawing: set[str] = set()
        """Locales being drawn in the background."""
        self._art_checks: dict[tuple, str | None] = {}

    def _load(self, db=None) -> None:
        self.snapshot = load_snapshot(self.options, self.game_folder, 1, source_maps=self._source_maps, db=db)
        self.ready.set()

    def warm(self) -> None:
        """Start the rendering process, from the server's start-up in the main thread, before any page is served:
        the child starts with Ctrl-C ignored, which the server ignores too for that moment, so a Ctrl-C sent after
        a page was answered must never fall into it (the server would not stop)."""
        self._worker.warm()

    def start(self) -> None:
        """In the background: check the data if that waits (``defer``), tell open pages, then draw the faces."""

        def run() -> None:
            if not self.ready.is_set():
                first = self._first_read
                snapshot = load_snapshot(self.options, self.game_folder, 1, source_maps=self._source_maps, db=first)
                with self._lock:  # held only to swap: pages are answered while the data is checked
                    if not self.ready.is_set():  # an edit may have been read first
                        self.snapshot, self._first_read = snapshot, None
                        self.ready.set()
                if self.progress is not None:
                    self.progress()
            self.draw_in_background(self.snapshot.default_locale)

        threading.Thread(target=run, name="cardworks-load", daemon=True).start()

    # -- paths -------------------------------------------------------------------------------------------------
    def watched(self) -> list[Path]:
        """Folders whose changes reach the page: the game, the packs, and the card templates."""
        return [self.game_folder, *self.options.packs, adapter.templates_dir()]

    # -- faces -------------------------------------------------------------------------------------------------
    def _faces(self, locale: str) -> adapter.FaceSet | None:
        snapshot = self.snapshot
        if snapshot.db is None or snapshot.deck is None or snapshot.blocking:
            return None
        if locale not in self._face_sets:
            # Cards with errors are never drawn, so their faces are not even built (art leading out of the
            # pack, for one, is refused while the face is built).
            hidden = self._unshowable()
            deck = replace(snapshot.deck, cards=tuple(c for c in snapshot.deck.cards if c.card.id not in hidden))
            self._face_sets[locale] = adapter.face_set(snapshot.db, deck, locale)
        return self._face_sets[locale]

    def ensure(self, locale: str, ids: list[str] | None = None) -> dict[str, str]:
        """Render whatever faces of ``locale`` (all, or ``ids`` and their backs) are not cached; face id → hash."""
        with self._lock:
            faces = self._faces(locale)
            if faces is None:
                return {}
            self.locales_in_use.add(locale)
            hidden = self._unshowable()
        if ids is None:
            wanted = list(faces.keys)
        else:
            wanted = list(dict.fromkeys([*ids, *(faces.backs[i] for i in ids if i in faces.backs)]))
        wanted = [i for i in wanted if i in faces.keys and i not in hidden]
        with self._render_lock:
            missing = [i for i in wanted if faces.keys[i] not in self._images and faces.keys[i] not in self.failed]
            cuts = [0, *range(min(FIRST_BATCH, len(missing)), len(missing), BATCH), len(missing)]
            for start, end in zip(cuts, cuts[1:]):  # each batch bounded in time by the worker
                if start == end:
                    continue
                self._render(faces, missing[start:end])
                if self.progress is not None:
                    self.progress()
            with self._images_lock:
                for face_id in wanted:
                    if faces.keys[face_id] in self._images:
                        self._images.move_to_end(faces.keys[face_id])
                while len(self._images) > CACHE_FACES:
                    self._images.popitem(last=False)
                return {i: faces.keys[i] for i in wanted if faces.keys[i] in self._images}

    def draw_in_background(self, locale: str) -> None:
        """Draw every face of ``locale`` not drawn yet in a thread of its own (once at a time per locale)."""
        with self._lock:
            if locale in self._drawing:
                return
            self._drawing.add(locale)

        def draw() -> None:
            try:
                self.ensure(locale)
            finally:
                with self._lock:
                    self._drawing.discard(locale)

        threading.Thread(target=draw, name=f"cardworks-draw-{locale}", daemon=True).start()

    def tag(self) -> str:
        """What a page shows changes with this: the snapshot's version and the faces drawn so far."""
        return f"{self.snapshot.version}.{self.faces_rendered}"

    def _unshowable(self) -> set[str]:
        """Cards with errors: the page shows their errors instead of a face that would mislead."""
        return {c.id for c in self.snapshot.cards if c.broken or any(p.severity == "error" for p in c.problems)}

    def _render(self, faces: adapter.FaceSet, ids: list[str]) -> None:
        """Render ``ids`` together; if the batch fails, one by one, so one bad face cannot hide the others."""
        if not ids:
            return
        try:
            images = self._worker.render(faces, ids)
        except (RenderTimeout, RuntimeError) as exc:  # data validation let through (a warning), or a face that
            if len(ids) == 1:                          # never finished: find the face
                self.failed[faces.keys[ids[0]]] = str(exc)
                return
            for face_id in ids:
                self._render(faces, [face_id])
            return
        with self._images_lock:
            for face_id, image in images.items():
                self._images[faces.keys[face_id]] = image
        self.faces_rendered += len(images)

    def image(self, key: str) -> adapter.FaceImage | None:
        with self._images_lock:
            return self._images.get(key)

    def refresh(self) -> int:
        """Read the database again and re-render the faces that changed in every locale shown; the new version."""
        start = time.perf_counter()
        with self._lock:
            self.snapshot = load_snapshot(self.options, self.game_folder, self.snapshot.version + 1, self.snapshot,
                                          self._source_maps)
            self._first_read = None
            self.ready.set()
            self._face_sets = {}
            self._scenarios = None
            locales = sorted(self.locales_in_use)
        read = time.perf_counter()
        before = self.faces_rendered
        for locale in locales:
            self.ensure(locale)
        self.last_refresh = RefreshTiming(read - start, time.perf_counter() - read, self.faces_rendered - before)
        return self.snapshot.version

    def close(self) -> None:
        """Stop the rendering process (for good: a face still being drawn is not started again)."""
        self._worker.stop()

    # -- what pages show ---------------------------------------------------------------------------------------
    def _warnings(self, card: CardInfo, face: str | None, faces: adapter.FaceSet | None = None) -> list[str]:
        image = self._images.get(face) if face else None
        if image is None:
            return []
        found = []
        found += image.overflow_warnings()
        if faces is not None:
            found += image.small_type_warnings(faces.minimum(card.id))
        low = self._art_check(card.art, image.art_box_mm)
        if low:
            found.append(low)
        if image.refused:
            found.append("files refused by the renderer: " + ", ".join(image.refused))
        return found

    def _art_check(self, art: Path | None, box_mm: tuple[float, float] | None) -> str | None:
        """``low_resolution``, read again only when the art file changed: pages are fetched after every batch of
        faces drawn, and opening every card's art each time would take the renderer's time."""
        try:
            stamp = art.stat() if art is not None else None
        except OSError:
            stamp = None
        key = (art, box_mm, stamp and (stamp.st_mtime_ns, stamp.st_size, stamp.st_ino))
        if key not in self._art_checks:
            self._art_checks[key] = low_resolution(art, box_mm)
        return self._art_checks[key]

    def tiles(self, locale: str) -> list[Tile]:
        """Every card of the deck in ``locale``, with the faces drawn so far (never waits for one to be drawn)."""
        with self._lock:
            snapshot = self.snapshot
            faces = self._faces(locale)
            self.locales_in_use.add(locale)
            hidden = self._unshowable()
        localizer = Localizer(snapshot.db, locale) if snapshot.db is not None and snapshot.db.game_doc else None
        default = resolve_card_size(snapshot.db.game_doc if localizer else None).mm
        tiles = []
        for card in snapshot.cards:
            name = localizer.text(card.id, "name", card.name)[0] if localizer and not card.broken else card.name
            key = faces.keys.get(card.id) if faces else None
            face = key if key is not None and self.image(key) is not None else None
            waiting = face is None and key is not None and card.id not in hidden and key not in self.failed
            size = shown_size(faces.sizes.get(card.id, default) if faces else default, TILE_PX_PER_MM)
            warnings = self._warnings(card, face, faces)
            tile = Tile(card, name, face, warnings, size=size, waiting=waiting,
                        missing="drawing…" if waiting else self._missing(card, locale, face), small=_small(warnings))
            tile.key = tile_key(card, face, tile.warnings + [name, tile.missing, str(size)])
            tiles.append(tile)
        return tiles

    def _missing(self, card: CardInfo, locale: str, face: str | None) -> str:
        """Why a card shows no face ('' when it does)."""
        if face is not None:
            return ""
        if card.broken:
            return "this card's file cannot be read: fix the error below"
        if card.id in self._unshowable():
            return "fix the error(s) below to see this card"
        faces = self._face_sets.get(locale)
        reason = self.failed.get(faces.keys.get(card.id, "")) if faces else None
        return f"the face could not be drawn: {reason}" if reason else "no face"

    def drawn(self, tiles: list[Tile]) -> tuple[int, int]:
        """Faces of these tiles drawn, and faces that will be (drawn or being drawn)."""
        return sum(t.face is not None for t in tiles), sum(t.face is not None or t.waiting for t in tiles)

    def locale_views(self, card_id: str) -> list[LocaleView]:
        """The card in every locale of the game, front and its own back, side by side, each at its card's size."""
        views = []
        snapshot = self.snapshot
        card = snapshot.card(card_id)
        if card is None or card.id in self._unshowable() or snapshot.db is None:
            return views
        for locale in snapshot.locales:
            faces = self.ensure(locale, [card_id])
            face_set = self._face_sets.get(locale)
            back_id = face_set.backs.get(card_id) if face_set else None
            trim = face_set.sizes.get(card_id) if face_set else None
            name, status = Localizer(snapshot.db, locale).text(card_id, "name", card.name)
            face = faces.get(card_id)
            sizes = {} if trim is None else {"large": shown_size(trim, LARGE_PX_PER_MM),
                                             "small": shown_size(trim, TILE_PX_PER_MM)}
            warnings = self._warnings(card, face, face_set)
            views.append(LocaleView(locale, name, status, face, faces.get(back_id) if back_id else None,
                                    warnings, **sizes, small_type=_small(warnings)))
        return views

    def rulings(self, card_id: str, locale: str) -> list[dict[str, str]]:
        """Rulings that concern the card: question and answer in plain text, and their source."""
        db = self.snapshot.db
        if db is None or db.game_doc is None:
            return []
        found = []
        localizer = Localizer(db, locale)
        for record in Index(db).of_kind("ruling"):
            ruling = record.model
            if card_id in ruling.cards:
                question = localizer.text(ruling.id, "question", ruling.question)[0]
                answer = localizer.text(ruling.id, "answer", ruling.answer)[0]
                found.append({"id": ruling.id, "where": record.where,
                              "question": plain_text(question, db, locale), "answer": plain_text(answer, db, locale),
                              "source": f"{ruling.source.doc}, {ruling.source.section}",
                              "scenarios": list(ruling.scenarios)})
        return found

    def scenarios(self, card_id: str) -> list[dict[str, object]]:
        """Scenarios that check the card (named by it, or checking one of its rulings), run, with their status."""
        with self._lock:
            snapshot = self.snapshot
            db = snapshot.db
            if db is None or db.game_doc is None or snapshot.blocking:
                return []
            if self._scenarios is None or self._scenarios[0] != snapshot.version:
                playable = db.game_doc.id in adapter.scenario_games()
                results = {r.id: r for r in adapter.run_scenarios(db)} if playable else {}
                self._scenarios = (snapshot.version, results)
            results = self._scenarios[1]
            index = Index(db)
            rulings = {r.id for r in index.of_kind("ruling") if card_id in r.model.cards}
            found = []
            for record in index.of_kind("scenario"):
                scenario = record.model
                if card_id not in scenario.cards and not rulings & set(scenario.rulings):
                    continue
                result = results.get(scenario.id)
                status = "not played" if result is None else ("passed" if result.passed else "failed")
                found.append({"id": scenario.id, "title": scenario.title, "where": record.where, "status": status,
                              "messages": list(result.messages) if result else []})
            return found

    def locale_or_default(self, locale: str | None) -> str:
        """The locale asked for when the game has it (or the pseudo-locale), else the default one."""
        game = self.snapshot.db.game_doc if self.snapshot.db is not None else None
        known = known_locale(game, locale) if locale and game is not None else None
        return known or self.snapshot.default_locale


__all__ = ["LocaleView", "Preview", "RefreshTiming", "ShownProblem", "Tile", "low_resolution", "shown_size"]
