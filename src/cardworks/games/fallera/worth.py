"""What a card's effects are worth to the greedy player: every verb the engine plays has a value here.

A heuristic's estimate, from the card's public definition only: acting verbs are valued by what they give
(a drawn card is worth an almoina, a win is a win), a trigger that acts every turn by a few turns of it, and
standing verbs by what they change (an ingredient more, a battle stronger). ``WORTH`` names every verb of
the vocabulary, so a verb added to the engine without a value here fails a test instead of being ignored.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

WIN, INGREDIENT, DRAW = 1000.0, 10.0, 1.0
TURNS_AHEAD = 3
"""How many of its holder's turns a turn-start effect is counted for."""
ODDS = 0.5
"""How likely a standing effect's condition holds (another card on the counter, the Queen somewhere)."""

WORTH: dict[str, str] = {
    "draw": "a drawn card each", "coin": "half of each branch", "extra-action": "one more action (a draw)",
    "win": "a win", "count-as-ingredients": "the ingredients it adds", "valid-ingredient": "an ingredient",
    "modify-stat": "its bonus, as a draw per point", "actions-per-turn": "an ingredient",
    "return-to-hand": "using the battle card costs nothing (heuristics._card_worth)",
    "battle-again": "a second battle (a draw)", "face-up-attacks": "nothing: it only shows attacks",
    "as-its-type": "nothing beyond its type", "restates-terreta-bonus": "nothing: the terreta's effect is the board's",
    "part-of": "nothing: the named card's effects are valued there",
    "steal": "a rival's treasure: an ingredient at the odds (played, heuristics._play_score weighs the best one)",
    "discard": "half a draw per card each rival loses (less for your own)", "cancel": "a draw: a rival's play undone",
    "protect": "an ingredient at the odds: a treasure kept (played, heuristics._play_score weighs the best one)",
    "set-stat": "a draw: a battle turned", "swap-stats": "half a draw: a battle perhaps turned",
    "look-at-hand": "a tenth of a draw: what it shows", "take-from-map": "an ingredient at the odds",
    "move-queen": "half a draw: the Queen placed", "attach": "nothing of its own: the card stays in play",
    "choose-player": "nothing of its own: the verbs after it are valued",
    "several-battles": "as a steal: at least one rival's treasure at the odds",
    "return-from-cemetery": "a draw: a card of your choice back (played, heuristics._play_score weighs the best one)",
}
"""Every verb, with how the greedy player values it (for a reader and the test that checks the vocabulary)."""


def verbs_worth(verbs: Sequence[Any]) -> float:
    """What playing ``verbs`` once gives."""
    total = 0.0
    for verb in verbs:
        name = verb.verb
        if name == "draw":
            total += DRAW * verb.count
        elif name == "coin":
            total += 0.5 * verbs_worth(verb.heads) + 0.5 * verbs_worth(verb.tails)
        elif name in ("extra-action", "battle-again"):
            total += DRAW
        elif name == "win":
            total += WIN
        elif name == "count-as-ingredients":
            total += ODDS * INGREDIENT * max(0, verb.value - 1)
        elif name == "valid-ingredient":
            total += ODDS * INGREDIENT
        elif name == "modify-stat":
            total += ODDS * DRAW * (verb.attack + verb.defence)
        elif name == "actions-per-turn":
            total += INGREDIENT
        elif name in ("steal", "several-battles"):  # a battle of several: at least one treasure at the odds
            total += ODDS * INGREDIENT
        elif name == "discard":
            total += 0.5 * DRAW * (2 if verb.count == "half" else verb.count) * (-1 if verb.players == "you" else 1)
        elif name in ("cancel", "set-stat", "return-from-cemetery"):
            total += DRAW
        elif name in ("protect", "take-from-map"):
            total += ODDS * INGREDIENT
        elif name in ("swap-stats", "move-queen"):
            total += 0.5 * DRAW
        elif name == "look-at-hand":
            total += 0.1 * DRAW
    return total


_KEPT: dict[int, tuple[Any, float, bool]] = {}
"""Card definition (by identity) → (it, its effects' worth, whether it returns): worked out once per card."""


def effect_worth(card: Any) -> float:
    """What a card's effects add to holding it (at most a win)."""
    return _kept(card)[1]


def returns(card: Any) -> bool:
    """The battle card goes back to its user's hand after a battle: using it costs nothing."""
    return _kept(card)[2]


def _kept(card: Any) -> tuple[Any, float, bool]:
    kept = _KEPT.get(id(card))
    if kept is None or kept[0] is not card:
        if len(_KEPT) > 4096:
            _KEPT.clear()
        kept = _KEPT[id(card)] = (card, _worth(card), any(v.verb == "return-to-hand" for e in card.effects for v in e.do))
    return kept


def _worth(card: Any) -> float:
    worth = 0.0
    for effect in card.effects:
        event = effect.when.event
        value = verbs_worth(effect.do)
        worth += value * (TURNS_AHEAD if event == "turn-start" else ODDS if event == "deck-runs-out" else 1.0)
    return min(worth, WIN)

