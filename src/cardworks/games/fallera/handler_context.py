"""What an acting verb's handler may ask of the rules: the documented context every handler is written against.

A handler is a function ``(rules, draft, who, source, index, path, position, verb)`` bound with
``REGISTRY.bind(Model, "acts")``. It changes ``draft`` (the state being made: hands, counters, marks, its own
``rng`` for chance) and asks the rules only for what this protocol lists; a test
(``tests/engine/test_handler_context.py``) reads every handler and refuses any other attribute of ``rules``,
so the rules' private methods can change without breaking a verb, and a new verb is written from this page.
"""

from __future__ import annotations

from typing import Any, Protocol

from .state import Draft


class VerbContext(Protocol):
    """The rules as an acting verb sees them."""

    def schedule(self, draft: Draft, *steps: tuple[Any, ...]) -> None:
        """Queue ``steps`` after those already waiting (nothing is queued once the game is over); a handler that
        stops the flow queues the rest of its list with ``("verbs", who, source, index, path, position + 1)``."""

    def ask(self, draft: Draft, who: int, kind: str, source: Any, index: int, path: str, k: int,
            arg: Any = "") -> bool:
        """Stop for ``who``'s choice of ``kind`` (``player``, ``hand``, ``battle``, ``map``, ``terreta``,
        ``treasure``); the verb at position ``k`` is played again once the choice is made. Returns True."""

    def choice_made(self, draft: Draft, who: int, kind: str, source: Any, k: int) -> Any:
        """The ``kind`` chosen for the verb at ``k`` of ``source``'s effect (taken from the marks), or None."""

    def player_for(self, draft: Draft, who: int, source: Any, index: int, path: str, k: int) -> Any:
        """The player an earlier ``choose-player`` of this effect chose, or ``verbs.ASKED`` after asking for one."""

    def check_victory(self, draft: Draft) -> bool:
        """Look for a winner now (a treasure moved, the Queen moved): True when the game is over or a coin decides."""

    def ask_discard(self, draft: Draft, players: tuple[int, ...], count: int) -> bool:
        """Ask each of ``players`` with cards in hand, in turn, to discard ``count`` (or ``"half"``) of them."""

    def cancel_use(self, draft: Draft, event: str, subject: Any) -> None:
        """Undo what the window of ``event`` about ``subject`` guarded, before a cancel drops it."""

    def battle_over(self, draft: Draft) -> None:
        """The battle ended or was cancelled: the values a verb set or swapped for it go."""

    def draw_cards(self, draft: Draft, who: int, count: int) -> bool:
        """``who`` draws ``count`` cards one at a time, a win looked for as each arrives; True when the draw
        stopped for a decision (the rest waits in the queue)."""

    def receive(self, draft: Draft, who: int, instance: int) -> None:
        """``instance`` reaches ``who``: a treasure onto the counter, any other card into the hand."""

    def deal_map(self, draft: Draft) -> str:
        """Refill an emptied Kingdom map: ``lay`` (the player lays the cards) or ``over`` (the deck ran out, with
        expansion 2); RuntimeError ``map-refill-nothing-left`` when the deck and the cemetery are both empty."""


MEMBERS = frozenset(name for name in VerbContext.__dict__ if not name.startswith("_"))
"""The names a handler may use on ``rules``."""
