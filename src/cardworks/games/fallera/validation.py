"""``cardworks validate`` for La Fallera Calavera: effects and bonuses in its vocabulary, their references.

The generic checks know no effect; here every effect of a card and every bonus
of a terreta is read with Fallera's models, and each id it names (a card, a
terreta) must exist (``dangling-ref``). A card saying it restates a terreta's
bonus must be named by that bonus (``bonus-mismatch``); a terreta's bonus may
only use verbs a terreta plays (``terreta-verb``). An effect placed where the
engine never reads it (its trigger, a verb or a condition) is refused
(``effect-never-fires``, see ``placement``). A card's needed features must
be declared by the engine (``dangling-ref``), and a card the engine must leave
out says why (``unexplained-gap``). A ``cancel`` answering a special played
that could meet a special of another design and its own rank is refused
(``cancel-same-rank``): the rulebooks say only that the higher rank prevails.
"""

from __future__ import annotations

from typing import Any

from ...engine.validation import check_own_models
from .cards import unexplained
from .effects import RESPONSES, Effect
from .features import FEATURES
from .models import MODELS
from .placement import card_places, never_fires

TERRETA_VERBS = frozenset({"draw", "coin", "extra-action", "modify-stat", "valid-ingredient"})
"""The verbs a terreta's bonus may use (the others belong to a card on a counter)."""


def _references(effect: Effect) -> list[tuple[str, str, str]]:
    """(JSON pointer inside the effect, what, id) of every id ``effect`` names."""
    found = []
    if effect.when.event == "card-used":
        found += [(f"/when/cards/{i}", "card", c) for i, c in enumerate(effect.when.cards)]
    for i, condition in enumerate(effect.while_):
        if condition.is_ in ("with-card", "without-card"):
            found.append((f"/while/{i}/card", "card", condition.card))
        elif condition.is_ == "queen-in":
            found.append((f"/while/{i}/terreta", "terreta", condition.terreta))
    found += [(f"/after/{i}", "card", c) for i, c in enumerate(effect.after)]

    def verbs(items: list[Any], pointer: str) -> None:
        for k, verb in enumerate(items):
            here = f"{pointer}/{k}"
            if verb.verb in ("valid-ingredient", "modify-stat"):
                found.extend((f"{here}/cards/{i}", "card", c) for i, c in enumerate(verb.cards))
            elif verb.verb == "part-of":
                found.append((f"{here}/card", "card", verb.card))
            elif verb.verb == "restates-terreta-bonus":
                found.append((f"{here}/terreta", "terreta", verb.terreta))
            elif verb.verb == "coin":
                verbs(verb.heads, f"{here}/heads")
                verbs(verb.tails, f"{here}/tails")

    verbs(effect.do, "/do")
    return found


def _known_references(out: Any, display: str, here: str, effect: Effect,
                      known: dict[str, set[str]]) -> list[tuple[str, str, str]]:
    """The references of ``effect`` that exist; each one that does not is reported as ``dangling-ref``."""
    found = []
    for pointer, what, ref in _references(effect):
        if ref in known[what]:
            found.append((pointer, what, ref))
        else:
            out.error(display, here + pointer, "dangling-ref", f"unknown {what} {ref!r}")
    return found


def validate(index: Any, out: Any) -> None:
    """Fallera's own checks (see the module's docstring)."""
    db = index.db
    parsed = check_own_models(db, MODELS, out)
    cards = index.ids_of("card")
    boards = [(loaded, parsed[id(loaded)]) for loaded, _ in db.docs("board") if id(loaded) in parsed]
    terretes = {space.id for _, board in boards for side in board.sides for space in side.spaces}
    named_by: dict[str, set[str]] = {}
    known = {"card": cards, "terreta": terretes}
    for loaded, board in boards:
        for s, side in enumerate(board.sides):
            for p, space in enumerate(side.spaces):
                for b, effect in enumerate(space.bonuses):
                    here = f"/sides/{s}/spaces/{p}/bonuses/{b}"
                    for pointer, what, ref in _known_references(out, loaded.display, here, effect, known):
                        if what == "card":
                            named_by.setdefault(space.id, set()).add(ref)
                    refused = _check_fires(out, loaded.display, here, effect, frozenset({"terreta"}), None)
                    for k, verb in enumerate(effect.do):
                        if verb.verb not in TERRETA_VERBS and f"/do/{k}" not in refused:
                            out.error(loaded.display, f"{here}/do/{k}", "terreta-verb",
                                      f"a terreta does not play {verb.verb!r}; it plays {', '.join(sorted(TERRETA_VERBS))}")
    sets = [(loaded, parsed[id(loaded)]) for loaded, _ in db.docs("set") if id(loaded) in parsed]
    _check_ranks(out, sets)
    waited = _features_packs_declare(db, out)
    for loaded, card_set in sets:
        for c, card in enumerate(card_set.cards):
            _check_gaps(out, loaded.display, f"/cards/{c}", card, waited)
            places = card_places(card.types, card.attributes.get("treasure-kind"))
            for e, effect in enumerate(card.effects):
                here = f"/cards/{c}/effects/{e}"
                _check_fires(out, loaded.display, here, effect, places, card.id)
                for pointer, what, ref in _known_references(out, loaded.display, here, effect, known):
                    if pointer.endswith("/terreta") and "/do/" in pointer and card.id not in named_by.get(ref, ()):
                        out.error(loaded.display, here + pointer, "bonus-mismatch",
                                  f"no bonus of terreta {ref!r} names {card.id!r}")


def _check_fires(out: Any, display: str, here: str, effect: Effect, places: frozenset[str],
                 own: str | None) -> set[str]:
    """An effect the engine never reads where it sits is an error (``effect-never-fires``), at the part that
    is never read; the pointers refused (inside the effect) are returned, so no other check repeats them."""
    refused = set()
    for pointer, why in never_fires(effect, places, own):
        out.error(display, here + pointer, "effect-never-fires", why)
        refused.add(pointer)
    return refused


def _features_packs_declare(db: Any, out: Any) -> frozenset[str]:
    """The features the loaded packs declare they wait on (``pack.json``'s ``waits_for``); one the engine
    declares already is said (``feature-known``): the card should name the engine's, which check counts."""
    declared = set()
    for loaded, pack in db.docs("pack"):
        for name in getattr(pack, "waits_for", None) or {}:
            if name in FEATURES:
                out.warning(loaded.display, f"/waits_for/{name}", "feature-known",
                            f"the engine already declares {name!r}: {FEATURES[name][0]}")
            declared.add(name)
    return frozenset(declared)


def _check_gaps(out: Any, display: str, here: str, card: Any, waited: frozenset[str] = frozenset()) -> None:
    """A card's needed features are declared by the engine or by a loaded pack's ``waits_for``
    (``dangling-ref``); a card the engine must leave out says why, through effects, missing facts or needed
    features (else ``unexplained-gap``)."""
    for n, need in enumerate(card.needs):
        if need.feature not in FEATURES and need.feature not in waited:
            out.error(display, f"{here}/needs/{n}/feature", "dangling-ref",
                      f"unknown engine feature {need.feature!r} (the engine's: {', '.join(sorted(FEATURES))}; a "
                      "pack names a feature of its own in pack.json's waits_for)")
    if unexplained(card, card.attributes.get("treasure-kind")):
        out.warning(display, here, "unexplained-gap",
                    f"{card.id!r} has text or a kind only effects can play, but no effects, and records neither "
                    "a missing fact nor a needed engine feature: the engine leaves it out without saying why")


def _rank(card: Any) -> int:
    return card.stats.get("rank") or 1


def _check_ranks(out: Any, sets: list[tuple[Any, Any]]) -> None:
    """A ``cancel`` in a ``card-played`` response meets every special played (as an action or a response): of
    one of its own rank but another design, the rulebooks do not say which prevails (fallera-base line 39
    orders ranks only; the official FAQ lets a paella protectora cancel another), so such a card is refused
    (``cancel-same-rank``) rather than played by an order nobody stated."""
    played: dict[int, set[str]] = {}
    for _, card_set in sets:
        for card in card_set.cards:
            if "special" in card.types and any(e.when.event in ("played", *RESPONSES) for e in card.effects):
                played.setdefault(_rank(card), set()).add(card.id)
    for loaded, card_set in sets:
        for c, card in enumerate(card_set.cards):
            for e, effect in enumerate(card.effects):
                if effect.when.event != "card-played":
                    continue
                for k, verb in enumerate(effect.do):
                    rivals = sorted(played.get(_rank(card), set()) - {card.id})
                    if verb.verb == "cancel" and rivals:
                        out.error(loaded.display, f"/cards/{c}/effects/{e}/do/{k}", "cancel-same-rank",
                                  f"{card.id!r} (n{_rank(card)}) cancels a special played, and {', '.join(rivals)} "
                                  f"{'is' if len(rivals) == 1 else 'are'} of the same rank: the rulebooks say only that "
                                  "the higher rank prevails (fallera-base line 39), not which of two of one rank does")
