"""A Dask cluster, for the commands that can spread work over one (``simulate``, ``build``).

Dask is optional (``pip install -e '.[cluster]'``). A cluster's workers need cardworks installed and the
card database, packs and art at the same paths as the command that sends them work.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any
from urllib.parse import urlsplit

from .errors import UsageError


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
