"""The one place the simulator meets the engine: how a game's rules and opening deal are made.

Everything else in ``cardworks.simulate`` talks to the generic engine contract
(``actor``, ``legal_actions``, ``apply``, ``observe``, ``result``; ``CHANCE``; the
``Playout`` of ``engine.core``). Games are reached only through the plugin registry
(``engine.plugins``): a game plays here when its plugin has a ``Simulation`` (its agents'
heuristics, its cards' public definitions, the referee's view of who holds what).

A *table* is a game configuration ready to deal: the rules, the deck (with a
pack's cards when asked), and the few referee's facts the statistics need (who
holds which card, turns and rounds) read from the true state. Agents never see
a table's state: they get observations.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from functools import lru_cache, partial
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

from ..engine.core import Playout
from ..engine.playouts import MAX_STEPS, contract_playout
from ..engine.plugins import Simulation, registered
from ..errors import DataError, UsageError
from ..problems import Problem


def playable() -> dict[str, Simulation]:
    """The registered games whose engine plays whole games, by id (Diables' engine scores only)."""
    return {game: plugin.simulation for game, plugin in registered().items() if plugin.simulation is not None}


@dataclass(frozen=True)
class TableSpec:
    """What a worker needs to build a table on its own (plain data: it travels to other processes and machines)."""

    cards_root: str
    game: str
    selection: str
    players: int
    packs: tuple[str, ...] = ()
    max_steps: int = MAX_STEPS
    paired: bool = False
    """Also replay every game with each measured card played as a plain card of its type (``Table.measured``)."""
    adjust: tuple[str, str, int] | None = None
    """(design, field, value): one number of a card changed, a step of ``simulate --sweep``."""
    measure: tuple[str, ...] | None = None
    """With ``paired``: the pack cards measured (None: every one); a sweep measures only the card it steps."""
    band: bool = True
    """With ``paired``: also measure the base cards of the measured pack cards' types that are not plain (their
    band is the verdicts' yardstick); a sweep measures them at its first value only."""

    @property
    def label(self) -> str:
        packs = "".join(f" + {pack_id(p)}" for p in self.packs)
        return f"{self.game} {self.selection}{packs}, {self.players} players"


@dataclass
class Table:
    """A game configuration ready to deal (rules are shared by every game of the table; they hold no game)."""

    spec: TableSpec
    rules: Any
    deal: Callable[[random.Random], Any]
    """A new game's opening position, its chance drawn from the rng."""
    simulation: Simulation
    """What the game gives the simulator (its plugin's ``simulation``)."""
    deck: dict[str, int] = field(default_factory=dict)
    """Design → copies in play (empty for a game without cards)."""
    cards: dict[str, Any] = field(default_factory=dict)
    """Design → its public definition (kind, attack, defence, sell…), what every player knows of a card."""
    pack_cards: frozenset[str] = frozenset()
    """Designs the packs add to the deck."""
    pack_designs: frozenset[str] = frozenset()
    """Every design the packs hold, those the deck leaves out too."""
    left_out: dict[str, str] = field(default_factory=dict)
    """Designs of the selection the engine cannot play yet, with why."""
    families: dict[str, str] = field(default_factory=dict)
    """Design → its type for comparisons (the game's ``plain`` names it); empty when the game has no ``plain``."""
    plain_cards: set[str] = field(default_factory=set)
    """Designs that already are the plain card of their type (their own effect is 0 by construction)."""
    beliefs: dict[str, Any] = field(default_factory=dict)
    """Design → the definition players believe a card they have not seen has: empty for ``cards`` itself; a
    stand-in table's are the real table's (nobody at the table knows one card plays as a plain one, so what
    players expect of the cards they have not seen is the same in a game and in its twin)."""
    stand_ins: dict[str, "Table"] = field(default_factory=dict, repr=False)
    """Measured design → the table where it plays as a plain card of its type (with ``spec.paired``): the
    pack's cards, and the base cards of the pack cards' types that are not plain already."""

    @property
    def measured(self) -> tuple[str, ...]:
        return tuple(sorted(self.stand_ins))

    def playout(self, state: Any) -> Playout:
        """The game from ``state`` played in place when the rules offer it, else through ``apply``."""
        if hasattr(self.rules, "playout"):
            return self.rules.playout(state)
        return contract_playout(self.rules, state)

    def listed(self, state: Any) -> Sequence[Any]:
        """The legal actions at ``state`` (a state, not a draft), as the rules list them without building each where
        they can (their ``choices``: the same actions in the same order as ``legal_actions``), else ``legal_actions``."""
        choices = getattr(self.rules, "choices", None)
        return choices(state) if choices is not None else self.rules.legal_actions(state)

    def live(self, playout: Playout) -> Callable[[], Any]:
        """The position a playout stands at, for reading only and only until its next step: an in-place
        playout's own draft (the rules read it as they read a state), with no copy; else ``playout.state``."""
        draft = _draft(playout)
        if draft is not None:
            return lambda: draft
        return playout.state

    def random_steps(self, playout: Playout, steps: int, rng: random.Random) -> None:
        """Up to ``steps`` steps on ``playout``, each the action at ``int(rng.random() * n)`` of the ``n`` its
        ``choices`` lists (none: the game is over): the rules' own ``random_steps`` on an in-place playout's
        draft when they offer it (the same steps, played faster), else through ``choices`` and ``play``."""
        draft = _draft(playout)
        if draft is not None and hasattr(self.rules, "random_steps"):
            self.rules.random_steps(draft, steps, rng)
            return
        choices, play, _ = playout
        random_ = rng.random
        for _ in range(steps):
            legal = choices()
            count = len(legal)
            if not count:
                break
            play(legal[int(random_() * count)], rng)

    def zones(self, state: Any) -> tuple[Sequence[Iterable[int]], ...]:
        """The zones whose cards a player holds (hands, counters), each indexed by player: the referee's
        view, for per-card figures. Empty for a game without cards."""
        return self.simulation.zones(state)

    def design(self, state: Any, instance: int) -> str:
        return self.simulation.design(state, instance)

    def quiet(self, state: Any, design: str) -> tuple[int, ...] | None:
        """The players whose hands hold ``design`` while its definition changes nothing but their decisions
        (empty: all in the deck), None once it may act; None always for a game that cannot say."""
        quiet = self.simulation.quiet
        return None if quiet is None else quiet(self.rules, state, design)

    def quiets(self, state: Any, designs: frozenset[str], settled: bool = False) -> dict[str, tuple[int, ...] | None]:
        """``quiet`` of each of ``designs`` (one missing from the answer: ``()``, every copy in the deck), all at once;
        ``settled``: also counting as waiting the copies in play that nothing reads there, for a card whose twin has
        parted (``Simulation.quiets``; a game without it answers ``quiet`` for each design, for both)."""
        quiets = self.simulation.quiets
        if quiets is None:
            return {design: self.quiet(state, design) for design in designs}
        return quiets(self.rules, state, designs, settled)

    def played(self, action: Any) -> str | None:
        """The design a player's action puts to use (sold, battled or defended with), if any."""
        return self.simulation.played(action)

    def turns(self, state: Any) -> tuple[int, int]:
        """(turns, rounds) played so far."""
        return self.simulation.turns(state, self.spec.players)

    @property
    def heuristics(self) -> Any:
        """What the game's agents know of it (``greedy``, ``determinize``, ``evaluate``)."""
        return self.simulation.heuristics


def configurations(game: str, db: Any) -> list[Any]:
    """The configurations a game's engine plays (each with ``selection`` and ``players``), as its plugin lists them."""
    configs, _ = registered()[game].configurations(db)
    return configs


def selections(game: str, db: Any) -> list[str]:
    """The deck selections a game's engine plays, in the game's order."""
    return list(dict.fromkeys(c.selection for c in configurations(game, db)))


MAX_DECK_DESIGNS = 10_000
"""Most card designs (the game's and its packs' together) ``simulate`` plays. Every design keeps its figures and,
paired, a stand-in table for the whole run: 10,000 designs peak near 210 MB (validate reads them in about as
much); 100,000 grew to 23 GB. A larger pack is refused before a game is dealt."""


@lru_cache(maxsize=8)
def build_table(spec: TableSpec) -> Table:
    """The table of ``spec`` (built once per process; raises UsageError or DataError for bad input)."""
    games = playable()
    if spec.game not in games:
        raise UsageError(f"simulate plays {', '.join(games)}; the {spec.game!r} engine does not play whole games yet")
    db = _database(spec)
    _bounded(db)
    configs = configurations(spec.game, db)
    chosen = [c for c in configs if c.selection == spec.selection]
    if not chosen:
        raise UsageError(f"--set {spec.selection!r}: {spec.game} plays {', '.join(selections(spec.game, db))}")
    config = next((c for c in chosen if c.players == spec.players), None)
    if config is None:
        counts = [c.players for c in chosen]
        raise UsageError(f"--players {spec.players}: {spec.game} {spec.selection} is played by {min(counts)} to {max(counts)}")
    return _table(spec, db, config, games[spec.game])


def _database(spec: TableSpec) -> Any:
    from ..loading.database import load_database

    root = Path(spec.cards_root) / spec.game
    if not (root / "game.json").is_file():
        raise UsageError(f"{root}: no game {spec.game!r} in the card database")
    for pack in spec.packs:
        if not (Path(pack) / "pack.json").is_file():
            raise UsageError(f"{pack}: not a pack (no pack.json)")
    db = load_database(root, [Path(p) for p in spec.packs])
    problems = [p for bundle in db.bundles for p in bundle.problems if p.severity == "error"]
    if problems or any(f.doc is None for b in db.bundles for f in b.files):
        raise DataError(f"{spec.label}: the data has errors; run 'cardworks validate'",
                        problems or [Problem(str(root), "", "unusable", "a file could not be read")])
    extends = {pack.docs("pack")[0][1].extends for pack in db.packs if pack.docs("pack")}
    if extends - {spec.game}:
        raise UsageError(f"a pack extends {', '.join(sorted(extends - {spec.game}))}, not {spec.game}")
    return db


def _bounded(db: Any) -> None:
    """DataError, naming the largest pack, when the game and its packs hold more than :data:`MAX_DECK_DESIGNS`."""
    from ..loading.database import display_path
    from ..loading.records import Index

    designs = Index(db).of_kind("card")
    if len(designs) <= MAX_DECK_DESIGNS:
        return
    held = {id(bundle): 0 for bundle in db.bundles}
    for record in designs:
        held[id(record.bundle)] = held.get(id(record.bundle), 0) + 1
    largest = max(db.packs or [db.game], key=lambda bundle: held.get(id(bundle), 0))  # a pack, if any, is named
    where = display_path(largest.root / ("pack.json" if largest.is_pack else "game.json"))
    raise DataError("the deck is too large to simulate; nothing was played", [Problem(
        where, "", "simulate-too-large", f"{len(designs):,} card designs in all ({held.get(id(largest), 0):,} here); "
        f"simulate plays at most {MAX_DECK_DESIGNS:,} (each design's figures are kept for the whole run); "
        "simulate a smaller pack")])


def _table(spec: TableSpec, db: Any, config: Any, simulation: Simulation) -> Table:
    """The rules of ``config`` and its deal, with every pack's cards in the deck (a game's rules take the
    cards of the packs loaded with it), and which designs the packs add."""
    plugin = registered()[spec.game]
    rules, catalogue = plugin.rules_for(db, config)
    new_game = lambda rng: plugin.new_game(db, config, rng)[1]  # noqa: E731
    if spec.adjust is not None:
        rules = _adjusted(spec, rules, simulation)
        new_game = partial(simulation.deal, db, config, rules)
    cards = simulation.cards(rules)
    pack_designs = _pack_designs(db)
    pack_cards = frozenset(cards) & pack_designs
    table = Table(spec, rules, new_game, simulation,
                  deck={design: card.copies for design, card in cards.items()}, cards=cards,
                  pack_cards=pack_cards, pack_designs=pack_designs, left_out=dict(catalogue.left_out))
    if simulation.plain is None or not cards:
        return table
    base = frozenset(cards) - pack_cards
    for design in sorted(cards):
        swapped, table.families[design] = simulation.plain(rules, design, base)
        if swapped is None:
            table.plain_cards.add(design)
        if spec.paired and swapped is not None:
            table.stand_ins[design] = swapped
    chosen = _measured_pack_cards(spec, pack_cards)
    kinds = {table.families[d] for d in chosen if d in table.families}
    for design, swapped in list(table.stand_ins.items()):
        if design not in chosen and (design in pack_cards or not spec.band or table.families[design] not in kinds):
            del table.stand_ins[design]
            continue
        table.stand_ins[design] = Table(spec, swapped, partial(simulation.deal, db, config, swapped), simulation,
                                        deck=table.deck, cards=simulation.cards(swapped), pack_cards=pack_cards,
                                        beliefs=table.cards)
    return table


def _measured_pack_cards(spec: TableSpec, pack_cards: frozenset[str]) -> frozenset[str]:
    """The pack cards ``spec`` measures: all of them, or those it names (each must be one)."""
    if spec.measure is None:
        return pack_cards
    stray = sorted(set(spec.measure) - pack_cards)
    if stray:
        raise UsageError(f"{stray[0]}: not a card the packs add to the deck (verdicts judge pack cards)")
    return frozenset(spec.measure)


def _adjusted(spec: TableSpec, rules: Any, simulation: Simulation) -> Any:
    design, name, value = spec.adjust
    if simulation.adjusted is None or simulation.deal is None:
        raise UsageError(f"--sweep: {spec.game} cannot change a card's numbers")
    if design not in simulation.cards(rules):
        raise UsageError(f"--sweep {design}.{name}: {design} is not a card in play in {spec.label}")
    try:
        return simulation.adjusted(rules, design, name, value)
    except ValueError as exc:
        raise UsageError(f"--sweep {design}.{name}={value}: {exc}") from None


def _pack_designs(db: Any) -> frozenset[str]:
    """The ids of the cards the packs loaded with the game hold."""
    from ..loading.records import Index

    packs = {id(bundle) for bundle in db.packs}
    return frozenset(r.id for r in Index(db).of_kind("card") if id(r.bundle) in packs)


def pack_id(path: str) -> str:
    """A pack's id, as its ``pack.json`` gives it (reports name a pack by its id, not by its folder)."""
    import json

    from ..loading.paths import read_text_inside

    file = Path(path) / "pack.json"
    try:
        return str(json.loads(read_text_inside(Path(path), file))["id"])
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise UsageError(f"{file}: not a pack with an id ({exc})") from None


def _draft(playout: Playout) -> Any:
    """An in-place playout's own draft (its ``state`` is a partial over it), else None."""
    state = playout.state
    if isinstance(state, partial) and state.args and not state.keywords:
        return state.args[0]
    return None


def winners(result: Any) -> tuple[int, ...]:
    """The winning seats of ``rules.result(state)[0]``: one player, several sharing the win, or none."""
    if result is None:
        return ()
    if isinstance(result, int):
        return (result,)
    return tuple(sorted(result))
