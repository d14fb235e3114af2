"""The interpreter of Fallera's effect vocabulary: the conditions' tests, and which names have handlers.

Fail closed: every member of the vocabulary is bound to its handler in
``registry.REGISTRY`` (the conditions here, the triggers and verbs where the
rules play or read them). A card whose effects use a name with no handler is
left out of play with that reason (``unhandled``), never played as a blank
card.

Verbs that act (``draw``, ``coin``, ``extra-action``, ``win``) run as steps of
the state's queue (``pending``): ``("verbs", who, source, path, position)``
plays the verb list at ``path`` of the effect of ``source`` (a card instance,
or ``terreta:<id>``) from ``position``. A coin stops the flow for a chance
outcome; the branch it lands on resumes there. Standing verbs (counts, stats,
views) are read by the rules where they apply, each bound to the rule that
reads it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

from .effects import (AsItsType, Effect, OnYourCounter, PartOf, PlayerCount, QueenIn, RestatesTerretaBonus, WithCard,
                      WithoutCard)
from .registry import PLACES, REGISTRY, Registry, members, tag_of

GRANTED = "granted"
"""What a step returns when it grants another action: the queued end of the turn is dropped, or, when none
is queued (the grant came as the turn started), the turn allows one action more (``TurnFlow._resume``)."""


def vocabulary() -> dict[str, frozenset[str]]:
    """Every name of the vocabulary, by part (``when``, ``while``, ``do``), read from the models."""
    return {part: frozenset(map(tag_of, members(union))) for part, union in REGISTRY.parts.items()}


def handled(registry: Registry | None = None) -> dict[str, frozenset[str]]:
    """Every name the engine handles, by part (those bound in the registry)."""
    return (registry or REGISTRY).handled()


ALL_PLACES = tuple(PLACES)


@REGISTRY.bind(AsItsType, "describes", reads=ALL_PLACES)
@REGISTRY.bind(RestatesTerretaBonus, "describes", reads=ALL_PLACES)
@REGISTRY.bind(PartOf, "describes", reads=ALL_PLACES)
def plays_nothing(*_: Any) -> None:
    """The verbs that only say where a card's text is played (by its type, a terreta's bonus, another card's
    effects): the engine plays nothing for them, and ``validate`` checks what they name."""
    return None


# --- while: each condition's test, (condition, state, holder, instance) -> bool ----------------------------
@REGISTRY.bind(OnYourCounter, "condition", reads=("counter",))
def on_your_counter(condition: Any, state: Any, who: int, instance: int | None) -> bool:
    """The card is on its holder's counter (a terreta's effect or a card in use is on none)."""
    return instance is not None and instance in state.counters[who]


@REGISTRY.bind(WithCard, "condition", reads=ALL_PLACES)
def with_card(condition: Any, state: Any, who: int, instance: int | None) -> bool:
    """A card of the design is on the holder's counter."""
    designs, card = state.designs, condition.card
    return any(designs[i] == card for i in state.counters[who])


@REGISTRY.bind(WithoutCard, "condition", reads=ALL_PLACES)
def without_card(condition: Any, state: Any, who: int, instance: int | None) -> bool:
    """No card of the design is on the holder's counter."""
    return not with_card(condition, state, who, instance)


@REGISTRY.bind(PlayerCount, "condition", reads=ALL_PLACES)
def player_count(condition: Any, state: Any, who: int, instance: int | None) -> bool:
    """The game has one of the player counts."""
    return len(state.hands) in condition.counts


@REGISTRY.bind(QueenIn, "condition", reads=ALL_PLACES)
def queen_in(condition: Any, state: Any, who: int, instance: int | None) -> bool:
    """The Calavera Queen stands in the terreta."""
    return state.queen == condition.terreta


def _verbs_in(verbs: Sequence[Any]) -> Iterator[Any]:
    for verb in verbs:
        yield verb
        if verb.verb == "coin":
            yield from _verbs_in(verb.heads)
            yield from _verbs_in(verb.tails)


def names_used(effect: Effect) -> Iterator[tuple[str, str]]:
    """(part, name) of every member ``effect`` uses, coin branches included."""
    yield "when", effect.when.event
    for condition in effect.while_:
        yield "while", condition.is_
    for verb in _verbs_in(effect.do):
        yield "do", verb.verb


def unhandled(effects: Sequence[Effect], registry: Registry | None = None) -> list[str]:
    """The names ``effects`` use that have no handler, as ``part name`` (sorted, each once)."""
    table = handled(registry)
    return sorted({f"{part} {name}" for effect in effects for part, name in names_used(effect)
                   if name not in table.get(part, ())})


def _compiled(conditions: Sequence[Any]) -> tuple[tuple[Callable[..., bool], Any], ...]:
    """``conditions`` as (test, condition) pairs, looked up once per list (the rules ask at every step)."""
    kept = _COMPILED.get(id(conditions))
    if kept is not None and kept[0] is conditions:
        return kept[1]
    bindings = REGISTRY.bindings
    pairs = []
    for condition in conditions:
        binding = bindings.get(type(condition))
        if binding is None:  # a name ``unhandled`` should have kept out of play
            raise ValueError(f"no handler for the condition {condition.is_!r}")
        pairs.append((binding.handler, condition))
    _COMPILED[id(conditions)] = (conditions, tuple(pairs))
    return tuple(pairs)


_COMPILED: dict[int, tuple[Sequence[Any], tuple[tuple[Callable[..., bool], Any], ...]]] = {}


def holds(conditions: Sequence[Any], state: Any, who: int, instance: int | None) -> bool:
    """Whether every condition holds for the card ``instance`` (None for a terreta's effect or a card in use)
    held by ``who``."""
    if not conditions:
        return True
    for test, condition in _compiled(conditions):
        if not test(condition, state, who, instance):
            return False
    return True


def verbs_at(effect: Effect, path: str) -> Sequence[Any]:
    """The verb list at ``path`` of ``effect``: ``""`` for its ``do``, ``"2.heads"`` for the heads branch
    of its verb 2, and so on down."""
    verbs: Sequence[Any] = effect.do
    parts = path.split(".") if path else []
    for index, side in zip(parts[::2], parts[1::2]):
        verbs = getattr(verbs[int(index)], side)
    return verbs


def ordered(effects: list[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
    """Effects of one trigger, tuples ending in (…, effect, design), in counter order, each moved after
    the effects of the designs its ``after`` names."""
    result: list[tuple[Any, ...]] = []
    waiting = list(effects)
    while waiting:
        for item in waiting:
            blockers = set(item[-2].after)
            if not any(other[-1] in blockers for other in waiting if other is not item):
                result.append(item)
                waiting.remove(item)
                break
        else:  # a cycle of ``after``: keep the counter order
            result += waiting
            break
    return result
