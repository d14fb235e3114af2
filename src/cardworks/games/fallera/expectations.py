"""What a Fallera scenario may expect: the keys ``FalleraRules.expectation`` reads, typed (docs/scenarios.md)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Literal

from pydantic import model_validator

from ...loading.jsonfile import pointer_escape
from ...validate.expectations import CardId, Expectation, PlayerId, TerretaId, players

Phase = Literal["turn", "defend", "again", "toss", "effect-coin", "burn", "lay", "first", "over", "respond", "target",
                "discard", "choose", "several"]
Reason = Literal["five-ingredients", "five-ingredients-seafood", "four-ingredients-territorial",
                 "deck-exhausted-holder", "deck-exhausted", "effect-win"]

RULES = frozenset({
    "battle-again-same-player", "battle-card", "battle-card-in-hand", "battle-for-treasure", "battle-rival",
    "burn-hand-card", "chance-pending", "defend-from-hand", "defend-with-battle-card", "first-player", "game-over",
    "lay-drawn-card", "lay-on-empty-terreta", "no-such-card", "not-chance", "not-your-turn", "one-action-per-turn",
    "queen-access", "queen-needs-map", "sell-own-treasure", "sell-sellable", "tails-steal", "take-from-hand",
    "play-from-hand", "play-special", "respond-from-hand", "respond-may-answer", "target-rival", "target-on-counter",
    "discard-from-hand", "target-protected", "battle-protected", "choose-kind", "choose-option",
    "several-step", "several-option",
})
"""The rules Fallera's engine names when it refuses an action (a test finds each one in the engine's code)."""

OBSERVED = frozenset({
    "actions", "again", "asked", "battle", "cemetery", "counters", "current", "deck_size", "foods", "hand", "hand_sizes",
    "laying", "looked", "map", "marks", "pending", "phase", "queen", "reason", "turn", "winner", "you",
})
"""What ``observe`` shows a player, by top-level key (a test compares with the observations of every shipped
scenario's start)."""


OBSERVED_PLAYERS = frozenset({"you", "current", "winner", "battle.attacker", "battle.target"})
"""The paths where ``observe`` names a player (``p1``…, as scenarios write them); ``battle.called`` holds
[player, card] pairs."""


class FalleraExpectation(Expectation):
    """La Fallera Calavera's expectations."""

    winner: PlayerId | None = None
    """Who won (``null``: the game ended without a winner): ``{"winner": "p1", "reason": "five-ingredients"}``."""
    reason: Reason | None = None
    """With ``winner``: why the game ended."""
    counters: dict[PlayerId, list[CardId]] | None = None
    """The cards on each listed player's counter, as a multiset of designs (``{"p1": ["conill"]}``)."""
    hands: dict[PlayerId, list[CardId]] | None = None
    """The cards in each listed player's hand, as a multiset of designs."""
    cemetery: list[CardId] | None = None
    """The discard pile, as a multiset of designs."""
    phase: Phase | None = None
    """What kind of decision is next (``again``: one more battle a card allows, or ``pN pass``)."""
    current: PlayerId | None = None
    """Whose decision is next."""
    valid_ingredients: dict[PlayerId, int] | None = None
    """The ingredients that count towards victory, per listed player."""
    absent: list[CardId] | None = None
    """No card of these designs is anywhere in the game (removed by the player count)."""
    queen: TerretaId | Literal["start"] | None = None
    """Where the Calavera Queen stands (``start`` before her first move; ``null``: there is no map)."""
    map: dict[TerretaId, CardId | None] | None = None
    """The card on each listed terreta (``null``: it is empty)."""

    rules = RULES
    observed = OBSERVED
    observed_types = {"deck_size": int, "hand_sizes": list[int], "turn": int, "you": str, "current": str, "actions": int}
    nullable = frozenset({"winner", "queen"})
    card_instances = True

    @model_validator(mode="after")
    def _reason_needs_winner(self) -> "FalleraExpectation":
        if self.reason is not None and "winner" not in self.model_fields_set:
            raise ValueError("'reason' is checked with 'winner'; give 'winner' too")
        return self

    @classmethod
    def known(cls, db: Any, setup: dict[str, Any]) -> dict[str, frozenset[str]]:
        """The setup's players, the game's (and its packs') card designs with the setup's example cards, and the
        spaces of every board side."""
        cards = {card.id for _, doc in db.docs("set") for card in doc.cards}
        cards |= {extra["id"] for extra in setup.get("example_cards", ()) if isinstance(extra, dict) and "id" in extra}
        spaces = {space.id for _, board in db.docs("board") for side in board.sides for space in side.spaces}
        known = {"card": frozenset(cards), "terreta": frozenset(spaces)}
        if "players" in setup:
            known["player"] = players(setup["players"])
        return known

    @classmethod
    def more_refs(cls, data: dict[str, Any], at: str) -> Iterator[tuple[str, str, str]]:
        """The players a ``sees`` value names where the observation names one (:data:`OBSERVED_PLAYERS`)."""
        sees = data.get("sees")
        for path, value in sees.items() if isinstance(sees, dict) else ():
            if path in OBSERVED_PLAYERS:
                named = [value]
            elif path == "battle.called" and isinstance(value, list):
                named = [entry[0] for entry in value if isinstance(entry, list) and entry]
            else:
                continue
            yield from ((f"{at}/sees/{pointer_escape(path)}", "player", who) for who in named if isinstance(who, str))

    @classmethod
    def setup_refs(cls, setup: dict[str, Any], at: str) -> Iterator[tuple[str, str, str]]:
        """The cards of ``hands``, ``counters``, ``deck``, ``cemetery``, ``map`` and a scripted ``deal``'s
        ``shuffles``, the terretas of ``map``, ``foods``, ``queen`` and the deal's ``foods``, and the ``current``
        player (``scenario_state`` reads them)."""
        for zone in ("hands", "counters"):
            for p, ids in _listed(setup.get(zone)):
                yield from ((f"{at}/{zone}/{p}/{k}", "card", design) for k, design in _texts(ids))
        for zone in ("deck", "cemetery"):
            yield from ((f"{at}/{zone}/{k}", "card", design) for k, design in _texts(setup.get(zone)))
        layout = setup.get("map")
        for space, design in layout.items() if isinstance(layout, dict) else ():
            yield f"{at}/map/{pointer_escape(space)}", "terreta", space
            if isinstance(design, str):
                yield f"{at}/map/{pointer_escape(space)}", "card", design
        yield from ((f"{at}/foods/{k}", "terreta", food) for k, food in _texts(setup.get("foods")))
        if isinstance(setup.get("queen"), str) and setup["queen"] != "start":
            yield f"{at}/queen", "terreta", setup["queen"]
        if isinstance(setup.get("current"), str):
            yield f"{at}/current", "player", setup["current"]
        deal = setup.get("deal")
        if isinstance(deal, dict):
            for s, shuffle in _listed(deal.get("shuffles")):
                yield from ((f"{at}/deal/shuffles/{s}/{k}", "card", design) for k, design in _texts(shuffle))
            yield from ((f"{at}/deal/foods/{k}", "terreta", food) for k, food in _texts(deal.get("foods")))


def _listed(value: Any) -> list[tuple[int, Any]]:
    """(position, item) of a setup list; nothing for a value that is no list (the run refuses it)."""
    return list(enumerate(value)) if isinstance(value, list) else []


def _texts(value: Any) -> list[tuple[int, str]]:
    """(position, id) of a setup list of ids; an item that is no text is left to the run, which refuses it."""
    return [(k, item) for k, item in _listed(value) if isinstance(item, str)]
