"""Playing seeded games and chunks of games.

Game ``index`` of a run with master seed ``seed`` draws all its randomness (the
deal, chance, each seat's agent) from ``numpy.random.SeedSequence(seed,
spawn_key=(index,))``: a game is the same whoever plays it, alone or in any chunk.
"""

from __future__ import annotations

import random
from collections import Counter
from functools import lru_cache
from typing import Any, Sequence

import numpy as np

from ..engine.core import CHANCE
from .agents import Agent, seating
from .stats import GameRecord, Tally
from .tables import Table, TableSpec, build_table, winners


def game_rngs(seed: int, index: int, players: int) -> list[random.Random]:
    """The chance rng, then one rng per seat, of game ``index``."""
    return [random.Random(word) for word in _seeds(seed, index, players)]


@lru_cache(maxsize=64)
def _seeds(seed: int, index: int, players: int) -> tuple[int, ...]:
    """The seeds of ``game_rngs``, kept for the last games: a game's twins played from the deal seed their
    generators again, and drawing the words from a ``SeedSequence`` cost more than seeding with them."""
    words = np.random.SeedSequence(seed, spawn_key=(index,)).generate_state(players + 1, dtype=np.uint64)
    return tuple(int(word) for word in words)


def _restored(states: tuple[Any, ...]) -> list[random.Random]:
    """Generators in the given states (``random.Random.getstate``, or a ``_Past``)."""
    rngs = []
    for kept in states:
        rng = _blank()
        if type(kept) is _Past:
            kept.restore(rng)
        else:
            rng.setstate(kept)
        rngs.append(rng)
    return rngs


def _blank() -> random.Random:
    """A generator to be set to a state (``setstate`` sets all of it): made without seeding it first, which
    costs more than the state it is then given."""
    return random.Random.__new__(random.Random)


class _Past:
    """A generator's state told as a state it had (``base``, as ``getstate`` gave it) and the ``random()`` calls
    it made since (``draws``): the watch of paired games keeps each generator's state at every step, and most
    steps draw one ``random()`` or none, while reading a state (``getstate``) costs about what a step does. Two
    are equal when both parts are (equal states may also be told otherwise: compare them restored)."""

    __slots__ = ("base", "draws")

    def __init__(self, base: Any, draws: int) -> None:
        self.base, self.draws = base, draws

    def restore(self, rng: random.Random) -> None:
        """Put ``rng`` in the state told: ``base``, then ``draws`` calls of ``random()`` (the same numbers)."""
        rng.setstate(self.base)
        draw = rng.random
        for _ in range(self.draws):
            draw()

    def __eq__(self, other: object) -> bool:
        return type(other) is _Past and self.draws == other.draws and self.base == other.base

    def __hash__(self) -> int:
        return hash(self.draws)

    def __repr__(self) -> str:
        return f"_Past(<state>, {self.draws})"


class _Counted:
    """A generator as the watch lends it to the rules or an agent: every attribute is the generator's own (the
    same numbers); ``random()`` calls are counted (``draws`` since ``base``), and reading anything else marks it
    ``stale``: its state is read again (``now``) after the step."""

    __slots__ = ("rng", "base", "draws", "stale")

    def __init__(self, rng: random.Random, base: Any = None) -> None:
        """``base``: ``rng``'s state as it stands, when known (else it is read)."""
        self.rng, self.base, self.draws, self.stale = rng, rng.getstate() if base is None else base, 0, False

    def random(self) -> float:
        self.draws += 1
        return self.rng.random()

    def __getattr__(self, name: str) -> Any:
        self.stale = True
        return getattr(self.rng, name)

    def now(self) -> _Past:
        """The generator's state as it stands (read again only after a use other than ``random()``)."""
        if self.stale:
            self.base, self.draws, self.stale = self.rng.getstate(), 0, False
        return _Past(self.base, self.draws)

    @classmethod
    def told(cls, rng: random.Random, kept: Any) -> "_Counted":
        """``rng``, just set to ``kept`` (a ``getstate`` state or a ``_Past``), counted from there: its state is then
        told as ``kept`` told it, and a twin compares it with the real game's without reading it (``_meets``)."""
        if type(kept) is _Past:
            counted = cls(rng, kept.base)
            counted.draws = kept.draws
            return counted
        return cls(rng, kept)


class _Kept:
    """A counted generator (``_Counted``) lent to a choice that keeps the ``random()`` numbers it draws."""

    __slots__ = ("mind", "numbers")

    def __init__(self, mind: _Counted) -> None:
        self.mind, self.numbers = mind, []

    def random(self) -> float:
        number = self.mind.random()
        self.numbers.append(number)
        return number

    def __getattr__(self, name: str) -> Any:
        return getattr(self.mind, name)  # (the generator is then ``stale``)


class _Replay:
    """A generator in the state ``start`` tells, for a choice worked out again from there: its first ``random()``
    calls give the ``numbers`` the real choice drew from that state (the same numbers, without setting a
    generator to it); past them, or at any other use, a generator is set to ``start`` and drawn on for real.
    ``draws``: its ``random()`` calls; ``stale``: another use."""

    __slots__ = ("numbers", "start", "draws", "rng", "stale")

    def __init__(self, numbers: Sequence[float], start: _Past) -> None:
        self.numbers, self.start, self.draws, self.rng, self.stale = numbers, start, 0, None, False

    def random(self) -> float:
        draws = self.draws
        self.draws = draws + 1
        if self.rng is None:
            if draws < len(self.numbers):
                return self.numbers[draws]
            self._set(draws)
        return self.rng.random()  # type: ignore[union-attr]

    def _set(self, draws: int) -> None:
        """A generator in the state ``start`` tells, ``draws`` ``random()`` calls on."""
        rng = _blank()
        self.start.restore(rng)
        draw = rng.random
        for _ in range(draws):
            draw()
        self.rng = rng

    def __getattr__(self, name: str) -> Any:
        self.stale = True
        if self.rng is None:
            self._set(self.draws)
        return getattr(self.rng, name)

    def state(self) -> Any:
        """The state it stands in (read)."""
        if self.rng is None:
            self._set(self.draws)
        return self.rng.getstate()  # type: ignore[union-attr]


Snapshot = tuple[Any, Any, tuple[Any, ...], int]
"""Where a paired twin game starts: (the position, the chance rng's state, each seat's rng state, steps played);
a state is ``getstate``'s or a ``_Past``."""


class Snapshots(dict):
    """Watched design → the snapshot its twin starts from (``Snapshot``, None: the deal), and in ``rejoins`` each
    design's later meetings with this game: (where, until) pairs, where a snapshot at which the design is quiet
    again after its twin started, and until the snapshot at which a twin standing at ``where`` would part from
    this game again (``END``: never)."""

    def __init__(self) -> None:
        super().__init__()
        self.rejoins: dict[str, list[list[Any]]] = {}


END = "end"
"""A rejoin's ``until`` when a twin standing at its ``where`` is this game to the end."""


def play_game(table: Table, agents: tuple[Agent, ...], seed: int, index: int) -> GameRecord:
    """One whole game (or up to the table's step cap, counted as ``step-limit``)."""
    return _play(table, agents, seed, index)[0]


def _play(table: Table, agents: tuple[Agent, ...], seed: int, index: int, watch: dict[str, Table] | None = None,
          start: Snapshot | None = None, light: bool = False,
          rejoin: tuple[list[list[Any]], GameRecord] | None = None) -> tuple[GameRecord, Snapshots]:
    """A game (from the deal, or from ``start``), and with ``watch`` (measured design → its twin's table) the
    step at which each watched design's twin could first differ from this game (``_diverging``): the twin is
    this same game up to there, so it is played from that snapshot only; a design missing from the answer
    never could, and its twin is this game. ``light``: only who won and how (a twin's record: no holdings, uses
    or credits are counted).

    ``rejoin`` (a twin's: its design's ``Snapshots.rejoins`` and the real game's record): where the twin stands
    exactly where the real game stood (the position and every generator's state) at a rejoin's ``where``, it is
    the real game until the rejoin's ``until``: it goes on from there, or ends as the real game did."""
    rules = table.rules
    players = table.spec.players
    seats = seating(agents, index)
    if start is None:
        chance, *minds = game_rngs(seed, index, players)
        playout = table.playout(table.deal(chance))
        steps = 0
    else:  # the generators as the snapshot left them (seeding them first from the game's numbers is wasted)
        state, chance_state, mind_states, steps = start
        kept = (chance_state, *mind_states)
        chance, *minds = _restored(kept)
        playout = table.playout(state)
    choices, play, now = playout
    position = table.live(playout)
    joins = list(rejoin[0]) if rejoin else []
    cards = bool(table.deck) and not light
    held: list[set[int]] = [set() for _ in range(players)]
    played: Counter = Counter()
    legal = choices()
    seated = range(players)
    blind = [agent.kind == "random" for agent in seats]  # random seats pick without looking
    live = dict(watch) if watch else {}
    snapshots = Snapshots()
    resting: dict[str, Table] = {}  # watched designs whose twin has parted from this game, until they are quiet
    watched = frozenset(live)
    before: Snapshot | None = None  # the position before the last step (None: the deal)
    # while cards are watched, the generators are lent counted: the watch tells their states without reading them;
    # a twin that may meet its real game lends them counted from its snapshot (``_meets`` compares counts first)
    if live:
        counted_chance, counted_minds = _Counted(chance), [_Counted(mind) for mind in minds]
    elif joins and start is not None:
        counted_chance, *counted_minds = map(_Counted.told, (chance, *minds), kept)
    else:
        counted_chance, counted_minds = chance, minds
    searching = [agent.kind == "mcts" for agent in seats]  # a search gets its generator itself (``_lent``)
    max_steps = table.spec.max_steps
    while legal and steps < max_steps:
        while joins and joins[0][0][3] < steps:
            del joins[0]
        if joins and joins[0][0][3] == steps:
            where, until = joins.pop(0)
            if _meets(now(), counted_chance, counted_minds, where):
                if until == END:  # this twin is the real game to its end
                    real = rejoin[1]  # type: ignore[index]
                    return GameRecord(index=index, seats=real.seats, winners=real.winners, reason=real.reason,
                                      steps=real.steps, turns=real.turns, rounds=real.rounds), Snapshots()
                state, chance_state, mind_states, steps = until
                kept = (chance_state, *mind_states)
                chance, *minds = _restored(kept)
                counted_chance, *counted_minds = map(_Counted.told, (chance, *minds), kept)  # a twin watches nothing
                playout = table.playout(state)
                choices, play, now = playout
                position = table.live(playout)
                legal = choices()
                continue
        state = position()  # read-only, and only until the step is played (``Table.live``)
        actor = rules.actor(state)
        if cards:
            for zone in table.zones(state):
                for who in seated:
                    held[who].update(zone[who])
        if live or resting:  # the watched cards' answers, one frozen position and two questions a step
            frozen = now()
            answers = _answers(table, frozen, watched)
        if live or resting and _rejoining(answers, resting):
            action, before = _diverging(table, seats, state, actor, legal, counted_chance, counted_minds, steps,
                                        lambda: frozen, live, snapshots, before, resting, answers)
        elif actor == CHANCE:  # (the generators counted while a card whose twin parted may be watched again)
            action = legal[int(counted_chance.random() * len(legal))]
        elif blind[actor]:
            action = legal[int(counted_minds[actor].random() * len(legal))]
        else:
            # the observation is read off the position as it stands (the rules read a draft as a state, and an
            # observation holds none of its parts): freezing a copy of it first cost more than the observation
            mind = counted_minds[actor]
            action = seats[actor].choose(table, actor, lambda: rules.observe(state, actor), legal,
                                         _lent(mind, seats[actor]) if searching[actor] else mind)
        if actor != CHANCE and not light:
            design = table.played(action)
            if design is not None:
                played[design] += 1
        play(action, counted_chance)
        legal = choices()
        steps += 1
    final = now()
    answers = _answers(table, final, watched) if live else ({}, {})
    for design in [d for d in live if _holders(answers, snapshots, d) is None]:  # the last step put it in play
        _part(snapshots, design, before)
    for design in live:
        if design in snapshots.rejoins and snapshots.rejoins[design][-1][1] is None:
            snapshots.rejoins[design][-1][1] = END
    if cards:
        for zone in table.zones(final):
            for who in seated:
                held[who].update(zone[who])
    over = rules.actor(final) is None
    result, reason = rules.result(final)
    turns, rounds = table.turns(final)
    cause, events = table.simulation.credits(position(), reason if over else None) if not light else (None, ())
    return GameRecord(
        index=index, seats=tuple(agent.label for agent in seats), winners=winners(result) if over else (),
        reason=(reason or "no-reason") if over else "step-limit", steps=steps, turns=turns, rounds=rounds,
        held=tuple(frozenset(table.design(final, i) for i in h) for h in held) if cards else (),
        played=tuple(sorted(played.items())), cause=cause, events=events), snapshots


def _diverging(table: Table, seats: tuple[Agent, ...], state: Any, actor: int, legal: Any, chance: _Counted,
               minds: list[_Counted], steps: int, now: Any, live: dict[str, Table],
               snapshots: Snapshots, before: Snapshot | None, resting: dict[str, Table] | None = None,
               answers: tuple[dict[str, Any], dict[str, Any]] | None = None) -> tuple[Any, Snapshot]:
    """This step's action, chosen as in ``_play``, and the position before it; each watched design whose twin
    could have played the last step or may play this one otherwise leaves ``live`` with the position from which
    its twin is played (``before``, the last step's, or this one's).

    A design's twin is this game while the game says its definition is quiet (``Table.quiet``: every copy in
    the deck, the cemetery or hands) and every decision of a holder is the same with the card made plain: a
    greedy holder's choice is worked out again on the twin's table from the same position and rng state, and
    must be the same action, leave its rng in the same state and not use the card (sell it, battle or defend
    with it, play it); where the game names the cards of the legal actions (``Simulation.named``) and none is
    the card, the choice is the twin's without working it out again. A step that put a copy in play (drawn onto
    a counter, say) may have played otherwise in the twin: its twin starts before it. A random holder's list of choices, and a search's sampled worlds, may
    differ: those diverge at once.

    A design that left (kept in ``resting``) is watched again from a step at which it is quiet: a twin standing
    there as this game stands would be this game from there, until the watch parts them again
    (``Snapshots.rejoins``)."""
    rules = table.rules
    frozen = now()
    here = (frozen, chance.now(), tuple(mind.now() for mind in minds), steps)
    if resting is None:
        resting = {}
    if answers is None:
        answers = _answers(table, frozen, frozenset(live).union(resting))
    settled = answers[1]
    # each watched design's holders (``_holders``), for those the answers name (any other is held by nobody); a
    # design that parts below leaves ``live``, and one that comes back had parted before: these stay its answers
    holding = {**{d: h for d, h in answers[0].items() if d not in snapshots},
               **{d: h for d, h in settled.items() if d in snapshots}}
    for design in [d for d in live if d in holding and holding[d] is None]:
        _part(snapshots, design, before)
        resting[design] = live.pop(design)
    for design in [d for d in resting if settled.get(d, ()) is not None]:
        live[design] = resting.pop(design)
        snapshots.rejoins.setdefault(design, []).append([here, None])
    now_gone, checked = [], []
    agent = seats[actor] if actor != CHANCE else None
    if agent is not None and agent.kind == "mcts" and len(legal) > 1:  # a search samples worlds holding the card
        now_gone = list(live)
    elif agent is not None:
        for design in live:
            if design in holding and actor in (holding[design] or ()):
                (checked if agent.kind == "greedy" else now_gone).append(design)
    for design in now_gone:
        _part(snapshots, design, here)
        resting[design] = live.pop(design)
    if agent is None:
        return legal[int(chance.random() * len(legal))], here
    mind = minds[actor]
    if agent.kind == "mcts":
        return agent.choose(table, actor, lambda: rules.observe(frozen, actor), legal, _lent(mind, agent)), here
    if not checked:
        if agent.kind == "random":
            return legal[int(mind.random() * len(legal))], here
        return agent.choose(table, actor, lambda: rules.observe(frozen, actor), legal, mind), here
    kept_seen: list[Any] = []  # the observation, made once and only if a choice looks (one legal action: none)

    def seen() -> Any:
        if not kept_seen:
            kept_seen.append(rules.observe(frozen, actor))
        return kept_seen[0]

    drawn = _Kept(mind)
    action = agent.choose(table, actor, seen, legal, drawn)
    named = table.simulation.named
    if named is not None:  # the game promises: a choice naming no card of the design is the twin's too
        names = named(legal)
        checked = [design for design in checked if design in names]
        if not checked:
            return action, here
    start = here[2][actor]
    real = mind.draws - start.draws  # ``random()`` calls of the choice (``mind.stale``: it drew otherwise too)
    used = table.played(action)
    numbers = () if mind.stale else drawn.numbers  # after another draw, the numbers are drawn again for real
    for design in checked:
        if used == design:  # the card is used: the twin, whose card plays plain, may part here
            _part(snapshots, design, here)
            resting[design] = live.pop(design)
            continue
        twin = live[design]
        counted = _Replay(numbers, start)
        other = agent.choose(twin, actor, seen, twin.listed(frozen), counted)
        if mind.stale or counted.stale:  # a draw other than ``random()``: the states themselves are compared
            alike = counted.state() == mind.rng.getstate()
        else:  # from the same state, as many ``random()`` calls leave the same state
            alike = counted.draws == real
        if other != action or not alike:
            _part(snapshots, design, here)
            resting[design] = live.pop(design)
    return action, here


def _lent(mind: Any, agent: Agent) -> Any:
    """A seat's generator as its agent gets it: a search draws otherwise than by ``random()``, so it gets the
    generator itself, whose state is then read again (``_Counted.stale``)."""
    if type(mind) is _Counted and agent.kind == "mcts":
        mind.stale = True
        return mind.rng
    return mind


def _answers(table: Table, frozen: Any, designs: frozenset[str]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The game's answers at ``frozen`` for the watched ``designs``: ``Table.quiets`` for those whose twin has not
    parted from this game yet, and settled ones (``Table.quiets(settled=True)``) for those whose twin has, which the
    watch sees again wherever they are settled."""
    return table.quiets(frozen, designs), table.quiets(frozen, designs, True)


def _holders(answers: tuple[dict[str, Any], dict[str, Any]], snapshots: Snapshots, design: str) -> Any:
    """The game's answer for ``design`` (the players holding its copies, None once it is in play): settled for a
    design whose twin has parted before (it has snapshots), else ``quiet``'s; a design missing from the answers is
    quiet, held by nobody."""
    quiet, settled = answers
    return (settled if design in snapshots else quiet).get(design, ())


def _rejoining(answers: tuple[dict[str, Any], dict[str, Any]], resting: dict[str, Table]) -> bool:
    """Whether a card whose twin has parted is settled again (``_diverging`` then watches it again); while none is
    and no card is watched, a step is played as an unwatched one (the position before it is never a twin's start:
    a card watched again is settled there)."""
    settled = answers[1]
    return any(settled.get(design, ()) is not None for design in resting)


def _part(snapshots: Snapshots, design: str, at: Snapshot | None) -> None:
    """The twin of ``design`` parts from the game at ``at``: its start, or the end of its last rejoin."""
    if design not in snapshots:
        snapshots[design] = at
    else:
        snapshots.rejoins[design][-1][1] = at


def _meets(position: Any, chance: Any, minds: list[Any], where: Snapshot) -> bool:
    """Whether a twin standing at ``position`` with these generators stands where the real game stood at ``where``
    (the position first: most twins that parted stand elsewhere).

    A generator counted (``_Counted``, not stale) from the very state the real game's is told from (the same
    ``base`` object) is compared by its count of ``random()`` calls alone: from one state, as many calls leave
    the same state, and a different number a different one (the generator's period is far longer than a game).
    Any other is compared by its state, read."""
    state, chance_state, mind_states, _ = where
    if position != state:
        return False
    scratch = _blank()
    for rng, kept in zip((chance, *minds), (chance_state, *mind_states)):
        if type(rng) is _Counted:
            if type(kept) is _Past and not rng.stale and rng.base is kept.base:
                if rng.draws != kept.draws:
                    return False
                continue
            rng = rng.rng
        if type(kept) is _Past:
            kept.restore(scratch)
            kept = scratch.getstate()
        if rng.getstate() != kept:
            return False
    return True



def play_twins(table: Table, agents: tuple[Agent, ...], seed: int, record: GameRecord,
               snapshots: Snapshots | None = None) -> list[tuple[str, bool, bool, bool]]:
    """Per holder of each measured card that some player held in the game of ``record``: (card, won the real
    game, won the twin game in which the card plays as a plain card of its type, the twin is the real game).

    With ``snapshots`` (from ``_play`` watching the measured cards), a twin is played only from its snapshot,
    and not at all for a card missing from them: its twin is the real game. Without, every twin is played
    from the deal (the same games: ``tests/simulate/test_paired_cost.py`` compares them)."""
    pairs = []
    for design in table.measured:
        holders = [seat for seat, held in enumerate(record.held) if design in held]
        if not holders:
            continue
        if snapshots is not None and design not in snapshots:  # it never could change a step: the same game
            pairs += [(design, seat in record.winners, seat in record.winners, True) for seat in holders]
            continue
        start = snapshots[design] if snapshots is not None else None
        rejoins = getattr(snapshots, "rejoins", {}).get(design)
        twin, _ = _play(table.stand_ins[design], agents, seed, record.index, start=start, light=True,
                        rejoin=(rejoins, record) if rejoins else None)
        pairs += [(design, seat in record.winners, seat in twin.winners, False) for seat in holders]
    return pairs


def play_chunk(spec: TableSpec, agents: tuple[Agent, ...], seed: int, first: int, count: int) -> Tally:
    """Games ``first`` … ``first + count - 1`` of a run, tallied (what a worker or a Dask task does)."""
    table = build_table(spec)
    tally = Tally(spec.players)
    for index in range(first, first + count):
        record, snapshots = _play(table, agents, seed, index, watch=table.stand_ins)
        tally.add(record, table.pack_cards)
        if table.stand_ins:
            for design, real, twin, same in play_twins(table, agents, seed, record, snapshots):
                tally.pairs[design, real, twin] += 1
                tally.unchanged[design] += same
    return tally


def chunks(games: int, size: int, start: int = 0) -> list[tuple[int, int]]:
    """(first game, games) of each chunk of a run of ``games`` games numbered from ``start``."""
    return [(start + first, min(size, games - first)) for first in range(0, games, size)]


def chunk_size(games: int, workers: int, *, per_worker: int = 8, largest: int = 100) -> int:
    """Chunks small enough to balance the workers and show progress (about ``per_worker`` each), large enough to
    cost little (at most ``largest`` games)."""
    return max(1, min(largest, games // max(1, workers * per_worker)))


def dask_chunk_size(games: int, workers: int) -> int:
    """Chunks for a Dask cluster: about four per worker, at most 1,000 games each. A Dask task costs far more
    than a task of a local pool (the scheduler's bookkeeping, messages to and from the worker), so a cluster
    gets fewer, larger chunks; a chunk only groups games, never changes one, so the report is the same."""
    return chunk_size(games, workers, per_worker=4, largest=1_000)


def describe(table: Table) -> dict[str, Any]:
    return {"game": table.spec.game, "set": table.spec.selection, "players": table.spec.players,
            "packs": [str(p) for p in table.spec.packs]}
