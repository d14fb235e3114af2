"""What ``cardworks simulate`` needs of La Fallera Calavera beyond the engine's contract: the agents'
heuristics, the deck's public card definitions, and the referee's view of who holds and uses which card."""

from __future__ import annotations

import dataclasses
import os
import random
from collections import Counter
from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import Any

from ...engine.kept import per_object
from ...engine.plugins import Simulation
from . import heuristics
from .actions import Attack, Defend, Play, Respond, Sell
from .effects import RESPONSES
from .facts import TurnChoices
from .interpreter import holds
from .registry import REGISTRY
from .state import State

USING = (Sell, Attack, Defend, Play, Respond)
"""Actions that put a card to use: selling it, battling or defending with it."""


def cards(rules: Any) -> dict[str, Any]:
    """Design → its definition, for every design the rules deal (the pack's cards too)."""
    return dict(rules.defs)


def zones(state: Any) -> tuple[Sequence[Iterable[int]], ...]:
    """The hands and the counters: the cards a player holds."""
    return state.hands, state.counters


def design(state: Any, instance: int) -> str:
    return state.designs[instance]


def played(action: Any) -> str | None:
    """The design a sale, an attack, a defence or a special played (as an action or a response) uses."""
    return action.card.design if type(action) in USING else None


def named(legal: Sequence[Any]) -> set[str]:
    """The designs of the cards ``legal`` names (the card an action uses, burns, discards or targets; a battle's
    treasure). Greedy reads a hand card's definition only through these (``heuristics``: a turn's attack or
    play, a defence, a burn or discard, a choice), and a twin's rules list other actions than the real rules
    only where the card answers or is played (``Respond``, ``Play``: a plain card does neither)."""
    if type(legal) is TurnChoices:  # a turn's listing says what it names without building its battles
        return legal.named()
    found = set()
    for action in legal:
        card = getattr(action, "card", None)
        if card is not None:
            found.add(card.design)
        treasure = getattr(action, "treasure", None)
        if treasure is not None:
            found.add(treasure.design)
    return found


READ_WHERE_USED = frozenset({"as-its-type", "restates-terreta-bonus", "part-of", "return-to-hand", "battle-again"})
"""Verbs read only as the card itself is used or described (a battle, a sale), never while it waits in a hand."""


def acts_from_hand(card: Any) -> str | None:
    """How a card may act while it waits in a hand: ``answers`` (it answers events: a response window asks its
    holder), ``always`` (one of its other effects neither waits for the card to be played or put on its
    holder's counter nor is read only where the card is used), or None (it does not)."""
    answers = None
    for effect in card.effects:
        event = effect.when.event
        if event in RESPONSES:
            answers = "answers"
            continue
        if event == "played" or any(c.is_ == "on-your-counter" for c in effect.while_):
            continue
        if event == "always" and all(v.verb in READ_WHERE_USED for v in effect.do):
            continue
        return "always"
    return answers


def _inert(card: Any, state: Any, instance: int) -> bool:
    """An ingredient on a counter whose every effect counts it as more ingredients under conditions that do not
    hold now: it counts, and is worth, what its plain twin does (the rules count an ingredient by its effects
    only where their conditions hold)."""
    if card.kind != "ingredient" or not card.effects:
        return False
    owner = next((who for who, counter in enumerate(state.counters) if instance in counter), None)
    if owner is None:
        return False
    return all(effect.when.event == "always" and all(v.verb == "count-as-ingredients" for v in effect.do)
               and not holds(effect.while_, state, owner, instance) for effect in card.effects)


def unread(card: Any) -> bool:
    """A treasure, not sellable, whose every effect stands (``always``) and only describes (verbs the engine binds as
    ``describes`` and plays nothing for: ``part-of``, ``as-its-type``, ``restates-terreta-bonus``), and which greedy
    values as a card without effects: wherever it lies (a counter, the map), the rules read of it only its type and
    ingredient category, and greedy its worth as a treasure, all of which its plain stand-in shares (``plain``
    keeps the kind and category; a stand-in's sale value or stats are read only for a sellable or a battle card).
    The tartana del tio Pep (``part-of`` the gamba de Dénia, whose own effect names the tartana's design) is one."""
    if not card.treasure or card.kind == "sellable" or not card.effects:
        return False
    describing = _describing()
    return (all(effect.when.event == "always" and all(v.verb in describing for v in effect.do) for effect in card.effects)
            and heuristics.treasure_value(card) == heuristics.treasure_value(dataclasses.replace(
                card, effects=(), _by_verb={}, _by_event={})))


_UNREAD: dict[int, tuple[Any, Any]] = {}


def _unread(card: Any) -> bool:
    """``unread``, worked out once per card definition."""
    return per_object(_UNREAD, card, unread, 4096)


@lru_cache(maxsize=1)
def _describing() -> frozenset[str]:
    """The verbs the engine binds as ``describes`` (it plays nothing for them)."""
    return frozenset(tag for tag, binding in REGISTRY.by_tag("do").items() if binding.kind == "describes")


def _cemetery_weighed(rules: Any, state: Any) -> bool:
    """A card's definition in the cemetery may matter now: a choice of a cemetery card is asked, or a player
    holds a card that takes one back (``return-from-cemetery``), whose worth an agent weighs before playing it."""
    takes_back = rules.facts(state).takes_back
    if not takes_back:
        return False
    if state.phase == "choose" and state.asked is not None and state.asked[1] == "cemetery":
        return True
    return any(i in takes_back for hand in state.hands for i in hand)


def quiet(rules: Any, state: Any, design: str) -> tuple[int, ...] | None:
    """Where ``design``'s definition can change nothing but its holder's own decisions: the players whose hands
    hold its copies (empty: every copy is in the deck or the cemetery, or an ingredient on a counter whose
    effects do not apply there now: ``_inert``), or None when a copy is in play (on a counter or the map, in a
    battle, laid, attached), when the card may act from a hand (``acts_from_hand``)
    otherwise than by answering, or when a response window asks one of its holders (the step before asked
    because of it, perhaps: with the card made plain nobody would have been asked).

    Paired games read it (``simulate.runner``): until then the twin game, in which the card plays as a plain
    card, is the same game, so it is played only from that point. (A window a card of the deck answers is
    queued in both games only if another card answers the same event; an unanswered one asks nobody and
    changes nothing.)"""
    loose, holding, _ = _places(rules, state)
    return _quiet(rules, state, design, loose, holding, False)


def quiets(rules: Any, state: Any, designs: frozenset[str], settled: bool) -> dict[str, tuple[int, ...] | None]:
    """``quiet`` of each of ``designs`` with a copy out of the deck and the waiting cemetery (the others are quiet
    with no holder: ``()``), worked out in one pass over the position's places and kept with them (the watch of
    paired games asks at every step).

    With ``settled``, a copy that nothing reads where it lies (``unread``) counts as waiting too: the watch reads
    this for a card whose twin has parted, and sees the card again wherever it is settled. ``quiet`` itself keeps
    such a copy in play: a twin parts from its real game where ``quiet`` first says so, and the reports count as
    unchanged (``strength.unchanged``) only the twins that never parted, as they always have. A twin that parted as
    such a card reached a counter meets its real game again at once and is that game from there
    (``simulate.runner``: a rejoin), so it costs a step, not the rest of a game."""
    loose, holding, answers = _places(rules, state)
    kept = answers.get(settled)
    if kept is not None and kept[0] is designs:
        return kept[1]
    if settled:  # ``quiet``'s answers, but for the cards in play that nothing reads (the same answers, mostly)
        found = quiets(rules, state, designs, False)
        unread = [d for d, holders in found.items() if holders is None and _unread(rules.defs[d])]
        if unread:
            found = {**found, **{d: _quiet(rules, state, d, loose, holding, True) for d in unread}}
    else:
        found = _quiet_all(rules, state, designs, loose, holding)
    answers[settled] = (designs, found)
    return found


def _quiet_all(rules: Any, state: Any, designs: frozenset[str], loose: dict[str, list[int]],
               holding: dict[str, tuple[int, ...]]) -> dict[str, tuple[int, ...] | None]:
    """``_quiet`` (not settled) of each of ``designs`` with a copy out of the deck, in one loop over what each
    design's definition says once per rules (``_shapes``): the watch of paired games asks at every step."""
    shapes, defs = _shapes(rules), rules.defs
    asked = state.asked[0] if state.phase == "respond" else None
    found: dict[str, tuple[int, ...] | None] = {}
    for design in designs.intersection(loose).union(designs.intersection(holding)):
        may_be_inert, acts = shapes[design]
        if design in loose and not (may_be_inert and all(_inert(defs[design], state, i) for i in loose[design])):
            found[design] = None
            continue
        holders = holding.get(design, ())
        if holders and (acts == "always" or acts == "answers" and asked is not None and asked in holders):
            found[design] = None
            continue
        found[design] = holders
    return found


_SHAPES: dict[int, tuple[Any, Any]] = {}


def _shapes(rules: Any) -> dict[str, tuple[bool, str | None]]:
    """Design → (an ingredient with effects, the only cards ``_inert`` may find inert; ``acts_from_hand``), worked out
    once per rules."""
    return per_object(_SHAPES, rules, lambda rules: {
        design: (card.kind == "ingredient" and bool(card.effects), acts_from_hand(card))
        for design, card in rules.defs.items()})


def _quiet(rules: Any, state: Any, design: str, loose: dict[str, list[int]],
           holding: dict[str, tuple[int, ...]], settled: bool) -> tuple[int, ...] | None:
    """``quiet`` (``settled``: with unread copies waiting), from the position's places."""
    if design in loose:
        card = rules.defs[design]
        if not (settled and _unread(card)) and not all(_inert(card, state, instance) for instance in loose[design]):
            return None
    holders = holding.get(design, ())
    if holders:
        acts = _acts(rules.defs[design])
        if acts == "always" or acts == "answers" and state.phase == "respond" and state.asked[0] in holders:
            return None
    return holders


_PLACES: tuple[Any, ...] = (None, None, {}, {}, {})
"""The last position ``_places`` read (a ``State``, which cannot change), its rules, its answer and ``quiets``'
answers for it so far: one tuple, replaced whole, so a thread reading it never sees two positions' parts."""


def _places(rules: Any, state: Any) -> tuple[dict[str, list[int]], dict[str, tuple[int, ...]], dict[str, Any]]:
    """(design → its copies in play unless inert, design → the players whose hands hold its copies, one per copy in
    the copies' number order), for ``quiet``. A copy may be in play unless it is in a hand or waits: in the deck,
    or in the cemetery, from which a reshuffle only brings cards back, unless a card can take one back by choice
    now (then its definition is weighed there). Worked out for every design at once, and kept for the last
    immutable position: paired games ask ``quiet`` of every measured card about the same position."""
    global _PLACES
    kept = _PLACES
    if kept[0] is state and kept[1] is rules:
        return kept[2], kept[3], kept[4]
    designs = state.designs
    holder = {instance: who for who, hand in enumerate(state.hands) for instance in hand}
    waiting = {*state.deck, *(() if _cemetery_weighed(rules, state) else state.cemetery)}
    loose: dict[str, list[int]] = {}
    for instance in sorted(set(range(len(designs))).difference(holder, waiting)):
        loose.setdefault(designs[instance], []).append(instance)
    holding: dict[str, list[int]] = {}
    for instance in sorted(holder):
        holding.setdefault(designs[instance], []).append(holder[instance])
    answer = (loose, {design: tuple(who) for design, who in holding.items()}, {})
    if type(state) is State:
        _PLACES = (state, rules, *answer)
    return answer


_ACTS: dict[int, tuple[Any, Any]] = {}


def _acts(card: Any) -> str | None:
    """``acts_from_hand``, worked out once per card definition."""
    return per_object(_ACTS, card, acts_from_hand, 4096)


def turns(state: Any, players: int) -> tuple[int, int]:
    """(turns, rounds) started so far: ``turn`` counts turns from 1 (0 before the first player is chosen)."""
    turn = max(state.turn, 1)
    return turn, (turn + players - 1) // players


EFFECT_ENDINGS = frozenset({"effect-win", "deck-exhausted-holder"})
"""Endings a card's own effect brings (a ``win`` verb, the fideuà when the deck runs out)."""
PAELLA_ENDINGS = frozenset({"five-ingredients", "four-ingredients-territorial", "five-ingredients-seafood"})
"""Endings a complete paella brings: credited to the ingredient that completed it."""


def credits(state: Any, reason: str | None) -> tuple[tuple[str, str] | None, tuple[tuple[tuple[str, str], int], ...]]:
    """(the card that ended the game and how, ((what, design), times) of the game's card events) from the
    draft's ``log``.

    How: ``effect`` (its own effect won, or it won as the deck ran out) or ``completed`` (the last
    ingredient that reached the winner's counter and is still there: the draw, theft or battle that
    brought it made the paella). A position without a log (a frozen state) credits nothing."""
    log = getattr(state, "log", None)
    if not log:
        return None, ()
    designs = state.designs

    def named(source: Any) -> str:
        return designs[source] if type(source) is int else source

    counted: dict[tuple[str, str], int] = {}
    for (what, source), times in Counter(log).items():  # counted by instance first: most entries repeat
        if what != "ended":
            key = (what, named(source))
            counted[key] = counted.get(key, 0) + times
    events = tuple(sorted(counted.items()))
    cause = None
    if reason in EFFECT_ENDINGS:
        source = next((source for what, source in reversed(log) if what == "ended"), None)
        cause = (named(source), "effect") if source is not None else None
    elif reason in PAELLA_ENDINGS and state.winner is not None:
        counter, facts = state.counters[state.winner], state.facts
        source = next((source for what, source in reversed(log) if what == "placed" and source in counter
                       and facts.defs[source].kind == "ingredient"), None)
        cause = (named(source), "completed") if source is not None else None
    return cause, events


def family(card: Any) -> str:
    """A card's type for comparisons: ``battle``, or its treasure kind (``ingredient``, ``sellable``, ``other``)."""
    return "battle" if card.battle else (card.kind or card.types[0])


def _is_plain(card: Any) -> bool:
    return all(verb.verb == "as-its-type" for effect in card.effects for verb in effect.do)


def _median(values: list[tuple[int | None, int]]) -> float:
    """The copies-weighted median of (value, copies), None counted as 0."""
    flat = sorted(v or 0 for v, copies in values for _ in range(copies))
    return flat[len(flat) // 2] if flat else 0


def plain(rules: Any, design: str, base: frozenset[str]) -> tuple[Any | None, str]:
    """Rules in which ``design`` plays as a plain card of its type: no effects, and the values (attack,
    defence, sell) of the base deck's plain card of that type (and ingredient category) closest to the
    type's copies-weighted median (None when the card already is that plain card), and the type.

    The stand-in is a measuring device, not a card of the game: every copy keeps its place in the deck,
    so a seeded game replays identically until the card's own difference matters."""
    card = rules.defs[design]
    kind = family(card)
    same = [rules.defs[d] for d in sorted(base) if family(rules.defs[d]) == kind
            and (kind != "ingredient" or rules.defs[d].category == card.category)]
    medians = [_median([(getattr(c, stat), c.copies) for c in same]) for stat in ("attack", "defence", "sell")]
    plains = [c for c in same if _is_plain(c)]
    values = (card.attack, card.defence, card.sell)
    if plains:
        best = min(plains, key=lambda c: (sum(abs((v or 0) - m) for v, m in zip((c.attack, c.defence, c.sell), medians)),
                                          -c.copies, c.id))
        values = (best.attack, best.defence, best.sell)
    if _is_plain(card) and values == (card.attack, card.defence, card.sell):
        return None, kind
    stand_in = dataclasses.replace(card, attack=values[0], defence=values[1], sell=values[2], effects=(),
                                   _by_verb={}, _by_event={})
    return dataclasses.replace(rules, defs={**rules.defs, design: stand_in}), kind


ADJUSTABLE = {"attack": "attack", "defence": "defence", "sell": "sell", "quantity": "copies"}
"""What ``--sweep CARD.FIELD`` may change, and the definition's field it sets."""


def adjusted(rules: Any, design: str, name: str, value: int) -> Any:
    """Rules in which ``design``'s ``name`` (attack, defence, sell, quantity) is ``value``: a sweep's step.
    Raises ValueError naming what may be swept."""
    if name not in ADJUSTABLE:
        raise ValueError(f"{name!r} cannot be swept; sweep {', '.join(ADJUSTABLE)}")
    card = rules.defs[design]
    if name in ("attack", "defence") and not card.battle:
        raise ValueError(f"{design} is not a battle card: it has no {name}")
    if name == "sell" and card.kind != "sellable":
        raise ValueError(f"{design} is not a sellable treasure: it has no sale value")
    if name == "quantity" and value < 1:
        raise ValueError("a quantity below 1 takes the card out of the deck")
    changed = dataclasses.replace(card, **{ADJUSTABLE[name]: value}, _by_verb={}, _by_event={})
    return dataclasses.replace(rules, defs={**rules.defs, design: changed})


def deal(db: Any, config: Any, rules: Any, rng: random.Random) -> Any:
    """A new game under ``rules`` (those ``plain`` made), dealt as ``new_game`` deals."""
    from .game import deal_size

    return rules.new_game(rng=rng, deal=deal_size(db, config.players))


def missing(kinds: frozenset[str]) -> str | None:
    """A search (``mcts``) plays its rollouts through the compiled loop; where the install could not build it, the
    Python loop plays them, the same decisions at about two thirds of the speed, unless that loop was chosen."""
    from . import rollouts

    if "mcts" not in kinds or rollouts.KERNEL is not None or os.environ.get("CARDWORKS_PURE_PYTHON"):
        return None
    return ("[slow-rollouts] the compiled rollout loop (games/fallera/_rollouts.c) was not built when cardworks was "
            "installed: ISMCTS searches play the same loop in Python, the same decisions at about two thirds of the "
            "speed; install a C compiler and Python's headers and install cardworks again")


SIMULATION = Simulation(heuristics=heuristics, turns=turns, cards=cards, zones=zones, design=design, played=played,
                        credits=credits, plain=plain, deal=deal, adjusted=adjusted, quiet=quiet, quiets=quiets,
                        named=named, missing=missing)
