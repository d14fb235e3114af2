"""What every game's rules would otherwise write the same way: the base class of a game's rules.

A game's rules class names its state type and its action parser once, in its class line,
``class MyRules(BaseRules, state=State, actions=parse_action)``, and inherits ``parse`` (that parser),
``dump``/``load`` (the one state codec, read from the state's type hints), ``result`` (read from ``outcome``,
so the two cannot disagree) and a ``hidden_leak`` for rules that hide nothing. What is left to write is the
game itself: ``actor``, ``legal_actions``, ``apply``, ``observe``, ``invariants``, ``expectation`` and
``outcome`` (and ``hidden_leak`` when the rules hide something).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from .codec import SavedState, StateCodec
from .core import Outcome

__all__ = ["BaseRules"]


class BaseRules(SavedState):
    """The engine's ``Rules`` protocol (``engine.core``) less what only the game can say.

    A subclass is refused when it is made without its state type or action parser (neither given in its
    class line nor inherited): ``dump`` or ``parse`` would otherwise fail only when first called."""

    parse_action: ClassVar[Callable[[str], Any]]
    """The game's action parser (``actions=`` of the class line), held as a plain function."""

    def __init_subclass__(cls, *, state: type | None = None, actions: Callable[[str], Any] | None = None,
                          **more: Any) -> None:
        super().__init_subclass__(**more)
        if state is not None:
            cls.codec = StateCodec(state)
        if actions is not None:
            cls.parse_action = staticmethod(actions)
        lacking = [word for word, name in (("state", "codec"), ("actions", "parse_action")) if not hasattr(cls, name)]
        if lacking:
            raise TypeError(f"{cls.__module__}.{cls.__qualname__} does not say its {' and '.join(lacking)}: write "
                            f"'class {cls.__name__}(BaseRules, state=State, actions=parse_action)'")

    def parse(self, text: str) -> Any:
        """The action written ``text`` (the game's parser: the inverse of an action's ``notation``)."""
        return self.parse_action(text)

    def outcome(self, state: Any) -> Outcome | None:
        """How the game ended, or None while it goes on: every game says it."""
        raise NotImplementedError(f"{type(self).__qualname__} does not say how a game ends (outcome)")

    def result(self, state: Any) -> tuple[tuple[int, ...] | None, str | None]:
        """``outcome`` as a pair: the winners (empty when nobody won) and why the game ended; (None, None)
        while it goes on."""
        outcome = self.outcome(state)
        return (None, None) if outcome is None else (outcome.winners, outcome.termination)

    def hidden_leak(self, state: Any) -> str | None:
        """None: right for rules that hide nothing (every observation may show the whole position). Rules that
        hide something override it with a check written apart from ``observe``; the contract suite proves
        observations hide what the plugin's ``hidden`` declares either way, without asking this method."""
        return None
