"""La Fallera Calavera for agents: a greedy player, determinizations and a position's value.

The greedy player takes a win when a move shows one, battles with the best odds of
stealing (its chance that the defender holds no card stopping the attack, from the
cards it has not seen), sells when the draws are worth more than a plain draw,
keeps and defends its ingredients, and burns its weakest card. Everything comes
from the player's observation and the cards' public definitions.
"""

from __future__ import annotations

import math
import random
from bisect import bisect_left
from collections.abc import Callable, Sequence
from functools import lru_cache
from itertools import filterfalse
from typing import Any

from ...engine.codec import deep_tuple
from ...engine.core import player_index
from ...engine.kept import per_object
from .actions import Attack
from .facts import TurnChoices
from .rollouts import kernel
from .state import Draft, built
from .worth import ODDS, effect_worth, returns, verbs_worth

WIN = 1000.0
INGREDIENT = 10.0
DRAW = 1.0
"""The worth of drawing one card (the almoina)."""


@lru_cache(maxsize=4096)
def _instance(label: str) -> int:
    return int(label.rsplit("#", 1)[1])


@lru_cache(maxsize=4096)
def _design(label: str) -> str:
    return label.rsplit("#", 1)[0]


_DEFENCES: dict[int, tuple[Any, "_Defences"]] = {}


class _Defences:
    """The battle cards' defences as the players believe them, for one table: the printed deck list
    (``table.beliefs``; in a paired game's twin, the real card's, since nobody knows one card plays as a
    stand-in), read only for the cards a player has not seen."""

    __slots__ = ("each", "everything", "in_order", "labels", "defence_of")

    def __init__(self, table: Any) -> None:
        beliefs = getattr(table, "beliefs", None) or table.cards
        designs = table.rules.deck_designs()
        cards = [beliefs[d] for d in designs]
        self.each = tuple(c.defence if c.battle else None for c in cards)
        """Each instance's defence, None for a card that is not a battle card."""
        self.everything = sorted(d for d in self.each if d is not None)
        """Every battle card's defence, ascending."""
        self.in_order = tuple(sorted(((f"{d}#{i}", defence) for i, (d, defence) in enumerate(zip(designs, self.each))
                                      if defence is not None), key=lambda item: item[1]))
        """(label, defence) of every battle card (its label ``design#n``, as observations write it), by defence
        ascending."""
        self.defence_of = dict(self.in_order)
        """Each battle card's label → its defence."""
        self.labels = frozenset(self.defence_of)
        """Every battle card's label."""


def _kept_defences(table: Any) -> _Defences:
    """The ``_Defences`` of ``table``, worked out once per table."""
    return per_object(_DEFENCES, table, _Defences)


def _ingredients(table: Any, labels: Sequence[str]) -> int:
    """Valid ingredients among ``labels``, one each (forbidden ones do not count; a heuristic's estimate: card
    effects that change an ingredient's worth are left to the rules)."""
    return _counted(table, _valid(table), labels)


def _counts(table: Any, counters: Sequence[Sequence[str]]) -> list[int]:
    """``_ingredients`` of each counter (looked up directly where every label is known, as every label of the deck
    is)."""
    valid = _valid(table)
    counts = []
    try:
        for labels in counters:  # a plain loop: for counters of a few cards, cheaper than ``sum(map(...))``
            count = 0
            for label in labels:
                count += valid[label]
            counts.append(count)
    except KeyError:
        return [_counted(table, valid, labels) for labels in counters]
    return counts


def _counted(table: Any, valid: dict[str, int], labels: Sequence[str]) -> int:
    count = 0
    for label in labels:
        one = valid.get(label)
        if one is None:
            card = table.cards[_design(label)]
            one = valid[label] = int(card.kind == "ingredient" and card.category != "forbidden")
        count += one
    return count


_VALID: dict[int, tuple[Any, dict[str, int]]] = {}


def _valid(table: Any) -> dict[str, int]:
    """Label → 1 for a valid ingredient, else 0: what ``_ingredients`` counts, kept per table (made for every card
    of the deck at once; another label is added as it is first met)."""
    return per_object(_VALID, table, _every_label)


def _every_label(table: Any) -> dict[str, int]:
    valid: dict[str, int] = {}
    rules = getattr(table, "rules", None)
    if hasattr(rules, "deck_designs"):
        _counted(table, valid, [f"{d}#{i}" for i, d in enumerate(rules.deck_designs())])
    return valid


def _needed(seen: dict[str, Any], who: int) -> int:
    """Ingredients ``who`` needs to win: 4 while the Queen stands on their known territorial food, else 5."""
    foods = seen.get("foods") or []
    if foods and who < len(foods) and foods[who] != "hidden" and seen.get("queen") == foods[who]:
        return 4
    return 5


_MEMO: dict[int, tuple[Any, dict[tuple[str, str], float]]] = {}


def _memo(table: Any) -> dict[tuple[str, str], float]:
    """(what, design) → a worth that depends only on the table's card definitions, worked out once per table."""
    return per_object(_MEMO, table)


def treasure_worth(table: Any, design: str) -> float:
    memo = _memo(table)
    worth = memo.get(("treasure", design))
    if worth is None:
        worth = memo["treasure", design] = _treasure_worth(table, design)
    return worth


def _treasure_worth(table: Any, design: str) -> float:
    return treasure_value(table.cards[design])


def treasure_value(card: Any) -> float:
    """What greedy reckons a treasure is worth, from its definition (``treasure_worth`` keeps it per table)."""
    if card.kind == "ingredient":
        return INGREDIENT if card.category != "forbidden" else 0.5
    if card.kind == "sellable":
        return 1.0 + (card.sell or 0)
    if card.doing("actions-per-turn"):  # more actions every turn (the allioli persistent): worth an ingredient
        return INGREDIENT
    return 1.5 + effect_worth(card)


def _unseen_defences(table: Any, seen: dict[str, Any]) -> list[int]:
    """The defence of every battle card the player has not seen (in rivals' hands or the deck), ascending: every
    battle card's, less those of the battle cards it sees (its hand, the cemetery, cards being laid, every
    counter, the map, a face-up attack)."""
    known = _kept_defences(table)
    battle = seen.get("battle")
    attack = (battle.get("attack"),) if battle else ()
    # the battle cards not among what it sees, worked out in C (a label is one card), and their defences in order
    unseen = known.labels.difference(seen["hand"], seen["cemetery"], seen.get("laying", ()), *seen["counters"],
                                     seen.get("map", {}).values(), attack)
    return sorted(map(known.defence_of.__getitem__, unseen))


def _odds(attack: int, ordered: list[int], hand: int) -> float:
    """The chance that a hand of ``hand`` unseen cards holds no defence that stops ``attack``, from the unseen
    defences in ascending order (the stopping ones found by bisection). The one odds of greedy: a bench's player
    that reckons otherwise swaps this name (bench/ismcts_strength.py)."""
    if not ordered or hand <= 0:
        return 1.0
    stopping = (len(ordered) - bisect_left(ordered, attack)) / len(ordered)
    return (1.0 - stopping) ** hand


def greedy(table: Any, me: int, seen: dict[str, Any], legal: Sequence[Any], rng: random.Random) -> Any:
    """The action with the best one-step score (ties broken by the rng)."""
    phase = seen["phase"]
    if phase == "defend":
        return _defend(table, me, seen, legal)
    if phase == "burn" or phase == "discard":
        return min(legal, key=lambda a: (_card_worth(table, a.card.design), a.notation()))
    if phase == "respond":
        return _respond(me, seen, legal)
    if phase == "target":  # the treasure worth most, from the leader first
        counts = _counts(table, seen["counters"])
        return max(legal, key=lambda a: (treasure_worth(table, a.card.design) + 2.0 * counts[a.owner], a.notation()))
    if phase == "choose":
        return _choose(table, me, seen, legal, rng)
    if phase == "several":
        return _several(table, seen, legal)
    if phase != "turn":
        return legal[int(rng.random() * len(legal))]
    counts = _counts(table, seen["counters"])
    if type(legal) is TurnChoices:
        return _turn(table, me, seen, legal, rng, counts)
    ordered: list[int] | None = None  # the unseen defences, worked out at the first battle listed (if any)
    by_size: dict[int, dict[int, float]] = {}  # a target's hand size → attack → the odds of a steal
    listed: list[Any] = []  # the actions as they are listed (``legal`` may make them as it is read)
    scores: list[float] = []
    keep, score = listed.append, scores.append
    cards, sizes = table.cards, seen["hand_sizes"]
    winning = counts[me] + 1 >= _needed(seen, me)
    weapons, treasures = _weapons(table)  # weapon design → (its attack, 0.3 × what using it costs); treasure
    # design → (``treasure_worth``, whether it is an ingredient)
    treasure = target = gain = chances = None
    for action in legal:
        keep(action)
        if type(action) is Attack:  # most of a turn's actions: ``_turn_score``'s battle, with its lookups kept
            # battles come treasure by treasure, each with every weapon: the treasure's part is the last one's
            if action.treasure is not treasure or action.target != target:
                treasure, target = action.treasure, action.target
                design = treasure.design
                kept = treasures.get(design)
                if kept is None:
                    kept = treasures[design] = (treasure_worth(table, design), cards[design].kind == "ingredient")
                gain, ingredient = kept
                if ingredient:
                    if winning:
                        gain = WIN / 4
                    gain += 2.0 * counts[target]
                size = sizes[target]
                chances = by_size.get(size)
                if chances is None:
                    chances = by_size[size] = {}
                if ordered is None:
                    ordered = _unseen_defences(table, seen)
            weapon = action.card.design
            used = weapons.get(weapon)
            if used is None:
                used = weapons[weapon] = ((cards[weapon].attack or 0), 0.3 * _use_cost(table, weapon))
            attack = used[0]
            chance = chances.get(attack)
            if chance is None:
                chance = chances[attack] = _odds(attack, ordered, size)
            score(chance * gain - used[1] - 0.5)
        else:
            score(_turn_score(table, me, seen, action, counts, ordered))
    bar = max(scores) - TIE
    best = [action for action, score in zip(listed, scores) if score >= bar]
    # one random number a decision, however many actions are listed: a card the player does not use leaves
    # the rest of its play (and its rng) as it was, so a paired game's twin is the same game (issue 42.3)
    return best[int(rng.random() * len(best))]


TIE = 1e-6
"""Scores within this of the best are a tie, broken by the decision's one random number."""
_BOUND = max
"""What bounds a rival's battles in ``_turn``: the gain of its treasure worth most (a test plants a wrong one)."""


def _turn(table: Any, me: int, seen: dict[str, Any], legal: TurnChoices, rng: random.Random, counts: list[int]) -> Any:
    """``greedy``'s turn over the rules' own listing (``TurnChoices``): every action scored as ``greedy`` scores it,
    the same floats, the same ties and the same choice, with the battles read as instance numbers. A battle scores
    ``chance * gain - cost - 0.5``, which never falls as the gain grows (a chance is never negative): the best
    score among a rival's battles is that of its treasure worth most, weapon by weapon, and its battles are gone
    through one by one, in the listing's order, only where that best is within ``TIE`` of the best of all. Only
    the battle chosen is built."""
    weapons, rows = legal.battle_parts()
    top = DRAW  # the almoina, listed first (``_turn_score``)
    blocks = []
    if weapons and any(treasures for _, treasures in rows):
        cards, sizes, designs = table.cards, seen["hand_sizes"], legal.designs
        winning = counts[me] + 1 >= _needed(seen, me)
        known_weapons, known_treasures = _weapons(table)
        used = []
        for weapon in weapons:
            name = designs[weapon]
            kept = known_weapons.get(name)
            if kept is None:
                kept = known_weapons[name] = ((cards[name].attack or 0), 0.3 * _use_cost(table, name))
            used.append(kept)
        ordered = _unseen_defences(table, seen)
        by_size: dict[int, dict[int, float]] = {}
        for target, treasures in rows:
            if not treasures:
                continue
            gains = []
            for treasure in treasures:
                name = designs[treasure]
                kept = known_treasures.get(name)
                if kept is None:
                    kept = known_treasures[name] = (treasure_worth(table, name), cards[name].kind == "ingredient")
                gain = kept[0]
                if kept[1]:
                    if winning:
                        gain = WIN / 4
                    gain += 2.0 * counts[target]
                gains.append(gain)
            most = _BOUND(gains)
            size = sizes[target]
            chances = by_size.get(size)
            if chances is None:
                chances = by_size[size] = {}
            odds = []
            best = None
            for attack, cost in used:
                chance = chances.get(attack)
                if chance is None:
                    chance = chances[attack] = _odds(attack, ordered, size)
                odds.append(chance)
                score = chance * most - cost - 0.5
                if best is None or score > best:
                    best = score
            if best > top:
                top = best
            blocks.append((target, treasures, gains, odds, best))
    rest = []
    for action in legal.after_battles():
        score = _turn_score(table, me, seen, action, counts, None)
        if score > top:
            top = score
        rest.append((action, score))
    bar = top - TIE
    chosen: list[Any] = [legal[0]] if DRAW >= bar else []
    listed = None
    for target, treasures, gains, odds, best in blocks:
        if best < bar:
            continue
        if listed is None:  # the weapons in the listing's order, with their chances found above
            order = {weapon: k for k, weapon in enumerate(weapons)}
            listed = [(weapon, order[weapon]) for weapon in legal.in_order(weapons)]
        gain_of = dict(zip(treasures, gains))
        for treasure in legal.in_order(treasures):
            gain = gain_of[treasure]
            for weapon, k in listed:
                if odds[k] * gain - used[k][1] - 0.5 >= bar:
                    chosen.append((target, treasure, weapon))
    chosen += [action for action, score in rest if score >= bar]
    pick = chosen[int(rng.random() * len(chosen))]
    return legal.battle(*pick) if type(pick) is tuple else pick


def _respond(me: int, seen: dict[str, Any], legal: Sequence[Any]) -> Any:
    """Answer (a cancel) what a rival does: a battle called against me, or a card a rival played; else pass."""
    _, event, actor, _ = seen["asked"]
    answers = [a for a in legal if type(a).__name__ == "Respond"]
    if answers and actor != me:
        return answers[0]
    return next(a for a in legal if type(a).__name__ == "Pass")


def _choose(table: Any, me: int, seen: dict[str, Any], legal: Sequence[Any], rng: Any) -> Any:
    """A verb's target: the own treasure worth most (to protect), the map or cemetery card worth most, the leader among
    rivals; a blind pick, a terreta or a host by chance."""
    kind = seen["asked"][1]
    if kind == "treasure" and seen["asked"][-1] == "own":
        return max(legal, key=lambda a: (treasure_worth(table, a.card.design), a.notation()))
    if kind == "treasure":  # a host to attach to: my own treasure worth most, else a rival's worth least
        def host(a: Any) -> tuple[bool, float, str]:
            worth = treasure_worth(table, a.card.design)
            return a.owner == me, worth if a.owner == me else -worth, a.notation()

        return max(legal, key=host)
    if kind in ("map", "cemetery"):
        return max(legal, key=lambda a: (treasure_worth(table, a.card.design), a.notation()))
    if kind == "player":
        counts = _counts(table, seen["counters"])
        return max(legal, key=lambda a: (counts[a.chosen], seen["hand_sizes"][a.chosen], a.notation()))
    return legal[int(rng.random() * len(legal))]


USE_IT = DRAW + 0.1
"""The least a special scores when played as the action while one of its verbs can act: a little more than an
almoina. Held, it does nothing (a burn takes it first, worth nothing), so a special that can act now is played
rather than kept, unless a move is worth more (issue 42.3: a card the agents never play cannot be judged)."""


def _play_score(table: Any, me: int, seen: dict[str, Any], design: str, counts: list[int]) -> float:
    """A special played as the action: what its verbs do from this position (``_verb_now``), less the card; at
    least ``USE_IT`` when one of them can act now."""
    score, acts = -0.5, False
    card = table.cards[design]
    for _, effect in card.triggered("played"):
        for verb in effect.do:
            worth, can = _verb_now(table, me, seen, card, verb, counts)
            if worth >= WIN:
                return WIN
            score += worth
            acts = acts or can
    return max(score, USE_IT) if acts else score


def _verb_now(table: Any, me: int, seen: dict[str, Any], card: Any, verb: Any, counts: list[int]) -> tuple[float, bool]:
    """(what ``verb`` of a special played now is worth, whether it can act from this position): every verb of
    the vocabulary, valued from the observation where it says more than ``worth.verbs_worth``."""
    name = verb.verb
    rivals = [who for who in range(len(seen["counters"])) if who != me]
    if name == "steal":
        loot = [(treasure_worth(table, _design(label)), who) for who in rivals for label in seen["counters"][who]]
        if not loot:
            return 0.0, False
        worth, who = max(loot)
        if worth >= INGREDIENT and counts[me] + 1 >= _needed(seen, me):
            return WIN, True
        return worth + 2.0 * counts[who], True
    if name == "discard":
        sizes = [seen["hand_sizes"][who] for who in rivals]
        lost = sum(min(size, size // 2 if verb.count == "half" else verb.count) for size in sizes)
        if verb.players == "you":
            return -0.5 * DRAW, False
        if verb.players != "rivals":  # the chosen rival: the one with most cards, about
            lost = lost / max(1, len(sizes))
        return 0.5 * DRAW * lost, lost > 0
    if name == "protect":  # a treasure kept: worth more the more the treasure is worth
        own = [treasure_worth(table, _design(label)) for label in seen["counters"][me]]
        return ODDS * max(own, default=0.0), bool(own)
    if name == "take-from-map":
        on_map = [treasure_worth(table, _design(label)) for label in seen.get("map", {}).values() if label]
        return max(on_map, default=0.0), bool(on_map)
    if name == "return-from-cemetery":  # the best card back (this one is still in the hand, not there)
        back = [max(treasure_worth(table, _design(label)), _card_worth(table, _design(label)), DRAW)
                for label in seen["cemetery"]]
        return max(back, default=0.0), bool(back)
    if name == "move-queen":
        spaces = list(seen.get("map", {}))
        foods = seen.get("foods") or []
        mine = foods[me] if me < len(foods) else "hidden"
        if mine not in ("hidden", None) and seen.get("queen") != mine and counts[me] >= 4:
            return WIN, True  # the Queen onto my own terreta: four ingredients win
        return verbs_worth([verb]), len(spaces) > 1
    if name == "look-at-hand":
        return verbs_worth([verb]), any(seen["hand_sizes"][who] for who in rivals)
    if name == "attach":  # onto one of my own treasures (an ingredient, when it must): its standing effects
        defs = [table.cards[_design(label)] for label in seen["counters"][me]]
        hosts = [d for d in defs if verb.to == "treasure" or d.kind == "ingredient"]
        return (effect_worth(card), True) if hosts else (0.0, False)
    if name == "several-battles":
        weapons = any(table.cards[_design(label)].battle for label in seen["hand"])
        loot = any(seen["counters"][who] for who in rivals)
        return verbs_worth([verb]), weapons and loot
    if name in ("draw", "coin", "extra-action", "win"):
        return verbs_worth([verb]), True
    return verbs_worth([verb]), False  # a battle's verbs (no battle while a turn's action is chosen), standing ones


def _card_worth(table: Any, design: str) -> float:
    card = table.cards[design]
    if card.battle:
        return max(card.attack or 0, card.defence or 0) + 0.1 * (card.attack or 0) + effect_worth(card)
    return 0.0


_WEAPONS: dict[int, tuple[Any, tuple[dict[str, tuple[int, float]], dict[str, tuple[float, bool]]]]] = {}


def _weapons(table: Any) -> tuple[dict[str, tuple[int, float]], dict[str, tuple[float, bool]]]:
    """What greedy's battles read of the cards, kept per table as each card is first met: weapon design → (its
    attack, 0.3 × ``_use_cost``: what a battle's score takes for using it), and treasure design →
    (``treasure_worth``, whether it is an ingredient)."""
    return per_object(_WEAPONS, table, lambda table: ({}, {}))


def _use_cost(table: Any, design: str) -> float:
    """What using a battle card loses: the card, unless it goes back to the hand after the battle."""
    memo = _memo(table)
    cost = memo.get(("use", design))
    if cost is None:
        cost = memo["use", design] = 0.0 if returns(table.cards[design]) else _card_worth(table, design)
    return cost


def _turn_score(table: Any, me: int, seen: dict[str, Any], action: Any, counts: list[int], ordered: list[int] | None,
                odds: dict[tuple[int, int], float] | None = None) -> float:
    """An action's one-step score (``ordered``: the unseen defences, None to work them out if a battle needs them)."""
    kind = type(action).__name__
    if kind == "Almoina":
        return DRAW
    if kind == "Sell":
        card = table.cards[action.card.design]
        return DRAW * 1.2 * (card.sell or 0) - 0.5
    if kind == "Move":
        label = seen["map"].get(action.space)
        if not label:
            return 0.0
        design = _design(label)
        card = table.cards[design]
        score = DRAW * 1.1 if not card.treasure else treasure_worth(table, design)
        if card.kind == "ingredient" and counts[me] + 1 >= _needed({**seen, "queen": action.space}, me):
            score = WIN
        if "realm" in card.icons:
            score += 2 * DRAW
        return score
    if kind == "Play":
        return _play_score(table, me, seen, action.card.design, counts)
    if kind == "Attack":
        card = table.cards[action.card.design]
        design = action.treasure.design
        gain = treasure_worth(table, design)
        if table.cards[design].kind == "ingredient":
            if counts[me] + 1 >= _needed(seen, me):
                gain = WIN / 4  # a win if undefended: worth trying whatever the odds
            gain += 2.0 * counts[action.target]  # taking from the leader holds them back
        key = (card.attack or 0, seen["hand_sizes"][action.target])
        chance = odds.get(key) if odds is not None else None
        if chance is None:
            if ordered is None:
                ordered = _unseen_defences(table, seen)
            chance = _odds(key[0], ordered, key[1])
            if odds is not None:
                odds[key] = chance
        return chance * gain - 0.3 * _use_cost(table, action.card.design) - 0.5
    return 0.0


def _defend(table: Any, me: int, seen: dict[str, Any], legal: Sequence[Any]) -> Any:
    battle = seen["battle"]
    worth = treasure_worth(table, _design(battle["treasure"]))
    cards = [a for a in legal if type(a).__name__ == "Defend"]
    refuse = next(a for a in legal if type(a).__name__ == "NoDefence")
    if not cards:
        return refuse
    if battle["attack"] != "hidden":  # a face-up attack: the cheapest card that stops it
        attack = table.cards[_design(battle["attack"])].attack or 0
        stopping = [a for a in cards if (table.cards[a.card.design].defence or 0) >= attack]
        if not stopping:
            return refuse
        return min(stopping, key=lambda a: (_use_cost(table, a.card.design), a.notation()))
    strongest = max(cards, key=lambda a: (table.cards[a.card.design].defence or 0, a.notation()))
    if worth >= INGREDIENT or (table.cards[strongest.card.design].defence or 0) >= 3 and worth >= 3:
        return strongest
    return refuse


def _several(table: Any, seen: dict[str, Any], legal: Sequence[Any]) -> Any:
    """A battle of several: call every rival (one attack card serves all), each for their best treasure, then
    attack with the strongest card; defend with the strongest card when the treasure is worth it."""
    kinds = {type(a).__name__ for a in legal}
    if "Call" in kinds:
        calls = [a for a in legal if type(a).__name__ == "Call"]
        return max(calls, key=lambda a: (treasure_worth(table, a.treasure.design), a.notation()))
    if "AttackWith" in kinds:
        return max(legal, key=lambda a: (table.cards[a.card.design].attack or 0, a.notation()))
    me, called = seen["you"], seen["battle"]["called"]
    treasure = next(label for rival, label in called if rival == me)
    return _defend(table, me, {**seen, "battle": {"treasure": treasure, "attack": "hidden"}}, legal)


# --- search support ------------------------------------------------------------------------------------

def determinize(table: Any, seen: dict[str, Any], rng: random.Random) -> Any:
    """A state consistent with ``seen``: the hidden cards (rivals' hands, the deck, a face-down attack) and
    hidden territorial foods dealt at random. What an observation does not show (a refused paella) starts
    empty: the state's own default; the queue of pending steps and the decision asked are shown, and kept."""
    return determinizer(table, seen)(rng)


def determinizer(table: Any, seen: dict[str, Any]) -> Callable[[random.Random], Any]:
    """``determinize`` for one observation, many times: what every draw shares (the visible cards, the
    unseen ones in number order, the fields ``seen`` gives) is worked out once, so a draw only shuffles and
    deals. Each draw takes the same chance, in the same order, as ``determinize`` always has."""
    return _determinizations(table, seen)[0]


def determinized_playouts(table: Any, seen: dict[str, Any]) -> Callable[[random.Random], Any]:
    """``determinizer``'s draws, each already the rules' playout in place (``rules.playout`` of the state
    drawn): the draft is dealt directly, without the frozen state a thaw would copy again, and with the
    counters' tallies counted once (counters are public, the same in every draw). The same chance is taken."""
    return _determinizations(table, seen)[1]


def _determinizations(table: Any, seen: dict[str, Any]) -> tuple[Callable[[random.Random], Any], ...]:
    """(``determinizer``, ``determinized_playouts``) of ``seen``: one setup, one deal."""
    rules = table.rules
    designs = rules.deck_designs()
    me = player_index(seen["you"])  # the observation names players as scenarios do (``p1``…)
    visible: set[int] = set()
    hand = tuple(map(_instance, seen["hand"]))
    counters = tuple(tuple(map(_instance, c)) for c in seen["counters"])
    cemetery = tuple(map(_instance, seen["cemetery"]))
    laying = tuple(map(_instance, seen.get("laying", ())))
    spaces = tuple(seen.get("map", {}))
    layout = tuple(_instance(v) if v else -1 for v in seen.get("map", {}).values())
    visible.update(hand, cemetery, laying, *counters)
    visible.update(i for i in layout if i >= 0)
    visible.update(mark[1] for mark in seen.get("marks") or () if mark[0] == "attach")  # attached: in play
    battle = seen.get("battle")
    attack = None
    several = battle if battle and "called" in battle else None  # a battle of several (``revolta``): no battle
    if several:
        battle = None
    marks = deep_tuple(seen.get("marks") or [])
    down = next((k for k, mark in enumerate(marks) if mark[0] == "face-down"), None)  # its attack, which card unsaid
    if several:
        visible.update(mark[2] for mark in marks if mark[0] in ("shown", "defence"))
        if several["yours"] and down is not None:  # my own attack: I know it
            mine = _instance(several["yours"][0])
            visible.add(mine)
            marks = marks[:down] + ((*marks[down][:2], mine),) + marks[down + 1:]
            down = None
    if battle:
        visible.add(_instance(battle["treasure"]))
        if battle["attack"] != "hidden":
            attack = _instance(battle["attack"])
            visible.add(attack)
    resolving = bool(battle) and "defence" in battle  # the defence is chosen (public): a window before it resolves
    defence = _instance(battle["defence"]) if resolving and battle["defence"] is not None else None
    if defence is not None:
        visible.add(defence)
    unseen_in_order = [i for i in range(len(designs)) if i not in visible]
    cards = [table.cards[d] for d in designs]
    treasure = [c.treasure for c in cards]
    is_treasure = treasure.__getitem__
    fighting = [c.battle for c in cards]
    face_down = bool(battle) and attack is None or down is not None
    sizes = [0 if who == me else size for who, size in enumerate(seen["hand_sizes"])]
    winner = None if seen["winner"] is None else player_index(seen["winner"])
    seen_foods = list(seen.get("foods") or [])
    free_spaces = [s for s in spaces if s not in seen_foods]
    fixed = {  # every field of ``State`` in its order (``built`` takes them whole); the dealt ones are set per draw
        "designs": designs, "hands": None, "counters": counters, "deck": None, "cemetery": cemetery,
        "current": player_index(seen["current"]), "phase": seen["phase"], "discord": rules.discord, "battle": None,
        "toss": None, "takes": None, "candidates": (), "winner": winner, "reason": seen["reason"],
        "turn": seen["turn"], "spaces": spaces, "map": layout, "queen": seen.get("queen"), "laying": laying,
        "foods": (), "revealed": tuple(f != "hidden" and p != me for p, f in enumerate(seen_foods)),
        "refused": (), "actions": seen.get("actions", 0), "again": seen.get("again"),
        "pending": deep_tuple(seen.get("pending") or []), "asked": deep_tuple(seen.get("asked")),
        "marks": marks,
    }  # the queue and the decision asked are public (a window's subject is a played card or a battle's treasure)
    weights = rules.facts(built({**fixed, "hands": (), "deck": ()})).tallies(counters)[0]
    # a paella can be complete (and so refused) only where the rules' own bound of valid ingredients allows it
    may_refuse = fixed["phase"] != "over" and bool(weights) and max(weights) >= (4 if seen_foods else 5)
    battle_fields = (player_index(battle["attacker"]), player_index(battle["target"]), _instance(battle["treasure"])) \
        if battle else None

    def deal(rng: random.Random) -> tuple[Any, ...]:
        """(hands as sorted lists, the deck, foods, the face-down attack dealt) of one draw."""
        unseen = unseen_in_order[:]
        shuffle(rng, unseen)
        dealt_attack = attack
        if face_down:  # the face-down attack is some unseen battle card
            dealt_attack = next(i for i in unseen if fighting[i])
            unseen.remove(dealt_attack)
        # hands hold no treasure (a treasure goes straight to its counter): deal rivals' hands from the rest
        loose = [*filterfalse(is_treasure, unseen)]
        hands, start = [], 0
        for who, size in enumerate(sizes):
            if who == me:
                hands.append([*hand])
                continue
            hands.append(sorted(loose[start:start + size]))
            start += size
        if start:
            deck = [*filterfalse(set(loose[:start]).__contains__, unseen)]
        else:
            deck = unseen
        foods: tuple[str, ...] = ()
        if seen_foods:
            free = free_spaces[:]
            rng.shuffle(free)
            foods = tuple(f if f != "hidden" else free.pop() for f in seen_foods)
        return hands, deck, foods, dealt_attack

    def draw(rng: random.Random) -> Any:
        hands, deck, foods, dealt_attack = deal(rng)
        fields = dict(fixed)
        fields["hands"], fields["deck"], fields["foods"] = tuple(map(tuple, hands)), tuple(deck), foods
        if battle_fields is not None:
            fields["battle"] = (*battle_fields, dealt_attack) + ((defence,) if resolving else ())
        elif down is not None:  # a rival's face-down attack in a battle of several
            fields["marks"] = marks[:down] + ((*marks[down][:2], dealt_attack),) + marks[down + 1:]
        state = built(fields)
        return _with_refused(rules, state) if may_refuse else state

    if may_refuse:  # a refused paella goes through the state (``_with_refused``): drawn and thawed
        return draw, lambda rng: rules.playout(draw(rng))
    facts = rules.deck_facts(designs)
    weights, sellables, on_counters = facts.tallies(counters)
    weights, sellables = tuple(weights), tuple(sellables)
    in_place = rules.in_place
    new_draft, copied = object.__new__, list
    current, phase, discord, reason, turn, queen, revealed, actions, again, pending, asked = map(fixed.get, (
        "current", "phase", "discord", "reason", "turn", "queen", "revealed", "actions", "again", "pending", "asked"))

    def playout(rng: random.Random) -> Any:
        """``rules.playout(draw(rng))``, field by field as ``thawed`` would set them."""
        hands, deck, foods, dealt_attack = deal(rng)
        draft = new_draft(Draft)
        draft.facts, draft.rng, draft.log, draft.subject = facts, None, [], None
        draft.hands, draft.deck, draft.foods = hands, deck, foods
        draft.counters = [*map(copied, counters)]
        draft.cemetery, draft.map = [*cemetery], [*layout]
        draft.weights, draft.sellables, draft.on_counters = [*weights], [*sellables], on_counters
        draft.designs, draft.current, draft.phase, draft.discord = designs, current, phase, discord
        draft.toss, draft.takes, draft.candidates, draft.winner, draft.reason = None, None, (), winner, reason
        draft.turn, draft.spaces, draft.queen, draft.laying = turn, spaces, queen, laying
        draft.revealed, draft.refused, draft.actions, draft.again = revealed, (), actions, again
        draft.pending, draft.asked, draft.marks, draft.battle = pending, asked, marks, None
        if battle_fields is not None:
            draft.battle = (*battle_fields, dealt_attack) + ((defence,) if resolving else ())
        elif down is not None:
            draft.marks = marks[:down] + ((*marks[down][:2], dealt_attack),) + marks[down + 1:]
        return in_place(draft)

    return draw, playout


def shuffle(rng: random.Random, items: list[Any]) -> None:
    """``rng.shuffle(items)``, the same order from the same random numbers, without a call per item: a
    search shuffles the cards it has not seen at every iteration (``random.Random`` itself only; a subclass,
    which may draw otherwise, shuffles as it does)."""
    if type(rng) is not random.Random:
        rng.shuffle(items)
        return
    compiled = kernel()  # where built (the same draws)
    if compiled is not None:
        compiled.shuffle(rng.getrandbits, items)
        return
    getrandbits = rng.getrandbits
    plan = _PLANS.get(len(items)) or _plan(len(items))
    for i, n, k in plan:  # ``Random.shuffle`` with ``_randbelow_with_getrandbits`` in line
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]


_PLANS: dict[int, tuple[tuple[int, int, int], ...]] = {}


def _plan(size: int) -> tuple[tuple[int, int, int], ...]:
    """(position, choices, random bits) of each exchange that shuffles ``size`` items, worked out once."""
    plan = _PLANS[size] = tuple((i, i + 1, (i + 1).bit_length()) for i in reversed(range(1, size)))
    return plan


def _with_refused(rules: Any, state: Any) -> Any:
    """``state`` with each complete paella on a counter recorded as refused. The observation does not show a
    refused paella, but it is the only complete one a game still going can hold (expansion 2's coin refused
    it; the invariant ``unnoticed_paellas`` says the same), so the sampled world keeps it waiting as the real
    one does instead of being a world in which a win went unnoticed."""
    if state.phase == "over":
        return state
    refused = []
    for who, counter in enumerate(state.counters):
        count, blocked, _ = rules.ingredients(state, who)
        territorial = bool(state.foods) and count >= 4 and state.queen == state.foods[who]
        refused.append(tuple(counter) if (count >= 5 or territorial) and not blocked else ())
    if not any(refused):
        return state
    return rules.load({**rules.dump(state), "refused": [list(c) for c in refused]})


_BY_WEIGHT: dict[int, tuple[Any, tuple[bool, ...]]] = {}


def _by_weight(facts: Any) -> tuple[bool, ...]:
    """Per instance, whether it adds exactly its ``Facts.weight`` to a valid ingredient count: every card but
    an ingredient that is forbidden (it may or may not count) or that may count as more than one (by its own
    effect, or by a special attached to it: its weight is then above 1). On a counter of such cards the count
    is the draft's tally of weights, with no effect to look at."""
    kept = _BY_WEIGHT.get(id(facts))
    if kept is None or kept[0] is not facts:
        flags = tuple(c.kind != "ingredient" or (c.category != "forbidden" and not c.doing("count-as-ingredients")
                                                 and facts.weight[i] == 1) for i, c in enumerate(facts.defs))
        kept = _BY_WEIGHT[id(facts)] = (facts, flags)
    return kept[1]


def evaluate(table: Any, state: Any) -> list[float]:
    """Each player's chances from a position: a softmax of their progress (valid ingredients first,
    then other treasures and cards in hand)."""
    if state.winner is not None:
        return [1.0 if p == state.winner else 0.0 for p in range(state.players)]
    if state.phase == "over":
        return [1.0 / state.players] * state.players
    rules = table.rules
    draft = type(state) is Draft
    facts = state.facts if draft else rules.facts(state)
    exact = _by_weight(facts) if draft else ()
    plain = facts.plain_count if not state.marks and not rules.bonuses else None
    plain_all = plain is not None and facts.all_plain
    compiled = kernel() if plain_all and draft else None
    if compiled is not None:  # the loop below, compiled (the same floats)
        return compiled.plain_chances(plain, state.counters, state.hands)
    scores = []
    for p in range(state.players):
        counter = state.counters[p]
        if plain_all:
            count = sum(map(plain.__getitem__, counter))
        elif plain is not None and None not in (values := [plain[i] for i in counter]):
            count = sum(values)
        elif draft and all(map(exact.__getitem__, counter)):
            count = state.weights[p]  # the draft's own tally, exact on such a counter
        else:
            count = rules.ingredients(state, p)[0]
        others = len(counter) - count
        scores.append(1.2 * count + 0.15 * others + 0.1 * len(state.hands[p]))
    top = max(scores)
    weights = [math.exp(s - top) for s in scores]
    total = sum(weights)
    return [w / total for w in weights]
