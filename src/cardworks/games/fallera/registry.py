"""One registry binds each member of Fallera's effect vocabulary to the code that handles it.

Each trigger, condition and verb model of ``effects`` is bound, by a decorator
placed on the handling code, to that callable: a trigger to the method that
reads it where the flow reaches its moment, a condition to its test, an acting
verb to the function the queue plays, a standing verb to the rule that reads it
(a count, a stat, a view). The way Jinja's filter registry or Forge's
``ApiType`` bind a name to code, not to prose: a model with no binding, or a
binding for something that is not a member of the vocabulary, stops the import
(``seal``, called once every part of the rules is defined), and a test
enumerates the unions.

A binding also says where its member is read (``reads``: the places a card or
terreta must be in for the engine to look at it), so ``validate`` can refuse an
effect placed where it can never fire (``effect-never-fires``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar, get_args

from ...errors import DeveloperError
from .effects import PARTS

PLACES: dict[str, str] = {
    "counter": "a treasure on its holder's counter",
    "ingredient": "an ingredient on its holder's counter (counted towards a paella)",
    "battle": "a battle card used in a battle (attack or defence)",
    "sold": "a sellable treasure being sold",
    "terreta": "a terreta's bonus, while the Calavera Queen stands there (expert mode)",
    "hand": "a special card in its holder's hand, played from it",
    "attached": "a special attached to a treasure (``attach``), acting on that treasure",
}
"""Where an effect can sit and be read by the engine, with what each means (for the docs)."""

KINDS = ("trigger", "condition", "acts", "stands", "describes")
"""What a binding is: a trigger, a condition, a verb the queue plays (``acts``), a verb a rule reads while
its effect stands (``stands``), or a verb that only says where the card's text is played (``describes``)."""

F = TypeVar("F", bound=Callable[..., Any])


class RegistryError(DeveloperError, RuntimeError):
    """The vocabulary and its bindings disagree (a member with no handler, a handler with no member)."""

    code = "verb-binding"


@dataclass(frozen=True)
class Binding:
    """A member of the vocabulary and the code that handles it."""

    model: type
    tag: str
    handler: Callable[..., Any]
    kind: str
    reads: frozenset[str]
    """The places (``PLACES``) where the engine reads it."""
    plays: frozenset[str] = frozenset()
    """For a trigger: the kinds of verb it plays (``acts``, ``stands``) and, in ``only``, which verbs alone."""
    only: frozenset[str] = frozenset()
    """For a trigger that plays only some acting verbs (``deck-runs-out`` plays ``win``): those tags."""
    modes: str = ""
    """For a trigger: the game modes in which its moment comes (empty: every mode)."""
    own: frozenset[str] = frozenset()
    """For a trigger: the places among ``reads`` where it is read only for the card's own design (the card
    being used reads its own ``card-used`` effect, and only when its ``cards`` name it)."""


def members(union: Any) -> tuple[type, ...]:
    """The models of a discriminated union."""
    return tuple(get_args(get_args(union)[0]))


def tag_of(model: type) -> str:
    """The tag value of a member model (its ``event``, ``is`` or ``verb``)."""
    field = next(f for f in model.model_fields.values() if get_args(f.annotation))  # type: ignore[attr-defined]
    return get_args(field.annotation)[0]


class Registry:
    """The bindings of one game's vocabulary, by part (``when``, ``while``, ``do``) and model."""

    def __init__(self, parts: dict[str, Any]) -> None:
        self.parts = parts
        self._part_of = {model: part for part, union in parts.items() for model in members(union)}
        self.bindings: dict[type, Binding] = {}
        self.sealed = False

    def bind(self, model: type, kind: str, *, reads: tuple[str, ...] = (), plays: tuple[str, ...] = (),
             only: tuple[str, ...] = (), modes: str = "", own: tuple[str, ...] = ()) -> Callable[[F], F]:
        """A decorator binding ``model`` to the decorated callable; refused at once for a model that is not a
        member of the vocabulary, a member bound twice, an unknown place or kind."""
        if model not in self._part_of:
            raise RegistryError(f"{getattr(model, '__name__', model)!r} is not a member of the effect vocabulary")
        if model in self.bindings:
            raise RegistryError(f"{tag_of(model)!r} is bound twice")
        if kind not in KINDS:
            raise RegistryError(f"unknown kind {kind!r} for {tag_of(model)!r}")
        unknown = set(reads) - set(PLACES) | (set(own) - set(reads))
        if unknown:
            raise RegistryError(f"{tag_of(model)!r} reads unknown places {sorted(unknown)}")

        def decorate(handler: F) -> F:
            if not callable(handler):
                raise RegistryError(f"{tag_of(model)!r} is bound to {handler!r}, which cannot be called")
            self.bindings[model] = Binding(model, tag_of(model), handler, kind, frozenset(reads), frozenset(plays),
                                           frozenset(only), modes, frozenset(own))
            return handler

        return decorate

    def problems(self) -> list[str]:
        """Each member with no binding and each binding with no member, as ``part tag: what``."""
        found = [f"{part} {tag_of(model)}: no handler is bound to it"
                 for model, part in self._part_of.items() if model not in self.bindings]
        found += [f"{binding.tag}: bound, but not a member of the vocabulary"
                  for model, binding in self.bindings.items() if model not in self._part_of]
        return found

    def seal(self) -> None:
        """Stop (``RegistryError``) unless every member has a handler and every handler a member."""
        problems = self.problems()
        if problems:
            raise RegistryError("the effect vocabulary and its handlers disagree: " + "; ".join(problems))
        self.sealed = True

    def by_tag(self, part: str) -> dict[str, Binding]:
        """The bindings of one part, by tag."""
        return {b.tag: b for b in self.bindings.values() if self._part_of.get(b.model) == part}

    def handled(self) -> dict[str, frozenset[str]]:
        """Every tag that has a handler, by part."""
        return {part: frozenset(self.by_tag(part)) for part in self.parts}

    def handler(self, model: type) -> Callable[..., Any]:
        """The callable bound to ``model`` (``KeyError`` for one with none)."""
        return self.bindings[model].handler


REGISTRY = Registry(PARTS)
"""Fallera's bindings: the handlers' modules decorate their code with ``REGISTRY.bind``; ``rules`` seals it."""
