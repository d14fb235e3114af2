"""What a Diables scenario may expect: the keys ``expect.check`` reads, typed (docs/scenarios.md)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Annotated, Any, Literal

from pydantic import ConfigDict, Field, field_validator

from ...validate.expectations import Expectation, PlayerId, Ref, players
from ...loading.jsonfile import pointer_escape
from ...models.base import Model
from .actions import SHOWS

Show = Literal["carretillada", "ball-parlat", "trobada-de-besties", "tabalada"]
LluimentId = Annotated[str, Ref("lluiment")]
"""A lluïment tile, without ``lluiment-tile-``."""

RULES = frozenset({
    "camera-reserve", "camera-slot-free", "figure-in-show", "figure-once", "final-social-media-round-3",
    "firebot-chosen-show", "firebot-ignores-tiles", "firebot-no-leaders", "firebot-one-camera-per-video",
    "follower-limit", "leader-space-once", "like-slot-free", "lluiment-of-the-round", "own-figures",
    "phase-performance", "phase-time", "post-on-wall", "seat", "show-scored-once", "shows-per-round",
    "step-once-per-round", "street-card", "thrill-pending", "timeline-order", "wall-update-condition",
})
"""The rules Diables' engine names when it refuses an action (a test finds each one in the engine's code)."""

OBSERVED = frozenset({
    "done", "drummed", "drums", "firebot_show", "fp", "icons", "lluiments", "order", "phase", "plaza", "round",
    "scored", "seats", "shows_now", "social_icons", "sound", "street", "thrills", "tiles", "wall", "winner",
})
"""What ``observe`` shows a player, by top-level key (a test compares with the observations of every shipped
scenario's start)."""

OBSERVED_SEATS = frozenset({"order", "winner", "owner", "cameras"})
"""The keys under which ``observe`` names seats (``p1``…, ``firebot``, as scenarios write them)."""


class LluimentCounts(Model):
    """What a lluïment tile counts for each listed seat."""

    model_config = ConfigDict(extra="allow")
    __pydantic_extra__: dict[PlayerId, int] = Field(init=False)  # each other key: a seat → its count

    tile: LluimentId | None = None
    """The tile, without ``lluiment-tile-`` (default: the current round's)."""


class DiablesExpectation(Expectation):
    """Diables' expectations."""

    fp: dict[PlayerId, int] | None = None
    """Fame points per listed seat."""
    sound: dict[PlayerId, int] | None = None
    """Sound track position per listed seat."""
    thrills: dict[PlayerId, int] | None = None
    """Thrilled crowd actions still to resolve, per listed seat."""
    figure_fp: dict[Annotated[str, Field(pattern=r"^\S+ \S+ \S+$")], int] | None = None
    """``"seat show space"`` → the FP that figure would earn under its show's tile now."""
    lluiment_counts: LluimentCounts | None = None
    """What a lluïment tile counts per seat: ``{"tile": "diables", "p1": 4}`` (without ``tile``: the round's tile)."""
    order: list[PlayerId] | None = None
    """The turn order, first seat first."""
    winner: PlayerId | None = None
    """Who won (``null``: nobody yet)."""
    phase: Literal["performance", "time", "round-over", "over"] | None = None
    """Phase 1 or 2 of the round, ``round-over`` (phase 2 done in rounds 1–2) or ``over``."""
    round: Annotated[int, Field(ge=1, le=3)] | None = None
    """The round, 1 to 3."""
    firebot_show: Show | None = None
    """The show of the Firebot's chosen token (``null``: none chosen)."""
    scored: dict[PlayerId, list[Show]] | None = None
    """The shows each listed seat has scored."""
    street: dict[PlayerId, int] | None = None
    """Street spectator cards left per listed seat."""
    wall: Annotated[int, Field(ge=0)] | None = None
    """Posts on the wall."""

    rules = RULES
    observed = OBSERVED
    observed_types = {"round": int, "fp": list[int], "sound": list[int], "thrills": list[int],
                      "social_icons": list[int], "order": list[str], "shows_now": list[int], "drummed": list[bool]}
    nullable = frozenset({"winner", "firebot_show"})

    @field_validator("figure_fp")
    @classmethod
    def _figure_shows(cls, value: dict[str, int] | None) -> dict[str, int] | None:
        for key in value or {}:
            if key.split()[1] not in SHOWS:
                raise ValueError(f"{key!r}: {key.split()[1]!r} is not a show ({', '.join(SHOWS)})")
        return value

    @classmethod
    def known(cls, db: Any, setup: dict[str, Any]) -> dict[str, frozenset[str]]:
        """The setup's seats (``firebot`` with the solo Firebot) and the game's lluïment tiles."""
        prefix = "lluiment-tile-"
        tiles = {c.id.removeprefix(prefix) for _, doc in db.docs("components") for c in doc.components
                 if c.id.startswith(prefix)}
        return {"player": players(setup.get("players", 2), *(("firebot",) if setup.get("firebot") else ())),
                "lluiment": frozenset(tiles)}

    @classmethod
    def more_refs(cls, data: dict[str, Any], at: str) -> Iterator[tuple[str, str, str]]:
        """The seat that begins each ``figure_fp`` key, and the seats a ``sees`` value names where the observation
        names one (:data:`OBSERVED_SEATS`, or an item of one of them: ``order.0``, ``plaza.0.1.owner``)."""
        for key in data.get("figure_fp") or {}:
            yield f"{at}/figure_fp/{pointer_escape(key)}", "player", key.split()[0]
        sees = data.get("sees")
        for path, value in sees.items() if isinstance(sees, dict) else ():
            named = [part for part in path.split(".") if not part.isdigit()][-1:]
            if named and named[0] in OBSERVED_SEATS:
                yield from ((f"{at}/sees/{pointer_escape(path)}", "player", seat)
                            for seat in (value if isinstance(value, list) else [value]) if isinstance(seat, str))
