"""The game-agnostic engine core: what every game plugs into.

A game provides an immutable state type and a rules object. The core never
names a game: it drives legal actions, applies them, lets chance outcomes come
from a seeded ``random.Random`` the caller injects (never global randomness),
and checks invariants. ``CHANCE`` is the actor of coin tosses, shuffles and
blind picks; scenarios script those outcomes, playouts draw them from the rng.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Callable, NamedTuple, Protocol, Sequence

from ..errors import CardworksError

CHANCE = -1
"""The actor of chance outcomes."""


def player(index: int) -> str:
    """A player's name in every game's notation and scenarios: ``p1`` for index 0."""
    return f"p{index + 1}"


def player_index(name: str) -> int:
    """The index of the player named ``p1``, ``p2``…"""
    return int(str(name).removeprefix("p")) - 1


class IllegalActionError(CardworksError, ValueError):
    """An action the rules do not allow now; ``rule`` names the rule it breaks."""

    def __init__(self, action: str, rule: str, reason: str) -> None:
        super().__init__(f"{action}: {reason} [{rule}]")
        self.action = action
        self.rule = rule
        self.reason = reason


class SetupRefused(CardworksError, ValueError):
    """A setup the rules forbid (a player count, a set combination, a dealt component): ``rule`` names
    the rule it breaks and ``source`` where the rulebooks state it."""

    def __init__(self, rule: str, source: str, reason: str) -> None:
        super().__init__(f"{reason} [{rule}; {source}]")
        self.rule = rule
        self.source = source
        self.reason = reason

    def __reduce__(self):  # keep the rule and source when raised in a worker process
        return (type(self), (self.rule, self.source, self.reason))


@dataclass(frozen=True)
class Outcome:
    """How a game ended: why (a termination id the game defines, e.g. ``five-ingredients``) and who won
    (several players share a win; nobody, when the game ended without a winner)."""

    termination: str
    winners: tuple[int, ...] = ()


class Action(Protocol):
    """A frozen action with a short text notation that parses back to an equal action."""

    def notation(self) -> str: ...


class Playout(NamedTuple):
    """A game played in place, which a game may offer for playouts without checks (``rules.playout(state)``):
    no state is copied per step. Checked playouts keep to the contract (``apply`` returns a new state)."""

    choices: Callable[[], Sequence[Any]]
    """The legal actions now, sorted by notation (valid until the next ``play``)."""
    play: Callable[[Any, random.Random], None]
    """Play an action ``choices`` listed, in place, its chance drawn from the rng (listed actions are
    legal: a game need not check them again)."""
    state: Callable[[], Any]
    """The position reached, as an immutable state."""


class Rules(Protocol):
    """What a game plugs into the core (``engine.base_rules.BaseRules`` gives ``parse``, ``dump``/``load``,
    ``result`` and a ``hidden_leak`` for rules that hide nothing)."""

    def actor(self, state: Any) -> int | None:
        """Whose decision it is: a player index, ``CHANCE``, or None when the game is over."""

    def legal_actions(self, state: Any) -> list[Any]:
        """Every legal action, sorted by notation (pure: the state is not changed)."""

    def apply(self, state: Any, action: Any, *, rng: random.Random | None = None) -> Any:
        """The state after ``action``; raises IllegalActionError when it is not allowed."""

    def parse(self, text: str) -> Any:
        """The action written ``text`` (the inverse of ``notation``)."""

    def observe(self, state: Any, player: int) -> dict[str, Any]:
        """What ``player`` may see; hidden cards appear only as counts."""

    def dump(self, state: Any) -> dict[str, Any]:
        """A JSON-ready form of the state (``BaseRules`` gives it, with ``load``, through the one codec)."""

    def load(self, data: dict[str, Any]) -> Any:
        """The state ``dump`` wrote."""

    def invariants(self, state: Any) -> list[str]:
        """Broken invariants (empty when the state is sound)."""

    def hidden_leak(self, state: Any) -> str | None:
        """What some player's observation shows that should be hidden from them, or None."""

    def expectation(self, state: Any, expect: dict[str, Any]) -> str | None:
        """None when a scenario's game-specific expectation holds, else what differs."""

    def outcome(self, state: Any) -> Outcome | None:
        """How the game ended, or None while it goes on."""

    def result(self, state: Any) -> tuple[tuple[int, ...] | None, str | None]:
        """``outcome`` as a pair: the winners and why the game ended; (None, None) while it goes on."""
