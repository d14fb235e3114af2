"""The one place the simulator meets the engine: how a game's rules and opening deal are made.

Everything else in ``cardworks.simulate`` talks to the generic engine contract
(``actor``, ``legal_actions``, ``apply``, ``observe``, ``result``; ``CHANCE``; the
``Playout`` of ``engine.core``). When the engine's games move (one package per game,
a registry), only this module is re-pointed.

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
from ..errors import DataError, UsageError
from ..problems import Problem

PLAYABLE = ("calavera", "fallera")
"""Games whose engine plays whole games (Diables' engine scores only)."""


@dataclass(frozen=True)
class TableSpec:
    """What a worker needs to build a table on its own (plain data: it travels to other processes and machines)."""

    cards_root: str
    game: str
    selection: str
    players: int
    packs: tuple[str, ...] = ()
    max_steps: int = MAX_STEPS

    @property
    def label(self) -> str:
        packs = "".join(f" + {Path(p).name}" for p in self.packs)
        return f"{self.game} {self.selection}{packs}, {self.players} players"


@dataclass
class Table:
    """A game configuration ready to deal (rules are shared by every game of the table; they hold no game)."""

    spec: TableSpec
    rules: Any
    deal: Callable[[random.Random], Any]
    """A new game's opening position, its chance drawn from the rng."""
    deck: dict[str, int] = field(default_factory=dict)
    """Design → copies in play (empty for a game without cards)."""
    cards: dict[str, Any] = field(default_factory=dict)
    """Design → its public definition (kind, attack, defence, sell…), what every player knows of a card."""
    pack_cards: frozenset[str] = frozenset()
    """Designs the packs add to the deck."""
    left_out: dict[str, str] = field(default_factory=dict)
    """Designs of the selection the engine cannot play yet, with why."""

    def playout(self, state: Any) -> Playout:
        """The game from ``state`` played in place when the rules offer it, else through ``apply``."""
        if hasattr(self.rules, "playout"):
            return self.rules.playout(state)
        return contract_playout(self.rules, state)

    def live(self, playout: Playout) -> Callable[[], Any]:
        """The position a playout stands at, for reading only and only until its next step: an in-place
        playout's own draft (the rules read it as they read a state), with no copy; else ``playout.state``."""
        state = playout.state
        if isinstance(state, partial) and state.args and not state.keywords:
            draft = state.args[0]
            return lambda: draft
        return state

    def zones(self, state: Any) -> tuple[Sequence[Iterable[int]], ...]:
        """The zones whose cards a player holds (hands, counters), each indexed by player: the referee's
        view, for per-card figures. None for a game without cards."""
        if self.spec.game != "fallera":
            return ()
        return state.hands, state.counters

    def design(self, state: Any, instance: int) -> str:
        return state.designs[instance]

    def played(self, action: Any) -> str | None:
        """The design a player's action puts to use (sold, battled or defended with), if any."""
        card = getattr(action, "card", None)
        if card is None or type(action).__name__ not in ("Sell", "Attack", "Defend"):
            return None
        return card.design

    def turns(self, state: Any) -> tuple[int, int]:
        """(turns, rounds) played so far."""
        players = self.spec.players
        if self.spec.game == "calavera":
            if state.phase == "over":  # the game ends as a round ends: every seat played it
                return state.round * players, state.round
            turn = (state.round - 1) * players + (state.current - state.first) % players + 1
            return turn, state.round
        turn = max(state.turn, 1)
        return turn, (turn + players - 1) // players


def selections(game: str, db: Any) -> list[str]:
    """The deck selections a game's engine plays."""
    if game == "fallera":
        from ..games.fallera.game import SUPPORTED

        return [s.id for s in db.game_doc.selections if s.id in SUPPORTED]
    return ["base"]


@lru_cache(maxsize=8)
def build_table(spec: TableSpec) -> Table:
    """The table of ``spec`` (built once per process; raises UsageError or DataError for bad input)."""
    if spec.game not in PLAYABLE:
        raise UsageError(f"simulate plays {', '.join(PLAYABLE)}; the {spec.game!r} engine does not play whole games yet")
    db = _database(spec)
    if spec.selection not in selections(spec.game, db):
        raise UsageError(f"--set {spec.selection!r}: {spec.game} plays {', '.join(selections(spec.game, db))}")
    players = db.game_doc.players if spec.game == "calavera" else \
        next(s.players for s in db.game_doc.selections if s.id == spec.selection)
    if not players.min <= spec.players <= players.max:
        raise UsageError(f"--players {spec.players}: {spec.game} {spec.selection} is played by {players.min} to {players.max}")
    if spec.game == "calavera":
        return _calavera_table(spec, db)
    return _fallera_table(spec, db)


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


def _calavera_table(spec: TableSpec, db: Any) -> Table:
    from ..games.calavera import game as calavera_game

    config = calavera_game.Configuration(spec.players)
    rules, _ = calavera_game.rules_for(db, config)
    return Table(spec, rules, lambda rng: calavera_game.new_game(db, config, rng)[1])


def _fallera_table(spec: TableSpec, db: Any) -> Table:
    """Fallera's rules for the selection, with every pack's cards added to the deck (the selection's
    rules, their definitions extended the way a scenario's example cards are)."""
    from dataclasses import replace

    from ..games.fallera import game as fallera_game
    from ..games.fallera.cards import catalogue
    from ..loading.records import Index

    rules, cards = fallera_game.rules_for(db, fallera_game.Configuration(spec.selection, spec.players))
    left_out = {k: v for k, v in cards.left_out.items()}
    pack_sets = [doc.id for bundle in db.packs for _, doc in bundle.docs("set")]
    added: dict[str, Any] = {}
    if pack_sets:
        extra = catalogue(db, pack_sets)
        removing = {m.id for m in db.game_doc.markers if spec.players in m.removed_at_players}
        marked = {r.id for r in Index(db).of_kind("card") if removing & set(r.model.markers)}
        added = {k: v for k, v in extra.cards.items() if k not in marked}
        left_out.update(extra.left_out)
        left_out.update({k: f"removed at {spec.players} players" for k in sorted(marked & set(extra.cards))})
        rules = replace(rules, defs={**rules.defs, **added})
    deal_size = fallera_game.deal_size(db, spec.players)
    return Table(spec, rules, lambda rng: rules.new_game(rng=rng, deal=deal_size),
                 deck={c.id: c.copies for c in rules.defs.values()}, cards=dict(rules.defs),
                 pack_cards=frozenset(added), left_out=left_out)


def winners(result: Any) -> tuple[int, ...]:
    """The winning seats of ``rules.result(state)[0]``: one player, several sharing the win, or none."""
    if result is None:
        return ()
    if isinstance(result, int):
        return (result,)
    return tuple(sorted(result))
