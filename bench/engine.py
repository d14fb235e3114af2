"""Measure the engine: complete random games per second and steps per second per configuration (one core,
no checks), against another tree of the project (main) in the same run.

Run: python bench/engine.py [--games 200] [--against /work/main] [--rounds 3] [--cpu]

Games get shorter as more cards are modelled, so steps/s is the figure that says whether a step got
slower; games/s says what a user waits for. With ``--against``, the same measurement runs in a separate
process on that tree's sources (``PYTHONPATH=<tree>/src``), alternating with this tree round by round
so both see the same load on a shared machine; the best round of each is compared. With ``--cpu`` the
rates are per second of the worker's processor time instead of wall-clock time: on a machine other
sessions keep busy, waiting for a core then no longer counts (contention for caches still does).
Goal: steps/s at least main's in the same run (ratio >= 1.00), and 300 four-player base games/s.

Run: python bench/engine.py --check 500 [--game fallera] [--against TREE ...] [--thorough-too] [--rounds 3]

``cardworks check --game G --playouts N --seed 1`` as a whole command (processor time of the command and its
workers, and wall time), against the reference loop in the same run: as many steps as the check's playouts
played, each the floor of any random playout written in Python (list the mover's choices, pick one with
``random()``, move a card between lists; ``reference_loop``). With ``--against`` (repeatable), the same command
on each tree's sources and cards, alternated round by round; with ``--thorough-too``, this tree's command with
``--thorough`` as well (every step checked in full, as ``check`` did before its schedule). Goal (issue 47 item
5): within 80x the loop.

Run: python bench/engine.py --parts 30 [--game fallera] [--cards DIR] [--only LABEL]

Where one checked step of ``check``'s playouts spends its time, in microseconds of processor time per step:
the same games as ``check --seed 1`` (the first N of every configuration, one process), each played once as
``check`` plays it (the whole checked step), then its positions put through each part on its own: the step's
notation for the log, ``apply`` through the public contract, listing the next legal actions, the invariants,
the leak check, the state codec's round trip, and the sampled legal actions applied (``playouts``' own
functions); plus the reference loop over games of the same lengths. The parts are those of a step checked in
full (``--thorough``); each game is also played as ``check`` plays it by default (``playouts.DEFAULT``: a
sample of steps in full, the cheap invariants at the others), and that whole step is printed beside.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
GOAL = 300
"""Four-player base games a second (issue 4)."""
CONFIGS = ("base/4p", "base-2/4p", "base-3/4p", "expert/4p")


def measure(games: int, only: list[str], decks: dict[str, list[str]] | None = None) -> dict[str, dict[str, Any]]:
    """games/s, steps/s and steps/game of each configuration, in this process's ``cardworks``, with the designs
    each deck held. With ``decks`` (label → designs), the decks keep only those designs: the same games as
    the tree that played them, so steps/s compares the engines and not the card data."""
    try:
        from cardworks.games.fallera.game import configurations, new_game, rules_for
    except ImportError:  # an older checkout, compared with --against, kept its games under engine/
        from cardworks.engine.fallera_game import configurations, new_game, rules_for
    from cardworks.engine.playouts import play_one
    from cardworks.loading import load_database

    db = load_database(Path(os.environ.get("BENCH_CARDS", REPO / "cards")) / "fallera")
    configs, _ = configurations(db)
    found: dict[str, dict[str, Any]] = {}
    for config in configs:
        if config.label not in only:
            continue
        rules, _ = rules_for(db, config)
        if decks is not None:  # rules are built once per configuration and shared: narrow them in place
            for design in set(rules.defs) - set(decks[config.label]):
                del rules.defs[design]
            rules._deck = None
            if hasattr(rules, "__post_init__"):  # what the rules worked out from the designs
                rules.__post_init__()
        steps = 0
        clock = time.process_time if os.environ.get("BENCH_CLOCK") == "cpu" else time.perf_counter
        start = clock()
        for seed in range(games):
            rules, state = new_game(db, config, random.Random(seed))
            _, log, _ = play_one(rules, state, seed, config.label, check=False)
            steps += len(log)
        seconds = clock() - start
        found[config.label] = {"games/s": games / seconds, "steps/s": steps / seconds, "steps/game": steps / games,
                               "designs": sorted(rules.defs)}
    return found


def _run(tree: Path, games: int, only: list[str], decks: dict[str, list[str]] | None = None) -> dict[str, dict[str, Any]]:
    """``measure`` in a fresh process on ``tree``'s sources and data."""
    env = dict(os.environ, PYTHONPATH=str(tree / "src"), BENCH_CARDS=str(tree / "cards"),
               BENCH_DECKS=json.dumps(decks) if decks else "")
    out = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--worker", "--games", str(games),
                          *[f"--only={label}" for label in only]],
                         env=env, cwd=tree, capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def reference_loop(lengths: list[int], players: int = 4) -> tuple[float, float]:
    """(processor seconds, wall seconds) of the reference loop over games of ``lengths`` steps: a card game
    reduced to what every seeded random playout does. Each game seeds its own ``Random``, shuffles a deck of
    60 cards and deals five to each player; at each step the mover's choices are listed (each card in hand,
    or draw), one is picked with ``random()``, and a card moves between lists (hand to discard pile, or deck
    to hand, the discard pile shuffled back when the deck runs out); then the turn passes."""
    cpu, wall = time.process_time(), time.perf_counter()
    for seed, length in enumerate(lengths):
        rng = random.Random(seed)
        pick = rng.random
        deck, discard = list(range(60)), []
        rng.shuffle(deck)
        hands = [[deck.pop() for _ in range(5)] for _ in range(players)]
        current = 0
        for _ in range(length):
            hand = hands[current]
            legal = [*hand, -1]
            card = legal[int(pick() * len(legal))]
            if card < 0:
                if not deck:
                    deck, discard = discard, deck
                    rng.shuffle(deck)
                if deck:
                    hand.append(deck.pop())
            else:
                hand.remove(card)
                discard.append(card)
            current = (current + 1) % players
    return time.process_time() - cpu, time.perf_counter() - wall


def check_command(tree: Path, game: str, playouts: int, cards: Path | None = None,
                  more: tuple[str, ...] = ()) -> tuple[float, float, list[int]]:
    """(processor seconds of the command and its workers, wall seconds, the length of each game it played) of
    ``cardworks check`` on ``tree``'s sources and cards (or ``cards``), with the options ``more``."""
    import resource

    env = dict(os.environ, PYTHONPATH=str(tree / "src"))
    before, wall = resource.getrusage(resource.RUSAGE_CHILDREN), time.perf_counter()
    out = subprocess.run([sys.executable, "-m", "cardworks", "--cards", str(cards or tree / "cards"), "check", "--game", game,
                          "--playouts", str(playouts), "--seed", "1", "--format", "json", *more],
                         env=env, cwd=tree, capture_output=True, text=True)
    wall = time.perf_counter() - wall
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if out.returncode not in (0, 1):  # 1: the report found something; the time still counts
        raise SystemExit(f"check on {tree} failed: {out.stderr.strip()[-400:]}")
    lengths = [n for p in json.loads(out.stdout)["playouts"] for n in p["lengths"]]
    return after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime, wall, lengths


def check_against(games: list[str], playouts: int, others: list[Path], rounds: int, thorough_too: bool = False) -> None:
    """``--check``: each game's check command on this tree (with ``--thorough`` too when asked, and on each of
    ``others``), alternated, against the reference loop over games of the same lengths; medians of ``rounds``."""
    trees = [("this tree", REPO, ())] + ([("this tree --thorough", REPO, ("--thorough",))] if thorough_too else []) \
        + [(str(other), other, ()) for other in others]
    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at start")
    for game in games:
        found: dict[str, list[tuple[float, float, int, float, float]]] = {name: [] for name, _, _ in trees}
        for _ in range(rounds):
            for name, tree, more in trees:
                cpu, wall, lengths = check_command(tree, game, playouts, more=more)
                loop_cpu, loop_wall = reference_loop(lengths)
                found[name].append((cpu, wall, sum(lengths), loop_cpu, loop_wall))
        median = {}
        for name, runs in found.items():
            cpu, wall, steps, loop_cpu, loop_wall = (sorted(r[k] for r in runs)[len(runs) // 2] for k in range(5))
            median[name] = cpu
            print(f"{game} {name}: check --playouts {playouts}: {cpu:.1f} s processor, {wall:.1f} s wall, {steps:,} steps; "
                  f"reference loop {loop_cpu:.3f} s processor: {cpu / loop_cpu:.0f}x processor, {wall / loop_wall:.0f}x "
                  f"wall (medians of {len(runs)}: " + ", ".join(f"{r[0]:.1f}" for r in runs) + " s)")
        for name, _, _ in trees[1:]:
            print(f"{game}: processor time this tree / {name}: {median['this tree'] / median[name]:.2f}x")
    print(f"load average at the end {os.getloadavg()[0]:.1f}; goal: check within 80x the reference loop")


PARTS = ("notation for the log", "apply (the step)", "legal actions listed", "invariants", "leak check",
         "codec round trip", "sampled actions applied")
"""The parts of a checked step, in the order ``play_one`` and ``_step_failure`` run them."""


def step_parts(game: str, games: int, cards: Path, only: list[str] | None = None) -> dict[str, float]:
    """Processor seconds of each of ``PARTS``, of the whole checked playouts (``checked step``), of dealing
    (``dealing``, with the dump of the start that ``check`` keeps for a replay) and of the reference loop, over
    the first ``games`` games of each configuration of ``game`` (or of the ``only`` ones) that ``check --seed 1``
    plays; ``steps`` counts their steps."""
    from cardworks.engine.playouts import codec_failure, play_one, sampled_failure, shuffle_seed
    from cardworks.engine.plugins import plugin_for
    from cardworks.loading.database import Database, load_game

    plugin = plugin_for(game)
    db = Database(game=load_game(cards / game))
    configs, _ = plugin.configurations(db)
    configs = [c for c in configs if only is None or c.label in only]
    if not configs:
        raise SystemExit(f"no configuration of {game} is named {only}")
    from cardworks.engine.playouts import DEFAULT, THOROUGH

    spent = dict.fromkeys(("checked step", "default schedule", "dealing", *PARTS, "reference loop"), 0.0)
    tally: Counter = Counter()
    lengths: list[int] = []
    clock = time.process_time
    for config in configs:
        for number in range(games):
            seed = 100_003 + number  # check's own seed of game ``number`` (--seed 1)
            start = clock()
            rules, state = plugin.new_game(db, config, random.Random(seed))
            rules.dump(state)  # check keeps the start, to replay a failure from it
            spent["dealing"] += clock() - start
            # the game twice: as check plays it, and with its parts timed; the rules keep tables they fill as
            # positions come up (check's later games find them filled), so the one played first pays more: the
            # order alternates from game to game (and the default schedule's run goes round with them)
            logs = []
            for run in ("whole", "parts", "sampled")[number % 3:] + ("whole", "parts", "sampled")[:number % 3]:
                if logs:  # a second deal of the same game
                    rules, state = plugin.new_game(db, config, random.Random(seed))
                if run == "parts":
                    logs.append(_timed_playout(rules, state, seed, spent))
                    continue
                start = clock()
                _, log, failure = play_one(rules, state, seed, config.label,
                                           schedule=DEFAULT if run == "sampled" else THOROUGH, tally=tally)
                spent["default schedule" if run == "sampled" else "checked step"] += clock() - start
                if failure:
                    raise SystemExit(f"{config.label} seed {seed}: the check failed ({failure}): nothing to time")
                logs.append(log)
            if logs[0] != logs[1] or logs[0] != logs[2]:
                raise SystemExit(f"{config.label} seed {seed}: the timed game is not the one check played")
            lengths.append(len(log))
    spent["reference loop"] = reference_loop(lengths)[0]
    spent["steps"] = sum(lengths)
    spent["full"] = tally["full"] - tally["steps"] / 2  # the thorough run's steps are all in full
    return spent


def _timed_playout(rules: Any, state: Any, seed: int, spent: dict[str, float]) -> list[str]:
    """The log of the game ``play_one`` plays from ``state`` with ``seed``, checked, each of ``PARTS`` timed
    at every step and added to ``spent`` (the clock's own cost taken off). ``play_one``'s loop, with the clock
    read between its parts: the same choices, chance and checks in the same order (the caller compares logs)."""
    from cardworks.engine.playouts import codec_failure, contract_playout, sampled_failure, shuffle_seed

    clock = time.process_time
    pick, shuffles = random.Random(seed).random, random.Random(shuffle_seed(seed))
    probe, scratch = random.Random(seed * 7919), random.Random(0)
    choices, play, now = contract_playout(rules, state)
    legal, log = choices(), []
    took = [0.0] * len(PARTS)
    step = 0
    while len(legal):
        action = legal[int(pick() * len(legal))]
        t0 = clock()
        log.append(action.notation())
        t1 = clock()
        play(action, shuffles)
        t2 = clock()
        legal = choices()
        t3 = clock()
        position = now()
        broken = rules.invariants(position)
        t4 = clock()
        leak = rules.hidden_leak(position)
        t5 = clock()
        codec = codec_failure(rules, position, step)
        t6 = clock()
        tried = sampled_failure(rules, position, legal, probe, scratch)
        t7 = clock()
        if broken or leak or codec or tried:
            raise SystemExit(f"seed {seed} step {step}: {broken or leak or codec or tried}")
        for part, (begin, end) in enumerate(zip((t0, t1, t2, t3, t4, t5, t6), (t1, t2, t3, t4, t5, t6, t7))):
            took[part] += end - begin
        step += 1
    reading = _clock_cost(clock)
    for part, seconds in zip(PARTS, took):
        spent[part] += seconds - reading * step
    return log


def _clock_cost(clock, reads: int = 2_000) -> float:
    """Seconds one ``clock()`` reading adds between two others (the least of a few tries)."""
    best = float("inf")
    for _ in range(3):
        start = clock()
        for _ in range(reads):
            clock()
        best = min(best, (clock() - start) / reads)
    return best


def print_parts(game: str, games: int, spent: dict[str, float]) -> None:
    """``step_parts``' figures as a table of microseconds per checked step."""
    steps = spent["steps"]
    each = {part: 1e6 * spent[part] / steps for part in PARTS}
    total = sum(each.values())
    whole = 1e6 * spent["checked step"] / steps
    loop = 1e6 * spent["reference loop"] / steps
    print(f"{game}: {games} games of each configuration as check --seed 1 plays them, {steps:,} steps "
          f"(load average {os.getloadavg()[0]:.1f}); processor time per step")
    print(f"{'part':<32} {'us/step':>8} {'share':>6}")
    for part, micro in each.items():
        print(f"{part:<32} {micro:>8.1f} {100 * micro / total:>5.1f}%")
    print(f"{'sum of the parts, timed apart':<32} {total:>8.1f}")
    print(f"{'checked step, timed whole':<32} {whole:>8.1f}   (play_one, as check runs it; the same games)")
    print(f"{'dealing, per step of its game':<32} {1e6 * spent['dealing'] / steps:>8.1f}")
    sampled = 1e6 * spent["default schedule"] / steps
    print(f"{'checked step, default schedule':<32} {sampled:>8.1f}   ({spent['full'] / steps:.1%} of the steps in full, "
          f"{whole / sampled:.2f}x faster than every step in full)")
    print(f"{'reference loop step':<32} {loop:>8.2f}   checked step = {whole / loop:.0f}x the loop in full, "
          f"{sampled / loop:.0f}x by default (goal 80x: a checked step of {80 * loop:.1f} us)")


def _best(rounds: list[dict[str, dict[str, float]]]) -> dict[str, dict[str, float]]:
    """Per configuration, the round with the most steps/s (the least disturbed by other work)."""
    return {label: max((r[label] for r in rounds), key=lambda m: m["steps/s"]) for label in rounds[0]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--only", action="append", metavar="LABEL", help=f"configurations (default {', '.join(CONFIGS)})")
    parser.add_argument("--against", type=Path, action="append", help="another tree to compare with (with --check: "
                        "repeatable)")
    parser.add_argument("--thorough-too", action="store_true", help="with --check: also time this tree's check "
                        "with --thorough")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--cpu", action="store_true", help="rates per second of processor time, not of wall-clock time")
    parser.add_argument("--check", type=int, metavar="PLAYOUTS", help="time 'cardworks check' against the reference loop")
    parser.add_argument("--game", action="append", help="with --check: the games (default fallera)")
    parser.add_argument("--parts", type=int, metavar="GAMES", help="where a checked step's time goes, over GAMES "
                        "games of every configuration (--only: of those)")
    parser.add_argument("--cards", type=Path, default=REPO / "cards", help="with --parts: the card database")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.parts:
        game = (args.game or ["fallera"])[0]
        print_parts(game, args.parts, step_parts(game, args.parts, args.cards.resolve(), args.only))
        return
    if args.check:
        check_against(args.game or ["fallera"], args.check, [tree.resolve() for tree in args.against or []],
                      args.rounds, args.thorough_too)
        return
    if args.against and len(args.against) > 1:
        parser.error("--against is given once, except with --check")
    args.against = args.against[0] if args.against else None
    if args.cpu:
        os.environ["BENCH_CLOCK"] = "cpu"  # the workers, on every tree, read it
    only = args.only or list(CONFIGS)
    if args.worker:
        decks = os.environ.get("BENCH_DECKS")
        print(json.dumps(measure(args.games, only, json.loads(decks) if decks else None)))
        return
    ours, theirs, same = [], [], []
    for _ in range(args.rounds):  # alternate, so a burst of load on the machine hits both
        ours.append(_run(REPO, args.games, only))
        if args.against:
            theirs.append(_run(args.against, args.games, only))
            same.append(_run(REPO, args.games, only, {k: v["designs"] for k, v in theirs[-1].items()}))
    mine = _best(ours)
    other = _best(theirs) if theirs else {}
    print("shipped data of each tree (games differ as more cards are played):")
    print(f"{'configuration':<14} {'games/s':>8} {'steps/game':>11} {'steps/s':>9}"
          + (f" {'main steps/s':>13} {'ratio':>6} {'main games/s':>13}" if other else ""))
    for label, m in mine.items():
        line = f"{label:<14} {m['games/s']:>8.0f} {m['steps/game']:>11.0f} {m['steps/s']:>9.0f}"
        if label in other:
            o = other[label]
            line += f" {o['steps/s']:>13.0f} {m['steps/s'] / o['steps/s']:>6.2f} {o['games/s']:>13.0f}"
        print(line)
    if other:
        like = _best(same)
        print(f"\nthe same decks as {args.against} plays (its playable designs only): the same games, so the")
        print("ratio compares the engines step for step")
        print(f"{'configuration':<14} {'steps/game':>11} {'steps/s':>9} {'main steps/s':>13} {'ratio':>6}")
        for label, m in like.items():
            o = other[label]
            print(f"{label:<14} {m['steps/game']:>11.0f} {m['steps/s']:>9.0f} {o['steps/s']:>13.0f} "
                  f"{m['steps/s'] / o['steps/s']:>6.2f}")
        worst = min(m["steps/s"] / other[label]["steps/s"] for label, m in like.items())
        print(f"goal: steps/s on the same games at least {args.against}'s in the same run: lowest ratio {worst:.2f}, "
              f"{'met' if worst >= 1.0 else 'not met'}")
    if "base/4p" in mine:
        rate = mine["base/4p"]["games/s"]
        print(f"goal: {GOAL} four-player base games/s on one core: {rate:.0f}, {'met' if rate >= GOAL else 'not met'}")


if __name__ == "__main__":
    main()
