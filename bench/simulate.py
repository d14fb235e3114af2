"""Measure simulate: games/s per worker for each agent, scaling from 1 to 2 workers (local processes and a
two-worker Dask LocalCluster), and the Dask path's overhead against local processes at equal workers.

Run: python bench/simulate.py [--games 200] [--overhead-games 10000] [--skip-cluster]
     python bench/simulate.py --paired [--games 40] [--against REV] [--rounds 3]
        (paired games: reported games per processor-second of a --compare and of a 4-value --sweep on the
        fixture game with the example pack, greedy seats; with --against, the same on another checkout, a
        folder or a git revision exported to a temporary folder, alternated round by round)
     python bench/simulate.py --ismcts [--budget 200] [--repeat 3]   (ISMCTS iterations per processor-second only)
     python bench/simulate.py --ismcts --against /path/to/main [--rounds 5]   (the same, alternated with another tree)
Goals: at least 1.7x from 1 to 2 workers for random and greedy agents (this 2-core machine); Dask within 10%
of local processes at equal workers for runs of 10,000 games.

Each measurement prints wall-clock speed and the processor time the games took (this process, the pool's
children, or every Dask worker as it reports it): on a machine other people load, wall-clock scaling
shows the load, while processor seconds per game show what each path itself costs. "2x CPU-bound" is
2 x (CPU per game on 1 worker) / (CPU per game on 2 workers): the speed-up two free cores would give.
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

from cardworks.simulate.agents import parse_agents
from cardworks.simulate.executors import simulate
from cardworks.simulate.tables import TableSpec, build_table

REPO = Path(__file__).resolve().parents[1]
BASE4 = TableSpec(str(REPO / "cards"), "fallera", "base", 4)
BASE2 = TableSpec(str(REPO / "cards"), "fallera", "base", 2)


def _cpu(client=None) -> tuple[float, dict[str, float]]:
    """Processor seconds so far of this process and its reaped children, and of each Dask worker."""
    mine = os.times()
    workers = client.run(lambda: sum(tuple(os.times())[:2])) if client is not None else {}
    return mine.user + mine.system + mine.children_user + mine.children_system, workers


def timed(spec: TableSpec, agents: str, games: int, client=None, **where) -> tuple[float, float, object]:
    """(wall seconds, processor seconds, tally) of one run (workers counted only when present throughout)."""
    (mine, workers), start = _cpu(client), time.perf_counter()
    tally = simulate(spec, parse_agents(agents, spec.players, 30), games, 1, client=client, **where)
    wall = time.perf_counter() - start
    mine_after, workers_after = _cpu(client)
    cpu = mine_after - mine + sum(workers_after[w] - workers[w] for w in workers_after if w in workers)
    return wall, cpu, tally


def ismcts_positions(count: int = 12) -> list[tuple]:
    """(seat, observation, legal actions) of ``count`` decisions of greedy four-player base games, seeded."""
    from cardworks.engine.core import CHANCE
    from cardworks.simulate.runner import game_rngs

    table = build_table(BASE4)
    rules, greedy = table.rules, table.heuristics.greedy
    found, game = [], 0
    while len(found) < count:
        chance, *minds = game_rngs(11, game, 4)
        state, step = table.deal(chance), 0
        while rules.actor(state) is not None and len(found) < count:
            actor, legal = rules.actor(state), rules.legal_actions(state)
            if actor == CHANCE:
                action = legal[int(chance.random() * len(legal))]
            else:
                seen = rules.observe(state, actor)
                if step % 7 == 3 and len(legal) > 1:
                    found.append((actor, seen, legal))
                action = greedy(table, actor, seen, legal, minds[actor])
            state, step = rules.apply(state, action, rng=chance), step + 1
        game += 1
    return found


def ismcts_rate(budget: int, repeat: int) -> list[float]:
    """ISMCTS iterations per processor-second of this process, once per repeat, over the same decisions."""
    import random

    from cardworks.simulate.mcts import search

    table = build_table(BASE4)
    positions = ismcts_positions()
    rates = []
    for round_ in range(repeat):
        start = time.process_time()
        for n, (seat, seen, legal) in enumerate(positions):
            search(table, table.heuristics, seat, seen, legal, budget, random.Random(n))
        rates.append(budget * len(positions) / (time.process_time() - start))
    return rates


def ismcts_against(other: Path, budget: int, repeat: int, rounds: int) -> None:
    """``--ismcts`` run in a fresh process on this tree and on ``other`` (its own script, sources and cards),
    alternating round by round so both see the same load; each round's figure is its median of ``repeat``."""
    import subprocess
    import sys

    rates: dict[str, list[float]] = {"this tree": [], str(other): []}
    for _ in range(rounds):
        for name, tree in (("this tree", REPO), (str(other), other)):
            env = {**os.environ, "PYTHONPATH": str(tree / "src")}
            out = subprocess.run([sys.executable, str(tree / "bench" / "simulate.py"), "--ismcts", "--budget", str(budget),
                                  "--repeat", str(repeat)], env=env, check=True, capture_output=True, text=True).stdout
            rates[name].append(float(out.split(": ", 1)[1].split(" iterations", 1)[0].replace(",", "")))
    median = {name: sorted(r)[len(r) // 2] for name, r in rates.items()}
    for name, r in rates.items():
        print(f"{name}: median {median[name]:,.0f} iterations per processor-second ({', '.join(f'{x:,.0f}' for x in r)})")
    print(f"ratio this tree / {other}: {median['this tree'] / median[str(other)]:.2f}x (median of {rounds} alternated rounds)")


FIXTURE = REPO / "tests" / "fixtures" / "cards"
PAIRED_PACK = REPO / "examples" / "fallera-pack"
SWEEP = ("example-cavaller", "attack", (1, 4, 7, 10))
"""The sweep measured: the example pack's battle card, at the attack values of issue 42's sweep."""


def paired_rates(games: int) -> dict[str, float]:
    """Reported games per processor-second of this process: ``--compare`` (the deck without the pack, then with
    it and its paired games) and a 4-value ``--sweep`` (each value's games with paired games), greedy seats,
    four-player base of the fixture game, one worker, seed 1. Only APIs older than the paired-game work are
    used, or the sweep's tables as ``simulate --sweep`` builds them where the checkout has ``sweep_specs``, so the
    same function measures another checkout (``--against``)."""
    agents = parse_agents("greedy", 4)
    plain = TableSpec(str(FIXTURE), "fallera", "base", 4)
    paired = TableSpec(str(FIXTURE), "fallera", "base", 4, (str(PAIRED_PACK),), paired=True)
    card, field, values = SWEEP
    try:  # the band measured once per sweep (what `simulate --sweep` plays since issue 42's last round)
        from cardworks.simulate.sweep import sweep_specs
    except ImportError:  # an older checkout: every value measures every card
        sweep = [TableSpec(str(FIXTURE), "fallera", "base", 4, (str(PAIRED_PACK),), paired=True, adjust=(card, field, v))
                 for v in values]
    else:
        sweep = sweep_specs(TableSpec(str(FIXTURE), "fallera", "base", 4, (str(PAIRED_PACK),)), card, field, list(values))
    for spec in [plain, paired, *sweep]:
        build_table(spec)
    start = time.process_time()
    for spec in (plain, paired):
        simulate(spec, agents, games, 1, workers=1)
    compare = games / (time.process_time() - start)
    start = time.process_time()
    for spec in sweep:
        simulate(spec, agents, games, 1, workers=1)
    return {"compare": compare, "sweep": len(values) * games / (time.process_time() - start)}


def paired_against(other: str, games: int, rounds: int) -> None:
    """``paired_rates`` in a fresh process on this tree and on ``other`` (its own sources, this tree's fixture
    cards and pack), alternating round by round; the figure of each is its median over the rounds."""
    import importlib.util
    import json
    import subprocess
    import sys
    import tempfile

    spec = importlib.util.spec_from_file_location("build_bench", Path(__file__).with_name("build.py"))
    build_bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build_bench)
    with tempfile.TemporaryDirectory(prefix="cardworks-paired-") as tmp:
        trees = {"this tree": REPO, other: build_bench.checkout(other, Path(tmp))}
        rates: dict[str, list[dict[str, float]]] = {name: [] for name in trees}
        for _ in range(rounds):
            for name, tree in trees.items():
                env = {**os.environ, "PYTHONPATH": str(tree / "src")}
                out = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--paired", "--json", "--games",
                                      str(games)], env=env, check=True, capture_output=True, text=True).stdout
                rates[name].append(json.loads(out))
    median = {name: {kind: sorted(r[kind] for r in runs)[len(runs) // 2] for kind in ("compare", "sweep")}
              for name, runs in rates.items()}
    for name, figures in median.items():
        print(f"{name}: --compare {figures['compare']:.2f}, 4-value --sweep {figures['sweep']:.2f} reported games per "
              f"processor-second (median of {rounds}; {games} games a run, greedy, four-player fixture base + example pack)")
    for kind in ("compare", "sweep"):
        print(f"ratio this tree / {other}, {kind}: {median['this tree'][kind] / median[other][kind]:.2f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--ismcts", action="store_true",
                        help="only ISMCTS iterations per processor-second on the four-player base game")
    parser.add_argument("--budget", type=int, default=200, help="ISMCTS iterations per decision (with --ismcts)")
    parser.add_argument("--repeat", type=int, default=3, help="rounds of --ismcts; the median is the figure")
    parser.add_argument("--against", type=Path, help="with --ismcts: another tree to alternate with (e.g. main); with "
                        "--paired, a tree or a git revision")
    parser.add_argument("--rounds", type=int, default=5, help="alternated rounds of --against")
    parser.add_argument("--games", type=int, default=200, help="random games per measurement (greedy: a quarter)")
    parser.add_argument("--overhead-games", type=int, default=10_000)
    parser.add_argument("--skip-cluster", action="store_true")
    parser.add_argument("--paired", action="store_true", help="only paired games: --compare and a 4-value --sweep")
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.paired:
        games = args.games if args.games != 200 else 40
        if args.against:
            paired_against(str(args.against), games, args.rounds if args.rounds != 5 else 3)
            return
        rates = paired_rates(games)
        if args.json:
            import json

            print(json.dumps(rates))
            return
        print(f"--compare {rates['compare']:.2f}, 4-value --sweep {rates['sweep']:.2f} reported games per processor-second "
              f"({games} games a run, greedy, four-player fixture base + example pack)")
        return
    if args.ismcts and args.against:
        ismcts_against(args.against.resolve(), args.budget, args.repeat, args.rounds)
        return
    if args.against and not args.paired:
        parser.error("--against goes with --ismcts or --paired")
    if args.ismcts:
        rates = ismcts_rate(args.budget, args.repeat)
        print(f"ISMCTS, four-player base, {args.budget} iterations a decision on 12 decisions: "
              f"{sorted(rates)[len(rates) // 2]:,.0f} iterations per processor-second (median of {len(rates)}; "
              + ", ".join(f"{r:,.0f}" for r in rates) + ")")
        return
    build_table(BASE4), build_table(BASE2)
    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at start")
    print("\nOne worker, four-player base (this process):")
    sizes = {"random": args.games, "greedy": max(8, args.games // 4), "mcts,greedy,greedy,greedy": max(4, args.games // 50)}
    for agents, games in sizes.items():
        wall, cpu, tally = timed(BASE4, agents, games, workers=1)
        steps = sum(k * v for k, v in tally.steps.items()) / tally.games
        print(f"  {agents:<26} {games / wall:8.2f} games/s wall, {games / cpu:8.2f} games per CPU second "
              f"({games} games, {steps:.0f} steps/game; MCTS: 30 iterations a decision)")
    cluster = None
    if not args.skip_cluster:
        from distributed import Client, LocalCluster

        cluster = LocalCluster(n_workers=1, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=":0")
    print("\nScaling from 1 to 2 workers (same games; load average now "
          f"{os.getloadavg()[0]:.1f}):")
    for agents, games in (("random", args.games), ("greedy", max(8, args.games // 4))):
        w1, c1, _ = timed(BASE4, agents, games, workers=1)
        w2, c2, _ = timed(BASE4, agents, games, workers=2)
        print(f"  {agents:<7} local processes: wall {games / w1:6.1f} -> {games / w2:6.1f} games/s ({w1 / w2:.2f}x); "
              f"CPU per game {1000 * c1 / games:.0f} -> {1000 * c2 / games:.0f} ms, 2x CPU-bound {2 * c1 / c2:.2f}x")
        if cluster is not None:
            with Client(cluster) as client:
                cluster.scale(1)
                while len(client.scheduler_info()["workers"]) != 1:
                    time.sleep(0.2)
                timed(BASE4, agents, 2, client=client)  # the worker builds the table once, as any run's first task does
                d1, e1, _ = timed(BASE4, agents, games, client=client, size=max(1, games // 16))
                cluster.scale(2)
                client.wait_for_workers(2)
                timed(BASE4, agents, 2, client=client, size=1)
                d2, e2, _ = timed(BASE4, agents, games, client=client, size=max(1, games // 16))
            print(f"  {'':<7} LocalCluster:    wall {games / d1:6.1f} -> {games / d2:6.1f} games/s ({d1 / d2:.2f}x); "
                  f"CPU per game {1000 * e1 / games:.0f} -> {1000 * e2 / games:.0f} ms, 2x CPU-bound {2 * e1 / e2:.2f}x")
    if cluster is not None:
        games = args.overhead_games
        local, local_cpu, a = timed(BASE2, "random", games, workers=2)
        with Client(cluster) as client:
            dask, dask_cpu, b = timed(BASE2, "random", games, client=client)
        assert a == b, "the Dask run must tally the same games"
        print(f"\nDask overhead, {games:,} two-player base random games on 2 workers (load average "
              f"{os.getloadavg()[0]:.1f}): wall {local:.1f} s local, {dask:.1f} s LocalCluster ({100 * (dask / local - 1):+.1f}%); "
              f"CPU {local_cpu:.1f} s local, {dask_cpu:.1f} s LocalCluster and client ({100 * (dask_cpu / local_cpu - 1):+.1f}%); "
              "goal: within 10%; same tallies")
        cluster.close()


if __name__ == "__main__":
    main()
