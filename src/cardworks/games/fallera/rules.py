"""La Fallera Calavera's rules: base game and the rules of expansion 2 ("discord").

Covered: setup (deal 7, or 10 with two players; re-deal on 3+ ingredients;
first player by fewest treasures, then fewest ingredients, then a chance
tie-break), treasures placed automatically, one action per turn (sell, battle,
almoina; more while a card such as the allioli persistent allows it), battles
(defend or not, attack must beat defence, both cards to the cemetery unless
one goes back to the hand, as the capità cristià may; Queixalets' attacker may
battle the same player once more or pass: phase ``again``), victory at the instant of 5 valid ingredients (cabeça d'alls and
other ``ingredient-value`` effects), deck exhaustion (reshuffle in the base
game; with expansion 2 the game ends and the ``wins-at-deck-exhaustion`` card
wins), xoriç blocking victory, seafood coin tosses (each tails lets the next
player take a hand card; a refused paella is offered again only when its
holder's turn starts, and such a turn is only the tosses), the gamba's
turn-start draw and the clòtxina's face-up battles; with
expansion 3, the Kingdom map (the first five cards, redrawn on two or more
ingredients), moving the Calavera Queen along accesses and taking the card,
refilling an emptied map at once (the player lays the five cards drawn where
they wish), the Realm symbol's extra action (after a turn's last action only), hidden
territorial foods and the win with 4 ingredients while the Queen is in your
terreta, on or off turn; in expert mode, burning cards before each turn and
the terreta bonuses (declared on the board's spaces). Not covered yet:
special cards and most card abilities; cards that need them are left out of
decks, each naming the facts the rulebooks do not give about it or the engine
feature it waits on (its ``missing`` and ``needs`` data).

The rules are written once, on mutable drafts (``state``): ``apply`` thaws a state, plays the action and
freezes the result; a playout without checks keeps one draft for a whole game. The step being played keeps
its chance on the draft (``Draft.rng``, set by ``apply``/``play``): no rule passes an rng along. Each action
kind has a check (the rule it would break, before anything changes) and an effect; actions that ``choices``
listed are legal by construction, so in-place playouts play their effects alone. Per-deck tables and the
lazily built turn choices are in ``facts``.

``FalleraRules`` is put together from one part per concern, each in its own module:

=============  ===============================================================================
``deal``       a new game: shuffle, map, deal, re-deals, who starts
``legality``   each action's check
``turns``      the turn's flow, draws, the deck running out, the queue of pending steps
``triggers``   card and terreta effects as queue steps (the verbs are played here)
``battles``    attack and defence values, calling a battle and its end
``kingdom``    the Kingdom map: the Queen's moves, taking a card, refilling the map
``victory``    valid ingredients, the win at the instant, the seafood coin tosses
``views``      observations, dump/load, scenario expectations, invariants
=============  ===============================================================================

This module joins them and holds the engine's protocol (whose decision it is, the legal actions, ``apply``).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from ...engine.base_rules import BaseRules
from ...engine.core import CHANCE, IllegalActionError, Outcome, Playout
from .actions import (Almoina, Attack, Burn, Coin, Defend, Discard, FalleraAction, First, Lay, Move, NoDefence, Pass,
                      Play, Respond, Sell, Take, Target, parse_action, player)
from .actions import (AttackWith, Call, Choose, Pick, TargetBattle, TargetCemetery, TargetMap, TargetTerreta,
                      TargetTreasure)
from .effects import RESPONSES
from .battles import Battles
from .cards import CardDef
from .deal import Deal
from .facts import Facts, TurnChoices
from .kingdom import Kingdom
from .legality import Checks
from .state import Draft, State, frozen, thawed
from .registry import REGISTRY
from .responses import Responses
from .revolta import SeveralBattlesRules
from .rollouts import Rollouts
from .triggers import Triggers
from .turns import TurnFlow
from .verbs import Verbs, protected
from .victory import Victory
from .views import Views
from .windows import Windows


@dataclass
class FalleraRules(Deal, Checks, Rollouts, TurnFlow, Triggers, Responses, Windows, Verbs, SeveralBattlesRules, Battles, Kingdom,
                   Victory, Views, BaseRules, state=State, actions=parse_action):
    """The rules, bound to the card definitions of one game configuration."""

    defs: dict[str, CardDef]
    players: int
    discord: bool
    board: dict[str, tuple[str, ...]] | None = None
    """Accesses of the map side in play, terreta → neighbours (expansion 3), in setup order."""
    bonuses: dict[str, tuple[Any, ...]] | None = None
    """What each terreta does while the Queen is there (expert mode)."""
    burning: bool = False
    """Expert mode: draw one and discard one hand card before each turn."""
    food_spaces: tuple[str, ...] = ()
    """The terretes that have a territorial food card, dealt one per player (Benidorm has none)."""
    setup_sources: dict[str, str] = field(default_factory=dict, compare=False)
    """Where the rulebooks state each setup rule a deal may be refused by (rule id → citation, ``deal``)."""
    _facts: dict[tuple[str, ...], Facts] = field(default_factory=dict, init=False, repr=False, compare=False)
    _last: tuple[tuple[str, ...], Facts] | None = field(default=None, init=False, repr=False, compare=False)
    _moves: dict[tuple[str | None, tuple[str, ...]], tuple[str, ...]] = field(default_factory=dict, init=False, repr=False, compare=False)
    _deck: tuple[str, ...] | None = field(default=None, init=False, repr=False, compare=False)
    _spare: list[tuple[State, Draft]] = field(default_factory=list, init=False, repr=False, compare=False)
    """The draft ``apply`` last played on, with the state it froze into (see ``apply``)."""
    _uses: bool = field(default=False, init=False, repr=False, compare=False)
    """Some card or terreta has effects when a card is used (else using one triggers nothing)."""
    _starts: bool = field(default=False, init=False, repr=False, compare=False)
    """Some terreta has effects at the start of a turn (cards' are in ``Facts.turn_start``)."""
    _card_events: frozenset[str] = field(default=frozenset(), init=False, repr=False, compare=False)
    _more_actions: bool = field(default=False, init=False, repr=False, compare=False)
    """Some card may allow more than one action a turn (``actions-per-turn``; else each action ends the turn)."""
    _returns: bool = field(default=False, init=False, repr=False, compare=False)
    """Some battle card may go back to the hand after a battle (``return-to-hand``; else all go to the cemetery)."""
    _again: bool = field(default=False, init=False, repr=False, compare=False)
    """Some battle card lets its attacker battle once more (``battle-again``; else a battle ends the action)."""
    _response_events: frozenset[str] = field(default=frozenset(), init=False, repr=False, compare=False)
    """The response windows some card of the deck answers (no other window is ever queued)."""
    _resolving: bool = field(default=False, init=False, repr=False, compare=False)
    """Some card answers a defence or a battle about to resolve (else a battle resolves as its defence is chosen)."""
    _turn_starts: bool = field(default=False, init=False, repr=False, compare=False)
    """Something happens at the start of a turn: a refused paella offered again (expansion 2), the expert burn,
    an effect (else a turn starts with its action)."""

    _plain_battles: bool = field(default=False, init=False, repr=False, compare=False)
    """A battle is its cards' printed values, with no window, use or return (see ``rollouts``)."""

    def __post_init__(self) -> None:
        terretes = [e for effects in (self.bonuses or {}).values() for e in effects]
        cards = [e for card in self.defs.values() for e in card.effects]
        self._uses = any(e.when.event == "card-used" for e in terretes + cards)
        self._starts = any(e.when.event == "turn-start" for e in terretes)
        self._card_events = frozenset(e.when.event for e in cards)
        self._response_events = self._card_events & frozenset(RESPONSES)
        self._resolving = bool(self._response_events & {"battle-resolving", "card-being-used"})
        self._more_actions = any(card.doing("actions-per-turn") for card in self.defs.values())
        self._returns = any(card.doing("return-to-hand") for card in self.defs.values())
        self._again = any(card.doing("battle-again") for card in self.defs.values())
        self._turn_starts = self.discord or self.burning or self._starts or "turn-start" in self._card_events
        self._plain_battles = not (self._uses or self._resolving or self._returns or self._again or self.bonuses
                                   or self._response_events & {"battle-called", "treasure-changing-hands"})

    def facts(self, state: State) -> Facts:
        """The per-instance facts of ``state``'s deck (built on first use; the last one is at hand)."""
        last = self._last
        if last is not None and last[0] is state.designs:
            return last[1]
        return self.deck_facts(state.designs)

    def deck_facts(self, designs: tuple[str, ...]) -> Facts:
        """The per-instance facts of the deck whose instance ``n`` is of design ``designs[n]``."""
        facts = self._facts.get(designs)
        if facts is None:
            facts = self._facts[designs] = Facts(self.defs, self.players, designs)
        self._last = (designs, facts)
        return facts

    def card(self, state: State, instance: int) -> CardDef:
        return self.defs[state.designs[instance]]

    def actor(self, state: State) -> int | None:
        phase = state.phase
        if phase == "over":
            return None
        if state.takes is not None or phase in _CHANCE_PHASES:
            return CHANCE
        if phase == "defend":
            return state.battle[1]
        if state.asked is not None:  # respond, target, discard
            return state.asked[0]
        return state.current

    def legal_actions(self, state: State) -> list[FalleraAction]:
        return list(self.choices(state))

    def choices(self, state: State) -> Sequence[FalleraAction]:
        """The legal actions, sorted by notation, as a sequence that builds an action only when it is
        looked at (a random playout looks at one; ``legal_actions`` lists them all)."""
        phase = state.phase
        if state.takes is None and (phase == "turn" or phase == "defend"):  # by far the most common
            facts = state.facts if type(state) is Draft else self.facts(state)
            if phase == "turn":
                listed = TurnChoices(facts, state, self._queen_moves(state, facts, state.current) if state.spaces else ())
                return self._unprotected(state, listed) if state.marks else listed
            target = state.battle[1]  # defend
            weapons = state.hands[target]
            if not facts.hands_all_battle:
                battle = facts.battle
                weapons = [i for i in weapons if battle[i]]
            if not facts.in_number_order:
                weapons = facts.in_order(weapons)
            actions = list(map(facts.defends[target].__getitem__, weapons))
            actions.append(facts.no_defence[target])  # "pN defend …" sorts before "pN no-defence"
            return actions
        if phase == "over":
            return ()
        facts = self.facts(state)
        if state.takes is not None:
            taker, victim, _ = state.takes
            takes = facts.row(Take, taker, victim)
            return [takes[i] for i in facts.in_order(state.hands[victim])]
        if phase in _COIN_PHASES:
            return _COINS
        if phase == "burn":
            burns = facts.row(Burn, state.current)
            return [burns[i] for i in facts.in_order(state.hands[state.current])]
        if phase == "first":
            return [facts.plain(First, p) for p in sorted(state.candidates, key=player)]
        if phase == "again":  # one more battle against the same player, or pass
            me, target = state.current, state.again
            weapons = [i for i in facts.in_order(state.hands[me]) if facts.battle[i]]
            battles = [facts.attack(me, target, treasure, weapon)
                       for treasure in facts.in_order(state.counters[target]) for weapon in weapons]
            listed = sorted(battles + [facts.plain(Pass, me)], key=lambda action: action.notation())
            return self._unprotected(state, listed) if state.marks else listed
        if phase == "choose":
            return self._choose_options(state, facts)
        if phase == "several":
            return self._several_options(state, facts)
        if state.asked is not None:
            return self._asked_choices(state, facts)
        if phase == "lay":
            empty = [space for space, slot in zip(state.spaces, state.map) if slot < 0]
            lays = (Lay(state.current, facts.refs[i], space) for i in state.laying for space in empty)
            return sorted(lays, key=Lay.notation)
        return ()

    def _unprotected(self, state: State, listed: Sequence[FalleraAction]) -> Sequence[FalleraAction]:
        """``listed`` without the battles for a treasure a ``protect`` covers (``verbs``)."""
        covered = protected(state)
        if not covered:
            return listed
        return [a for a in listed if type(a) is not Attack or a.treasure.number not in covered]

    def apply(self, state: State, action: FalleraAction, *, rng: random.Random | None = None) -> State:
        """The state after ``action``; IllegalActionError names the rule it breaks.

        The draft a step played on is kept with the state it froze into: a game stepped through ``apply``
        (``check``'s playouts) plays its next step from that state, on that draft, without thawing it again. The
        draft is taken by one ``apply`` only (``list.pop``), so it is never played twice."""
        spare = self._spare
        try:
            last, draft = spare.pop()
        except IndexError:  # none kept, or another thread took it
            last = None
        if last is state:  # the draft is at this very state: ``thawed(state)`` would be its equal
            draft.log, draft.subject = [], None
        else:
            draft = thawed(state, self.facts(state))
        self.play(draft, action, rng)
        after = frozen(draft)
        self._spare = [(after, draft)]
        return after

    def play(self, draft: Draft, action: FalleraAction, rng: random.Random | None = None) -> None:
        """``apply`` in place: ``action`` changes ``draft``, or is refused before anything changes. Its
        chance (a reshuffle) comes from ``rng``, which the step keeps on the draft (``Draft.rng``)."""
        phase = draft.phase
        if phase == "over":
            raise IllegalActionError(action.notation(), "game-over", "the game is over")
        if draft.takes is None and (phase == "turn" or phase == "defend"):  # most steps: as ``actor`` says
            actor = draft.current if phase == "turn" else draft.battle[1]
        else:
            actor = self.actor(draft)
        kind = type(action)
        if kind in _CHANCE_ACTIONS:
            if actor != CHANCE:
                raise IllegalActionError(action.notation(), "not-chance", "no chance outcome is due now")
        elif actor == CHANCE:
            raise IllegalActionError(action.notation(), "chance-pending",
                                     "a chance outcome (coin, pick, tie-break) comes first")
        elif getattr(action, "player", None) != actor:
            raise IllegalActionError(action.notation(), "not-your-turn", f"it is {player(actor)}'s decision")
        _CHECKS[kind](self, draft, action)
        draft.rng = rng
        _EFFECTS[kind](self, draft, action)

    def playout(self, state: State) -> Playout:
        """``state`` played in place on a draft of its own: a playout without checks takes no copy per step."""
        draft = thawed(state, self.facts(state))
        return Playout(partial(self.choices, draft), partial(self._play_listed, draft), partial(frozen, draft))

    def _play_listed(self, draft: Draft, action: FalleraAction, rng: random.Random | None) -> None:
        """``play`` for an action ``choices`` listed for ``draft``: legal by construction, so only its
        effect is left to play (checked playouts go through ``apply``, whose checks lead to the same
        effects, and try listed actions there at every step)."""
        draft.rng = rng
        _EFFECTS[type(action)](self, draft, action)

    def outcome(self, state: State) -> Outcome | None:
        """How the game ended (the winner, or nobody when the deck ran out with no fideuà held)."""
        if state.phase != "over":
            return None
        return Outcome(state.reason, () if state.winner is None else (state.winner,))


_COINS = (Coin(True), Coin(False))
"""The humour coin's outcomes in notation order ("coin heads" < "coin tails")."""
_COIN_PHASES = frozenset({"toss", "effect-coin"})
_CHANCE_PHASES = _COIN_PHASES | {"first"}
_CHANCE_ACTIONS = frozenset({Coin, Take, First})
_KINDS = (Almoina, Sell, Attack, Defend, NoDefence, Pass, Coin, Take, First, Move, Burn, Lay, Play, Respond, Target,
          Discard, Choose, Pick, TargetBattle, TargetMap, TargetTerreta, TargetTreasure, Call, AttackWith, TargetCemetery)
_DEFENCES = (Defend, NoDefence)
FalleraRules._steps = {"draw": FalleraRules.draw_cards, "end-action": FalleraRules._end_action,
                       "next-turn": FalleraRules._next_turn, "refill": FalleraRules._refill,
                       "end-move": FalleraRules._end_move, "burn": FalleraRules._burn, "verbs": FalleraRules._verbs,
                       "again": FalleraRules._offer_again, "grant": FalleraRules._grant,
                       "window": FalleraRules._open_window, "answer": FalleraRules._answer,
                       "defend-now": FalleraRules._defend_now, "guard-end": FalleraRules._guard_end,
                       "sell": FalleraRules._sell_step, "resolve": FalleraRules._resolve_step,
                       "move-treasure": FalleraRules._move_treasure, "move-queen": FalleraRules._move_queen,
                       "several-battle": FalleraRules._several_battle, "several-end": FalleraRules._several_end}
_CHECKS = {kind: getattr(FalleraRules, f"_check_{kind.__name__.lower()}") for kind in _KINDS}
_EFFECTS = {kind: getattr(FalleraRules, f"_play_{kind.__name__.lower()}") for kind in _KINDS if kind not in _DEFENCES}


def _defence(rules: FalleraRules, draft: Draft, action: Defend | NoDefence) -> None:
    """A defence: of the battle called (phase ``defend``), or of a battle of several (``revolta``)."""
    if draft.phase == "defend":
        rules._play_defence(draft, action)
    else:
        rules._play_several_defence(draft, action)


_EFFECTS.update(dict.fromkeys(_DEFENCES, _defence))
"""Each action type's check and effect (looked up once, not by name at each step)."""
FalleraRules._effect_of = _EFFECTS
REGISTRY.seal()  # every part of the rules is defined: each member of the vocabulary must have its handler
