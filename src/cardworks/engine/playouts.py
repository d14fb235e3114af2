"""Seeded random playouts that check invariants after every step.

After every step: conservation of cards and the game's own invariants, no
hidden card in any other player's observation, a sample of the legal actions
applied without error, and the state surviving a JSON round trip. Each game is
bounded in length (a game that reaches the bound is counted as ``step-limit``); the first game of each configuration is replayed from its
seed and must end identically. A failure reports the seed and the action log.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable

from .core import choose

MAX_STEPS = 5000
"""A game still running after this many steps stops and counts as ``step-limit`` (random play can
keep treasures moving for a long time); it is reported, not failed."""
SAMPLED_ACTIONS = 3


@dataclass
class PlayoutFailure:
    configuration: str
    seed: int
    message: str
    log: list[str]


@dataclass
class PlayoutStats:
    """Games of one configuration: lengths, how they ended, failures."""

    configuration: str
    games: int = 0
    lengths: list[int] = field(default_factory=list)
    endings: Counter = field(default_factory=Counter)
    failures: list[PlayoutFailure] = field(default_factory=list)


def play_one(rules: Any, state: Any, seed: int, label: str, *, check: bool = True) -> tuple[Any, list[str], str | None]:
    """One game from ``state``; returns the final state, the action log and a failure message (or None)."""
    rng = random.Random(seed)
    log: list[str] = []
    for _ in range(MAX_STEPS):
        if rules.actor(state) is None:
            return state, log, None
        action = choose(rules, state, rng=rng)
        log.append(action.notation())
        state = rules.apply(state, action, rng=rng)
        if not check:
            continue
        broken = rules.invariants(state)
        if broken:
            return state, log, "; ".join(broken)
        leak = rules.hidden_leak(state)
        if leak:
            return state, log, f"hidden information: {leak}"
        if rules.load(json.loads(json.dumps(rules.dump(state)))) != state:
            return state, log, "the state does not survive a JSON round trip"
        probe = random.Random(seed * 7919 + len(log))
        legal = rules.legal_actions(state)
        for candidate in probe.sample(legal, min(SAMPLED_ACTIONS, len(legal))):
            try:
                rules.apply(state, candidate, rng=random.Random(0))
            except Exception as exc:  # a listed legal action must apply
                return state, log, f"legal action {candidate.notation()} fails: {exc}"
    return state, log, None


def run_playouts(label: str, start: Callable[[random.Random], tuple[Any, Any]], games: int, seed: int) -> PlayoutStats:
    """``games`` seeded games of one configuration; ``start(rng)`` deals a new game."""
    stats = PlayoutStats(label)
    for number in range(games):
        game_seed = seed * 100_003 + number
        rules, state = start(random.Random(game_seed))
        final, log, failure = play_one(rules, state, game_seed, label)
        stats.games += 1
        if failure is None and number == 0:
            again_rules, again = start(random.Random(game_seed))
            replay, replay_log, _ = play_one(again_rules, again, game_seed, label, check=False)
            if replay_log != log or replay != final:
                failure = "the same seed replayed differently"
        if failure:
            stats.failures.append(PlayoutFailure(label, game_seed, failure, log))
            continue
        stats.lengths.append(len(log))
        winner, reason = rules.result(final)
        stats.endings[reason or "step-limit"] += 1
    return stats
