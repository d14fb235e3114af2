"""What a Calavera scenario may expect: the keys ``CalaveraRules.expectation`` reads, typed (docs/scenarios.md)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Annotated, Any, Literal

from pydantic import Field, model_validator

from ...loading.jsonfile import pointer_escape
from ...validate.expectations import Expectation, PlayerId, Ref, players

FaceId = Annotated[str, Ref("face")]
"""A face of the special dice."""
ColourId = Annotated[str, Ref("colour")]
"""A row of the score sheet."""

RULES = frozenset({
    "active-must-mark", "chance-pending", "dice-in-order", "game-over", "jokers-once", "jokers-used-by-active",
    "mark-a-colour-row", "mark-exact-count", "no-such-die", "no-such-face", "no-such-player", "not-chance",
    "not-your-turn", "passive-colour-once", "passive-not-active-colour", "row-closed", "set-aside-stays",
    "skull-stays-aside", "symbol-among-dice", "three-rolls", "turn-sequence",
})
"""The rules Calavera's engine names when it refuses an action (a test finds each one in the engine's code)."""

OBSERVED = frozenset({
    "aside", "chosen", "credits", "current", "dice", "first", "jokers_used", "passive", "passive_jokers",
    "pending", "phase", "reason", "rolls", "round", "scores", "sheets", "taken", "winners", "you",
})
"""What ``observe`` shows a player, by top-level key (a test compares with the observations of every shipped
scenario's start)."""

OBSERVED_PLAYERS = frozenset({"you", "first", "current", "passive"})
"""The paths where ``observe`` names a player (``p1``…, as scenarios write them); ``winners`` is a list of them."""


class CalaveraExpectation(Expectation):
    """Calavera's expectations."""

    phase: Literal["first", "roll", "dice", "choose", "passive", "over"] | None = None
    """The phase of the turn."""
    passive: PlayerId | None = None
    """The passive player deciding (``null``: none)."""
    current: PlayerId | None = None
    """The active player."""
    round: Annotated[int, Field(ge=1)] | None = None
    """The round."""
    rolls: Annotated[int, Field(ge=0)] | None = None
    """Rolls made this turn."""
    dice: list[FaceId | None] | None = None
    """What each die shows, die 1 first (``null`` while it rolls)."""
    aside: list[Annotated[int, Field(ge=1)]] | None = None
    """The dice set aside, by number."""
    sheets: dict[PlayerId, dict[ColourId, Annotated[int, Field(ge=0)]]] | None = None
    """Boxes ticked per listed row of each listed player (only the rows listed): ``{"p1": {"colour-2": 12}}``."""
    scores: dict[PlayerId, int] | None = None
    """Each listed player's total: the number under the last ticked box of each row, summed (an untouched row
    scores 0)."""
    winners: list[PlayerId] | None = None
    """Every winner (a tie shares the win)."""
    reason: Literal["all-rows-closed", "rows-closed"] | None = None
    """With ``winners``: why the game ended."""

    rules = RULES
    observed = OBSERVED
    observed_types = {"you": str, "first": str, "current": str, "winners": list[str], "round": int, "rolls": int,
                      "credits": int, "jokers_used": bool, "passive_jokers": bool}
    nullable = frozenset({"passive"})

    @model_validator(mode="after")
    def _reason_needs_winners(self) -> "CalaveraExpectation":
        if self.reason is not None and self.winners is None:
            raise ValueError("'reason' is checked with 'winners'; give 'winners' too")
        return self

    @classmethod
    def more_refs(cls, data: dict[str, Any], at: str) -> Iterator[tuple[str, str, str]]:
        """The players a ``sees`` value names where the observation names one (:data:`OBSERVED_PLAYERS`,
        ``winners``)."""
        sees = data.get("sees")
        for path, value in sees.items() if isinstance(sees, dict) else ():
            named = [value] if path in OBSERVED_PLAYERS else value if path == "winners" and isinstance(value, list) \
                else []
            yield from ((f"{at}/sees/{pointer_escape(path)}", "player", who) for who in named if isinstance(who, str))

    @classmethod
    def known(cls, db: Any, setup: dict[str, Any]) -> dict[str, frozenset[str]]:
        """The setup's players, the score sheet's rows and the faces of the dice."""
        from .sheet import face_weights, sheet_layout

        known = {"colour": frozenset(row.colour for row in sheet_layout(db)),
                 "face": frozenset(face for face, _ in face_weights(db))}
        if "players" in setup:
            known["player"] = players(setup["players"])
        return known
