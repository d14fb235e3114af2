"""What is worked out once per object and kept beside it, by identity.

Rules, tables, decks and card definitions are immutable and hashing them whole costs more than the work kept, so
a store is keyed by ``id``; the object is held beside its answer, so another object given its id once it is gone
never reads the answer."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def per_object(store: dict[int, tuple[Any, Any]], owner: Any, make: Callable[[Any], Any] = lambda owner: {},
               most: int = 256) -> Any:
    """What ``store`` keeps for ``owner`` (``make(owner)`` the first time: an empty dictionary unless told); a store
    past ``most`` owners starts again."""
    kept = store.get(id(owner))
    if kept is None or kept[0] is not owner:
        if len(store) > most:
            store.clear()
        kept = store[id(owner)] = (owner, make(owner))
    return kept[1]
