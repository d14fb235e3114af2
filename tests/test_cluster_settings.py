"""``cluster.QUIET``: the Dask settings a cardworks cluster starts with, known to the installed ``distributed``,
the same as environment variables for a cluster started as commands, and in force on a ``local_cluster``."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from cardworks import cluster


def test_every_quiet_setting_is_known_to_the_installed_distributed() -> None:
    assert cluster.quiet_settings() == cluster.QUIET


def test_a_setting_distributed_does_not_know_is_an_error_naming_it(monkeypatch) -> None:
    monkeypatch.setitem(cluster.QUIET, "distributed.worker.profiler.on", False)
    with pytest.raises(RuntimeError, match="no setting 'distributed.worker.profiler.on'"):
        cluster.quiet_settings()


def test_the_environment_variables_set_the_same_values() -> None:
    """What a ``dask scheduler`` or ``dask worker`` command started with ``quiet_environment()`` reads."""
    code = ("import json, dask, distributed; "
            f"print(json.dumps({{k: dask.config.get(k) for k in {sorted(cluster.QUIET)!r}}}))")
    out = subprocess.run([sys.executable, "-c", code], env={**os.environ, **cluster.quiet_environment()},
                         capture_output=True, text=True, check=True).stdout
    read = json.loads(out)
    assert {k: str(v) for k, v in read.items()} == {k: str(v) for k, v in cluster.QUIET.items()}


@pytest.mark.slow
def test_a_local_cluster_runs_with_the_quiet_settings() -> None:
    import distributed

    with cluster.local_cluster(1) as started, distributed.Client(started) as client:
        workers = client.run(lambda dask_worker: {name: pc.callback_time for name, pc in dask_worker.periodic_callbacks.items()})
        nanny = next(iter(started.workers.values()))
        nannies = {name: pc.callback_time for name, pc in nanny.periodic_callbacks.items()}
        scheduler = {name: pc.callback_time for name, pc in started.scheduler.periodic_callbacks.items()}
    (worker,) = workers.values()
    assert "profile" not in worker and "profile-cycle" not in worker
    assert worker["monitor"] == nannies["monitor"] == scheduler["monitor"] == 5000
    assert worker["tick"] == nannies["tick"] == scheduler["tick"] == 500
    assert worker["memory_monitor"] == nannies["memory_monitor"] == 1000
