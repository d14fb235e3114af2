"""Building La Fallera Calavera games from the database: configurations, decks, scenario positions."""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Any

from ...loading.database import Database
from ...engine.core import SetupRefused, player_index
from ...engine.kept import per_object
from ...engine.setups import check_players, cite
from .rules import FalleraRules, State
from .cards import EFFECTS, CardDef, Catalogue, catalogue
from .deal import MAP_RULE, REDEAL_RULE
from ...engine.scripted import ScriptedChance, ScriptError

SUPPORTED = {"base": ["base"], "base-2": ["base", "discordia"], "base-3": ["base", "mes-enlla"],
             "expert": ["base", "discordia", "mes-enlla"]}
"""Deck selections the engine plays."""
MAP_ORDER = ("nord", "xuquer-turia", "muntanyes-centrals", "sud", "interior")
"""The order the rulebook lays the first five cards on the map."""


SETUP_KEYS = frozenset({"selection", "players", "state", "deal", "example_cards", "hands", "counters", "deck",
                        "cemetery", "current", "map", "queen", "foods", "seed"})
"""What a scenario's ``setup`` may say (see ``scenario_state``)."""

PLAYER_LIMITS = (
    ("players-base", lambda sets: set(sets) == {"base"}),
    ("players-with-discordia", lambda sets: "discordia" in sets and "mes-enlla" not in sets),
    ("max-players-with-mes-enlla", lambda sets: "mes-enlla" in sets),
)
"""Which of ``game.json``'s player-count parameters limits which combination of sets (a list of counts
allowed, or a maximum)."""


def check_setup(db: Database, selection: str | None, players: int) -> None:
    """Refuse a selection and player count the rulebooks forbid, naming the rule and its source."""
    game = db.game_doc
    if selection is None:  # no selection named: only the game's own range applies
        check_players(game, players)
        return
    selections = {s.id: (n, s) for n, s in enumerate(game.selections)}
    if selection not in selections:
        raise SetupRefused("selection", "game.json#/selections",
                           f"there is no deck selection {selection!r}; the game offers {', '.join(sorted(selections))}")
    check_players(game, players)
    number, chosen = selections[selection]
    parameters = {p.id: p for p in game.parameters}
    for rule, applies in PLAYER_LIMITS:
        limit = parameters.get(rule)
        if limit is None or limit.value is None or not applies(chosen.sets):
            continue
        allowed = limit.value if isinstance(limit.value, list) else range(game.players.min, int(limit.value) + 1)
        if players not in allowed:
            raise SetupRefused(rule, cite(limit.sources), f"{' + '.join(chosen.sets)} is not played by {players} players "
                               f"(allowed: {', '.join(map(str, allowed))})")
    if not chosen.players.min <= players <= chosen.players.max:
        raise SetupRefused("selection-players", f"game.json#/selections/{number}/players",
                           f"the selection {selection!r} is played by {chosen.players.min} to {chosen.players.max} players, "
                           f"not {players}")


def pack_sets(db: Database) -> list[str]:
    """The sets of the packs loaded with the game: a pack's cards join every deck selection."""
    return sorted({doc.id for bundle in db.packs for _, doc in bundle.docs("set")})


def territorial_foods(db: Database) -> tuple[tuple[str, ...], str]:
    """The terretes that have a territorial food card (one card each), and where the sources say so."""
    from ...loading.records import Index

    foods = [r.model for r in Index(db).of_kind("component") if getattr(r.model, "space", None)]
    sources = [s for food in foods[:1] for s in food.sources if {"quantity", "text"} & set(s.facts)]
    return tuple(f.space for f in foods), cite(sources)


def board_side(db: Database, side: str) -> Any:
    from ...loading.records import Index

    board = next(r for r in Index(db).of_kind("board"))
    return next(s for s in board.model.sides if s.id == side)


def board_accesses(db: Database, side: str = "normal") -> dict[str, tuple[str, ...]]:
    """Terreta → neighbours on a side of the Kingdom map: stated accesses, else the assumed ones."""
    from ...loading.records import Index

    index = Index(db)
    board = next(r for r in index.of_kind("board"))
    chosen = board_side(db, side)
    edges = [tuple(e.between) for e in chosen.edges]
    assumed = index.assumed().get((board.id, f"sides/{side}/edges"))
    if assumed and not chosen.edges_complete:
        edges = [tuple(e) for e in assumed]
    spaces = [s.id for s in chosen.spaces if not s.start]
    order = [s for s in MAP_ORDER if s in spaces] + [s for s in spaces if s not in MAP_ORDER]
    return {s: tuple(sorted({b for a, b in edges if a == s} | {a for a, b in edges if b == s})) for s in order}


@dataclass
class Configuration:
    """One playable configuration: a deck selection and a player count."""

    selection: str
    players: int

    @property
    def label(self) -> str:
        return f"{self.selection}/{self.players}p"


def configurations(db: Database) -> tuple[list[Configuration], list[str]]:
    """Every supported selection × player count, and the selections left for later."""
    found, later = [], []
    for selection in db.game_doc.selections:
        if selection.id not in SUPPORTED:
            later.append(selection.id)
            continue
        found += [Configuration(selection.id, n) for n in range(selection.players.min, selection.players.max + 1)]
    return found, later


def deal_size(db: Database, players: int) -> int:
    values = per_object(_PARAMETERS, db, lambda db: {p.id: p.value for p in db.game_doc.parameters}, KEPT_RULES)
    return values.get(f"deal-size-{players}-players", values["deal-size"])


_PARAMETERS: dict[int, tuple[Database, dict[str, Any]]] = {}
"""Each database's game parameters by id, read once (every game dealt reads them: reading them cost a tenth of a
deal)."""


_RULES: dict[tuple[int, str, int], tuple[Database, FalleraRules, Catalogue]] = {}
"""Rules already built, by database and configuration (building them reads the whole database)."""
KEPT_RULES = 64


def rules_for(db: Database, config: Configuration) -> tuple[FalleraRules, Catalogue]:
    """The rules of a configuration and the card catalogue they use (with cards left out and why).

    Built once per database and configuration: every game of a configuration shares them (rules
    hold no game's state), so their per-deck facts are worked out once. Neither may be changed.
    """
    key = (id(db), config.selection, config.players)
    kept = _RULES.get(key)
    if kept is not None and kept[0] is db:
        return kept[1], kept[2]
    if len(_RULES) >= KEPT_RULES:
        _RULES.clear()
    rules, cards = _build_rules(db, config)
    _RULES[key] = (db, rules, cards)
    return rules, cards


def _build_rules(db: Database, config: Configuration) -> tuple[FalleraRules, Catalogue]:
    check_setup(db, config.selection, config.players)
    if config.selection not in SUPPORTED:
        raise ValueError(f"the engine does not play the selection {config.selection!r} yet")
    sets = SUPPORTED[config.selection] + pack_sets(db)
    cards = catalogue(db, sets)
    removing = {m.id for m in db.game_doc.markers if config.players in m.removed_at_players}
    if removing:
        from ...loading.records import Index

        marked = {r.id for r in Index(db).of_kind("card") if removing & set(r.model.markers)}
        for card_id in sorted(marked & set(cards.cards)):
            cards.left_out[card_id] = f"removed at {config.players} players"
            del cards.cards[card_id]
    expert = config.selection == "expert"
    side = "expert" if expert else "normal"
    board = board_accesses(db, side) if "mes-enlla" in sets else None
    bonuses = {s.id: tuple(EFFECTS.validate_python(s.bonuses)) for s in board_side(db, side).spaces} if expert else None
    foods = ()
    if board:
        dealt, _ = territorial_foods(db)
        foods = tuple(space for space in board if space in dealt)  # in the map's order
    setup_sources = {p.id: cite(p.sources) for p in db.game_doc.parameters if p.id in (REDEAL_RULE, MAP_RULE)}
    return FalleraRules(cards.cards, config.players, "discordia" in sets, board, bonuses, burning=expert,
                        food_spaces=foods, setup_sources=setup_sources), cards


def new_game(db: Database, config: Configuration, rng: random.Random) -> tuple[FalleraRules, State]:
    rules, _ = rules_for(db, config)
    return rules, rules.new_game(rng=rng, deal=deal_size(db, config.players))


def _scripted_deal(db: Database, rules: FalleraRules, config: Configuration, deal: dict[str, Any]) -> State:
    """A new game whose chance is the scenario's script: ``shuffles`` (the designs each shuffle puts on
    top, top first) and ``foods`` (the terretes dealt as territorial foods, player by player)."""
    chance = ScriptedChance(rules.deck_designs(), deal.get("shuffles", []), [deal["foods"]] if "foods" in deal else [])
    state = rules.new_game(rng=chance, deal=deal_size(db, config.players))  # type: ignore[arg-type]
    left = chance.unused()
    if left:
        raise ScriptError(f"the opening deal never used {' and '.join(left)} of its script")
    return state


def scenario_state(db: Database, setup: dict[str, Any]) -> tuple[FalleraRules, State]:
    """The explicit starting position of a scenario.

    ``setup``: ``selection``, ``players``, then either ``deal`` (the opening deal played by the
    rules, its chance scripted: see ``_scripted_deal``) or ``hands`` and ``counters`` (one list of
    design ids per player), ``deck`` (top first), ``cemetery``, ``current``
    (``p1``…), with expansion 3 ``map`` (terreta → card id), ``queen`` and
    ``foods`` (each player's terreta), and ``example_cards`` for a rulebook's abstract examples (a battle
    card with A4, a defence of D5) that no real card matches. Instances are
    numbered in that order: hands, counters, deck, cemetery.
    """
    unknown = set(setup) - SETUP_KEYS
    if unknown:
        raise ValueError(f"unknown setup keys {sorted(unknown)}; a Fallera setup uses {', '.join(sorted(SETUP_KEYS))}")
    config = Configuration(setup.get("selection", "base"), int(setup["players"]))
    rules, cards = rules_for(db, config)
    if "state" in setup:  # an exact position, as a failed playout saved it
        return rules, rules.load(setup["state"])
    if "deal" in setup:  # the opening deal itself, each shuffle and pick scripted
        return rules, _scripted_deal(db, rules, config, setup["deal"])
    if setup.get("example_cards"):  # the rulebooks' abstract examples ("A4 against D5"), on rules of their own
        extras = {extra["id"]: CardDef(extra["id"], tuple(extra["types"]), extra.get("kind"), extra.get("category"),
                                       extra.get("attack"), extra.get("defence"), extra.get("sell"),
                                       icons=tuple(extra.get("icons", [])))
                  for extra in setup["example_cards"]}
        rules = replace(rules, defs={**rules.defs, **extras})
    zones = {name: setup.get(name, [[] for _ in range(config.players)]) for name in ("hands", "counters")}
    designs: list[str] = []

    def number(ids: list[str]) -> tuple[int, ...]:
        start = len(designs)
        for design in ids:
            if design not in rules.defs:
                reason = cards.left_out.get(design, "not in this selection")
                raise ValueError(f"card {design!r} cannot be played by the engine: {reason}")
            designs.append(design)
        return tuple(range(start, len(designs)))

    hands = tuple(number(h) for h in zones["hands"])
    counters = tuple(number(c) for c in zones["counters"])
    deck = number(setup.get("deck", []))
    cemetery = number(setup.get("cemetery", []))
    current = player_index(setup.get("current", "p1"))
    spaces = tuple(rules.board) if rules.board else ()
    layout = setup.get("map", {})
    slots = tuple(number([layout[s]])[0] if layout.get(s) else -1 for s in spaces)
    foods = tuple(setup.get("foods", ())) if spaces else ()
    if foods:
        _check_foods(db, rules, foods)
    state = State(tuple(designs), tuple(tuple(sorted(h)) for h in hands), tuple(tuple(sorted(c)) for c in counters),
                  deck, cemetery, current, "turn", rules.discord, turn=1, spaces=spaces, map=slots,
                  queen=setup.get("queen", "start") if spaces else None, foods=foods,
                  revealed=tuple(False for _ in foods))
    return rules, rules.started(state, random.Random(setup.get("seed", 0)))


def _check_foods(db: Database, rules: FalleraRules, foods: tuple[str, ...]) -> None:
    """A scenario's territorial foods: one per player, each a terreta that has a food card, none twice."""
    if len(foods) != rules.players:
        raise ValueError(f"foods: one terreta per player ({rules.players}), got {len(foods)}")
    dealt, source = territorial_foods(db)
    for food in foods:
        if food not in dealt:
            raise SetupRefused("territorial-foods", source, f"{food} has no territorial food card: the five "
                               f"cards belong to {', '.join(dealt)}")
    if len(set(foods)) != len(foods):
        raise SetupRefused("territorial-foods", source, "each terreta has one territorial food card: "
                           f"{', '.join(sorted(f for f in set(foods) if foods.count(f) > 1))} dealt twice")
