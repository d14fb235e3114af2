"""Python's cycle collector paused while a burst of work makes many objects and few reference cycles.

Three places pause it: reading and checking databases (``validate``), playing a checked game (``check``'s
playouts: the collector's passes walked the rules' growing caches, 5 to 8 % of a check) and laying out a
document, piece or document of card faces (the face workers' passes took 1.3 s of a cold build while they froze
nothing and paused nothing, each walking what the worker inherited; 0.3 s now). Laying out a rulebook makes about 200,000 objects in reference cycles (WeasyPrint's boxes,
styles and element wrappers point at one another) among millions of short-lived ones. While it runs, the collector's passes walked
the worker's every object, the games it inherited from the build included: a sixth to a fifth of a document's
processor time (bench/docs.py --collector). Paused, one pass over the youngest generation after the layout frees
that layout's cycles (every object made while paused is in it), so memory comes back to where it was after each
output, and the pass costs the same in a build's main process, whatever it holds.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_LOCK = threading.Lock()
_RUNNING = [0, False]
"""Pauses running in this process (threads may lay out at once), and whether the collector was on before the
first of them paused it."""


@contextmanager
def collected_after() -> Iterator[None]:
    """Pause the collector while the block runs; when the last block running in the process ends, turn it back
    on (if it was on) and collect the youngest generation once. A caller that turned the collector off keeps it
    off, uncollected."""
    with _paused(collect=True):
        yield


@contextmanager
def collector_paused() -> Iterator[None]:
    """As ``collected_after``, without the pass at the end: what the block made is collected later, as usual."""
    with _paused(collect=False):
        yield


@contextmanager
def _paused(collect: bool) -> Iterator[None]:
    with _LOCK:
        if _RUNNING[0] == 0:
            _RUNNING[1] = gc.isenabled()
            gc.disable()
        _RUNNING[0] += 1
    try:
        yield
    finally:
        with _LOCK:
            _RUNNING[0] -= 1
            last = _RUNNING[0] == 0 and _RUNNING[1]
            if last:
                gc.enable()
        if last and collect:
            gc.collect(0)


def start_worker() -> None:
    """In a worker process forked from the build: what it inherited (modules, the loaded games) is set aside
    from the collector's passes (``gc.freeze``), so the pass after each layout walks only the worker's own
    objects. They were made before the fork and live as long as the worker."""
    gc.freeze()
