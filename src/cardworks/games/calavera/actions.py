"""Calavera's actions: frozen, with a notation that parses back identically.

Players are ``p1``…``pN`` and dice ``1``…``6`` in the notation (0-based inside).

=====================  ===================================================
``first p2``           chance: the randomly chosen first player
``p1 roll``            the active player's first roll: all the dice
``die 3 joker``        chance: die 3 shows a joker (one outcome per die)
``p1 reroll 2 4 6``    roll those dice again; every other die stays aside
``p1 mark colour-2 3`` tick 3 boxes of the colour-2 row
``p1 pass``            mark nothing (see the rules for when that is allowed)
=====================  ===================================================
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ...engine.core import player

SKULL = "calavera"
JOKER = "joker"
"""The two die faces that are not colours: the skull, and the joker that counts as any colour."""


@dataclass(frozen=True)
class First:
    """The first player, chosen at random (chance)."""

    player: int

    def notation(self) -> str:
        return f"first {player(self.player)}"


@dataclass(frozen=True)
class Roll:
    """The first roll of a turn: every die."""

    player: int

    def notation(self) -> str:
        return f"{player(self.player)} roll"


@dataclass(frozen=True)
class Die:
    """What one rolled die shows (chance); the dice of a roll land in ascending order."""

    die: int
    face: str

    def notation(self) -> str:
        return f"die {self.die + 1} {self.face}"


@dataclass(frozen=True)
class Reroll:
    """Roll these dice again (ascending, distinct); every other die stays set aside."""

    player: int
    dice: tuple[int, ...]

    def notation(self) -> str:
        return f"{player(self.player)} reroll {' '.join(str(d + 1) for d in self.dice)}"


@dataclass(frozen=True)
class Mark:
    """Tick ``count`` boxes, left to right, on the row of ``colour``."""

    player: int
    colour: str
    count: int

    def notation(self) -> str:
        return f"{player(self.player)} mark {self.colour} {self.count}"


@dataclass(frozen=True)
class Pass:
    """Mark nothing: a passive player declines their remaining skulls, or an active player has nothing to mark."""

    player: int

    def notation(self) -> str:
        return f"{player(self.player)} pass"


CalaveraAction = First | Roll | Die | Reroll | Mark | Pass

_P = r"p([1-9]\d*)"
_ID = r"([a-z0-9]+(?:-[a-z0-9]+)*)"
_PATTERNS = [
    (re.compile(rf"^first {_P}$"), lambda m: First(_p(m[1]))),
    (re.compile(rf"^{_P} roll$"), lambda m: Roll(_p(m[1]))),
    (re.compile(rf"^die ([1-9]\d*) {_ID}$"), lambda m: Die(int(m[1]) - 1, m[2])),
    (re.compile(rf"^{_P} reroll((?: [1-9]\d*)+)$"), lambda m: Reroll(_p(m[1]), _dice(m[2]))),
    (re.compile(rf"^{_P} mark {_ID} (0|[1-9]\d*)$"), lambda m: Mark(_p(m[1]), m[2], int(m[3]))),
    (re.compile(rf"^{_P} pass$"), lambda m: Pass(_p(m[1]))),
]


def _p(text: str) -> int:
    return int(text) - 1


def _dice(text: str) -> tuple[int, ...]:
    dice = tuple(int(d) - 1 for d in text.split())
    if list(dice) != sorted(set(dice)):
        raise ValueError(f"dice to reroll are written once each, in ascending order: {text.strip()!r}")
    return dice


def parse_action(text: str) -> CalaveraAction:
    """The action written ``text``; ValueError naming the notation when it is not one."""
    cleaned = " ".join(text.split())
    for pattern, build in _PATTERNS:
        match = pattern.match(cleaned)
        if match:
            return build(match)
    raise ValueError(f"not an action: {text!r} (e.g. 'p1 roll', 'die 1 joker', 'p1 reroll 2 5', "
                     f"'p1 mark colour-2 3', 'p2 pass', 'first p1')")
