"""Where an effect sits, and whether the engine ever reads it there: ``validate``'s ``effect-never-fires``.

A card's effects are read only where the card can be (``registry.PLACES``): a
treasure on a counter (an ingredient counted, a sellable one sold), a battle
card in a battle, a terreta's bonus while the Queen stands there. Each binding
in the registry says where its member is read; an effect whose trigger, verb or
condition is read nowhere its card can be would validate and never act, so it
is refused at its JSON pointer.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from .effects import RESPONSES, Effect
from .registry import PLACES, REGISTRY


def card_places(types: list[str] | tuple[str, ...], kind: str | None) -> frozenset[str]:
    """The places a card of ``types`` (and treasure ``kind``) can be in while the engine reads effects."""
    places = set()
    if "treasure" in types:
        places.add("counter")
        if kind == "ingredient":
            places.add("ingredient")
        elif kind == "sellable":
            places.add("sold")
    if "battle" in types:
        places.add("battle")
    if "special" in types:
        places.update(("hand", "attached"))
    return frozenset(places)


def _words(places: frozenset[str]) -> str:
    """``places`` in words."""
    return " or ".join(PLACES[p] for p in PLACES if p in places) or NOWHERE


NOWHERE = "a card the engine never reads effects on"
"""Where an effect of a card of no place sits."""


def never_fires(effect: Effect, places: frozenset[str], own: str | None) -> Iterator[tuple[str, str]]:
    """(JSON pointer inside the effect, why) for each part of ``effect`` that is never read where it sits
    (``places``; ``own`` is the card's design id, None for a terreta)."""
    where = _words(places)
    trigger = REGISTRY.bindings[type(effect.when)]
    if "stands" not in trigger.plays:  # a standing effect is read where each of its verbs is (below)
        shared = trigger.reads & places
        if not shared:
            yield "/when", f"{trigger.tag!r} is read only on {_words(trigger.reads)}; this effect sits on {where}"
        elif shared <= trigger.own and own not in getattr(effect.when, "cards", ()):
            yield "/when/cards", (f"on {where}, {trigger.tag!r} is read only when the card itself is used, and "
                                  f"{own!r} is not among its cards")
    for i, condition in enumerate(effect.while_):
        binding = REGISTRY.bindings[type(condition)]
        if not binding.reads & places:
            yield f"/while/{i}", f"{binding.tag!r} holds only on {_words(binding.reads)}; this effect sits on {where}"
    yield from _verbs(effect.do, "/do", trigger, places, where)


_PLAYED = {"acts": "verbs that act (a draw, a coin…)", "stands": "standing verbs (counts, stats, views)"}


def _verbs(verbs: Any, pointer: str, trigger: Any, places: frozenset[str], where: str) -> Iterator[tuple[str, str]]:
    """The verbs of ``verbs`` (at ``pointer``) that ``trigger`` never plays, or that are read nowhere here."""
    for k, verb in enumerate(verbs):
        here, binding = f"{pointer}/{k}", REGISTRY.bindings[type(verb)]
        if binding.kind == "describes":
            continue
        if binding.kind not in trigger.plays:
            plays = " and ".join(_PLAYED[kind] for kind in sorted(trigger.plays) if kind in _PLAYED)
            yield here, f"an effect of trigger {trigger.tag!r} plays only {plays}: it never plays {binding.tag!r}"
        elif trigger.only and binding.tag not in trigger.only:
            yield here, f"an effect of trigger {trigger.tag!r} plays only {', '.join(map(repr, sorted(trigger.only)))}"
        elif binding.tag == "cancel" and trigger.tag not in RESPONSES:
            yield here, f"'cancel' answers a response window; an effect of trigger {trigger.tag!r} answers nothing"
        elif binding.tag == "attach" and "hand" not in trigger.reads & places:
            yield here, (f"'attach' attaches the special being played from the hand; an effect of trigger "
                         f"{trigger.tag!r} on {where} plays no card from the hand")
        elif binding.kind == "stands" and not binding.reads & places:
            yield here, f"{binding.tag!r} is read only on {_words(binding.reads)}; this effect sits on {where}"
        elif verb.verb == "coin":
            yield from _verbs(verb.heads, f"{here}/heads", trigger, places, where)
            yield from _verbs(verb.tails, f"{here}/tails", trigger, places, where)
