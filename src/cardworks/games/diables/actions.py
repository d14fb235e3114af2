"""Diables' scoring steps: frozen actions with a short notation that parses back identically.

Seats are ``p1``…``p4`` and ``firebot``; a figure in a show is named by its
space (``c1``), or ``space.n`` when several figures share a sector.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

SHOWS = ("carretillada", "ball-parlat", "trobada-de-besties", "tabalada")
_SEAT = r"p[1-9]|firebot"
_REF = r"[a-z0-9][a-z0-9.-]*"


@dataclass(frozen=True, order=True)
class ScoreLluiment:
    """Phase 2, step 1: score the round's lluïment tile (named without its ``lluiment-tile-`` prefix)."""

    tile: str

    def notation(self) -> str:
        return f"score lluiment {self.tile}"


@dataclass(frozen=True, order=True)
class ScoreShow:
    """Phase 2, step 2a: a seat scores one of its unscored shows with the figures it chooses."""

    seat: str
    show: str
    figures: tuple[str, ...] = ()
    """A set of figures, kept sorted: one choice has one action and one notation, in whatever order it is written."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "figures", tuple(sorted(self.figures)))

    def notation(self) -> str:
        return " ".join((self.seat, "score", self.show) + self.figures)


@dataclass(frozen=True, order=True)
class ScoreStreet:
    """Phase 2, step 2b: every player loses FP per uncovered street spectator card."""

    def notation(self) -> str:
        return "score street"


@dataclass(frozen=True, order=True)
class ScoreSocialMedia:
    """The social media wall scores: its update during play, or the final scoring of round 3."""

    def notation(self) -> str:
        return "score social-media"


@dataclass(frozen=True, order=True)
class TurnOrder:
    """Phase 2, step 3b: the sound track sets the new turn order; the sound tokens go back to the start."""

    def notation(self) -> str:
        return "turn-order"


@dataclass(frozen=True, order=True)
class EndPerformance:
    """Every player has passed: phase 1 ends and phase 2 begins."""

    def notation(self) -> str:
        return "end performance"


@dataclass(frozen=True, order=True)
class Drums:
    """A tabaler leader on the bottom space: earn the sound printed under the occupied tabaler spaces."""

    seat: str

    def notation(self) -> str:
        return f"{self.seat} drums"


@dataclass(frozen=True, order=True)
class Thrill:
    """Resolve one thrilled crowd action: a token on street spectator card ``card`` (counted from 1)."""

    seat: str
    card: int

    def notation(self) -> str:
        return f"{self.seat} thrill {self.card}"


@dataclass(frozen=True, order=True)
class Like:
    """Place a like token on post ``post`` of the wall (counted from 1, top first)."""

    seat: str
    post: int

    def notation(self) -> str:
        return f"{self.seat} like {self.post}"


@dataclass(frozen=True, order=True)
class Camera:
    """Place a camera token on a free requirement or scene of post ``post``."""

    seat: str
    post: int

    def notation(self) -> str:
        return f"{self.seat} camera {self.post}"


DiablesAction = (ScoreLluiment | ScoreShow | ScoreStreet | ScoreSocialMedia | TurnOrder | EndPerformance | Drums
                 | Thrill | Like | Camera)

_PATTERNS: list[tuple[re.Pattern[str], type]] = [
    (re.compile(r"score lluiment ([a-z0-9-]+)"), ScoreLluiment),
    (re.compile(rf"({_SEAT}) score ({'|'.join(SHOWS)})((?: {_REF})*)"), ScoreShow),
    (re.compile(r"score street"), ScoreStreet),
    (re.compile(r"score social-media"), ScoreSocialMedia),
    (re.compile(r"turn-order"), TurnOrder),
    (re.compile(r"end performance"), EndPerformance),
    (re.compile(rf"({_SEAT}) drums"), Drums),
    (re.compile(rf"({_SEAT}) thrill ([1-9][0-9]*)"), Thrill),
    (re.compile(rf"({_SEAT}) like ([1-9][0-9]*)"), Like),
    (re.compile(rf"({_SEAT}) camera ([1-9][0-9]*)"), Camera),
]


def parse_action(text: str) -> DiablesAction:
    """The action written ``text``; raises ValueError for anything else."""
    for pattern, kind in _PATTERNS:
        match = pattern.fullmatch(text)
        if not match:
            continue
        if kind is ScoreShow:
            return ScoreShow(match[1], match[2], tuple(match[3].split()))
        if kind in (Thrill, Like, Camera):
            return kind(match[1], int(match[2]))
        return kind(*match.groups())
    raise ValueError(f"not a Diables action: {text!r}")
