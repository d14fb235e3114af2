"""One save/load codec for every game's engine state, read from the state's own type hints.

A game's state is a frozen dataclass of plain values, tuples and nested dataclasses; pydantic's
``TypeAdapter`` turns it into JSON-ready data and back from those hints, so a field a game adds
(of any type pydantic knows) round-trips without a line of codec code. Games used to write
``dump``/``load`` by hand, three times over.
"""

from __future__ import annotations

from functools import cached_property
from dataclasses import fields
from typing import Annotated, Any, ClassVar, Generic, TypeVar

from pydantic import BeforeValidator, TypeAdapter, ValidationError

from ..errors import CardworksError

S = TypeVar("S")

__all__ = ["Nested", "deep_tuple", "SavedState", "StateCodec", "StateLoadError"]


def deep_tuple(value: Any) -> Any:
    """``value`` with every list in it, at any depth, a tuple (as the state held it before JSON)."""
    return tuple(map(deep_tuple, value)) if type(value) is list else value


Nested = Annotated[Any, BeforeValidator(deep_tuple)]
"""A value of no fixed type that may hold tuples at any depth (a queued step, a pending decision): JSON
gives them back as lists, and a state must load back equal to the one dumped."""


class StateLoadError(CardworksError, ValueError):
    """Saved data that is not a position of the game: names each wrong field by its JSON pointer."""


class StateCodec(Generic[S]):
    """``dump`` a state of ``state_type`` to JSON-ready data (tuples become lists, dataclasses dicts, fields
    in declaration order) and ``load`` it back; ``load`` refuses unknown fields and values of the wrong type."""

    def __init__(self, state_type: type[S]) -> None:
        self.state_type = state_type
        self._fields = frozenset(f.name for f in fields(state_type))  # type: ignore[arg-type]

    @cached_property
    def _adapter(self) -> TypeAdapter[S]:
        """Built on first use: importing a game does not pay for pydantic's schema."""
        return TypeAdapter(self.state_type)

    def dump(self, state: S) -> dict[str, Any]:
        """The JSON-ready form of ``state``."""
        return self._adapter.dump_python(state, mode="json")

    def load(self, data: dict[str, Any]) -> S:
        """The state ``dump`` wrote (fields left out take their defaults); raises StateLoadError otherwise."""
        unknown = sorted(set(data) - self._fields) if isinstance(data, dict) else []
        if unknown:  # pydantic ignores them; a misspelt field would silently take its default
            raise StateLoadError(f"not a {self.state_type.__name__}: " + "; ".join(f"/{k}: unknown field" for k in unknown))
        try:
            return self._adapter.validate_python(data)
        except ValidationError as exc:
            raise StateLoadError(_describe(self.state_type, exc)) from None


def _describe(state_type: type, exc: ValidationError) -> str:
    """Every problem of ``exc`` as ``/pointer: message``, one a line."""
    lines = []
    for error in exc.errors(include_url=False):
        pointer = "".join(f"/{part}" for part in error["loc"])
        lines.append(f"{pointer or '/'}: {error['msg']}")
    return f"not a {state_type.__name__}: " + "; ".join(lines)


class SavedState:
    """The ``dump`` and ``load`` of a game's rules (the engine's ``Rules`` protocol), through the class's ``codec``."""

    codec: ClassVar[StateCodec[Any]]

    def dump(self, state: Any) -> dict[str, Any]:
        """A JSON-ready form of the state (see ``StateCodec.dump``)."""
        return self.codec.dump(state)

    def load(self, data: dict[str, Any]) -> Any:
        """The state ``dump`` wrote; raises StateLoadError for data that is not one."""
        return self.codec.load(data)
