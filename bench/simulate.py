"""Measure simulate: games/s per worker for each agent, scaling from 1 to 2 workers (local processes and a
two-worker Dask LocalCluster), and the Dask path's overhead against local processes at equal workers.

Run: python bench/simulate.py [--games 400] [--overhead-games 10000] [--skip-cluster]
Goals: at least 1.7x from 1 to 2 workers for random and greedy agents (this 2-core machine); Dask within 10%
of local processes at equal workers for runs of 10,000 games.
Every figure of one run is measured in the same moment; ratios are what to compare across machines.
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


def timed(spec: TableSpec, agents: str, games: int, **where) -> tuple[float, object]:
    start = time.perf_counter()
    tally = simulate(spec, parse_agents(agents, spec.players, where.pop("budget", 30)), games, 1, **where)
    return time.perf_counter() - start, tally


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=400, help="random games per measurement (greedy: a quarter)")
    parser.add_argument("--overhead-games", type=int, default=10_000)
    parser.add_argument("--skip-cluster", action="store_true")
    args = parser.parse_args()
    build_table(BASE4), build_table(BASE2)
    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at start")
    print("\nGames/s on one worker, four-player base (one process):")
    sizes = {"random": args.games, "greedy": max(8, args.games // 4), "mcts,greedy,greedy,greedy": max(4, args.games // 50)}
    for agents, games in sizes.items():
        seconds, tally = timed(BASE4, agents, games, workers=1)
        steps = sum(k * v for k, v in tally.steps.items()) / tally.games
        print(f"  {agents:<26} {games / seconds:8.2f} games/s  ({games} games, {steps:.0f} steps/game)")
    cluster = None
    if not args.skip_cluster:
        from distributed import Client, LocalCluster

        cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None)
    print("\nScaling from 1 to 2 workers (same games, same moment):")
    for agents, games in (("random", args.games), ("greedy", max(8, args.games // 4))):
        one, _ = timed(BASE4, agents, games, workers=1)
        two, _ = timed(BASE4, agents, games, workers=2)
        line = f"  {agents:<7} local: 1 worker {games / one:7.1f} games/s, 2 workers {games / two:7.1f} games/s: {one / two:.2f}x"
        if cluster is not None:
            with Client(cluster) as client:
                client.cluster.scale(1)
                client.wait_for_workers(1)
                while len(client.scheduler_info()["workers"]) > 1:
                    time.sleep(0.2)
                d1, _ = timed(BASE4, agents, games, client=client, size=max(1, games // 16))
                client.cluster.scale(2)
                client.wait_for_workers(2)
                d2, _ = timed(BASE4, agents, games, client=client, size=max(1, games // 16))
            line += f"; LocalCluster: 1 worker {games / d1:7.1f}, 2 workers {games / d2:7.1f}: {d1 / d2:.2f}x"
        print(line + " (goal 1.7x)")
    if cluster is not None:
        games = args.overhead_games
        local, a = timed(BASE2, "random", games, workers=2)
        with Client(cluster) as client:
            dask, b = timed(BASE2, "random", games, client=client)
        assert a == b, "the Dask run must tally the same games"
        print(f"\nDask overhead, {games:,} two-player base random games on 2 workers: local processes {local:.1f} s, "
              f"LocalCluster {dask:.1f} s: {100 * (dask / local - 1):+.1f}% (goal: within 10%); same tallies")
        cluster.close()


if __name__ == "__main__":
    main()
