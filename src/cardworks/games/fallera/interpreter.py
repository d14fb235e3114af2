"""The interpreter of Fallera's effect vocabulary: which names it handles, and how conditions and verbs run.

Fail closed: ``HANDLERS`` lists, per part of the vocabulary, every name the
engine plays and where. A card whose effects use a name missing here is left
out of play with that reason (``unhandled``), never played as a blank card; a
test proves the vocabulary and ``HANDLERS`` agree.

Verbs that act (``draw``, ``coin``, ``extra-action``, ``win``) run as steps of
the state's queue (``pending``): ``("verbs", who, source, path, position)``
plays the verb list at ``path`` of the effect of ``source`` (a card instance,
or ``terreta:<id>``) from ``position``. A coin stops the flow for a chance
outcome; the branch it lands on resumes there. Standing verbs (counts, stats,
views) are read by the rules where they apply.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, get_args

from .effects import PARTS, Effect

GRANTED = "granted"
"""What a step returns when it grants another action: the queued end of the turn is dropped."""

HANDLERS: dict[str, dict[str, str]] = {
    "when": {
        "always": "read where it applies (FalleraRules.ingredients, value, observe)",
        "turn-start": "FalleraRules._turn_start_effects",
        "deck-runs-out": "FalleraRules._deck_exhausted",
        "card-used": "FalleraRules._used",
        "move-ends-turn": "FalleraRules._end_move",
    },
    "while": {
        "on-your-counter": "holds", "with-card": "holds", "without-card": "holds", "player-count": "holds",
        "queen-in": "holds",
    },
    "do": {
        "as-its-type": "nothing beyond the card's type", "restates-terreta-bonus": "the board's effects",
        "part-of": "the named card's effects", "count-as-ingredients": "FalleraRules.ingredients",
        "valid-ingredient": "FalleraRules.ingredients", "modify-stat": "FalleraRules.value",
        "face-up-attacks": "Facts.face_up", "draw": "FalleraRules._verbs", "coin": "FalleraRules._verbs",
        "extra-action": "FalleraRules._verbs", "win": "FalleraRules._verbs",
        "actions-per-turn": "FalleraRules._end_action and _end_move (turns: more actions, the Realm's after the last)",
        "return-to-hand": "FalleraRules._play_defence (battles: where the used cards go)",
        "battle-again": "FalleraRules._play_defence and _offer_again (battles: phase again)",
    },
}
"""Every name the engine handles, by part, with where (for a reader)."""


def _tags(union: Any) -> list[str]:
    """The tag values of a discriminated union of models."""
    members = get_args(get_args(union)[0])
    tags = []
    for model in members:
        field = next(f for f in model.model_fields.values() if get_args(f.annotation))
        tags += list(get_args(field.annotation))
    return tags


def vocabulary() -> dict[str, frozenset[str]]:
    """Every name of the vocabulary, by part (``when``, ``while``, ``do``), read from the models."""
    return {part: frozenset(_tags(union)) for part, union in PARTS.items()}


def handled() -> dict[str, frozenset[str]]:
    """Every name the engine handles, by part."""
    return {part: frozenset(names) for part, names in HANDLERS.items()}


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


def unhandled(effects: Sequence[Effect], handlers: dict[str, dict[str, str]] | None = None) -> list[str]:
    """The names ``effects`` use that have no handler, as ``part name`` (sorted, each once)."""
    table = HANDLERS if handlers is None else handlers
    return sorted({f"{part} {name}" for effect in effects for part, name in names_used(effect)
                   if name not in table.get(part, {})})


def _compiled(conditions: Sequence[Any]) -> tuple[tuple[str, Any], ...]:
    """``conditions`` as (name, argument) pairs, worked out once per list (the rules ask at every step, and
    reading a pydantic model's fields costs more than reading a tuple)."""
    kept = _COMPILED.get(id(conditions))
    if kept is not None and kept[0] is conditions:
        return kept[1]
    pairs = []
    for condition in conditions:
        name = condition.is_
        if name not in HANDLERS["while"]:  # a name ``unhandled`` should have kept out of play
            raise ValueError(f"no handler for the condition {name!r}")
        argument = {"with-card": "card", "without-card": "card", "player-count": "counts", "queen-in": "terreta"}.get(name)
        pairs.append((name, getattr(condition, argument) if argument else None))
    _COMPILED[id(conditions)] = (conditions, tuple(pairs))
    return tuple(pairs)


_COMPILED: dict[int, tuple[Sequence[Any], tuple[tuple[str, Any], ...]]] = {}


def holds(conditions: Sequence[Any], state: Any, who: int, instance: int | None) -> bool:
    """Whether every condition holds for the card ``instance`` (None for a terreta's effect) held by ``who``."""
    if not conditions:
        return True
    for name, argument in _compiled(conditions):
        if name == "on-your-counter":
            if instance is None or instance not in state.counters[who]:
                return False
        elif name == "with-card" or name == "without-card":
            designs = state.designs
            present = any(designs[i] == argument for i in state.counters[who])
            if present != (name == "with-card"):
                return False
        elif name == "player-count":
            if len(state.hands) not in argument:
                return False
        elif state.queen != argument:  # queen-in
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
