"""Measure simulate: games/s per worker for each agent, scaling from 1 to 2 workers (local processes and a
two-worker Dask LocalCluster), and the Dask path's overhead against local processes at equal workers.

Run: python bench/simulate.py [--games 200] [--overhead-games 10000] [--overhead-rounds 3] [--no-nanny] [--defaults-too] [--each-change] [--skip-cluster]
     python bench/simulate.py --overhead [--overhead-games 10000] [--overhead-rounds 3] [--no-nanny] [--defaults-too] [--each-change]
        (only the Dask overhead: local processes and a cluster started as the docs start one, with the settings
        of cardworks.cluster.QUIET, alternated round by round; every process of the cluster is counted)
     python bench/simulate.py --paired [--games 40] [--against REV] [--rounds 3]
        (paired games: reported games per processor-second of a --compare and of a 4-value --sweep on the
        fixture game with the example pack, greedy seats; with --against, the same on another checkout, a
        folder or a git revision exported to a temporary folder, alternated round by round)
     python bench/simulate.py --ismcts [--budget 200] [--repeat 3]   (ISMCTS iterations per processor-second only)
     python bench/simulate.py --ismcts --against REV [--rounds 5]   (the same, alternated with another tree's
        sources; both must print the same digest of their decisions)
Goals: at least 1.7x from 1 to 2 workers for random and greedy agents (this 2-core machine); Dask within 10%
of local processes at equal workers for runs of 10,000 games.

Each measurement prints wall-clock speed and the processor time the games took (this process, the pool's
children, or every Dask worker as it reports it; for the overhead every process of the cluster, the
scheduler and the nannies included): on a machine other people load, wall-clock scaling
shows the load, while processor seconds per game show what each path itself costs. "2x CPU-bound" is
2 x (CPU per game on 1 worker) / (CPU per game on 2 workers): the speed-up two free cores would give.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from contextlib import ExitStack, contextmanager
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


@contextmanager
def command_cluster(workers: int, nanny: bool = True, quiet: bool = True):
    """A cluster started as the docs start one, with ``cluster.QUIET`` in the environment (what a user gets):
    a ``dask scheduler`` and ``dask worker --nthreads 1`` processes on 127.0.0.1 (with nannies: one command
    with ``--nworkers``, whose process holds the nannies; without: one ``--no-nanny`` command per worker).
    ``quiet=False``: Dask's default settings instead. Yields (scheduler address, the processes: name → pid);
    every process it started is ended on leaving."""
    import json

    import psutil
    from distributed import Client

    from cardworks.cluster import quiet_environment

    env = {**os.environ, **(quiet_environment() if quiet else {})}
    started: list[subprocess.Popen] = []
    with tempfile.TemporaryDirectory(prefix="cardworks-dask-") as folder:
        address_file = str(Path(folder) / "scheduler.json")

        def start(*command: str) -> subprocess.Popen:
            started.append(subprocess.Popen([sys.executable, "-m", *command], env=env, cwd=folder,
                                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
            return started[-1]

        try:
            scheduler = start("distributed.cli.dask_scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
                              "--scheduler-file", address_file)
            while not Path(address_file).exists():
                if scheduler.poll() is not None:
                    raise SystemExit("dask scheduler did not start")
                time.sleep(0.1)
            address = json.loads(Path(address_file).read_text())["address"]
            worker = ("distributed.cli.dask_worker", address, "--host", "127.0.0.1", "--nthreads", "1", "--no-dashboard")
            hosts = [start(*worker, "--nworkers", str(workers))] if nanny else \
                [start(*worker, "--no-nanny") for _ in range(workers)]
            with Client(address, timeout="30s") as client:
                client.wait_for_workers(workers, timeout=120)
                worker_pids = sorted(client.run(os.getpid).values())
            processes = {"scheduler": scheduler.pid}
            processes.update({f"worker {n + 1}": pid for n, pid in enumerate(worker_pids)})
            if nanny:  # the nanny command's process, and any helper process it started besides the workers
                host = psutil.Process(hosts[0].pid)
                processes["nannies"] = host.pid
                for n, child in enumerate(c for c in host.children(recursive=True) if c.pid not in worker_pids):
                    processes[f"nanny helper {n + 1}"] = child.pid
            yield address, processes
        finally:
            for process in reversed(started):
                process.terminate()
            for process in reversed(started):
                try:
                    process.wait(30)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()


def _task_cpu(address: str) -> float:
    """Processor seconds the workers' task threads have spent in ``play_chunk`` so far (Dask's own count)."""
    from distributed import Client

    def spent(dask_worker) -> float:
        return sum(v for k, v in dask_worker.digests_total.items()
                   if k[0] == "execute" and k[-3:] == ("play_chunk", "thread-cpu", "seconds"))

    with Client(address, timeout="30s") as client:
        return sum(client.run(spent).values())


def _process_cpu(processes: dict[str, int]) -> dict[str, float]:
    """Processor seconds so far of each process (this one as ``client``: itself, without its children)."""
    import psutil

    found = {"client": sum(tuple(os.times())[:2])}
    for name, pid in processes.items():
        times = psutil.Process(pid).cpu_times()
        found[name] = times.user + times.system
    return found


def dask_overhead(games: int, rounds: int, no_nanny: bool, defaults: bool = False, each_change: bool = False) -> None:
    """Processor time of ``games`` two-player base random games on 2 local processes and on a 2-worker cluster
    started as commands (``command_cluster``: with nannies, and with ``no_nanny`` also without), alternated
    round by round on warm workers; every process of the cluster counted, so the figures say what each part
    of Dask costs: the workers with the client, the scheduler, the nannies. ``defaults``: also a cluster with
    Dask's default settings sent chunks of local processes' size (``chunk_size``), as before both changes;
    ``each_change``: also each change alone (the settings with local chunks, the defaults with Dask's chunks)."""
    from cardworks.simulate.runner import chunk_size

    # (label, nannies, QUIET settings, games a chunk: None for simulate's own choice)
    kinds = [("with nannies", True, True, None)] + ([("no nannies", False, True, None)] if no_nanny else []) \
        + ([("default settings, local chunks", True, False, chunk_size(games, 2))] if defaults else []) \
        + ([("quiet settings, local chunks", True, True, chunk_size(games, 2)),
            ("default settings, Dask chunks", True, False, None)] if each_change else [])
    print(f"\nDask overhead: {games:,} two-player base random games on 2 workers, {rounds} alternated rounds "
          f"(load average {os.getloadavg()[0]:.1f} at start); processor seconds")
    with ExitStack() as stack:
        clusters = {kind: stack.enter_context(command_cluster(2, nanny, quiet)) for kind, nanny, quiet, _ in kinds}
        sizes = {kind: size for kind, _, _, size in kinds}
        for address, _ in clusters.values():  # warm: each worker imports cardworks and builds the table once
            simulate(BASE2, parse_agents("random", 2, 30), 40, 1, scheduler=address, workers=2)
        found: dict[str, list[dict[str, float]]] = {"local": [], **{kind: [] for kind in clusters}}
        reference = None
        for _ in range(rounds):
            start = sum(os.times()[:4])
            _, _, tally = timed(BASE2, "random", games, workers=2)
            found["local"].append({"all": sum(os.times()[:4]) - start})
            reference = reference or tally
            assert tally == reference
            for kind, (address, processes) in clusters.items():
                tasks = _task_cpu(address)
                before = _process_cpu(processes)
                tally = simulate(BASE2, parse_agents("random", 2, 30), games, 1, scheduler=address, workers=2,
                                 size=sizes[kind])
                after = _process_cpu(processes)
                tasks = _task_cpu(address) - tasks
                assert tally == reference, "the Dask run must tally the same games"
                spent = {name: after[name] - before[name] for name in after}
                workers = spent["client"] + sum(v for k, v in spent.items() if k.startswith("worker"))
                spent["workers and client"] = workers
                spent["+ scheduler"] = workers + spent["scheduler"]
                spent["all"] = sum(v for k, v in spent.items() if k in after)
                spent["outside the games"] = spent["all"] - tasks
                spent["games"] = tasks
                found[kind].append(spent)
    local = sorted(r["all"] for r in found["local"])[rounds // 2]
    print(f"  local processes: {local:.2f} s (median; rounds " + ", ".join(f"{r['all']:.2f}" for r in found["local"]) + ")")
    for kind in clusters:
        runs = found[kind]
        median = {name: sorted(r[name] for r in runs)[rounds // 2] for name in runs[0]}
        parts = ", ".join(f"{name} {median[name]:.2f}" for name in runs[0] if name not in
                          ("workers and client", "+ scheduler", "all", "outside the games", "games"))
        print(f"  Dask, {kind} (medians: {parts}):")
        for figure in ("workers and client", "+ scheduler", "all"):
            label = {"all": "every process" if kind == "no nannies" else "+ nannies (every process)"}.get(figure, figure)
            ratios = [r[figure] / l["all"] - 1 for r, l in zip(runs, found["local"])]
            together = sum(r[figure] for r in runs) / sum(r["all"] for r in found["local"]) - 1
            print(f"    {label:<26} {median[figure]:6.2f} s: {100 * (median[figure] / local - 1):+5.1f}% against local "
                  f"({100 * together:+.1f}% all rounds together; rounds: " + ", ".join(f"{100 * x:+.1f}%" for x in ratios) + ")")
        outside = [r["outside the games"] / r["games"] for r in runs]
        print(f"    the games themselves (the workers' task threads) {median['games']:.2f} s; every process's time outside "
              f"them {median['outside the games']:.2f} s, {100 * sorted(outside)[rounds // 2]:.1f}% of the games' (median; "
              f"rounds: " + ", ".join(f"{100 * x:.1f}%" for x in outside) + ")")
    print(f"  load average at the end {os.getloadavg()[0]:.1f}; goal: Dask within 10% of local processes; same tallies")


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


def ismcts_rate(budget: int, repeat: int) -> tuple[list[float], str]:
    """ISMCTS iterations per processor-second of this process, once per repeat, over the same decisions; and a
    digest of what the searches decided (each decision's root visit counts per action, the same every repeat)."""
    import hashlib
    import random

    from cardworks.simulate.mcts import grow

    table = build_table(BASE4)
    positions = ismcts_positions()
    rates, digests = [], set()
    for round_ in range(repeat):
        roots = []
        start = time.process_time()
        for n, (seat, seen, legal) in enumerate(positions):  # ``search`` is ``grow`` and a pick among the root's children
            roots.append(grow(table, table.heuristics, seat, seen, budget, random.Random(n), legal))
        rates.append(budget * len(positions) / (time.process_time() - start))
        visits = [sorted((key, child.visits) for key, child in root.children.items()) for root in roots]
        digests.add(hashlib.sha256(repr(visits).encode()).hexdigest()[:16])
    if len(digests) != 1:
        raise SystemExit(f"the same searches decided differently from one repeat to the next: {sorted(digests)}")
    return rates, digests.pop()


def _checkout(spec: str, tmp: Path) -> Path:
    """The other tree: a checkout folder, or a git revision exported into ``tmp`` (``bench/build.py``'s rule). A
    name that is neither stops the run: measured with ``PYTHONPATH`` pointing nowhere, the other figure would be
    this tree's installed one."""
    import importlib.util

    loader = importlib.util.spec_from_file_location("build_bench", Path(__file__).with_name("build.py"))
    build_bench = importlib.util.module_from_spec(loader)
    loader.loader.exec_module(build_bench)
    try:
        return build_bench.checkout(spec, tmp)
    except (subprocess.CalledProcessError, OSError) as exc:
        raise SystemExit(f"--against {spec}: neither a checkout folder nor a git revision ({exc})") from None


def _rollout_loop() -> str:
    """Which rollout loop this process's searches play: Fallera's compiled one or the Python one (a tree older than
    the compiled loop has only the latter)."""
    try:
        from cardworks.games.fallera import rollouts
    except ImportError:
        return "python"
    return "python" if getattr(rollouts, "KERNEL", None) is None else "compiled"


def _has_compiled_rollouts(tree: Path) -> bool:
    return (tree / "src" / "cardworks" / "games" / "fallera" / "_rollouts.c").is_file()


def _with_compiled_rollouts(tree: Path) -> Path:
    """An exported revision that has the compiled rollout loop's source, with the loop built in place (as its
    install would build it): measured without it, the revision would run its slower Python loop and the ratio
    would credit this tree with the compiled loop (the run stops if it still plays the Python one)."""
    if _has_compiled_rollouts(tree):
        subprocess.run([sys.executable, "setup.py", "-q", "build_ext", "--inplace"], cwd=tree, capture_output=True)
    return tree


def ismcts_against(other: str, budget: int, repeat: int, rounds: int) -> None:
    """``--ismcts`` run in a fresh process on this tree's sources and on ``other``'s (a folder or a git revision;
    this script and cards for both, so both measure the same decisions and report their digest), alternating
    round by round so both see the same load; each round's figure is its median of ``repeat``. Two digests that
    differ stop the run: the trees do not decide the same, and their speeds are not comparable. A revision
    exported with the compiled rollout loop's source has it built first; each tree's line says which loop it
    played."""

    rates: dict[str, list[float]] = {"this tree": [], other: []}
    digests: dict[str, set[str]] = {name: set() for name in rates}
    with tempfile.TemporaryDirectory(prefix="cardworks-ismcts-") as tmp:
        exported = not (Path(other) / "src" / "cardworks").is_dir()  # a checkout folder is measured as it is
        tree = _checkout(other, Path(tmp))
        trees = {"this tree": REPO, other: _with_compiled_rollouts(tree) if exported else tree}
        loops: dict[str, set[str]] = {name: set() for name in trees}
        for _ in range(rounds):
            for name, tree in trees.items():
                env = {**os.environ, "PYTHONPATH": str(tree / "src")}
                out = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--ismcts", "--budget",
                                      str(budget), "--repeat", str(repeat)], env=env, check=True, capture_output=True,
                                     text=True).stdout
                rates[name].append(float(out.split(": ", 1)[1].split(" iterations", 1)[0].replace(",", "")))
                digests[name].add(out.rsplit("decisions digest ", 1)[1].split(";")[0])
                loops[name].add(out.rsplit("rollouts ", 1)[1].strip() if "; rollouts " in out else "python")
    if _has_compiled_rollouts(trees[other]) and loops[other] != {"compiled"}:
        raise SystemExit(f"{other} has the compiled rollout loop's source but played the Python loop (it did not "
                         "build): speeds not compared")
    found = set().union(*digests.values())
    if len(found) != 1:
        raise SystemExit(f"the trees decide differently (decisions digests {digests}): speeds not compared")
    median = {name: sorted(r)[len(r) // 2] for name, r in rates.items()}
    for name, r in rates.items():
        print(f"{name}: median {median[name]:,.0f} iterations per processor-second ({', '.join(f'{x:,.0f}' for x in r)}); "
              f"rollouts {'/'.join(sorted(loops[name]))}")
    print(f"ratio this tree / {other}: {median['this tree'] / median[str(other)]:.2f}x (median of {rounds} alternated rounds; "
          f"same decisions, digest {found.pop()}; load average {os.getloadavg()[0]:.1f} at the end)")


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
    import json

    with tempfile.TemporaryDirectory(prefix="cardworks-paired-") as tmp:
        trees = {"this tree": REPO, other: _checkout(other, Path(tmp))}
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
    parser.add_argument("--against", help="with --ismcts: another tree to alternate with (e.g. main); with "
                        "--paired, a tree or a git revision")
    parser.add_argument("--rounds", type=int, default=None,
                        help="alternated rounds of --against (default: 3 with --paired, 5 with --ismcts)")
    parser.add_argument("--games", type=int, default=None,
                        help="random games per measurement (greedy: a quarter; default 200); with --paired, games a run "
                             "(default 40)")
    parser.add_argument("--overhead-games", type=int, default=10_000)
    parser.add_argument("--skip-cluster", action="store_true")
    parser.add_argument("--overhead", action="store_true", help="only the Dask overhead against local processes")
    parser.add_argument("--overhead-rounds", type=int, default=3, help="alternated rounds of the Dask overhead")
    parser.add_argument("--no-nanny", action="store_true", help="measure a cluster whose workers run without "
                        "nannies as well")
    parser.add_argument("--defaults-too", action="store_true", help="measure a cluster with Dask's default settings "
                        "sent local processes' chunks as well (before cluster.QUIET and dask_chunk_size)")
    parser.add_argument("--each-change", action="store_true", help="measure each of the two changes alone as well")
    parser.add_argument("--paired", action="store_true", help="only paired games: --compare and a 4-value --sweep")
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.paired:
        games = args.games if args.games is not None else 40
        if args.against:
            paired_against(str(args.against), games, args.rounds if args.rounds is not None else 3)
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
        ismcts_against(str(args.against), args.budget, args.repeat, args.rounds if args.rounds is not None else 5)
        return
    if args.against and not args.paired:
        parser.error("--against goes with --ismcts or --paired")
    if args.ismcts:
        rates, digest = ismcts_rate(args.budget, args.repeat)
        print(f"ISMCTS, four-player base, {args.budget} iterations a decision on 12 decisions: "
              f"{sorted(rates)[len(rates) // 2]:,.0f} iterations per processor-second (median of {len(rates)}; "
              + ", ".join(f"{r:,.0f}" for r in rates) + f"); decisions digest {digest}; load average "
              f"{os.getloadavg()[0]:.1f}; rollouts {_rollout_loop()}")
        return
    build_table(BASE4), build_table(BASE2)
    if args.overhead:
        dask_overhead(args.overhead_games, args.overhead_rounds, args.no_nanny, args.defaults_too, args.each_change)
        return
    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at start")
    print("\nOne worker, four-player base (this process):")
    args.games = args.games if args.games is not None else 200
    sizes = {"random": args.games, "greedy": max(8, args.games // 4), "mcts,greedy,greedy,greedy": max(4, args.games // 50)}
    for agents, games in sizes.items():
        wall, cpu, tally = timed(BASE4, agents, games, workers=1)
        steps = sum(k * v for k, v in tally.steps.items()) / tally.games
        print(f"  {agents:<26} {games / wall:8.2f} games/s wall, {games / cpu:8.2f} games per CPU second "
              f"({games} games, {steps:.0f} steps/game; MCTS: 30 iterations a decision)")
    print("\nScaling from 1 to 2 workers (same games; load average now "
          f"{os.getloadavg()[0]:.1f}):")
    from cardworks.cluster import local_cluster  # here: --paired and --ismcts also run on checkouts without it

    with ExitStack() as stack:
        cluster = None if args.skip_cluster else stack.enter_context(local_cluster(1))
        for agents, games in (("random", args.games), ("greedy", max(8, args.games // 4))):
            w1, c1, _ = timed(BASE4, agents, games, workers=1)
            w2, c2, _ = timed(BASE4, agents, games, workers=2)
            print(f"  {agents:<7} local processes: wall {games / w1:6.1f} -> {games / w2:6.1f} games/s ({w1 / w2:.2f}x); "
                  f"CPU per game {1000 * c1 / games:.0f} -> {1000 * c2 / games:.0f} ms, 2x CPU-bound {2 * c1 / c2:.2f}x")
            if cluster is not None:
                from distributed import Client

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
    if not args.skip_cluster:
        dask_overhead(args.overhead_games, args.overhead_rounds, args.no_nanny, args.defaults_too, args.each_change)


if __name__ == "__main__":
    main()
