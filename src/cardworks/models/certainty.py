"""How sure a record's printed field is, read from its sources, so print can mark whatever is not a fact.

A field is only as sure as the least sure source that names it: a rules text
built from a stated line and an inference is partly inferred, and print must
say so. A field that no source names at all is not stated either.
"""

from __future__ import annotations

from collections.abc import Iterable

from .base import Certainty, Source

ORDER: tuple[Certainty, ...] = ("stated", "owner", "inferred", "external", "unverified")
"""Certainties from the surest to the least sure. ``owner`` (read from the owner's own copy, see
:mod:`.owner_facts`) ranks after ``stated``: the printed game itself, but not a rulebook this project read."""

PLAIN: frozenset[Certainty] = frozenset({"stated", "owner"})
"""Certainties printed with no mark: stated by the sources, or read by the kit's owner from their own copy."""


def speaks_of(fact: str, field: str) -> bool:
    """True when the source fact ``fact`` speaks of ``field``: the same path, a part of it, or a whole it is part of."""
    return fact == field or fact.startswith(field + "/") or field.startswith(fact + "/")


def field_certainty(sources: Iterable[Source], field: str) -> Certainty | None:
    """The least sure certainty among the sources naming ``field`` (``stats/attack``, ``rules``, ``types``);
    None when no source names it."""
    levels = {source.certainty for source in sources if any(speaks_of(fact, field) for fact in source.facts)}
    return max(levels, key=ORDER.index) if levels else None


def printed_plain(sources: Iterable[Source], field: str) -> bool:
    """True when ``field`` prints with no mark: every source naming it states it or is the owner's own copy
    (and at least one does)."""
    return field_certainty(sources, field) in PLAIN


def is_stated(sources: Iterable[Source], field: str) -> bool:
    """True when every source naming ``field`` states it (and at least one does)."""
    return field_certainty(sources, field) == "stated"
