"""Sections of the rulebook generated from the database, never typed by hand."""

from __future__ import annotations

from typing import Any

from markupsafe import Markup

from ...errors import DataError

from ...i18n.collation import collation_key
from ...loading.records import Index
from ..jinja import environment
from .diables_sections import SECTIONS as DIABLES_SECTIONS
from .mapsvg import legend_keys, map_geometry, svg_of
from .texts import DocTexts, Labels

NUMERALS = ["I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X"]


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

    NAMES = ("components", "icon-legend", "rank-table", "battle-table", "player-variants", "map", "card-index")

    def __call__(self, name: str) -> Markup:
        if name not in self.NAMES and name not in DIABLES_SECTIONS:
            raise DataError(f"unknown generated section {name!r}; use one of {', '.join((*self.NAMES, *DIABLES_SECTIONS))}")
        try:
            if name in DIABLES_SECTIONS:
                return DIABLES_SECTIONS[name](self)
            return getattr(self, name.replace("-", "_"))()
        except (StopIteration, KeyError, ValueError) as exc:
            raise DataError(f"the generated section {name!r} needs data the game does not have ({exc!r})") from None

    def _name(self, record: Any) -> str:
        return self.texts.text(record.id, "name", record.model.name)

    def _cards(self) -> list[Any]:
        return [r for r in self.index.of_kind("card") if r.set_id in self.set_ids]

    def components(self) -> Markup:
        rows = []
        for record in self.index.of_kind("set"):
            if record.id in self.set_ids:
                cards = record.model.totals.cards
                rows.append({"name": self._name(record),
                             "quantity": f"{cards} {self.labels.cards}" if cards is not None else self.labels.unknown})
            for card in self.index.of_kind("card"):  # optional cards are in the box but not in the set's total
                if card.set_id == record.id and card.model.optional:
                    quantity = card.model.quantity
                    rows.append({"name": self._name(card), "quantity": quantity if quantity is not None else self.labels.unknown})
        for record in self.index.of_kind("component"):
            if record.model.set in self.set_ids or record.model.set is None:
                quantity = record.model.quantity
                rows.append({"name": self._name(record), "quantity": quantity if quantity is not None else self.labels.unknown})
        for record in self.index.of_kind("board"):  # a board file is one physical board, however many sides
            if record.model.set in self.set_ids or record.model.set is None:
                rows.append({"name": self._name(record), "quantity": 1})
        return Markup(self.macros.components(rows, self.labels))

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

    def rank_table(self) -> Markup:
        stat = next(s for s in self.game.stats if s.id == "rank")
        ranked = [r for r in self._cards() if (r.model.stats.get("rank") or 0) > (stat.default or 0)]
        rows = [{"name": self._name(r), "rank": r.model.stats["rank"]}
                for r in sorted(ranked, key=lambda r: -r.model.stats["rank"])]
        if stat.default is not None:
            rows.append({"name": self.labels.other_specials, "rank": stat.default})
        return Markup(self.macros.rank_table(rows, self.labels))

    def battle_table(self) -> Markup:
        examples = next(p.value for p in self.game.parameters if p.id == "battle-examples")
        rows = []
        for numeral, example in zip(NUMERALS, examples):
            attack, _, defence = example.partition(":")
            undefended = defence == "-"
            steals = undefended or int(attack) > int(defence)  # the battle rule: attack must beat defence
            rows.append({"numeral": numeral, "attack": attack,
                         "defence": self.labels.no_defence if undefended else defence,
                         "result": self.labels.steals if steals else self.labels.keeps})
        return Markup(self.macros.battle_table(rows, self.labels))

    def player_variants(self) -> Markup:
        params = {p.id: p.value for p in self.game.parameters}
        selections = [s for s in self.game.selections if set(s.sets) <= set(self.set_ids)]
        rows = []
        for players in range(self.game.players.min, self.game.players.max + 1):
            decks = [s for s in selections if s.players.min <= players <= s.players.max]
            if not decks:
                continue
            removing = {m.id for m in self.game.markers if players in m.removed_at_players}
            removed = sorted((self._name(r) for r in self._cards() if removing & set(r.model.markers)),
                             key=lambda n: collation_key(str(n), self.texts.locale))
            rows.append({
                "players": players,
                "decks": ", ".join(str(self.texts.text(self.game.id, f"selections/{s.id}/name", s.name)) for s in decks),
                "deal": params.get(f"deal-size-{players}-players", params.get("deal-size", "")),
                "removed": ", ".join(map(str, removed)) or self.labels.none,
            })
        return Markup(self.macros.player_variants(rows, self.labels))

    def card_index(self) -> Markup:
        types = {t.id: self.texts.text(self.game.id, f"card_types/{t.id}/name", t.name) for t in self.game.card_types}
        sets = {r.id: self._name(r) for r in self.index.of_kind("set")}
        rows = [{"name": self._name(r), "types": " + ".join(str(types[t]) for t in r.model.types), "set": sets[r.set_id]}
                for r in self._cards()]
        rows.sort(key=lambda row: collation_key(str(row["name"]), self.texts.locale))
        return Markup(self.macros.card_index(rows, self.labels))

    def map(self) -> Markup:
        sides = []
        for board in self.index.of_kind("board"):
            if board.model.set and board.model.set not in self.set_ids:
                continue
            for side in board.model.sides:
                names = {s.id: str(self.texts.text(board.id, f"sides/{side.id}/spaces/{s.id}/name", s.name))
                         for s in side.spaces}
                geometry = map_geometry(side, names, str(self.labels.start))
                sides.append({"name": self.texts.text(board.id, f"sides/{side.id}/name", side.name),
                              "svg": svg_of(geometry), "legend": legend_keys(geometry)})
        return Markup(self.macros.map(sides, self.labels))


