"""Sections of the rulebook generated from the database, never typed by hand."""

from __future__ import annotations

from typing import Any

from markupsafe import Markup

from ...errors import DataError

from ...i18n.collation import collation_key
from ...loading.records import Index
from ...engine.plugins import plugin_of
from ..jinja import environment, markup_html
from .mapsvg import legend_keys, map_geometry, svg_of
from .texts import DocTexts, Labels
from ...models.certainty import ORDER, PLAIN, field_certainty
from ..marks import NOT_STATED, UNKNOWN, legend, marked, used_marks


def _optional_note(label: Any) -> Markup:
    """Why an optional design is off the sheets, with the build option kept on one line (never broken at its hyphens)."""
    return Markup('{} <span class="option">--with-optional</span>').format(label)


def _stated_count(board: Any, side: Any, space: Any) -> bool:
    """True when the rulebooks state the access count of ``space`` on ``side``: the board's sources name it by its
    path (or, failing that, the space's own sources name ``accesses``), and every one naming it states it."""
    found = field_certainty(board.model.sources, f"sides/{side.id}/spaces/{space.id}/accesses")
    if found is None:
        found = field_certainty(space.sources, "accesses")
    return found in PLAIN

class Generator:
    """Builds the ``::: generated NAME`` sections of one locale and deck."""

    def __init__(self, index: Index, texts: DocTexts, set_ids: list[str], icons: dict[str, tuple[str, str]]) -> None:
        self.index = index
        self.game = index.game
        self.texts = texts
        self.set_ids = set_ids
        self.icons = icons
        self.macros = environment().get_template("docs/generated.html.j2").module
        self.labels = Labels(texts)
        own = index.db.game.root / "templates"
        self.overrides = (str(own.resolve()),) if own.is_dir() else ()
        plugin = plugin_of(self.game.id)
        self.sections = dict(plugin.rendering.sections) if plugin is not None else {}
        """The game's own sections (its plugin's ``rendering``), each called with this generator as its
        ``SectionContext``."""
        clash = sorted(set(self.sections) & {*self.NAMES, *self.WITH_ARGUMENT})
        if clash:
            raise DataError(f"game {self.game.id!r} generates sections named like the generic ones: {', '.join(clash)}")

    NAMES = ("components", "icon-legend", "player-variants", "map", "card-index")
    WITH_ARGUMENT = ("printed-deck",)
    """Sections written ``::: generated NAME ARGUMENT``; every other section takes none."""

    def __call__(self, name: str) -> Markup:
        name, _, argument = name.partition(" ")
        if name in self.WITH_ARGUMENT:
            if not argument:
                raise DataError(f"the generated section {name!r} needs the sets it counts, as in "
                                f"'::: generated {name} base+discordia'")
            return getattr(self, name.replace("-", "_"))(argument)
        if argument:
            raise DataError(f"the generated section {name!r} takes no argument (got {argument!r})")
        if name not in self.NAMES and name not in self.sections:
            raise DataError(f"unknown generated section {name!r}; use one of "
                            f"{', '.join((*self.NAMES, *self.WITH_ARGUMENT, *self.sections))}")
        try:
            if name in self.sections:
                return Markup(self.sections[name](self))
            return getattr(self, name.replace("-", "_"))()
        except (StopIteration, KeyError, ValueError) as exc:
            raise DataError(f"the generated section {name!r} needs data the game does not have ({exc!r})") from None

    # What a game's own sections are given (engine.plugins.SectionContext) -------------------------------------
    def cards(self) -> list[Any]:
        """The records of the cards of the sets this rulebook covers."""
        return self._cards()

    def name(self, record: Any) -> str:
        """A record's name in the locale."""
        return self._name(record)

    def macros_of(self, template: str) -> Any:
        """The macros of ``template``, from the game folder's ``templates/`` first, then the shipped ones."""
        return environment(self.overrides).get_template(template).module

    def markup(self, text: str) -> Markup:
        """Card-text markup as HTML, each token its icon."""
        return markup_html(text, self.icons)

    def marked(self, value: Any, sources: Any, field: str) -> str:
        """``value`` with the mark of its certainty in ``sources``."""
        return marked(value, sources, field)

    def legend(self, values: Any) -> str:
        """The legend of the marks used in ``values``."""
        return self._legend(values)

    def _name(self, record: Any) -> str:
        return self.texts.text(record.id, "name", record.model.name)

    def _cards(self) -> list[Any]:
        return [r for r in self.index.of_kind("card") if r.set_id in self.set_ids]

    def components(self) -> Markup:
        """What each box of the chosen sets holds: its deck, its optional cards (in their own set's box, never in
        another's), its components and boards; a count the sources do not state is marked, one they do not give
        is unknown."""
        rows = []

        def quantity(model: Any) -> str:
            return self.labels.unknown if model.quantity is None else marked(model.quantity, model.sources, "quantity")

        for record in self.index.of_kind("set"):
            if record.id not in self.set_ids:
                continue
            cards = record.model.totals.cards
            rows.append({"name": self._name(record),
                         "quantity": f"{cards} {self.labels.cards}" if cards is not None else self.labels.unknown})
            for card in self.index.of_kind("card"):  # optional cards are in the box but not in the set's total
                if card.set_id == record.id and card.model.optional:
                    rows.append({"name": self._name(card), "quantity": quantity(card.model)})
        for record in self.index.of_kind("component"):
            if record.model.set in self.set_ids or record.model.set is None:
                rows.append({"name": self._name(record), "quantity": quantity(record.model)})
        for record in self.index.of_kind("board"):  # a board file is one physical board, however many sides
            if record.model.set in self.set_ids or record.model.set is None:
                rows.append({"name": self._name(record), "quantity": 1})
        return Markup(self.macros.components(rows, self.labels, self._legend(str(row["quantity"]) for row in rows)))

    def printed_deck(self, argument: str) -> Markup:
        """Beneath a setup step that names the deck's size: how many of those cards the kit's card sheets hold
        in each edition, pointing to their contents page; nothing when both editions print the whole deck.

        ``argument`` names the sets the step's count covers (``base+discordia``); each must give its card total.
        """
        from ..deck import build_deck

        sets = {r.id: r.model for r in self.index.of_kind("set")}
        chosen = argument.split("+")
        unknown = [s for s in chosen if s not in sets]
        if unknown:
            raise DataError(f"the generated section 'printed-deck' names no set {', '.join(map(repr, unknown))}; "
                            f"sets: {', '.join(sets)}")
        totals = [sets[s].totals.cards for s in chosen]
        if any(total is None for total in totals):
            raise DataError(f"the generated section 'printed-deck {argument}' needs each set's card total, and no "
                            f"source gives one for {', '.join(s for s, t in zip(chosen, totals) if t is None)}")
        box = sum(totals)  # type: ignore[arg-type]
        fact, playtest = (build_deck(self.index.db, "+".join(chosen), edition=edition).physical_cards
                          for edition in ("fact", "playtest"))
        if fact >= box and playtest >= box:
            return Markup("")
        note = self.texts.label("printed_deck_note").format(printed=fact, box=box, playtest=playtest)
        return Markup(self.macros.kit_note(note))

    def icon_legend(self) -> Markup:
        """The icons of the boxes this rulebook covers: an icon whose every source is the rulebook of a set
        left out (a set's rulebook is the document its ``sources`` cite) is left out with it."""
        docs_of_set = {r.id: {s.doc for s in r.model.sources} for r in self.index.of_kind("set")}
        chosen = set().union(*(docs for set_id, docs in docs_of_set.items() if set_id in self.set_ids))
        left_out = set().union(*(docs for set_id, docs in docs_of_set.items() if set_id not in self.set_ids)) - chosen
        shown = {r.id for r in self.index.of_kind("icon")
                 if not r.model.sources or any(s.doc not in left_out for s in r.model.sources)}
        rows = [{"url": url, "alt": alt} for icon, (url, alt) in self.icons.items() if icon in shown]
        return Markup(self.macros.icon_legend(rows, self.labels))

    def player_variants(self) -> Markup:
        params = {p.id: p.value for p in self.game.parameters}
        selections = [s for s in self.game.selections if set(s.sets) <= set(self.set_ids)]
        sets = {r.id: r for r in self.index.of_kind("set")}
        rows = []
        for players in range(self.game.players.min, self.game.players.max + 1):
            decks = [s for s in selections if s.players.min <= players <= s.players.max]
            removing = {m.id for m in self.game.markers if players in m.removed_at_players}
            by_removed: dict[str, list[Any]] = {}  # decks that lose the same cards share a row
            for deck in decks:  # each deck loses only its own sets' cards
                removed = sorted((self._name(r) for r in self._cards()
                                  if r.set_id in deck.sets and removing & set(r.model.markers)),
                                 key=lambda n: collation_key(str(n), self.texts.locale))
                by_removed.setdefault(", ".join(map(str, removed)) or str(self.labels.none), []).append(deck)
            for removed_text, same in by_removed.items():
                unnamed = [set_id for set_id in dict.fromkeys(s for deck in same for s in deck.sets)
                           if set_id in sets and removing & set(sets[set_id].model.unnamed_markers)]
                if unnamed:  # a set says some of its cards carry the marker, and no source names them
                    removed_text += str(self.labels.removed_unnamed).format(
                        sets=", ".join(str(self._name(sets[set_id])) for set_id in unnamed))
                rows.append({
                    "players": players,
                    "decks": ", ".join(str(self.texts.text(self.game.id, f"selections/{s.id}/name", s.name)) for s in same),
                    "deal": params.get(f"deal-size-{players}-players", params.get("deal-size", "")),
                    "removed": removed_text,
                })
        return Markup(self.macros.player_variants(rows, self.labels))

    def card_index(self) -> Markup:
        """Every design of the deck's sets: its types and set, each marked when the rulebooks do not state it
        (a set no source names is unknown), its least sure printed fact in words, and why it is not on the
        card sheets when it is not; then, per set, how many of its declared designs no source names."""
        types = {t.id: self.texts.text(self.game.id, f"card_types/{t.id}/name", t.name) for t in self.game.card_types}
        sets = {r.id: r for r in self.index.of_kind("set")}
        rows = []
        for r in self._cards():
            card = r.model
            set_sourced = field_certainty(card.sources, "set") is not None
            set_name = (f"{self._name(sets[r.set_id])}{'' if card.set_certainty in PLAIN else NOT_STATED}"
                        if set_sourced else UNKNOWN)
            levels = [card.set_certainty if set_sourced else "unverified",
                      field_certainty(card.sources, "types") or "unverified"]
            name_level = field_certainty(card.sources, "name")
            if name_level not in (None, *PLAIN):  # a name that only a source below the rulebooks gives
                levels.append(name_level)
            rows.append({"name": f"{self._name(r)}{NOT_STATED if name_level not in (None, 'stated') else ''}",
                         "types": marked(" + ".join(str(types[t]) for t in card.types),
                                                                card.sources, "types"),
                         "set": set_name, "certainty": self.texts.label(f"certainty_{max(levels, key=ORDER.index)}"),
                         "printed": _optional_note(self.labels.index_optional) if card.optional else
                         self._name_note(card) if name_level not in (None, *PLAIN) else ""})
        rows.sort(key=lambda row: collation_key(str(row["name"]), self.texts.locale))
        notes = []
        for set_id in self.set_ids:
            record = sets.get(set_id)
            declared = record.model.totals.designs if record is not None else None
            known = sum(1 for r in self._cards() if r.set_id == set_id and not r.model.optional)
            if declared is not None and declared > known:
                notes.append(str(self.labels.index_not_in_database).format(set=self._name(record), known=known,
                                                                            declared=declared, missing=declared - known))
        legend = self._legend(value for row in rows for value in (row["name"], row["types"], row["set"]))
        return Markup(self.macros.card_index(rows, self.labels, legend, notes))

    def _name_note(self, card: Any) -> str:
        """Where a name not stated by the rulebooks comes from: the least sure document giving it, by its title
        in the reader's language (up to its first parenthesis)."""
        documents = {d.id: d for d in self.game.documents}
        naming = [s for s in card.sources if "name" in s.facts and s.certainty not in PLAIN]
        weakest = max(naming, key=lambda s: ORDER.index(s.certainty))
        document = documents.get(weakest.doc)
        title = (str(self.texts.text(self.game.id, f"documents/{document.id}/title", document.title)).split(" (", 1)[0]
                 if document is not None else weakest.doc)
        return str(self.labels.index_name_from).format(source=title,
                                                       certainty=self.texts.label(f"certainty_{weakest.certainty}"))

    def _legend(self, values: Any) -> str:
        """The legend of the marks in ``values``: printed in the table's head, which repeats on every page."""
        return legend(self.texts.label, used_marks(*values), "fact")

    def map(self) -> Markup:
        sides = []
        for board in self.index.of_kind("board"):
            if board.model.set and board.model.set not in self.set_ids:
                continue
            for side in board.model.sides:
                names = {s.id: str(self.texts.text(board.id, f"sides/{side.id}/spaces/{s.id}/name", s.name))
                         for s in side.spaces}
                unsure = frozenset(s.id for s in side.spaces if s.accesses is not None and not _stated_count(board, side, s))
                geometry = map_geometry(side, names, str(self.labels.start), unsure)
                sides.append({"name": self.texts.text(board.id, f"sides/{side.id}/name", side.name),
                              "svg": svg_of(geometry), "legend": legend_keys(geometry)})
        return Markup(self.macros.map(sides, self.labels))


