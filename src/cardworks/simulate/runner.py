"""Playing seeded games and chunks of games.

Game ``index`` of a run with master seed ``seed`` draws all its randomness (the
deal, chance, each seat's agent) from ``numpy.random.SeedSequence(seed,
spawn_key=(index,))``: a game is the same whoever plays it, alone or in any chunk.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import numpy as np

from ..engine.core import CHANCE
from .agents import Agent, seating
from .stats import GameRecord, Tally
from .tables import Table, TableSpec, build_table, winners


def game_rngs(seed: int, index: int, players: int) -> list[random.Random]:
    """The chance rng, then one rng per seat, of game ``index``."""
    words = np.random.SeedSequence(seed, spawn_key=(index,)).generate_state(players + 1, dtype=np.uint64)
    return [random.Random(int(word)) for word in words]


def play_game(table: Table, agents: tuple[Agent, ...], seed: int, index: int) -> GameRecord:
    """One whole game (or up to the table's step cap, counted as ``step-limit``)."""
    rules = table.rules
    players = table.spec.players
    seats = seating(agents, index)
    chance, *minds = game_rngs(seed, index, players)
    playout = table.playout(table.deal(chance))
    choices, play, now = playout
    position = table.live(playout)
    cards = bool(table.deck)
    held: list[set[int]] = [set() for _ in range(players)]
    played: Counter = Counter()
    legal = choices()
    steps = 0
    seated = range(players)
    blind = [agent.kind == "random" for agent in seats]  # random seats pick without looking
    while legal and steps < table.spec.max_steps:
        state = position()  # read-only; agents that look get an immutable snapshot
        actor = rules.actor(state)
        if cards:
            for zone in table.zones(state):
                for who in seated:
                    held[who].update(zone[who])
        if actor == CHANCE:
            action = legal[int(chance.random() * len(legal))]
        elif blind[actor]:
            action = legal[int(minds[actor].random() * len(legal))]
            design = table.played(action)
            if design is not None:
                played[design] += 1
        else:
            action = seats[actor].choose(table, actor, lambda: rules.observe(now(), actor), legal, minds[actor])
            design = table.played(action)
            if design is not None:
                played[design] += 1
        play(action, chance)
        legal = choices()
        steps += 1
    final = now()
    if cards:
        for zone in table.zones(final):
            for who in seated:
                held[who].update(zone[who])
    over = rules.actor(final) is None
    result, reason = rules.result(final)
    turns, rounds = table.turns(final)
    cause, events = table.simulation.credits(position(), reason if over else None)
    return GameRecord(
        index=index, seats=tuple(agent.label for agent in seats), winners=winners(result) if over else (),
        reason=(reason or "no-reason") if over else "step-limit", steps=steps, turns=turns, rounds=rounds,
        held=tuple(frozenset(table.design(final, i) for i in h) for h in held) if cards else (),
        played=tuple(sorted(played.items())), cause=cause, events=events)


def play_twins(table: Table, agents: tuple[Agent, ...], seed: int, record: GameRecord) -> list[tuple[str, bool, bool]]:
    """The game of ``record`` replayed once per measured card that some player held in it, with that card
    played as a plain card of its type (same seed): per holder, (card, won the real game, won the twin)."""
    pairs = []
    for design in table.measured:
        holders = [seat for seat, held in enumerate(record.held) if design in held]
        if holders:
            twin = play_game(table.stand_ins[design], agents, seed, record.index)
            pairs += [(design, seat in record.winners, seat in twin.winners) for seat in holders]
    return pairs


def play_chunk(spec: TableSpec, agents: tuple[Agent, ...], seed: int, first: int, count: int) -> Tally:
    """Games ``first`` … ``first + count - 1`` of a run, tallied (what a worker or a Dask task does)."""
    table = build_table(spec)
    tally = Tally(spec.players)
    for index in range(first, first + count):
        record = play_game(table, agents, seed, index)
        tally.add(record, table.pack_cards)
        if table.stand_ins:
            for design, real, twin in play_twins(table, agents, seed, record):
                tally.pairs[design, real, twin] += 1
    return tally


def chunks(games: int, size: int, start: int = 0) -> list[tuple[int, int]]:
    """(first game, games) of each chunk of a run of ``games`` games numbered from ``start``."""
    return [(start + first, min(size, games - first)) for first in range(0, games, size)]


def chunk_size(games: int, workers: int) -> int:
    """Chunks small enough to balance the workers and show progress, large enough to cost little."""
    return max(1, min(100, games // max(1, workers * 8)))


def describe(table: Table) -> dict[str, Any]:
    return {"game": table.spec.game, "set": table.spec.selection, "players": table.spec.players,
            "packs": [str(p) for p in table.spec.packs]}
