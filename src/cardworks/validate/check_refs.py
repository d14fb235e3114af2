"""Reference checks: every id a record names exists, and values fit the game's vocabulary."""

from __future__ import annotations

from collections import Counter

from ..loading.jsonfile import pointer_escape
from ..loading.assets import image_problems
from ..loading.paths import PathEscape, resolve_inside
from ..models import MissingFact, Source
from ..problems import ProblemList
from ..loading.records import Index, Record


class _Refs:
    """Sets of ids that records may point at."""

    def __init__(self, index: Index) -> None:
        game = index.game
        self.types = {t.id for t in game.card_types}
        self.attributes = {a.id: a for a in game.attributes}
        self.stats = {s.id: s for s in game.stats}
        self.markers = {m.id for m in game.markers}
        self.documents = {d.id for d in game.documents} | {d.id for r in index.of_kind("pack") for d in r.model.documents}
        self.icons = index.ids_of("icon")
        self.sets = index.ids_of("set")
        self.cards = index.ids_of("card")
        self.pieces = self.cards | index.ids_of("component", "board")
        self.rulings = index.ids_of("ruling")
        self.topics = {t.id for t in game.faq_topics}
        self.scenarios = index.ids_of("scenario")
        self.named_by = {r.id: set(r.model.scenarios) for r in index.of_kind("ruling")} | \
            {r.id: set(r.model.rulings) for r in index.of_kind("scenario")}
        """Ruling → the scenarios it names, and scenario → the rulings it names."""
        self.spaces = {space.id for board in index.of_kind("board") for side in board.model.sides
                       for space in side.spaces}
        """Every board space (on any side of any board); what bonuses and effects name is the game's check."""


def _dangling(out: ProblemList, record: Record, pointer: str, what: str, value: str, known: set[str]) -> None:
    if value not in known:
        out.error(record.file.display, f"{record.pointer}{pointer}", "dangling-ref", f"unknown {what} {value!r}")


def _one_way(out: ProblemList, record: Record, pointer: str, what: str, value: str, refs: _Refs) -> None:
    """A ruling and a scenario name each other, or the link is one-sided."""
    if value in refs.named_by and record.id not in refs.named_by[value]:
        out.warning(record.file.display, f"{record.pointer}{pointer}", "one-way-link",
                    f"{what} {value!r} does not name {record.id!r} back")


def check_references(index: Index, out: ProblemList) -> None:
    """Check every reference between records and to the game's declarations."""
    refs = _Refs(index)
    for loaded, doc in index.db.docs("rule-sections"):
        for name, sets in doc.sections.items():
            for i, set_id in enumerate(sets):
                if set_id not in refs.sets:
                    out.error(loaded.display, f"/sections/{name}/{i}", "dangling-ref", f"unknown set {set_id!r}")
        written = {p.stem for p in loaded.path.parent.glob("*/*.md")}
        for i, name in enumerate(doc.new_page):
            if name not in written:
                out.error(loaded.display, f"/new_page/{i}", "dangling-ref", f"no rulebook section {name!r}")
    for record in index.records:
        check = _CHECKS.get(record.kind)
        if check:
            check(record, refs, out)
        for pointer, model in index.nested(record):
            if isinstance(model, (Source, MissingFact)):
                _dangling(out, record, f"{pointer}/doc", "source document", model.doc, refs.documents)
        _check_paths(record, out)


def _check_game(record: Record, refs: _Refs, out: ProblemList) -> None:
    game = record.model
    for i, card_type in enumerate(game.card_types):
        if card_type.icon:
            _dangling(out, record, f"/card_types/{i}/icon", "icon", card_type.icon, refs.icons)
    for group in ("attributes", "stats"):
        for i, item in enumerate(getattr(game, group)):
            for j, type_id in enumerate(item.applies_to):
                _dangling(out, record, f"/{group}/{i}/applies_to/{j}", "card type", type_id, refs.types)
    for i, stat in enumerate(game.stats):
        if stat.min > stat.max:
            out.error(record.file.display, f"/stats/{i}/min", "out-of-range", f"min {stat.min} is above max {stat.max}")
    for i, attribute in enumerate(game.attributes):
        for j, value in enumerate(attribute.values):
            if value.icon:
                _dangling(out, record, f"/attributes/{i}/values/{j}/icon", "icon", value.icon, refs.icons)
    for i, selection in enumerate(game.selections):
        for j, set_id in enumerate(selection.sets):
            _dangling(out, record, f"/selections/{i}/sets/{j}", "set", set_id, refs.sets)
    if game.players.min > game.players.max:
        out.error(record.file.display, "/players/min", "out-of-range", "min players is above max players")
    for locale, chain in game.fallbacks.items():
        for i, fallback in enumerate([locale, *chain]):
            if fallback not in game.locales:
                where = f"/fallbacks/{locale}" + (f"/{i - 1}" if i else "")
                out.error(record.file.display, where, "dangling-ref", f"locale {fallback!r} is not one of the game's locales")
    if game.source_locale not in game.locales:
        out.error(record.file.display, "/source_locale", "dangling-ref",
                  f"source locale {game.source_locale!r} is not one of the game's locales")


def _check_set(record: Record, refs: _Refs, out: ProblemList) -> None:
    card_set = record.model
    if card_set.mark:
        _dangling(out, record, "/mark", "icon", card_set.mark, refs.icons)
    for i, marker in enumerate(card_set.unnamed_markers):
        _dangling(out, record, f"/unnamed_markers/{i}", "player-count marker", marker, refs.markers)
    for type_id in card_set.totals.by_type:
        _dangling(out, record, f"/totals/by_type/{pointer_escape(type_id)}", "card type", type_id, refs.types)
    for key, counts in card_set.totals.by_attribute.items():
        here = f"/totals/by_attribute/{pointer_escape(key)}"
        attribute = refs.attributes.get(key)
        if attribute is None:
            out.error(record.file.display, f"{record.pointer}{here}", "dangling-ref", f"unknown attribute {key!r}")
            continue
        for value in counts:
            _dangling(out, record, f"{here}/{pointer_escape(value)}", f"value of {key!r}", value,
                      {v.id for v in attribute.values})
        declared = [card_set.totals.by_type[t] for t in attribute.applies_to if t in card_set.totals.by_type]
        if declared and sum(counts.values()) != sum(declared):
            out.error(record.file.display, f"{record.pointer}{here}", "totals-mismatch",
                      f"the counts per {key!r} add up to {sum(counts.values())}, but by_type gives "
                      f"{sum(declared)} {' and '.join(attribute.applies_to)} cards")


def _declared(out: ProblemList, record: Record, here: str, what: str, definition, key: str, types: list[str]):
    """The game's definition of a card attribute or stat, reporting an unknown or inapplicable one."""
    if definition is None:
        out.error(record.file.display, here, "dangling-ref", f"unknown {what} {key!r}")
        return None
    if not set(definition.applies_to) & set(types):
        out.error(record.file.display, here, "not-applicable",
                  f"{what} {key!r} applies to {', '.join(definition.applies_to)} cards, not to {', '.join(types)}")
    return definition


def _check_card(record: Record, refs: _Refs, out: ProblemList) -> None:
    card = record.model
    for i, type_id in enumerate(card.types):
        _dangling(out, record, f"/types/{i}", "card type", type_id, refs.types)
    if len(set(card.types)) != len(card.types):
        out.error(record.file.display, f"{record.pointer}/types", "bad-value", "a card type is listed twice")
    for key, value in card.attributes.items():
        here = f"{record.pointer}/attributes/{pointer_escape(key)}"
        definition = _declared(out, record, here, "attribute", refs.attributes.get(key), key, card.types)
        allowed = [v.id for v in definition.values] if definition else []
        if definition and value is not None and value not in allowed:
            out.error(record.file.display, here, "bad-value", f"{value!r} is not one of {', '.join(allowed)}")
    for key, value in card.stats.items():
        here = f"{record.pointer}/stats/{pointer_escape(key)}"
        stat = _declared(out, record, here, "stat", refs.stats.get(key), key, card.types)
        if stat and value is not None and not stat.min <= value <= stat.max:
            out.error(record.file.display, here, "out-of-range", f"{key} {value} is outside {stat.min}..{stat.max}")
    for i, marker in enumerate(card.markers):
        _dangling(out, record, f"/markers/{i}", "player-count marker", marker, refs.markers)
    for i, icon in enumerate(card.icons):
        _dangling(out, record, f"/icons/{i}", "icon", icon, refs.icons)


def _check_component(record: Record, refs: _Refs, out: ProblemList) -> None:
    component = record.model
    if component.set:
        _dangling(out, record, "/set", "set", component.set, refs.sets)
    if component.space:
        _dangling(out, record, "/space", "board space", component.space, refs.spaces)
    if component.per_colour is not None and (component.quantity is None or component.quantity % component.per_colour):
        out.error(record.file.display, f"{record.pointer}/per_colour", "per-colour-mismatch",
                  f"{component.per_colour} per colour does not divide the quantity ({component.quantity}) into whole colours")


def _check_board(record: Record, refs: _Refs, out: ProblemList) -> None:
    board = record.model
    if board.set:
        _dangling(out, record, "/set", "set", board.set, refs.sets)
    for s, side in enumerate(board.sides):
        spaces = {space.id: space for space in side.spaces}
        degree: Counter[str] = Counter()
        for e, edge in enumerate(side.edges):
            for k, end in enumerate(edge.between):
                _dangling(out, record, f"/sides/{s}/edges/{e}/between/{k}", f"space of side {side.id!r}", end, set(spaces))
            if edge.between[0] == edge.between[1]:
                out.error(record.file.display, f"/sides/{s}/edges/{e}", "bad-value", "an access joins a space to itself")
            degree.update(end for end in edge.between if end in spaces)
        for p, space in enumerate(side.spaces):
            if space.accesses is None:
                continue
            if degree[space.id] > space.accesses or (side.edges_complete and degree[space.id] != space.accesses):
                out.error(record.file.display, f"/sides/{s}/spaces/{p}/accesses", "access-count",
                          f"{space.id!r} has {space.accesses} accesses but {degree[space.id]} edges")


def _check_ruling(record: Record, refs: _Refs, out: ProblemList) -> None:
    for i, card_id in enumerate(record.model.cards):
        _dangling(out, record, f"/cards/{i}", "card, component or board", card_id, refs.pieces)
    topic = record.model.topic
    if topic is not None:
        _dangling(out, record, "/topic", "FAQ topic", topic, refs.topics)
    elif refs.topics and not record.bundle.is_pack:  # a pack prints no FAQ of its own
        out.error(record.file.display, record.pointer, "missing-topic",
                  f"ruling {record.id!r} names no topic, but the game's FAQ prints every ruling under one "
                  f"of its faq_topics ({', '.join(sorted(refs.topics))})")
    for i, scenario_id in enumerate(record.model.scenarios):
        _dangling(out, record, f"/scenarios/{i}", "scenario", scenario_id, refs.scenarios)
        _one_way(out, record, f"/scenarios/{i}", "scenario", scenario_id, refs)


def _check_scenario(record: Record, refs: _Refs, out: ProblemList) -> None:
    for i, card_id in enumerate(record.model.cards):
        _dangling(out, record, f"/cards/{i}", "card, component or board", card_id, refs.pieces)
    for i, ruling_id in enumerate(record.model.rulings):
        _dangling(out, record, f"/rulings/{i}", "ruling", ruling_id, refs.rulings)
        _one_way(out, record, f"/rulings/{i}", "ruling", ruling_id, refs)


_CHECKS = {
    "game": _check_game,
    "set": _check_set,
    "card": _check_card,
    "component": _check_component,
    "board": _check_board,
    "ruling": _check_ruling,
    "scenario": _check_scenario,
}


def _check_paths(record: Record, out: ProblemList) -> None:
    """Files named by ``svg`` and ``art`` stay inside the bundle and exist."""
    fields = type(record.model).model_fields  # asking a model for a field it lacks costs ~25 µs
    for name in ("svg", "art"):
        relative = getattr(record.model, name) if name in fields else None
        if not relative:
            continue
        here = f"{record.pointer}/{name}"
        try:
            target = resolve_inside(record.bundle.root, relative)
        except PathEscape as exc:
            out.error(record.file.display, here, "path-escape", str(exc))
            continue
        if not target.is_file():
            out.error(record.file.display, here, "missing-file", f"{relative!r} does not exist in {record.bundle.label}")
            continue
        for code, message in image_problems(target):  # bounds that keep the renderer from hanging or dropping it
            out.error(record.file.display, here, code, f"{relative}: {message}")
