"""Seeded random playouts that check invariants after every step.

After every step: conservation of cards and the game's own invariants, no
hidden card in any other player's observation, a sample of the legal actions
applied without error, and the state surviving a JSON round trip. Each game is
bounded in length (a game that reaches the bound is counted as ``step-limit``); the first game of each configuration is replayed from its
seed and must end identically. A failure reports the seed, the step and the action log. An exception raised
by the game (dealing, an action, an effect, an invariant) is a failed playout like any broken check: a
designer gets the seed and the log to replay, never a traceback that stops the run.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

from .core import Playout


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
    start: dict[str, Any] = field(default_factory=dict)
    """The starting state (``rules.dump``), so the failure replays as a scenario (empty when dealing failed:
    such a failure is reported, not saved, and ``check --seed`` with its configuration plays it again)."""
    step: int = 0
    """The step that failed: 0 while dealing, n for the n-th action of ``log`` (the last one logged)."""


def failure_scenario(failure: PlayoutFailure, selection: str, players: int) -> dict[str, Any]:
    """A scenario that replays a failed playout step by step from its exact starting state."""
    return {
        "id": f"playout-{selection}-{players}p-seed-{failure.seed}",
        "title": f"Playout {failure.configuration}, seed {failure.seed}: {failure.message}",
        "source": {"doc": "playout", "note": f"cardworks check, seed {failure.seed}, step {failure.step}"},
        "setup": {"selection": selection, "players": players, "state": failure.start, "seed": shuffle_seed(failure.seed)},
        "steps": failure.log,
        "expect": [],
    }


@dataclass
class PlayoutStats:
    """Games of one configuration: lengths, how they ended, failures."""

    configuration: str
    games: int = 0
    lengths: list[int] = field(default_factory=list)
    endings: Counter = field(default_factory=Counter)
    failures: list[PlayoutFailure] = field(default_factory=list)


def shuffle_seed(seed: int) -> int:
    """The seed of the shuffles inside a playout (kept apart from its choices so a scenario can replay them)."""
    return seed * 2 + 1


def play_one(rules: Any, state: Any, seed: int, label: str, *, check: bool = True) -> tuple[Any, list[str], str | None]:
    """One game from ``state``; returns the final state, the action log and a failure message (or None).

    Checked, it keeps to the public contract (``apply`` returns a new state, checked at every
    step); unchecked, it plays in place when the game offers ``playout`` (the same rules, no copies).
    """
    rng = random.Random(seed)  # the players' choices
    shuffles = random.Random(shuffle_seed(seed))  # the deck's chance, replayable on its own
    if check:  # seeding a Random costs a few steps: only checked playouts need these two
        probe = random.Random(seed * 7919)  # which legal actions each step tries
        scratch = random.Random(0)  # chance for the tried actions, whose outcome is dropped
    log: list[str] = []
    try:
        choices, play, now = contract_playout(rules, state) if check or not hasattr(rules, "playout") \
            else rules.playout(state)
        legal = choices()
    except Exception as exc:  # the game's own code raised: a failed playout, reported with its step
        return state, log, raised(exc)
    pick = rng.random  # a uniform choice: int(random() * n) (one C call) rather than randrange (a few in Python)
    for step in range(MAX_STEPS):
        count = len(legal)
        if not count:
            state = now()
            if rules.actor(state) is not None:
                return state, log, "no legal action in a game that is not over"
            return state, log, None
        action = legal[int(pick() * count)]
        try:
            log.append(action.notation())
            play(action, shuffles)
            legal = choices()
            if not check:
                continue
            failure = _step_failure(rules, now(), legal, probe, scratch, step)
        except Exception as exc:  # an action, an effect handler or an invariant raised
            return now(), log, raised(exc)
        if isinstance(failure, tuple):  # a listed action failed when tried: the log ends with it
            log.append(failure[0])
            failure = failure[1]
        if failure:
            return now(), log, failure
    return now(), log, None


def raised(exc: BaseException) -> str:
    """An exception the game raised, named with its type and the game's line it came from."""
    import traceback

    frames = traceback.extract_tb(exc.__traceback__)
    where = f" at {Path(frames[-1].filename).name}:{frames[-1].lineno}" if frames else ""
    return f"{type(exc).__name__} raised{where}: {exc}"


def contract_playout(rules: Any, state: Any) -> Playout:
    """A game stepped through the public contract: each ``apply`` returns a new state."""
    position = [state]
    # a game may offer its legal actions as a sequence that builds only the ones looked at
    choices = getattr(rules, "choices", rules.legal_actions)

    def play(action: Any, rng: random.Random) -> None:
        position[0] = rules.apply(position[0], action, rng=rng)

    return Playout(lambda: choices(position[0]), play, lambda: position[0])


def _step_failure(rules: Any, state: Any, legal: Sequence[Any], probe: random.Random, scratch: random.Random,
                  step: int) -> str | tuple[str, str] | None:
    """What is wrong with the position reached, or None; (the tried action, what is wrong) when a listed action
    fails, so the log can end with it and replay the failure. Its parts, in order, are what ``bench/engine.py
    --parts`` times."""
    broken = rules.invariants(state)
    if broken:
        return "; ".join(broken)
    leak = rules.hidden_leak(state)
    if leak:
        return f"hidden information: {leak}"
    return codec_failure(rules, state, step) or sampled_failure(rules, state, legal, probe, scratch)


def codec_failure(rules: Any, state: Any, step: int) -> str | None:
    """What is wrong unless the state dumps and loads back equal (through JSON text every 25th step)."""
    dumped = rules.dump(state)
    if step % 25 == 0:
        dumped = json.loads(json.dumps(dumped))  # proves the dump is plain JSON; cheaper checks between
    if rules.load(dumped) != state:
        return "the state does not survive a JSON round trip"
    return None


def sampled_failure(rules: Any, state: Any, legal: Sequence[Any], probe: random.Random,
                    scratch: random.Random) -> tuple[str, str] | None:
    """(the action, what is wrong) for the first of ``SAMPLED_ACTIONS`` legal actions, drawn with ``probe``, that
    fails to apply (with ``scratch`` as its chance); None when they all apply."""
    for index in probe.sample(range(len(legal)), min(SAMPLED_ACTIONS, len(legal))):
        candidate = legal[index]
        try:
            rules.apply(state, candidate, rng=scratch)
        except Exception as exc:  # a listed legal action must apply
            return candidate.notation(), f"legal action {candidate.notation()} fails: " + (
                str(exc) if isinstance(exc, ValueError) else raised(exc))
    return None


def run_playouts(label: str, start: Callable[[random.Random], tuple[Any, Any]], games: int, seed: int, *,
                 first: int = 0) -> PlayoutStats:
    """``games`` seeded games of one configuration, numbered from ``first``; ``start(rng)`` deals a new game.

    A game's seed depends only on ``seed`` and its number, so games can be split into
    runs (``first``) and their stats ``merged`` in order: the same as one run.
    """
    stats = PlayoutStats(label)
    for number in range(first, first + games):
        game_seed = seed * 100_003 + number
        stats.games += 1
        try:
            rules, state = start(random.Random(game_seed))
            initial = rules.dump(state)
        except Exception as exc:  # dealing raised: nothing to replay but the configuration and the seed
            stats.failures.append(PlayoutFailure(label, game_seed, f"dealing a new game: {raised(exc)}", []))
            continue
        final, log, failure = play_one(rules, state, game_seed, label)
        if failure is None and number == 0:
            try:
                again_rules, again = start(random.Random(game_seed))
                replay, replay_log, failure = play_one(again_rules, again, game_seed, label, check=False)
            except Exception as exc:
                replay, replay_log, failure = None, [], raised(exc)
            if failure is not None:
                failure = f"replaying the seed: {failure}"
            elif replay_log != log or replay != final:
                failure = "the same seed replayed differently"
        if failure:
            stats.failures.append(PlayoutFailure(label, game_seed, failure, log, initial, step=len(log)))
            continue
        try:
            outcome = rules.outcome(final)
        except Exception as exc:
            stats.failures.append(PlayoutFailure(label, game_seed, f"the outcome: {raised(exc)}", log, initial,
                                                 step=len(log)))
            continue
        stats.lengths.append(len(log))
        stats.endings[outcome.termination if outcome else "step-limit"] += 1
    return stats


def merged(parts: list[PlayoutStats]) -> PlayoutStats:
    """The stats of consecutive runs of one configuration, as if played in one run."""
    stats = PlayoutStats(parts[0].configuration)
    for part in parts:
        stats.games += part.games
        stats.lengths += part.lengths
        stats.endings.update(part.endings)
        stats.failures += part.failures
    return stats
