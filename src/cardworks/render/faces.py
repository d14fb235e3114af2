"""Card faces: one PDF page per design at trim + bleed, rules text fitted to its box.

Faces are rendered once per distinct design (the cost of a deck follows its
designs, not its copies); sheets place these pages as many times as needed.
Rules text starts at the largest size and, for each card whose text overflows
its box, is re-rendered one step smaller, down to a minimum; a card that still
overflows is reported.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from ..i18n import Localizer
from ..loading.database import Database
from ..loading.records import Index
from .art import ArtBox
from .deck import Deck
from .fetcher import safe_fetcher
from .fonts import font_face_css, font_folders, wrapped_lines
from .jinja import environment, templates_dir

FIT_STEPS = 6
"""Rules-text sizes: ``fit-0`` (8 pt) down to ``fit-5`` (5.5 pt)."""
TITLE_SIZES = (9.5, 8.5, 7.5, 7.0)
"""Card-title sizes in points, tried in order: the largest at which the title takes at most two lines,
broken at spaces only (titles are never hyphenated)."""
BLEED_MM = 3.0
RULES_HEIGHT_MM = 27.5


@dataclass(frozen=True)
class Icon:
    url: str
    alt: str


@dataclass
class Face:
    """What one card face shows: facts only, in one locale; nothing assumed."""

    id: str
    name: str
    colour: str
    type_icons: list[Icon]
    kind_icon: Icon | None
    sell: int | None
    stats: list[dict[str, Any]]
    marks: list[Icon]
    rules: str | None
    flavour: str | None
    unverified: str
    set_id: str = ""
    fit: int = 0
    is_back: bool = False
    name_size: float = TITLE_SIZES[0]
    name_fits: bool = True
    """False when the title needs more than two lines even at the smallest size (reported as overflow)."""


@dataclass
class Back:
    """The common back of a deck."""

    title: str
    emblem_url: str
    emblem_alt: str
    id: str = "back"
    is_back: bool = True


@dataclass
class FaceJob:
    """Everything a worker process needs to render some faces (picklable)."""

    lang: str
    title: str
    trim_w: float
    trim_h: float
    game_root: str
    faces: list[Face]
    icons: dict[str, tuple[str, str]]
    game_id: str


@dataclass
class FaceResult:
    """Rendered faces: PDF bytes per pass, the page of each face, and the overflow report."""

    pdfs: list[bytes] = field(default_factory=list)
    pages: dict[str, tuple[int, int]] = field(default_factory=dict)
    """Face id → (index into ``pdfs``, page index)."""
    fits: dict[str, int] = field(default_factory=dict)
    overflow: list[str] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)
    arts: dict[str, ArtBox] = field(default_factory=dict)
    """Face id → where its placeholder art is painted (after layout, see ``art``)."""


def _unverified_fields(card: Any) -> set[str]:
    supported: dict[str, set[str]] = {}
    for source in card.sources:
        for fact in source.facts:
            supported.setdefault(fact.split("/")[0], set()).add(source.certainty)
    return {name for name, levels in supported.items() if levels == {"unverified"}}


def title_size(name: str, width_mm: float) -> tuple[float, bool]:
    """The title's size (see ``TITLE_SIZES``) and whether it fits two lines at all."""
    for size in TITLE_SIZES:
        if wrapped_lines(name, size, width_mm, "CardCondensed", "bold") <= 2:
            return size, True
    return TITLE_SIZES[-1], False


def _title_width(trim_w: float, kind: bool, sell: bool) -> float:
    """Room for the title in the header (templates/cards/cards.css): the card less its frame and padding,
    the type icons, and the kind icon with its sell value."""
    return trim_w - 2 * 2.6 - 2 * 0.35 - 2 * 1.6 - 7.0 - 1.2 - (5.2 if kind else 0.0) - (2.4 if sell else 0.0)


def build_job(db: Database, deck: Deck, locale: str) -> FaceJob:
    """The faces of ``deck`` in ``locale``, plus its back."""
    index = Index(db)
    game = db.game_doc
    localizer = Localizer(db, locale)
    root = db.game.root
    icons: dict[str, tuple[str, str]] = {}
    for record in index.of_kind("icon"):
        icon = record.model
        base = record.bundle.root
        icons[icon.id] = ((base / icon.svg).resolve().as_uri(), localizer.text(icon.id, "alt", icon.alt)[0])

    def icon(token: str | None) -> Icon | None:
        return Icon(*icons[token]) if token and token in icons else None

    types = {t.id: t for t in game.card_types}
    kinds = {v.id: v for a in game.attributes if a.id == "treasure-kind" for v in a.values}
    stats = {s.id: s for s in game.stats}
    markers = {m.id: m for m in game.markers}
    set_marks = {r.id: r.model.mark for r in index.of_kind("set")}
    faces = []
    for entry in deck.cards:
        card = entry.card
        unverified = _unverified_fields(card)
        colour = types[card.types[0]].colour or "#cccccc"
        kind = card.attributes.get("treasure-kind")
        shown_stats = [{"url": icons[stats[s].icon][0], "alt": icons[stats[s].icon][1],
                        "value": value}  # the rank's icon already reads "n": the number alone follows it
                       for s, value in card.stats.items()
                       if value is not None and s != "sell" and stats[s].icon in icons]
        marks = [icon(markers[m].icon) for m in card.markers if m in markers]
        marks += [icon(token) for token in card.icons]
        marks.append(icon(set_marks.get(entry.set_id)))
        name = localizer.text(card.id, "name", card.name)[0]
        size, fits = title_size(name, _title_width(game.card_size.width_mm, kind in kinds,
                                                   card.stats.get("sell") is not None))
        faces.append(Face(
            id=card.id,
            name=name,
            name_size=size,
            name_fits=fits,
            colour=colour,
            type_icons=[i for i in (icon(types[t].icon) for t in card.types) if i],
            kind_icon=icon(kinds[kind].icon) if kind in kinds else None,
            sell=card.stats.get("sell"),
            stats=shown_stats,
            marks=[m for m in marks if m],
            rules=localizer.text(card.id, "rules", card.rules)[0] if card.rules else None,
            flavour=localizer.text(card.id, "flavour", card.flavour)[0] if card.flavour else None,
            set_id=entry.set_id,
            unverified="?" if unverified & {"types", "stats", "attributes", "markers", "rules", "icons"} else "",
        ))
    back_icon = icon(game.card_types[0].icon) if game.card_types else None
    name = localizer.text(game.id, "name", game.name)[0]
    faces.append(Back(title=name, emblem_url=back_icon.url if back_icon else "", emblem_alt=back_icon.alt if back_icon else ""))
    size = game.card_size
    return FaceJob(locale, name, size.width_mm, size.height_mm, str(root), faces, icons, game.id)


PX = 0.75
"""PDF points per CSS pixel."""


def _measure(document: Any, faces: list[Face | Back]) -> tuple[list[str], dict[str, ArtBox]]:
    """Read WeasyPrint's layout: faces whose rules text overflows its box, and where each face's art goes."""
    colours = {face.id: face.colour for face in faces if isinstance(face, Face)}
    overflow, arts = [], {}
    for page in document.pages:
        stack = [page._page_box]
        while stack:
            box = stack.pop()
            element_id = box.element.get("id") if getattr(box, "element", None) is not None else None
            if element_id and element_id.startswith("rules-") and box.element_tag == "div" and hasattr(box, "children"):
                limit = box.content_box_y() + box.height + 0.5
                bottom = max((c.position_y + c.margin_height() for c in box.children), default=0)
                if bottom > limit:
                    overflow.append(element_id.removeprefix("rules-"))
                continue
            if element_id and element_id.startswith("art-") and box.element_tag == "div":
                face_id = element_id.removeprefix("art-")
                radius = max(0.0, box.border_top_left_radius[0] - box.border_left_width)
                arts[face_id] = ArtBox(box.padding_box_x() * PX, (page.height - box.padding_box_y() - box.padding_height()) * PX,
                                       box.padding_width() * PX, box.padding_height() * PX, radius * PX, colours[face_id])
                continue
            stack.extend(getattr(box, "children", []))
    return overflow, arts


def _render(job: FaceJob, faces: list[Face | Back], fetcher: Any) -> tuple[bytes, list[str], dict[str, ArtBox]]:
    from weasyprint import HTML

    template = environment().get_template("cards/cards.html.j2")
    doc = {
        "lang": job.lang, "title": job.title, "font_css": font_face_css(),
        "page_w": job.trim_w + 2 * BLEED_MM, "page_h": job.trim_h + 2 * BLEED_MM, "bleed": BLEED_MM,
        "trim_w": job.trim_w, "trim_h": job.trim_h, "rules_h": RULES_HEIGHT_MM,
        "base_css_url": (templates_dir() / "cards" / "cards.css").as_uri(),
        "css_url": (templates_dir() / job.game_id / "cards.css").as_uri(),
    }
    html = template.render(doc=doc, faces=faces, icons=job.icons)
    document = HTML(string=html, base_url=templates_dir().as_uri() + "/", url_fetcher=fetcher).render()
    out = io.BytesIO()
    document.write_pdf(out)
    return (out.getvalue(), *_measure(document, faces))


FACES_PER_CHUNK = 16
"""Faces laid out together in one document. Chunks depend only on the faces, never on ``--jobs``,
so any number of jobs gives byte-identical files."""


@dataclass
class PassResult:
    """One document of faces: its PDF, the faces whose rules text overflowed, and refused fetches."""

    pdf: bytes
    overflow: list[str]
    arts: dict[str, ArtBox]
    refused: list[str]


def render_pass(job: FaceJob) -> PassResult:
    """Lay out the faces of ``job`` at their current fit step, in one document (runs in a worker)."""
    from pathlib import Path

    fetcher = safe_fetcher([templates_dir(), Path(job.game_root), *font_folders()])
    pdf, overflow, arts = _render(job, job.faces, fetcher)
    return PassResult(pdf, overflow, arts, sorted(set(fetcher.refused)))


def chunks(items: list[Any], size: int = FACES_PER_CHUNK) -> list[list[Any]]:
    """``items`` cut into the fewest chunks of at most ``size``, of near-equal length (so workers share evenly)."""
    if not items:
        return []
    count = -(-len(items) // size)
    base, extra = divmod(len(items), count)
    bounds = [0]
    for i in range(count):
        bounds.append(bounds[-1] + base + (i < extra))
    return [items[a:b] for a, b in zip(bounds, bounds[1:])]


def render_faces(job: FaceJob, map_passes: Callable[..., Iterable[PassResult]] = map) -> FaceResult:
    """Every face of ``job``, shrinking overflowing rules text one step per pass.

    Each pass lays out its chunks through ``map_passes`` (``map``, or a process pool's); the faces that
    overflowed in any chunk are gathered and re-laid out together one step smaller, so a pass costs
    one document per chunk however the overflowing faces were spread.
    """
    result = FaceResult()
    titles = [f.id for f in job.faces if isinstance(f, Face) and not f.name_fits]
    pending = chunks(list(job.faces))
    while pending:
        done = list(map_passes(render_pass, [replace(job, faces=part) for part in pending]))
        retry: list[Face | Back] = []
        for part, outcome in zip(pending, done):
            result.pdfs.append(outcome.pdf)
            result.refused += outcome.refused
            result.arts.update(outcome.arts)
            for page, face in enumerate(part):
                result.pages[face.id] = (len(result.pdfs) - 1, page)
                result.fits[face.id] = getattr(face, "fit", 0)
                if face.id not in outcome.overflow:
                    continue
                if face.fit + 1 < FIT_STEPS:
                    face.fit += 1
                    retry.append(face)
                else:
                    result.overflow.append(face.id)
        pending = chunks(retry)
    result.overflow += [face for face in titles if face not in result.overflow]  # a title over two lines
    result.refused = sorted(set(result.refused))
    return result
