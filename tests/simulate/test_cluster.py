"""A real two-worker Dask ``LocalCluster`` on 127.0.0.1 (``cluster.local_cluster``: the settings cardworks advises)
gives the same report as local processes."""

from __future__ import annotations

import json

import pytest

from cardworks.cluster import local_cluster
from cardworks.simulate.tables import build_table

from simulate_helpers import simulate

pytestmark = pytest.mark.slow


def test_a_two_worker_local_cluster_gives_the_same_json_as_the_local_run() -> None:
    import distributed  # the [cluster] extra; the test extra installs it too, so this never skips
    args = ("--set", "base", "--players", "4", "--agent", "greedy,random,random,random", "--games", "48",
            "--seed", "1", "--format", "json")
    local, _ = simulate(*args, "--workers", "2")
    with local_cluster(2) as cluster:
        on_cluster, _ = simulate(*args, "--scheduler", cluster.scheduler_address)
        with distributed.Client(cluster) as client:
            assert len(client.scheduler_info()["workers"]) == 2
            done = client.run(build_table.cache_info)  # each worker's own cache of built tables
    assert on_cluster == local
    assert sum(json.loads(on_cluster)["seats"][s]["rate"] for s in range(4)) == pytest.approx(1.0, abs=1e-5)
    assert len(done) == 2 and all(info.currsize >= 1 for info in done.values())  # both workers played games


def test_an_unreachable_scheduler_is_a_usage_error() -> None:
    _, err = simulate("--games", "2", "--scheduler", "tcp://127.0.0.1:9", expect=2)
    assert "cannot reach the Dask scheduler" in err


def test_a_sweep_of_ten_values_on_a_two_worker_local_cluster_gives_the_local_report() -> None:
    from simulate_helpers import REPO

    pack = REPO / "tests" / "simulate" / "balance-pack"
    local, on_cluster = _locally_and_on_a_cluster(
        str(pack), "--sweep", "balance-soldat.defence=1..10", "--games", "6", "--seed", "5", "--format", "json")
    assert on_cluster == local and len(json.loads(local)["sweep"]["values"]) == 10


def test_games_auto_stops_at_the_same_look_with_the_same_answers_on_a_local_cluster() -> None:
    from simulate_helpers import REPO

    pack = REPO / "tests" / "simulate" / "balance-pack"
    local, on_cluster = _locally_and_on_a_cluster(
        str(pack), "--games", "auto", "--max-games", "200", "--seed", "3", "--format", "json")
    assert on_cluster == local
    report = json.loads(local)
    assert report["sequential"]["looks"] and report["table"]["games"] == report["sequential"]["looks"][-1]["games"]


def _locally_and_on_a_cluster(*args: str) -> tuple[str, str]:
    """The report of ``simulate ARGS`` on two local worker processes, and on a two-worker Dask LocalCluster."""
    local, _ = simulate(*args, "--workers", "2")
    with local_cluster(2) as cluster:
        on_cluster, _ = simulate(*args, "--scheduler", cluster.scheduler_address)
    return local, on_cluster


def test_the_cluster_gets_four_chunks_a_worker_and_the_tally_of_local_processes() -> None:
    """A Dask run is cut into about four chunks a worker (``dask_chunk_size``), local processes into eight or
    more smaller ones, and both tally exactly the same games."""
    import distributed

    from cardworks.simulate.agents import parse_agents
    from cardworks.simulate.executors import simulate as run
    from cardworks.simulate.tables import TableSpec
    from simulate_helpers import CARDS

    spec, agents = TableSpec(str(CARDS), "fallera", "base", 2), parse_agents("random", 2)
    told_locally, told_on_dask = [], []
    local = run(spec, agents, 40, 3, workers=2, progress=told_locally.append)
    with local_cluster(2) as cluster, distributed.Client(cluster) as client:
        on_dask = run(spec, agents, 40, 3, client=client, progress=told_on_dask.append)
    assert told_on_dask == [5] * 8 and told_locally == [2] * 20
    assert on_dask == local
