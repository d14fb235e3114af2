"""One convention for printing what is not a fact: ``□`` for an unknown value, ``†`` for a value the
rulebooks do not state (inferred, from an outside source, unverified, or a playtest stand-in).

The unknown mark is an empty box, a blank to fill in from one's own copy, never a question mark: a game may
print "?" as an icon of its own (one of the shipped games does, for a treasure with an effect of its own),
and a face showing "?" beside such a card would read as that icon.

Faces, the card index and generated tables all use these two marks, and every page that shows one carries
the legend (``legend``), so a reader never takes a blank for "no value" or a guess for a rule.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Literal

from ..models.certainty import PLAIN, field_certainty

UNKNOWN = "\u25a1"
"""Printed in place of a value no source gives: ``□`` (U+25A1 WHITE SQUARE), in every font the kit embeds."""
NOT_STATED = "†"
"""Printed after a value the rulebooks do not state."""

Edition = Literal["fact", "playtest"]
EDITIONS: tuple[Edition, ...] = ("fact", "playtest")
"""``fact``: only what the sources give (unknowns print ``□``); ``playtest``: the engine's stand-in values
from ``assumptions/`` fill the unknowns, each marked ``†``, so the deck can be played."""


def marked(value: Any, sources: Iterable[Any], field: str) -> str:
    """``value`` as printed: followed by ``†`` unless every source naming ``field`` states it."""
    return f"{value}{NOT_STATED}" if field_certainty(sources, field) not in PLAIN else str(value)


def shown_value(value: Any, sources: Iterable[Any], field: str, edition: Edition, assumed: Any = None) -> str:
    """A value printed in its place: the known value (marked when not stated), else the stand-in in the
    playtest edition (always marked), else ``□``."""
    if value is not None:
        return marked(value, sources, field)
    if edition == "playtest" and assumed is not None and not isinstance(assumed, bool):
        return f"{assumed}{NOT_STATED}"
    return UNKNOWN


def used_marks(*texts: Any) -> set[str]:
    """Which of the two marks appear in ``texts`` (strings; None is skipped)."""
    joined = " ".join(str(t) for t in texts if t is not None)
    return {mark for mark in (UNKNOWN, NOT_STATED) if mark in joined}


def legend(label: Any, marks: set[str], edition: Edition) -> str:
    """The legend of ``marks`` in one locale (``label`` reads ``templates/docs/labels``); empty when none is used."""
    parts = []
    if NOT_STATED in marks:
        parts.append(f"{NOT_STATED} {label('mark_not_stated_playtest' if edition == 'playtest' else 'mark_not_stated')}")
    if UNKNOWN in marks:
        parts.append(f"{UNKNOWN} {label('mark_unknown')}")
    return " · ".join(str(p) for p in parts)
