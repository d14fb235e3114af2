"""Seeded random playouts that check invariants after every step.

A step checked in full: conservation of cards and the game's own invariants, no
hidden card in any other player's observation, a sample of the legal actions
applied without error, and the state surviving a JSON round trip. Which steps are checked in full is the
``Schedule``'s choice: every step (``THOROUGH``, ``check --thorough``), or (``DEFAULT``) the steps most
likely to show a defect plus a seeded sample of the rest, every other step getting the game's cheap
invariants (``step_invariants``, or all of them for a game that offers none). Each game is
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

from ..collector import collected_after
from .core import Playout


MAX_STEPS = 5000
"""A game still running after this many steps stops and counts as ``step-limit`` (random play can
keep treasures moving for a long time); it is reported, not failed."""
SAMPLED_ACTIONS = 3
TEXT_EVERY = 25
"""The codec round trip goes through JSON text at steps 0, 25, 50 …: proves the dump is plain JSON (the
cheaper comparison of the dumped data in between)."""


@dataclass(frozen=True)
class Schedule:
    """Which steps of a checked playout are checked in full (everything ``_step_failure`` checks).

    Always in full: the first ``first`` steps of a game (the deal and the opening), every ``TEXT_EVERY``-th
    step (where the codec goes through JSON text), the last step (the ending), and the first ``repeats``
    steps of each kind in the game: a kind is the action's class with the phase it leads to (a special
    played, a response, an effect's coin, a defence that opens a window or a burn are each their own kind,
    so a rare event is checked whenever it happens; the tenth attack of a game is not a new kind). Kinds are
    looked for in each of the first ``all_kinds`` games of a configuration (numbered from 0, as ``check``
    numbers them), then in one game in ``kinds_one_in`` (those whose number it divides): by then each kind the
    configuration plays has been checked in full at its first occurrence in many games. Of the other steps,
    one in ``one_in`` on average, drawn from a generator of the playout's own (``sample_seed``), so the game
    played and its chance are those of a thorough playout (the legal actions tried are drawn only at the steps
    checked in full, so they may differ). Every step gets the game's cheap invariants
    (``rules.step_invariants``, or ``rules.invariants`` when the game has no cheaper set). ``thorough`` checks
    every step in full, as ``check`` did before schedules."""

    thorough: bool = False
    first: int = 2
    repeats: int = 1
    one_in: int = 25
    all_kinds: int = 25
    kinds_one_in: int = 4

    def kinds_in(self, number: int) -> bool:
        """Whether game ``number`` of a configuration checks the first steps of each kind in full."""
        return number < self.all_kinds or number % self.kinds_one_in == 0

    def describe(self) -> str:
        if self.thorough:
            return "thorough: every step checked in full"
        return (f"sampled: in full the first {self.first} steps of a game, every {TEXT_EVERY}th, the last, the "
                f"first {self.repeats} of each kind of step in the game (in the first {self.all_kinds} games of a "
                f"configuration, then in 1 game in {self.kinds_one_in}), and 1 in {self.one_in} of the others "
                "(seeded); cheap invariants at every step")


DEFAULT = Schedule()
THOROUGH = Schedule(thorough=True)


def sample_seed(seed: int) -> int:
    """The seed of a playout's sample of steps checked in full: apart from its choices, shuffles and the
    actions it tries, so sampling changes none of them."""
    return seed * 7919 + 1


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
    steps: int = 0
    """Steps played in checked playouts (the replays of a seed not counted)."""
    full: int = 0
    """Of them, the steps checked in full (all of them under ``THOROUGH``)."""
    schedule: Schedule = DEFAULT


def shuffle_seed(seed: int) -> int:
    """The seed of the shuffles inside a playout (kept apart from its choices so a scenario can replay them)."""
    return seed * 2 + 1


def play_one(rules: Any, state: Any, seed: int, label: str, *, check: bool = True,
             schedule: Schedule = THOROUGH, tally: Counter | None = None,
             kinds: bool = True) -> tuple[Any, list[str], str | None]:
    """One game from ``state``; returns the final state, the action log and a failure message (or None).

    Checked, it keeps to the public contract (``apply`` returns a new state, checked at every
    step as ``schedule`` says: every step in full unless told otherwise); unchecked, it plays in place when
    the game offers ``playout`` (the same rules, no copies). ``tally`` counts the ``steps`` checked and the
    ``full`` ones. ``kinds``: whether the schedule's first step of each kind is checked in full in this game
    (``Schedule.kinds_in`` its number).
    """
    rng = random.Random(seed)  # the players' choices
    shuffles = random.Random(shuffle_seed(seed))  # the deck's chance, replayable on its own
    log: list[str] = []
    try:
        if check:  # the public contract, called directly: ``contract_playout``'s steps without its closures
            listing = getattr(rules, "choices", rules.legal_actions)
            legal = listing(state)
        else:
            choices, play, now = rules.playout(state) if hasattr(rules, "playout") else contract_playout(rules, state)
            legal = choices()
    except Exception as exc:  # the game's own code raised: a failed playout, reported with its step
        return state, log, raised(exc)
    if not check:
        return _played(rules, legal, choices, play, now, rng.random, shuffles, log)
    counted = [0, 0]  # the steps checked, of them in full
    try:
        return _checked(rules, state, legal, listing, rng.random, shuffles, log, _in_full(schedule, seed, kinds),
                        seed, counted)
    finally:
        if tally is not None:
            tally["steps"] += counted[0]
            tally["full"] += counted[1]


def _played(rules: Any, legal: Sequence[Any], choices: Callable[[], Sequence[Any]],
            play: Callable[[Any, random.Random], None], now: Callable[[], Any], pick: Callable[[], float],
            shuffles: random.Random, log: list[str]) -> tuple[Any, list[str], str | None]:
    """``play_one`` unchecked from the position where ``legal`` may be played: ``pick`` (a uniform ``random()``)
    chooses each action among ``choices()``."""
    try:
        for _ in range(MAX_STEPS):
            count = len(legal)
            if not count:
                return _ended(rules, now(), log)
            action = legal[int(pick() * count)]  # int(random() * n): one C call, where randrange makes a few in Python
            log.append(action.notation())
            play(action, shuffles)
            legal = choices()
    except Exception as exc:  # an action or an effect handler raised
        return now(), log, raised(exc)
    return now(), log, None


def _checked(rules: Any, position: Any, legal: Sequence[Any], listing: Callable[[Any], Sequence[Any]],
             pick: Callable[[], float], shuffles: random.Random, log: list[str],
             in_full: Callable[[int, Any, Any, Sequence[Any]], bool], seed: int,
             counted: list[int]) -> tuple[Any, list[str], str | None]:
    """``play_one`` checked, from ``position``, where ``legal`` may be played, through the public contract (each
    ``rules.apply`` returns a new state; ``listing`` lists a state's legal actions): each step in full when
    ``in_full`` says so, else by the game's cheap invariants (``rules.step_invariants``, or all its invariants when
    it has no cheap set); ``counted`` adds up the steps checked and the ones in full."""
    probe = random.Random(seed * 7919)  # which legal actions each step tries
    scratch = random.Random(0)  # chance for the tried actions, whose outcome is dropped
    cheap = getattr(rules, "step_invariants", rules.invariants)
    apply = rules.apply
    steps = full = 0
    try:
        for step in range(MAX_STEPS):
            count = len(legal)
            if not count:
                return _ended(rules, position, log)
            action = legal[int(pick() * count)]
            try:
                log.append(action.notation())
                position = apply(position, action, rng=shuffles)
                legal = listing(position)
                steps += 1
                if in_full(step, action, position, legal):
                    full += 1
                    failure = _step_failure(rules, position, legal, probe, scratch, step)
                    if isinstance(failure, tuple):  # a listed action failed when tried: the log ends with it
                        log.append(failure[0])
                        failure = failure[1]
                else:
                    broken = cheap(position)
                    failure = "; ".join(broken) if broken else None
            except Exception as exc:  # an action, an effect handler or an invariant raised
                return position, log, raised(exc)
            if failure:
                return position, log, failure
        return position, log, None
    finally:
        counted[0] += steps
        counted[1] += full


def _ended(rules: Any, state: Any, log: list[str]) -> tuple[Any, list[str], str | None]:
    """A game with no legal action left: over, or a failure when the game says somebody is still to act."""
    if rules.actor(state) is not None:
        return state, log, "no legal action in a game that is not over"
    return state, log, None


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


def _in_full(schedule: Schedule, seed: int, kinds: bool = True) -> Callable[[int, Any, Any, Sequence[Any]], bool]:
    """``in_full(step, action, position, legal)``: whether the step that played ``action`` and reached
    ``position`` (where ``legal`` may be played next) is checked in full under ``schedule`` (``kinds``: the first
    steps of each kind among them)."""
    if schedule.thorough:
        return lambda step, action, position, legal: True
    draw = random.Random(sample_seed(seed)).random
    share = 1 / schedule.one_in
    first, repeats, last = schedule.first, schedule.repeats if kinds else 0, MAX_STEPS - 1
    seen: dict[tuple[type, Any], int] = {}
    seen_get = seen.get

    def in_full(step: int, action: Any, position: Any, legal: Sequence[Any]) -> bool:
        kind = (type(action), getattr(position, "phase", None))
        times = seen[kind] = seen_get(kind, 0) + 1
        # drawn first and at every step, so a step's draw does not depend on the ones before it
        return (draw() < share or step < first or step % TEXT_EVERY == 0 or times <= repeats or not len(legal)
                or step == last)

    def no_kinds(step: int, action: Any, position: Any, legal: Sequence[Any]) -> bool:
        """``in_full`` in a game that looks for no kinds (``repeats`` 0): nothing to count."""
        return draw() < share or step < first or step % TEXT_EVERY == 0 or not len(legal) or step == last

    return in_full if repeats else no_kinds


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
    """What is wrong unless the state dumps and loads back equal (through JSON text every ``TEXT_EVERY``-th step)."""
    dumped = rules.dump(state)
    if step % TEXT_EVERY == 0:
        dumped = json.loads(_TEXT.encode(dumped))  # proves the dump is plain JSON; cheaper checks between
    if rules.load(dumped) != state:
        return "the state does not survive a JSON round trip"
    return None


_TEXT = json.JSONEncoder(check_circular=False, separators=(",", ":"))
"""The JSON text of a dump: a state's dump is a tree (pydantic makes it), so no cycle to look for (one would still
fail, by recursing too deep), and no spaces nobody reads."""


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
                 first: int = 0, schedule: Schedule = DEFAULT) -> PlayoutStats:
    """``games`` seeded games of one configuration, numbered from ``first``; ``start(rng)`` deals a new game;
    each step checked as ``schedule`` says.

    A game's seed depends only on ``seed`` and its number, so games can be split into
    runs (``first``) and their stats ``merged`` in order: the same as one run.
    """
    stats = PlayoutStats(label, schedule=schedule)
    tally: Counter = Counter()
    for number in range(first, first + games):
        game_seed = seed * 100_003 + number
        stats.games += 1
        try:
            rules, state = start(random.Random(game_seed))
            initial = rules.dump(state)
        except Exception as exc:  # dealing raised: nothing to replay but the configuration and the seed
            stats.failures.append(PlayoutFailure(label, game_seed, f"dealing a new game: {raised(exc)}", []))
            continue
        with collected_after():
            final, log, failure = play_one(rules, state, game_seed, label, schedule=schedule, tally=tally,
                                           kinds=schedule.kinds_in(number))
        stats.steps, stats.full = tally["steps"], tally["full"]
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
    stats = PlayoutStats(parts[0].configuration, schedule=parts[0].schedule)
    for part in parts:
        stats.steps += part.steps
        stats.full += part.full
        stats.games += part.games
        stats.lengths += part.lengths
        stats.endings.update(part.endings)
        stats.failures += part.failures
    return stats
