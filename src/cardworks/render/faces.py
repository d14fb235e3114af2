"""Card faces: one PDF page per design at trim + bleed, rules text fitted to its box.

Faces are rendered once per distinct design (the cost of a deck follows its
designs, not its copies); sheets place these pages as many times as needed.
Rules text starts at the largest size and, for each card whose text overflows
its box or runs into the flavour, is re-rendered one step smaller, down to a
minimum; a card whose text still spills (rules, flavour, title or stats, read
from the layout by :mod:`.measure`) is reported with the parts that spill.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from ..cluster import cluster_map
from ..errors import DataError
from ..fileio import fault_point
from ..loading.database import Bundle, Database, display_path
from ..loading.paths import resolve_inside
from ..loading.records import Index
from ..models.certainty import PLAIN, field_certainty
from ..models.pack import TypeMinimum
from ..problems import Problem
from .art import ArtBox
from .deck import Deck
from .docs.texts import DocTexts
from .fetcher import safe_fetcher
from .fonts import font_face_css, font_folders, shared_font_config, wrapped_lines
from ..models.card_size import DEFAULT_CARD_SIZE, resolve_card_size
from ..models.face import face_geometry
from .marks import NOT_STATED, UNKNOWN, Edition, legend, shown_value, used_marks
from .jinja import TEMPLATE_FAILURES, environment, template_file, template_problem, templates_dir
from .measure import Spill, measure
from .rawpng import raw_images
from .sandbox import render_budgeted
from .svgforms import SvgForms
from .typography import typeset

FIT_SIZES = (8.0, 7.5, 7.0, 6.5, 6.0, 5.5)
"""Rules-text sizes in points, ``fit-0`` to ``fit-5`` (as in templates/cards/cards.css)."""
FIT_STEPS = len(FIT_SIZES)
TITLE_SIZES = (9.5, 8.5, 7.5, 7.0)
"""Card-title sizes in points, tried in order: the largest at which the title takes at most two lines,
broken at spaces only (titles are never hyphenated)."""
BLEED_MM = 3.0


@dataclass(frozen=True)
class Icon:
    url: str
    alt: str
    mark: str = ""
    """``†`` when what the icon claims (a type, a set, a marker) is not stated by the rulebooks."""
    text: str = ""
    """A badge drawn as text where no icon is (``url`` empty): the set's number for a set that has no mark
    of its own, ``□`` for a set no source gives."""


@dataclass(frozen=True)
class Art:
    """A card's illustration: its file URL and the CSS position that keeps its focus point in view."""

    url: str
    position: str = "50% 50%"


@dataclass(frozen=True)
class Look:
    """How a group of faces is drawn: the template folders searched before the shipped one, and the stylesheets."""

    overrides: tuple[str, ...]
    stylesheets: tuple[str, ...]


@dataclass
class Face:
    """What one card face shows, in one locale: facts, with every value the rulebooks do not state marked
    (see :mod:`.marks`); stand-ins only in the playtest edition, marked too."""

    id: str
    name: str
    colour: str
    type_icons: list[Icon]
    kind_icon: Icon | None
    sell: str | None
    """The sell value as printed (``2``, ``2†``, ``?``); None for a card without one."""
    stats: list[dict[str, Any]]
    marks: list[Icon]
    rules: str | None
    flavour: str | None
    unverified: str
    """The legend of the marks this face prints (empty when it prints none)."""
    set_id: str = ""
    type: str = ""
    fit: int = 0
    is_back: bool = False
    art: Art | None = None
    layout: str = "framed"
    artist: str | None = None
    look: str = ""
    trim_w: float = DEFAULT_CARD_SIZE.width_mm
    trim_h: float = DEFAULT_CARD_SIZE.height_mm
    back: str = "back"
    """Id of the back printed behind this face."""
    name_size: float = TITLE_SIZES[0]
    name_fits: bool = True
    """False when the title needs more than two lines even at the smallest size (by the font's metrics; the
    overflow report comes from the layout, see :mod:`.measure`)."""
    type_mark: str = ""
    """``†`` when the card's types are not stated by the rulebooks."""
    name_mark: str = ""
    """``†`` when a source gives the card's name below ``stated`` (a name from a fan list)."""
    rules_unknown: bool = False
    """True when ``rules`` is the sentence saying no source gives the card's text (printed in its box)."""
    kind_mark: str = ""
    """``†`` when its treasure kind is not stated."""
    edition: str = "fact"
    """The edition the face belongs to (part of its cache key)."""
    fields: list[dict[str, Any]] | None = None
    """A game without rules (declared ``card_fields``): each declared field the card gives, in declared order, as
    ``{id, kind, value, label, corner}`` (the value as printed, with its mark); None for a game with rules."""
    values: dict[str, Any] | None = None
    """The same by field id (``face.values.cost``), for a designer's own template."""


@dataclass
class Back:
    """A back: the deck's common one, or a set's or card type's (an image or a template)."""

    title: str
    emblem_url: str
    emblem_alt: str
    id: str = "back"
    is_back: bool = True
    art_url: str = ""
    template: str = ""
    look: str = ""
    trim_w: float = DEFAULT_CARD_SIZE.width_mm
    trim_h: float = DEFAULT_CARD_SIZE.height_mm
    fit: int = 0


@dataclass
class FaceJob:
    """Everything a worker process needs to render some faces (picklable)."""

    lang: str
    title: str
    roots: list[str]
    """Folders the fetcher may read besides the templates and fonts: the game's and the packs'."""
    faces: list[Face | Back]
    icons: dict[str, tuple[str, str]]
    game_id: str
    looks: dict[str, Look] = field(default_factory=dict)
    fallbacks: list[str] = field(default_factory=list)
    """Strings taken from another locale (``card/field (locale)``), for proofs."""
    min_type: dict[str, TypeMinimum] = field(default_factory=dict)
    """Face id → the smallest type its pack allows, for faces of a pack that sets its own (``render.legibility``)."""


@dataclass
class FaceResult:
    """Rendered faces: PDF bytes per pass, the page of each face, and the overflow report (faces, and their parts)."""

    pdfs: list[bytes] = field(default_factory=list)
    pages: dict[str, tuple[int, int]] = field(default_factory=dict)
    """Face id → (index into ``pdfs``, page index)."""
    fits: dict[str, int] = field(default_factory=dict)
    overflow: list[str] = field(default_factory=list)
    parts: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """Face id → the parts that overflow (``name``, ``stats``, ``rules``, ``flavour``), for faces in ``overflow``."""
    refused: list[str] = field(default_factory=list)
    arts: dict[str, ArtBox] = field(default_factory=dict)
    """Face id → where its placeholder art is painted (after layout, see ``art``); faces with art have none."""
    decoded: dict[str, str] = field(default_factory=dict)
    """Art files that could not go into the PDF undecoded (file URL → why, see :mod:`.rawpng`)."""
    sizes: dict[str, dict[str, float]] = field(default_factory=dict)
    """Face id → its printed type size per part, in points at its real size (see :mod:`.measure`)."""


def _not_stated(card: Any, field: str) -> str:
    """``†`` when the rulebooks do not state ``field`` of ``card`` (see :mod:`.marks`)."""
    return NOT_STATED if field_certainty(card.sources, field) not in PLAIN else ""


def face_stats(card: Any, stats: dict[str, Any], edition: Edition, assumed: dict[tuple[str, str], Any]) -> dict[str, str]:
    """Stat id → the value printed on the face: every stat the card carries (a ``null`` one has a value the
    sources do not give: ``?``, or in the playtest edition its marked stand-in; a stat with a default prints
    only a value of its own); a stat the card's ``missing`` facts name is unknown too."""
    shown = {}
    missing = {fact.field for fact in card.missing}
    for stat in stats.values():
        if stat.id not in card.stats and f"stats/{stat.id}" not in missing:
            continue
        value = card.stats.get(stat.id)
        if value is None and stat.default is not None:
            continue  # the stated default (e.g. rank 1) is what a card printing no value has
        shown[stat.id] = shown_value(value, card.sources, f"stats/{stat.id}", edition, assumed.get((card.id, f"stats/{stat.id}")))
    return shown


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


def _look(db: Database, bundle: Bundle, looks: dict[str, Look]) -> str:
    """The key of the look of records in ``bundle``: its templates, then the game's, then (a game without rules)
    the shipped face of declared fields, then the shipped ones."""
    folders = [bundle.root / "templates"] + ([db.game.root / "templates"] if bundle is not db.game else [])
    own = db.game_doc.card_fields
    folders += [templates_dir() / OWN_GAME_TEMPLATES] if own else []
    overrides = tuple(str(folder.resolve()) for folder in folders if folder.is_dir())
    key = "|".join(overrides) or "shipped"
    if key not in looks:
        game_id = db.game_doc.id
        sheets = (template_file("cards/cards.css", overrides),
                  *([template_file("cards/own-game.css", overrides)] if own else []),
                  template_file(f"{game_id}/cards.css", overrides))
        looks[key] = Look(overrides, tuple(sheet.as_uri() for sheet in sheets if sheet.is_file()))
    return key


OWN_GAME_TEMPLATES = "own-game"
"""Shipped templates of a game without rules (``templates/own-game/``): its default face, which lays out the
fields the game declares; the game folder's own ``templates/cards/face.html.j2`` replaces it."""


def own_fields(game: Any, card: Any, stats: dict[str, str], texts: DocTexts, icon: Callable[[str], Icon | None]) \
        -> list[dict[str, Any]]:
    """The declared fields ``card`` gives, in declared order, as its face prints them (see ``Face.fields``)."""
    types = {t.id: t for t in game.card_types}
    attributes = {a.id: {v.id: v for v in a.values} for a in game.attributes}
    shown = []
    for declared in game.card_fields:
        value: Any = None
        if declared.kind == "title":
            value = str(texts.text(card.id, "name", card.name))
        elif declared.kind == "type":
            kind = types.get(card.types[0])
            value = str(texts.text(game.id, f"card_types/{kind.id}/name", kind.name)) if kind else None
        elif declared.kind == "number":
            value = stats.get(declared.id)
        elif declared.kind == "choice":
            chosen = attributes.get(declared.id, {}).get(card.attributes.get(declared.id) or "")
            value = str(texts.text(game.id, f"attributes/{declared.id}/values/{chosen.id}/name", chosen.name)) \
                if chosen else None
        elif declared.kind == "icons":
            value = [i for i in (icon(token) for token in card.icons) if i] or None
        elif declared.kind == "text":
            value = str(texts.text(card.id, "rules", card.rules)) if card.rules else None
        elif declared.kind == "flavour":
            value = str(texts.text(card.id, "flavour", card.flavour)) if card.flavour else None
        elif declared.kind == "credit":
            value = card.artist
        elif declared.kind == "quantity":
            value = card.quantity
        elif declared.kind == "image":
            value = card.art
        label = str(texts.text(game.id, f"card_fields/{declared.id}/label", declared.label)) if declared.label else None
        shown.append({"id": declared.id, "kind": declared.kind, "value": value, "label": label,
                      "corner": declared.corner})
    return shown


def _size_suffix(size: Any, game_size: Any) -> str:
    return "" if size == game_size else f"-{size.width_mm:g}x{size.height_mm:g}"


def build_job(db: Database, deck: Deck, locale: str, allow_fallback: bool = False) -> FaceJob:
    """The faces of ``deck`` in ``locale`` and its edition, plus their backs.

    Raises :class:`DataError` naming every card string missing in ``locale`` unless ``allow_fallback``
    (then the game's declared chain fills them).
    """
    index = Index(db)
    game = db.game_doc
    texts = DocTexts(db, locale, allow_fallback)
    icons: dict[str, tuple[str, str]] = {}
    for record in index.of_kind("icon"):
        icon = record.model
        base = record.bundle.root
        icons[icon.id] = ((base / icon.svg).resolve().as_uri(), str(texts.text(icon.id, "alt", icon.alt)))

    def icon(token: str | None) -> Icon | None:
        return Icon(*icons[token]) if token and token in icons else None

    types = {t.id: t for t in game.card_types}
    kinds = {v.id: v for a in game.attributes if a.id == "treasure-kind" for v in a.values}
    stats = {s.id: s for s in game.stats}
    markers = {m.id: m for m in game.markers}
    sets = {r.id: r for r in index.of_kind("set")}
    packs = {id(b): doc for b in db.packs for _, doc in b.docs("pack")}
    looks: dict[str, Look] = {}
    assumed = index.assumed()
    edition = deck.edition
    name = str(texts.text(game.id, "name", game.name))
    back_icon = icon(game.card_types[0].icon) if game.card_types else None
    backs: dict[str, Back] = {}
    game_size = resolve_card_size(game)

    def back_for(card: Any, set_record: Any, bundle: Bundle, size: Any) -> str:
        """The back of a card: its set's, else its type's (the pack's, then the game's), else the common one."""
        declared, owner, label = set_record.model.back, set_record.bundle, f"set-{set_record.id}"
        for holder, backs_by_type in ((bundle, packs[id(bundle)].backs if id(bundle) in packs else {}),
                                      (db.game, game.backs)):
            if declared is None and card.types[0] in backs_by_type:
                declared, owner, label = backs_by_type[card.types[0]], holder, f"type-{card.types[0]}"
        back_id = ("back" if declared is None else f"back-{label}") + _size_suffix(size, game_size)
        if back_id not in backs:
            art = resolve_inside(owner.root, declared.art).as_uri() if declared is not None and declared.art else ""
            template = declared.template if declared is not None and declared.template else ""
            backs[back_id] = Back(title=name, emblem_url=back_icon.url if back_icon else "",
                                  emblem_alt=back_icon.alt if back_icon else "", id=back_id, art_url=art, template=template,
                                  look=_look(db, owner, looks), trim_w=size.width_mm, trim_h=size.height_mm)
        return back_id

    faces: list[Face | Back] = []
    min_type: dict[str, TypeMinimum] = {}
    for entry in deck.cards:
        card = entry.card
        set_record = sets[entry.set_id]
        bundle = set_record.bundle
        pack = packs.get(id(bundle))
        size = resolve_card_size(game, pack, set_record.model)
        if pack is not None and pack.min_type_pt is not None:
            min_type[card.id] = pack.min_type_pt
        colour = types[card.types[0]].colour or "#cccccc"
        kind = card.attributes.get("treasure-kind")
        values = face_stats(card, stats, edition, assumed)
        shown_stats = [{"url": icons[stats[s].icon][0], "alt": icons[stats[s].icon][1],
                        "value": value}  # the rank's icon already reads "n": the number alone follows it
                       for s, value in values.items() if s != "sell" and stats[s].icon in icons]
        marks = [_marked(icon(markers[m].icon), _not_stated(card, "markers")) for m in card.markers if m in markers]
        marks += [_marked(icon(token), _not_stated(card, "icons")) for token in card.icons]
        marks.append(set_badge(card, set_record, icon(set_record.model.mark), texts))
        rules = str(texts.text(card.id, "rules", card.rules)) if card.rules else None
        rules_unknown = rules is None and field_certainty(card.sources, "rules") is None
        if rules_unknown:  # a blank box would read as a card with no text; no source says it has none
            rules = f"{UNKNOWN}\u00a0{texts.label('rules_unknown')}"
        flavour = str(texts.text(card.id, "flavour", card.flavour)) if card.flavour else None
        rules_mark, flavour_mark = _not_stated(card, "rules"), _not_stated(card, "flavour")
        type_mark = _not_stated(card, "types")
        kind_mark = _not_stated(card, "attributes/treasure-kind") if kind in kinds else ""
        name_mark = NOT_STATED if field_certainty(card.sources, "name") not in (None, *PLAIN) else ""
        printed = [*values.values(), type_mark, kind_mark, name_mark, *(m.mark + m.text for m in marks if m),
                   rules_mark if rules and not rules_unknown else "", rules if rules_unknown else "",
                   flavour_mark if flavour else ""]
        art = None
        if card.art:
            focus = card.art_focus or (0.5, 0.5)
            art = Art(resolve_inside(bundle.root, card.art).as_uri(), f"{focus[0] * 100:g}% {focus[1] * 100:g}%")
        card_name = str(texts.text(card.id, "name", card.name))
        title_pt, title_fits = title_size(card_name + name_mark, _title_width(face_geometry(size.width_mm, size.height_mm).card_w,
                                                                  kind in kinds, "sell" in values))
        own = own_fields(game, card, values, texts, icon) if game.card_fields else None
        faces.append(Face(
            fields=own, values={f["id"]: f["value"] for f in own} if own is not None else None,
            id=card.id,
            name=card_name,
            name_size=title_pt,
            name_fits=title_fits,
            colour=colour,
            type_icons=[i for i in (icon(types[t].icon) for t in card.types) if i],
            kind_icon=icon(kinds[kind].icon) if kind in kinds else None,
            sell=values.get("sell"),
            stats=shown_stats,
            marks=[m for m in marks if m],
            rules=rules if rules_unknown else f"{rules_mark}{rules}" if rules else None,
            rules_unknown=rules_unknown, name_mark=name_mark,
            flavour=f"{flavour_mark}{flavour}" if flavour else None,
            set_id=entry.set_id,
            type=card.types[0],
            unverified=legend(texts.label, used_marks(*printed), edition),
            type_mark=type_mark, kind_mark=kind_mark, edition=edition,
            art=art, layout=card.layout, artist=card.artist, look=_look(db, bundle, looks),
            trim_w=size.width_mm, trim_h=size.height_mm, back=back_for(card, set_record, bundle, size),
        ))
    if texts.missing:
        def where(missing: str) -> str:  # the translation file of the bundle that holds the record
            record = index.by_id.get(missing.split("/", 1)[0])
            return display_path((record.bundle.root if record else db.roots[-1]) / "i18n" / f"{locale}.json")

        problems = [Problem(where(missing), "/entries/" + missing, "translation-missing",
                            f"no {locale} text; give it, or build with --allow-fallback") for missing in texts.missing]
        raise DataError(f"{len(problems)} card string(s) missing in {locale}; nothing built", problems)
    if not backs:
        backs["back"] = Back(title=name, emblem_url=back_icon.url if back_icon else "",
                             emblem_alt=back_icon.alt if back_icon else "", look=_look(db, db.bundles[-1], looks),
                             trim_w=game_size.width_mm, trim_h=game_size.height_mm)
    faces += list(backs.values())
    return FaceJob(locale, name, [str(root) for root in db.roots], faces, icons, game.id, looks, list(texts.fallbacks),
                   min_type)


def set_badge(card: Any, set_record: Any, mark_icon: Icon | None, texts: DocTexts) -> Icon | None:
    """The set badge of a face: the set's own mark (``†`` after it when its set is not stated); for a card of
    a set that prints no mark (a base game), nothing when the set is stated, else the set's number as a badge,
    marked ``†``; ``□`` as the badge when no source gives the set at all (the file the card sits in is not a
    source)."""
    stated = card.set_certainty in PLAIN
    name = str(texts.text(set_record.id, "name", set_record.model.name))
    if not stated and field_certainty(card.sources, "set") is None:
        return Icon("", "", "", UNKNOWN)
    if mark_icon is not None:
        return _marked(mark_icon, "" if stated else NOT_STATED)
    if stated:
        return None
    return Icon("", name, NOT_STATED, str(set_record.model.order or 1))


def _marked(icon: Icon | None, mark: str) -> Icon | None:
    return replace(icon, mark=mark) if icon is not None and mark else icon


def layout_document(job: FaceJob, faces: list[Face | Back], fetcher: Any, decoded: dict[str, str] | None = None) -> Any:
    """WeasyPrint's layout of one document of faces that share a look and a size (see ``chunks``); their PNG art
    goes in undecoded where it can (:mod:`.rawpng`), the reason it could not is put in ``decoded`` (URL → reason)."""
    first = faces[0]
    look = job.looks.get(first.look) or Look((), ((templates_dir() / "cards" / "cards.css").as_uri(),))
    shape = face_geometry(first.trim_w, first.trim_h)
    doc = {
        "lang": job.lang, "title": job.title, "font_css": font_face_css(),
        "page_w": first.trim_w + 2 * BLEED_MM, "page_h": first.trim_h + 2 * BLEED_MM, "bleed": BLEED_MM,
        "trim_w": first.trim_w, "trim_h": first.trim_h, "scale": shape.scale, "card_w": shape.card_w,
        "card_h": shape.card_h, "art_h": shape.art_h, "stats_top": shape.stats_top, "rules_top": shape.rules_top,
        "rules_h": max(8.0, shape.rules_h), "stylesheets": list(look.stylesheets),
        "layout_w": max(first.trim_w, shape.card_w) + 2 * BLEED_MM, "layout_h": max(first.trim_h, shape.card_h) + 2 * BLEED_MM,
        "text_scale": shape.text_scale, "fit_sizes": FIT_SIZES,
    }
    try:
        html = render_budgeted(environment(look.overrides).get_template("cards/cards.html.j2"), len(faces),
                               {"doc": doc, "faces": faces, "icons": job.icons})
        html = typeset(html, job.lang)  # curly quotes and apostrophes of the locale, at render time
    except TEMPLATE_FAILURES as exc:
        problem = template_problem(exc)
        raise DataError(f"a card template failed: {problem.text()}", [problem]) from None
    arts = [face.art.url if isinstance(face, Face) and face.art else getattr(face, "art_url", "") for face in faces]
    images, not_raw = raw_images(arts, fetcher)
    if decoded is not None:
        decoded.update(not_raw)
    from .docs.useragent import lay_out_scoped  # WeasyPrint's stylesheet scoped: a face's styles cost 15 % less

    return lay_out_scoped(html, getattr(fetcher, "roots", None) or [], lambda html_type: html_type(
        string=html, base_url=templates_dir().as_uri() + "/", url_fetcher=fetcher).render(
        font_config=shared_font_config(), cache=SvgForms(images)))


def _render(job: FaceJob, faces: list[Face | Back], fetcher: Any, decoded: dict[str, str],
            sizes: dict[str, dict[str, float]]) -> tuple[bytes, dict[str, Spill], dict[str, ArtBox]]:
    """One document of faces that share a look and a size: its PDF, the faces that overflow, the placeholder boxes
    (and each face's printed type sizes, put in ``sizes``)."""
    document = layout_document(job, faces, fetcher, decoded)
    out = io.BytesIO()
    document.write_pdf(out)
    placeholders = {face.id: face.colour for face in faces if isinstance(face, Face) and face.art is None}
    first = faces[0]
    origin = BLEED_MM / 25.4 * 96  # the card's top left corner, in CSS px: the scale's fixed point
    overflow, arts = measure(document, placeholders, (face_geometry(first.trim_w, first.trim_h).scale, origin), sizes)
    data, drop = _crop(out.getvalue(), (first.trim_w + 2 * BLEED_MM) * MM_PT, (first.trim_h + 2 * BLEED_MM) * MM_PT)
    return data, overflow, {face_id: replace(box, y=box.y - drop) for face_id, box in arts.items()}


MM_PT = 72 / 25.4


def _crop(data: bytes, width: float, height: float) -> tuple[bytes, float]:
    """Pages laid out larger than the card (``layout_document``) cut back to ``width`` × ``height`` points at their
    top left, the content moved down so the MediaBox starts at 0 0; returns the PDF and how far it moved."""
    import pikepdf

    pdf = pikepdf.open(io.BytesIO(data))
    drop = 0.0
    for page in pdf.pages:
        x0, y0, x1, y1 = (float(v) for v in page.mediabox)
        if abs(x1 - x0 - width) < 0.01 and abs(y1 - y0 - height) < 0.01:
            continue
        drop = y1 - height
        page.contents_add(f"q 1 0 0 1 0 {-drop:.4f} cm\n".encode("ascii"), prepend=True)
        page.contents_add(b"\nQ\n")
        page.obj.MediaBox = pikepdf.Array([0, 0, round(width, 4), round(height, 4)])
        for box in ("/CropBox", "/TrimBox", "/BleedBox", "/ArtBox"):
            if box in page.obj:
                del page.obj[box]
    if drop == 0.0:
        return data, 0.0
    buffer = io.BytesIO()
    pdf.save(buffer, deterministic_id=True)
    return buffer.getvalue(), drop


FACES_PER_CHUNK = 16
"""Faces laid out together in one document. Chunks depend only on the faces, never on ``--jobs``,
so any number of jobs gives byte-identical files."""


@dataclass
class PassResult:
    """One document of faces: its PDF, the faces whose texts spill (see :mod:`.measure`), and refused fetches."""

    pdf: bytes
    overflow: dict[str, Spill]
    arts: dict[str, ArtBox]
    refused: list[str]
    decoded: dict[str, str] = field(default_factory=dict)
    """Art files that had to be decoded (file URL → why), see :mod:`.rawpng`."""
    sizes: dict[str, dict[str, float]] = field(default_factory=dict)
    """Face id → printed type size per part (see :mod:`.measure`)."""


def render_pass(job: FaceJob) -> PassResult:
    """Lay out the faces of ``job`` at their current fit step, in one document (runs in a worker)."""
    from pathlib import Path

    fault_point("face-pass")
    fetcher = safe_fetcher([templates_dir(), *map(Path, job.roots), *font_folders()])
    decoded: dict[str, str] = {}
    sizes: dict[str, dict[str, float]] = {}
    from ..collector import collected_after

    with collected_after():
        pdf, overflow, arts = _render(job, job.faces, fetcher, decoded, sizes)
    return PassResult(pdf, overflow, arts, sorted(set(fetcher.refused)), decoded, sizes)


def face_renderer(jobs: int, cluster: Any = None, workers: Any = None) -> Callable[..., FaceResult]:
    """How a deck's faces are laid out (for ``build`` and every export): on a Dask cluster's workers (one task
    per chunk of faces), in ``jobs`` local processes (``workers``' pool when given: a build's
    :class:`.workers.BuildWorkers`, else a pool of their own), or here when there are few. ``done`` is passed on
    to :func:`render_faces`."""
    def render(job: FaceJob, done: Callable[[FaceResult], None] | None = None) -> FaceResult:
        if cluster is not None:
            return render_faces(job, cluster_map(cluster), done)
        if jobs > 1 and len(job.faces) > FACES_PER_CHUNK:
            if workers is not None:
                return render_faces(job, workers.map, done)
            from .workers import BuildWorkers

            with BuildWorkers(jobs, {}) as own:
                return render_faces(job, own.map, done)
        return render_faces(job, done=done)
    return render


def chunks(items: list[Any], size: int | None = None) -> list[list[Any]]:
    """``items`` cut into the fewest chunks of at most ``size``, of near-equal length (so workers share evenly).

    Faces of different looks or sizes never share a chunk (one document has one stylesheet and one page size).
    """
    size = size or FACES_PER_CHUNK
    groups: dict[tuple, list[Any]] = {}
    for item in items:
        groups.setdefault((getattr(item, "look", ""), getattr(item, "trim_w", 0), getattr(item, "trim_h", 0)), []).append(item)
    if len(groups) > 1:
        return [chunk for group in groups.values() for chunk in chunks(group, size)]
    if not items:
        return []
    count = -(-len(items) // size)
    base, extra = divmod(len(items), count)
    bounds = [0]
    for i in range(count):
        bounds.append(bounds[-1] + base + (i < extra))
    return [items[a:b] for a, b in zip(bounds, bounds[1:])]


def render_faces(job: FaceJob, map_passes: Callable[..., Iterable[PassResult]] = map,
                 done: Callable[[FaceResult], None] | None = None) -> FaceResult:
    """Every face of ``job``, shrinking the rules text one step per pass while it spills (out of its box, or
    into the flavour); what still spills at the smallest size, or cannot be cured by it, is reported.

    Each pass lays out its chunks through ``map_passes`` (``map``, or a process pool's); the faces that
    overflowed in any chunk are gathered and re-laid out together one step smaller, so a pass costs
    one document per chunk however the overflowing faces were spread.

    With ``done``, each document is handed over as soon as it is read (a result of its own holding the faces
    laid out for good in it) and not kept: a deck's memory then does not grow with its faces. A document
    with a refused fetch is kept back (its faces are not handed over); the returned result then names the
    refusals, its verdicts (fits, overflow) cover every face either way.
    """
    result = FaceResult()
    pending = chunks(list(job.faces))
    while pending:
        retry: list[Face | Back] = []
        for part, outcome in zip(pending, map_passes(render_pass, [replace(job, faces=part) for part in pending])):
            result.refused += outcome.refused
            result.decoded.update(outcome.decoded)
            stream = done is not None and not outcome.refused
            target = FaceResult() if stream else result
            target.pdfs.append(outcome.pdf)
            for page, face in enumerate(part):
                spilled = outcome.overflow.get(face.id)
                result.fits[face.id] = getattr(face, "fit", 0)
                if spilled is not None and spilled.shrink and face.fit + 1 < FIT_STEPS:
                    face.fit += 1
                    retry.append(face)
                    continue
                target.pages[face.id] = (len(target.pdfs) - 1, page)
                target.fits[face.id] = getattr(face, "fit", 0)
                if face.id in outcome.arts:
                    target.arts[face.id] = outcome.arts[face.id]
                if face.id in outcome.sizes:
                    result.sizes[face.id] = target.sizes[face.id] = outcome.sizes[face.id]
                if spilled is not None:
                    result.overflow.append(face.id)
                    result.parts[face.id] = target.parts[face.id] = spilled.parts
            if stream:
                done(target)  # type: ignore[misc]
        pending = chunks(retry)
    result.refused = sorted(set(result.refused))
    return result
