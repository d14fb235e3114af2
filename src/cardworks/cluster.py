"""A Dask cluster, for the commands that can spread work over one (``simulate``, ``build``).

Dask is optional (``pip install -e '.[cluster]'``). A cluster's workers need cardworks installed and the
card database, packs and art at the same paths as the command that sends them work.

The commands start no cluster: they connect to the one given. ``local_cluster`` starts one on this machine,
for the benches and tests, with ``QUIET``: the settings a cluster owner is advised to use (docs/simulation.md).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any
from urllib.parse import urlsplit

from .errors import UsageError

QUIET: dict[str, Any] = {
    "distributed.worker.profile.enabled": False,
    "distributed.admin.system-monitor.interval": "5s",
    "distributed.admin.tick.interval": "500ms",
    "distributed.worker.memory.monitor-interval": "1s",
}
"""Dask settings that make an idle cluster cheap. By default each worker samples its own stack every 10 ms
(the profiler), every process measures itself every 0.5 s (the system monitor) and its event loop every 20 ms
(the tick), and each nanny reads its worker's memory every 0.1 s: work that goes on while the games run and
grows with wall time, so on a loaded machine it cost more than the chunks' own messages. A chunk of games
lasts seconds, so these slower rates lose nothing cardworks uses (a worker that runs out of memory is still
stopped, a second later at most)."""


def quiet_settings() -> dict[str, Any]:
    """``QUIET``, once each key is known to the installed ``distributed`` (a key it renamed would be ignored
    silently by ``dask.config.set``): a RuntimeError names one it does not know."""
    import dask
    import distributed  # noqa: F401  (its defaults join dask's configuration on import)

    for key in QUIET:
        try:
            dask.config.get(key)
        except KeyError:
            raise RuntimeError(f"distributed {distributed.__version__} has no setting {key!r}: update cluster.QUIET") from None
    return dict(QUIET)


def quiet_environment() -> dict[str, str]:
    """``QUIET`` as the environment variables Dask reads (``DASK_DISTRIBUTED__WORKER__PROFILE__ENABLED=False``
    …): for a ``dask scheduler`` or ``dask worker`` started as a command."""
    return {"DASK_" + key.upper().replace(".", "__").replace("-", "_"): str(value)
            for key, value in quiet_settings().items()}


@contextmanager
def local_cluster(workers: int, **options: Any) -> Iterator[Any]:
    """A Dask ``LocalCluster`` of ``workers`` one-thread worker processes on 127.0.0.1, started and kept with
    ``QUIET`` (its nannies and any worker it starts later read the settings then), closed on leaving."""
    import dask
    from distributed import LocalCluster

    with dask.config.set(quiet_settings()), LocalCluster(
            n_workers=workers, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=":0",
            **options) as cluster:
        yield cluster


def check_scheduler(address: str) -> None:
    """UsageError unless ``address`` is a Dask scheduler address this command can reach: ``tcp://HOST:PORT``
    or ``tls://HOST:PORT`` (an in-process or port-less address cannot be a cluster)."""
    parts = urlsplit(address)
    try:
        port = parts.port
    except ValueError:
        port = None
    if parts.scheme not in ("tcp", "tls") or not parts.hostname or port is None or parts.path not in ("", "/"):
        raise UsageError(f"--scheduler {address!r}: give a Dask scheduler address as tcp://HOST:PORT")


@contextmanager
def connect(address: str) -> Iterator[Any]:
    """A Dask client of the scheduler at ``address``, closed on leaving; a clear UsageError when Dask is not
    installed or the scheduler cannot be reached (within 5 s)."""
    try:
        from distributed import Client
    except ImportError:
        raise UsageError("--scheduler needs Dask: pip install -e '.[cluster]'") from None
    check_scheduler(address)
    try:
        client = Client(address, timeout="5s")
    except (OSError, TimeoutError) as exc:
        raise UsageError(f"--scheduler {address}: cannot reach the Dask scheduler ({exc})") from None
    try:
        yield client
    finally:
        client.close()


def cluster_map(client: Any) -> Callable[[Callable[[Any], Any], Iterable[Any]], list[Any]]:
    """A ``map`` that runs on the cluster and returns the results in order. Each item is a task of its own
    (``pure=False``: a fresh key, never a result cached from another call); a task whose worker dies is run
    again on another one, as Dask does, and a task that fails raises its error here."""
    def run(function: Callable[[Any], Any], items: Iterable[Any]) -> list[Any]:
        return client.gather(client.map(function, list(items), pure=False))
    return run
