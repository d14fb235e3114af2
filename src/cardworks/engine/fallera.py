"""La Fallera Calavera's rules: base game and the rules of expansion 2 ("discord").

Covered: setup (deal 7, or 10 with two players; re-deal on 3+ ingredients;
first player by fewest treasures, then fewest ingredients, then a chance
tie-break), treasures placed automatically, one action per turn (sell, battle,
almoina), battles (defend or not, attack must beat defence, both cards to the
cemetery), victory at the instant of 5 valid ingredients (cabeça d'alls and
other ``ingredient-value`` effects), deck exhaustion (reshuffle in the base
game; with expansion 2 the game ends and the ``wins-at-deck-exhaustion`` card
wins), xoriç blocking victory, seafood coin tosses (each tails lets the next
player take a hand card; a refused paella is offered again only when its
holder's turn starts, and such a turn is only the tosses), the gamba's
turn-start draw and the clòtxina's face-up battles; with
expansion 3, the Kingdom map (the first five cards, redrawn on two or more
ingredients), moving the Calavera Queen along accesses and taking the card,
refilling an emptied map at once, the Realm symbol's extra action, hidden
territorial foods and the win with 4 ingredients while the Queen is in your
terreta, on or off turn; in expert mode, burning cards before each turn and
the terreta bonuses (declared on the board's spaces). Not covered yet:
special cards, most card abilities, and the player's free placement when
refilling the map (cards go in setup order); cards that need them are left
out of decks with a reason.
"""

from __future__ import annotations

import random
from bisect import bisect
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import chain
from typing import Any, Iterator

from .core import CHANCE, IllegalActionError, player_index
from .fallera_actions import (Almoina, Attack, Burn, Card, Coin, Defend, FalleraAction, First, Move, NoDefence,
                              Sell, Take, parse_action, player)
from .fallera_cards import CardDef

MAX_REDEALS = 100
MAX_KEPT_ACTIONS = 50_000
"""Battles a deck's ``Facts`` keeps for reuse before starting afresh (there can be millions)."""


@dataclass(frozen=True)
class State:
    """A position. Card instances are numbers; ``designs[n]`` is the design of instance ``n``."""

    designs: tuple[str, ...]
    hands: tuple[tuple[int, ...], ...]
    counters: tuple[tuple[int, ...], ...]
    deck: tuple[int, ...]
    """Top of the deck first."""
    cemetery: tuple[int, ...]
    current: int
    phase: str
    """``turn``, ``defend``, ``toss``, ``turn-coin``, ``first`` or ``over``."""
    discord: bool
    """Expansion 2's rules are in play."""
    battle: tuple[int, int, int, int] | None = None
    """(attacker, target, treasure, attack card) while a battle waits for its defence."""
    toss: tuple[int, int, bool, str] | None = None
    """(player, tosses left, all heads so far, then): ``then`` is ``next`` (the turn passes after the
    tosses) or ``continue`` (tosses met at the start of a turn, which goes on if they fail)."""
    takes: tuple[int, int, int] | None = None
    """(taker, victim, cards still to take) after tails."""
    candidates: tuple[int, ...] = ()
    """Players tied for first, while the tie-break is pending."""
    winner: int | None = None
    reason: str | None = None
    turn: int = 0
    spaces: tuple[str, ...] = ()
    """Terretes of the Kingdom map in setup order (expansion 3); empty without the map."""
    map: tuple[int, ...] = ()
    """The card on each terreta, ``-1`` where it is empty."""
    queen: str | None = None
    """Where the Calavera Queen stands (``start`` before her first move)."""
    foods: tuple[str, ...] = ()
    """Each player's territorial food: the terreta it belongs to (hidden unless revealed)."""
    revealed: tuple[bool, ...] = ()
    refused: tuple[tuple[int, ...], ...] = ()
    """Per player (empty until a paella is refused), the counter whose paella the coin refused: the
    same paella is offered again only at the start of its holder's next turn (rulebook 2, lines 18-19)."""

    @property
    def players(self) -> int:
        return len(self.hands)


class Facts:
    """What the hot paths ask of each card instance of one deck, by instance number.

    Built once per deck (the rules keep it): a step indexes tuples instead of resolving a
    design, its definition and its effects each time. Actions are built once too, and
    reused, since a game keeps offering the same ones.
    """

    def __init__(self, rules: FalleraRules, designs: tuple[str, ...]) -> None:
        defs = tuple(rules.defs[d] for d in designs)
        self.defs = defs
        self.labels = tuple(f"{d}#{i}" for i, d in enumerate(designs))
        """Each instance as the notation and observations write it."""
        self.refs = tuple(Card(d, i) for i, d in enumerate(designs))
        self.instances = frozenset(range(len(designs)))
        rank = [0] * len(designs)
        for position, instance in enumerate(sorted(range(len(designs)), key=self.labels.__getitem__)):
            rank[instance] = position
        self.rank = tuple(rank)
        """Position of each instance's label in notation order (zones are kept in number order)."""
        self.in_number_order = rank == list(range(len(designs)))
        self.treasure = tuple(c.treasure for c in defs)
        self.battle = tuple(c.battle for c in defs)
        self.sellable = tuple(c.kind == "sellable" for c in defs)
        self.hands_all_battle = all(c.treasure or c.battle for c in defs)
        """Every card that goes to a hand is a battle card: a hand is its own list of weapons."""
        present = set(designs)
        self.weight = tuple(_most_valid(c, rules.players, present) for c in defs)
        """The most an instance can add to a valid ingredient count: a quick bound before counting."""
        self.heaviest = max(self.weight, default=0)
        self.points = {stat: tuple(getattr(c, stat) for c in defs) for stat in ("attack", "defence")}
        """A battle card's printed attack and defence."""
        self.face_up = tuple(bool(c.effect("attacked-face-up")) for c in defs)
        self.coin_draw = tuple(bool(c.effect("turn-start-coin-draw")) for c in defs)
        self._rows: dict[tuple[Any, ...], tuple[FalleraAction, ...]] = {}
        self._attacks: dict[tuple[int, int, int, int], FalleraAction] = {}

    def in_order(self, instances: tuple[int, ...] | list[int]) -> tuple[int, ...] | list[int]:
        """``instances`` (in number order) in notation order."""
        return instances if self.in_number_order else sorted(instances, key=self.rank.__getitem__)

    def row(self, kind: type, *players: int) -> tuple[FalleraAction, ...]:
        """``kind(*players, card)`` (``Sell``, ``Defend``, ``Burn``, ``Take``) for every instance, by
        instance number: built once, then a step only indexes it."""
        row = self._rows.get((kind, *players))
        if row is None:
            row = self._rows[(kind, *players)] = tuple(kind(*players, ref) for ref in self.refs)
        return row

    def plain(self, kind: type, *args: Any) -> FalleraAction:
        """``kind(*args)`` for an action that names no card (``Almoina(p)``, ``Move(p, space)``…), built once."""
        action = self._rows.get((kind, *args))
        if action is None:
            action = self._rows[(kind, *args)] = kind(*args)
        return action

    def attack(self, me: int, target: int, treasure: int, card: int) -> FalleraAction:
        """``Attack`` for instance numbers, built once (while fewer than ``MAX_KEPT_ACTIONS`` are kept)."""
        key = (me, target, treasure, card)
        action = self._attacks.get(key)
        if action is None:
            if len(self._attacks) >= MAX_KEPT_ACTIONS:  # many long games: start afresh rather than grow
                self._attacks.clear()
            action = self._attacks[key] = Attack(me, target, self.refs[treasure], self.refs[card])
        return action


def _most_valid(card: CardDef, players: int, present: set[str]) -> int:
    """An upper bound of what ``card`` adds to a valid ingredient count with ``players`` players and a
    deck of the ``present`` designs."""
    if card.kind != "ingredient":
        return 0
    return max([1] + [e.value for e in card.effect("ingredient-value")
                      if (not e.players or players in e.players) and (e.with_card is None or e.with_card in present)])


@dataclass
class FalleraRules:
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
    _facts: dict[tuple[str, ...], Facts] = field(default_factory=dict, init=False, repr=False, compare=False)
    _last: tuple[tuple[str, ...], Facts] | None = field(default=None, init=False, repr=False, compare=False)
    _moves: dict[tuple[str | None, tuple[str, ...]], tuple[str, ...]] = field(default_factory=dict, init=False, repr=False, compare=False)
    _deck: tuple[str, ...] | None = field(default=None, init=False, repr=False, compare=False)

    def facts(self, state: State) -> Facts:
        """The per-instance facts of ``state``'s deck (built on first use; the last one is at hand)."""
        last = self._last
        if last is not None and last[0] is state.designs:
            return last[1]
        facts = self._facts.get(state.designs)
        if facts is None:
            facts = self._facts[state.designs] = Facts(self, state.designs)
        self._last = (state.designs, facts)
        return facts

    def bonus(self, state: State, op: str) -> list[Any]:
        """Bonuses of the terreta where the Queen stands."""
        if not self.bonuses or state.queen not in self.bonuses:
            return []
        return [b for b in self.bonuses[state.queen] if b.op == op]

    def _use_draws(self, state: State, instance: int) -> int:
        """Cards the terreta's bonus draws for using ``instance`` (in a battle, or selling it)."""
        return sum(b.draw for b in self.bonus(state, "draw-after-use") if state.designs[instance] in b.cards)

    def value(self, state: State, instance: int, stat: str) -> int:
        """A battle card's attack or defence, with the terreta's bonus."""
        if not self.bonuses:
            return self.facts(state).points[stat][instance]
        card = self.facts(state).defs[instance]
        extra = sum(getattr(b, stat) for b in self.bonus(state, "stat-bonus") if card.id in b.cards)
        return getattr(card, stat) + extra

    # --- helpers --------------------------------------------------------------------------
    def card(self, state: State, instance: int) -> CardDef:
        return self.defs[state.designs[instance]]

    def _instance(self, state: State, card: Card, where: tuple[int, ...], action: FalleraAction, rule: str, place: str,
                  whose: int | None = None) -> int:
        """The instance number of ``card``, which must be ``where``; else the error says it is not
        ``place`` (with ``whose`` player name in its ``{}``)."""
        number = card.number
        if not 0 <= number < len(state.designs) or state.designs[number] != card.design:
            raise IllegalActionError(action.notation(), "no-such-card", f"there is no card {card} in this game")
        if number not in where:
            where_text = place if whose is None else place.format(player(whose))
            raise IllegalActionError(action.notation(), rule, f"{card} is not {where_text}")
        return number

    def ingredients(self, state: State, who: int) -> tuple[int, bool, int]:
        """Valid ingredient count, whether a forbidden ingredient blocks, and seafood count, on a counter."""
        counter = state.counters[who]
        defs = self.facts(state).defs
        designs = {state.designs[i] for i in counter}
        made_valid = {c for b in self.bonus(state, "valid-ingredient") for c in b.cards}
        count, blocked, seafood = 0, False, 0
        for instance in counter:
            card = defs[instance]
            if card.kind != "ingredient":
                continue
            if card.category == "forbidden" and card.id not in made_valid:
                blocked = blocked or self.discord
                continue
            value = 1
            for effect in card.effect("ingredient-value"):
                if (not effect.players or state.players in effect.players) and \
                        (effect.with_card is None or effect.with_card in designs):
                    value = effect.value
            count += value
            seafood += card.category == "seafood"
        return count, blocked, seafood

    def _may_win(self, state: State, facts: Facts, who: int) -> bool:
        """Whether ``who`` could have enough valid ingredients to win now: a quick bound that spares
        counting them on most counters."""
        need = 4 if state.foods and state.queen == state.foods[who] else 5
        counter = state.counters[who]
        return len(counter) * facts.heaviest >= need and sum(map(facts.weight.__getitem__, counter)) >= need

    # --- setup --------------------------------------------------------------------------------
    def new_game(self, *, rng: random.Random, deal: int, designs: tuple[str, ...] | None = None) -> State:
        """Shuffle, lay the map (expansion 3), deal, place treasures, re-deal on 3+ ingredients, choose who starts."""
        if designs is None:
            if self._deck is None:
                self._deck = tuple(d for card in sorted(self.defs.values(), key=lambda c: c.id) for d in [card.id] * card.copies)
            designs = self._deck
        instances = list(range(len(designs)))
        spaces = tuple(self.board) if self.board else ()
        foods = tuple(rng.sample(spaces, self.players)) if spaces else ()
        for _ in range(MAX_REDEALS):
            rng.shuffle(instances)
            layout: tuple[int, ...] = ()
            if spaces:
                for _ in range(MAX_REDEALS):  # two or more ingredients on the map: shuffle back, draw again
                    layout = tuple(instances[: len(spaces)])
                    if sum(self.defs[designs[i]].kind == "ingredient" for i in layout) < 2:
                        break
                    rng.shuffle(instances)
            rest = instances[len(layout):]
            hands = [rest[p * deal : (p + 1) * deal] for p in range(self.players)]
            deck = tuple(rest[self.players * deal :])
            state = State(designs, tuple(() for _ in hands), tuple(() for _ in hands), deck, (), 0, "turn", self.discord,
                          spaces=spaces, map=layout, queen="start" if spaces else None, foods=foods,
                          revealed=tuple(False for _ in foods))
            for p, hand in enumerate(hands):
                state = self._receive(state, p, hand)
            if all(sum(self.card(state, i).kind == "ingredient" for i in c) < 3 for c in state.counters):
                break
        return self._choose_first(state)

    def _choose_first(self, state: State) -> State:
        def key(p: int) -> tuple[int, int]:
            counter = state.counters[p]
            return len(counter), sum(self.card(state, i).kind == "ingredient" for i in counter)
        best = min(key(p) for p in range(state.players))
        tied = tuple(p for p in range(state.players) if key(p) == best)
        if len(tied) == 1:
            return self._start_turn(_replace(state, current=tied[0], turn=1))
        return _replace(state, phase="first", candidates=tied)

    # --- the core protocol --------------------------------------------------------------------
    def actor(self, state: State) -> int | None:
        phase = state.phase
        if phase == "over":
            return None
        if state.takes is not None or phase in _CHANCE_PHASES:
            return CHANCE
        if phase == "defend":
            return state.battle[1]
        return state.current

    def legal_actions(self, state: State) -> list[FalleraAction]:
        return list(self.choices(state))

    def choices(self, state: State) -> Sequence[FalleraAction]:
        """The legal actions, sorted by notation, as a sequence that builds an action only when it is
        looked at (a random playout looks at one; ``legal_actions`` lists them all)."""
        phase = state.phase
        if phase == "over":
            return ()
        facts = self.facts(state)
        if state.takes is not None:
            taker, victim, _ = state.takes
            takes = facts.row(Take, taker, victim)
            return [takes[i] for i in facts.in_order(state.hands[victim])]
        if phase == "turn":
            return TurnChoices(facts, state, self._queen_moves(state, facts, state.current))
        if phase == "defend":
            target = state.battle[1]
            battle = facts.battle
            defends = facts.row(Defend, target)
            actions = [defends[i] for i in facts.in_order(state.hands[target]) if battle[i]]
            actions.append(facts.plain(NoDefence, target))  # "pN defend …" sorts before "pN no-defence"
            return actions
        if phase in _COIN_PHASES:
            return _COINS
        if phase == "burn":
            burns = facts.row(Burn, state.current)
            return [burns[i] for i in facts.in_order(state.hands[state.current])]
        if phase == "first":
            return [facts.plain(First, p) for p in sorted(state.candidates, key=player)]
        return ()

    def _queen_moves(self, state: State, facts: Facts, me: int) -> tuple[FalleraAction, ...]:
        """The Queen's moves from where she stands, in notation order."""
        if not state.spaces:
            return ()
        key = (state.queen, state.spaces)
        spaces = self._moves.get(key)
        if spaces is None:
            spaces = self._moves[key] = tuple(sorted(self._reachable(state)))
        return tuple(facts.plain(Move, me, space) for space in spaces)

    def _reachable(self, state: State) -> tuple[str, ...]:
        if not state.spaces:
            return ()
        return state.spaces if state.queen == "start" else self.board[state.queen]

    def parse(self, text: str) -> FalleraAction:
        return parse_action(text)

    def apply(self, state: State, action: FalleraAction, *, rng: random.Random | None = None) -> State:
        """The state after ``action``; IllegalActionError names the rule it breaks."""
        phase = state.phase
        if phase == "over":
            raise IllegalActionError(action.notation(), "game-over", "the game is over")
        actor = state.current if phase == "turn" and state.takes is None else self.actor(state)
        kind = type(action)
        if kind in _CHANCE_ACTIONS:
            if actor != CHANCE:
                raise IllegalActionError(action.notation(), "not-chance", "no chance outcome is due now")
        elif actor == CHANCE:
            raise IllegalActionError(action.notation(), "chance-pending",
                                     "a chance outcome (coin, pick, tie-break) comes first")
        elif getattr(action, "player", None) != actor:
            raise IllegalActionError(action.notation(), "not-your-turn", f"it is {player(actor)}'s decision")
        return _HANDLERS[kind](self, state, action, rng)

    # --- actions ------------------------------------------------------------------------------
    def _apply_first(self, state: State, action: First, rng: random.Random | None) -> State:
        if state.phase != "first" or action.player not in state.candidates:
            raise IllegalActionError(action.notation(), "first-player", "only a player tied for first can be chosen")
        return self._start_turn(_replace(state, current=action.player, candidates=(), turn=1))

    def _apply_almoina(self, state: State, action: Almoina, rng: random.Random | None) -> State:
        self._need_phase(state, action, "turn")
        return self._after_action(self._draw(state, action.player, 1, rng), rng)

    def _apply_sell(self, state: State, action: Sell, rng: random.Random | None) -> State:
        self._need_phase(state, action, "turn")
        instance = self._instance(state, action.card, state.counters[action.player], action, "sell-own-treasure",
                                  "on your counter")
        card = self.facts(state).defs[instance]
        if card.kind != "sellable" or card.sell is None:
            raise IllegalActionError(action.notation(), "sell-sellable", f"{action.card} is not a sellable treasure")
        state = _replace(state, counters=_without(state.counters, action.player, instance),
                        cemetery=state.cemetery + (instance,))
        draws = card.sell + (self._use_draws(state, instance) if self.bonuses else 0)  # selling is using it
        return self._after_action(self._draw(state, action.player, draws, rng), rng)

    def _apply_attack(self, state: State, action: Attack, rng: random.Random | None) -> State:
        self._need_phase(state, action, "turn")
        if action.target == action.player or not 0 <= action.target < state.players:
            raise IllegalActionError(action.notation(), "battle-rival", "a battle is called against a rival")
        attack = self._instance(state, action.card, state.hands[action.player], action, "battle-card-in-hand",
                                "in your hand")
        if not self.facts(state).battle[attack]:
            raise IllegalActionError(action.notation(), "battle-card", f"{action.card} is not a battle card")
        treasure = self._instance(state, action.treasure, state.counters[action.target], action, "battle-for-treasure",
                                  "on {}'s counter", action.target)
        hands = _without(state.hands, action.player, attack)
        return _replace(state, hands=hands, phase="defend", battle=(action.player, action.target, treasure, attack))

    def _apply_move(self, state: State, action: Move, rng: random.Random | None) -> State:
        self._need_phase(state, action, "turn")
        if not state.spaces:
            raise IllegalActionError(action.notation(), "queen-needs-map", "there is no Kingdom map in this game")
        if action.space not in self._reachable(state):
            raise IllegalActionError(action.notation(), "queen-access",
                                     f"the Queen cannot go from {state.queen} to {action.space}: no access joins them")
        slot = state.spaces.index(action.space)
        taken = state.map[slot]
        state = _replace(state, queen=action.space, map=state.map[:slot] + (-1,) + state.map[slot + 1 :])
        if taken >= 0:
            state = self._receive(state, action.player, [taken])
        state = self._refill(state, rng)
        if state.phase == "over":
            return state
        realm = taken >= 0 and "realm" in self.card(state, taken).icons
        state = self._check_victory(state, rng)
        if state.phase in {"over", "toss"} or realm:  # a Realm card taken by the last action grants another action
            return state
        if self.bonus(state, "coin-extra-action"):
            return _replace(state, phase="interior-coin")
        return self._next_turn(state)

    def _apply_burn(self, state: State, action: Burn, rng: random.Random | None) -> State:
        self._need_phase(state, action, "burn")
        instance = self._instance(state, action.card, state.hands[action.player], action, "burn-hand-card", "in your hand")
        state = _replace(state, hands=_without(state.hands, action.player, instance), cemetery=state.cemetery + (instance,))
        return self._after_burn(state)

    def _refill(self, state: State, rng: random.Random | None) -> State:
        """An emptied map is filled at once with the top five cards, in setup order (the player's free
        placement is not modelled yet)."""
        if any(slot >= 0 for slot in state.map):
            return state
        layout = list(state.map)
        for index in range(len(layout)):
            if not state.deck:
                if self.discord:
                    return self._deck_exhausted(state)
                if not state.cemetery:
                    break
                state = _reshuffle(state, rng)
            layout[index] = state.deck[0]
            state = _replace(state, deck=state.deck[1:])
        return _replace(state, map=tuple(layout))

    def _apply_nodefence(self, state: State, action: NoDefence, rng: random.Random | None) -> State:
        self._need_phase(state, action, "defend")
        return self._resolve_battle(state, None, rng)

    def _apply_defend(self, state: State, action: Defend, rng: random.Random | None) -> State:
        self._need_phase(state, action, "defend")
        defence = self._instance(state, action.card, state.hands[action.player], action, "defend-from-hand", "in your hand")
        if not self.facts(state).battle[defence]:
            raise IllegalActionError(action.notation(), "defend-with-battle-card", f"{action.card} is not a battle card")
        state = _replace(state, hands=_without(state.hands, action.player, defence))
        return self._resolve_battle(state, defence, rng)

    def _resolve_battle(self, state: State, defence: int | None, rng: random.Random | None) -> State:
        attacker, target, treasure, attack = state.battle
        if defence is None:
            steals, used = True, (attack,)
        else:
            steals, used = self.value(state, attack, "attack") > self.value(state, defence, "defence"), (attack, defence)
        draws = [(who, self._use_draws(state, card))
                 for who, card in ((attacker, attack), (target, defence)) if card is not None] if self.bonuses else ()
        hands, counters = state.hands, state.counters
        if steals:
            hands, counters = self._placed(state, hands, _without(counters, target, treasure), attacker, treasure)
        state = _replace(state, battle=None, phase="turn", cemetery=state.cemetery + used, hands=hands,
                         counters=counters)
        for who, count in draws:  # a terreta bonus: draw after using certain cards, on or off turn
            if count and state.phase != "over":
                state = self._draw(state, who, count, rng)
        return self._after_action(state, rng)

    def _apply_coin(self, state: State, action: Coin, rng: random.Random | None) -> State:
        if state.phase == "interior-coin":  # heads: another action; tails: the turn passes
            return _replace(state, phase="turn") if action.heads else self._next_turn(_replace(state, phase="turn"))
        if state.phase == "turn-coin":
            me = state.current
            draws = sum(e.draw for i in state.counters[me] for e in self.card(state, i).effect("turn-start-coin-draw"))
            state = _replace(state, phase="turn")
            if action.heads:
                state = self._draw(state, me, draws, rng)
            return self._check_victory(state, rng, then="continue") if state.phase == "turn" else state
        who, left, all_heads, then = state.toss
        all_heads = all_heads and action.heads
        state = _replace(state, toss=(who, left - 1, all_heads, then))
        if not action.heads and state.hands[who]:
            state = _replace(state, takes=(_next(state, who), who, 1))
        return self._after_toss(state, rng)

    def _apply_take(self, state: State, action: Take, rng: random.Random | None) -> State:
        taker, victim, left = state.takes
        if (action.taker, action.victim) != (taker, victim):
            raise IllegalActionError(action.notation(), "tails-steal", f"{player(taker)} takes from {player(victim)}")
        instance = self._instance(state, action.card, state.hands[victim], action, "take-from-hand",
                                  "in {}'s hand", victim)
        state = _replace(state, hands=_without(state.hands, victim, instance), takes=None)
        state = self._receive(state, taker, [instance])
        return self._after_toss(state, rng)

    # --- flow ---------------------------------------------------------------------------------
    def _need_phase(self, state: State, action: FalleraAction, phase: str) -> None:
        if state.phase != phase:
            raise IllegalActionError(action.notation(), "one-action-per-turn",
                                     f"this is allowed in the {phase} phase, not during {state.phase}")

    def _after_action(self, state: State, rng: random.Random | None) -> State:
        if state.phase == "over":
            return state
        state = self._check_victory(state, rng)
        if state.phase in {"over", "toss"}:
            return state
        return self._next_turn(state)

    def _check_victory(self, state: State, rng: random.Random | None, then: str = "next",
                       skip: int | None = None) -> State:
        """Victory at the instant of 5 valid ingredients, on or off turn; seafood asks the coin first."""
        facts = self.facts(state)
        counters = state.counters
        players, fewest = len(counters), (4 if state.foods else 5) / (facts.heaviest or 1)
        if max(map(len, counters)) < fewest:  # no counter holds enough treasures to win: most of the time
            return state
        for k in range(players):
            who = (state.current + k) % players
            if len(counters[who]) < fewest or who == skip or not self._may_win(state, facts, who):
                continue  # the first test alone spares most counters: too few treasures to win
            count, blocked, seafood = self.ingredients(state, who)
            territorial = bool(state.foods) and count >= 4 and state.queen == state.foods[who]
            if (count >= 5 or territorial) and not blocked:
                if self.discord and seafood:
                    if state.refused and state.refused[who] == counters[who]:
                        continue  # this very paella was refused: it is offered again on its holder's turn
                    return _replace(state, phase="toss", toss=(who, seafood, True, then))
                if count < 5:
                    revealed = tuple(r or p == who for p, r in enumerate(state.revealed))
                    return _replace(state, phase="over", winner=who, reason="four-ingredients-territorial",
                                   revealed=revealed)
                return _replace(state, phase="over", winner=who, reason="five-ingredients")
        return state

    def _after_toss(self, state: State, rng: random.Random | None) -> State:
        if state.takes is not None:
            return state
        who, left, all_heads, then = state.toss
        if left > 0:
            return state
        state = _replace(state, toss=None, phase="turn")
        if all_heads:
            return _replace(state, phase="over", winner=who, reason="five-ingredients-seafood")
        refused = list(state.refused or [()] * len(state.counters))
        refused[who] = state.counters[who]
        state = _replace(state, refused=tuple(refused))
        # a card taken on tails may complete another player's paella (the tosser already tried)
        state = self._check_victory(state, rng, then=then, skip=who)
        if state.phase != "turn":
            return state
        return state if then == "continue" else self._next_turn(state)

    def _next_turn(self, state: State) -> State:
        state = _replace(state, current=(state.current + 1) % len(state.hands), turn=state.turn + 1, phase="turn")
        if not self.discord and not self.burning:  # nothing happens at the start of a turn
            return state
        return self._start_turn(state)

    def _start_turn(self, state: State) -> State:
        me = state.current
        if self.discord and self._may_win(state, self.facts(state), me):
            count, blocked, seafood = self.ingredients(state, me)
            territorial = bool(state.foods) and count >= 4 and state.queen == state.foods[me]
            if (count >= 5 or territorial) and not blocked and seafood:
                return _replace(state, phase="toss", toss=(me, seafood, True, "next"))
        if self.burning:  # draw one, then discard a hand card (none to discard: nothing more)
            state = self._draw(_replace(state, phase="turn"), me, 1, None)
            if state.phase == "over":
                return state
            state = self._check_victory(state, None, then="continue")
            if state.phase != "turn":
                return state
            if state.hands[me]:
                return _replace(state, phase="burn")
        return self._after_burn(state)

    def _after_burn(self, state: State) -> State:
        if self.discord and any(map(self.facts(state).coin_draw.__getitem__, state.counters[state.current])):
            return _replace(state, phase="turn-coin")
        return state if state.phase == "turn" else _replace(state, phase="turn")

    def _draw(self, state: State, who: int, count: int, rng: random.Random | None) -> State:
        """``who`` draws ``count`` cards: the cemetery is reshuffled into an empty deck (base game), or the
        game ends when the deck runs out (expansion 2)."""
        while count > 0:
            if not state.deck:
                if self.discord:
                    return self._deck_exhausted(state)
                if not state.cemetery:
                    return state
                state = _reshuffle(state, rng)
            drawn, count = min(count, len(state.deck)), count - len(state.deck)  # all the deck can give at once
            hands, counters = state.hands, state.counters
            for instance in state.deck[:drawn]:
                hands, counters = self._placed(state, hands, counters, who, instance)
            state = _replace(state, deck=state.deck[drawn:], hands=hands, counters=counters)
            if self.discord and not state.deck:
                return self._deck_exhausted(state)
        return state

    def _deck_exhausted(self, state: State) -> State:
        for who in range(state.players):
            if any(self.card(state, i).effect("wins-at-deck-exhaustion") for i in state.counters[who]):
                return _replace(state, phase="over", winner=who, reason="deck-exhausted-holder")
        return _replace(state, phase="over", winner=None, reason="deck-exhausted")

    def _receive(self, state: State, who: int, instances: list[int] | tuple[int, ...]) -> State:
        """Cards arrive in a hand; treasures go straight onto the counter."""
        hands, counters = state.hands, state.counters
        for i in instances:
            hands, counters = self._placed(state, hands, counters, who, i)
        return _replace(state, hands=hands, counters=counters)

    def _placed(self, state: State, hands: tuple[tuple[int, ...], ...], counters: tuple[tuple[int, ...], ...],
                who: int, instance: int) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]:
        """Hands and counters once ``instance`` reaches ``who``: a treasure onto the counter, else into the hand."""
        if self.facts(state).treasure[instance]:
            return hands, _with(counters, who, instance)
        return _with(hands, who, instance), counters

    # --- views ------------------------------------------------------------------------------
    def observe(self, state: State, who: int) -> dict[str, Any]:
        """What ``who`` sees: their hand, every counter, hand sizes (public), the cemetery; the deck as a count."""
        seen = self._private_view(state, who)
        seen.update(self._public_view(state))
        return seen

    def _private_view(self, state: State, who: int) -> dict[str, Any]:
        """The part of ``who``'s observation that differs between players: all that may hide something."""
        facts = self.facts(state)
        label = facts.labels.__getitem__  # "design#n"
        battle = None
        if state.battle is not None:
            attacker, target, treasure, attack = state.battle
            face_up = any(map(facts.face_up.__getitem__, state.counters[target]))
            battle = {"attacker": attacker, "target": target, "treasure": label(treasure),
                      "attack": label(attack) if who == attacker or face_up else "hidden"}
        return {"you": who, "hand": list(map(label, state.hands[who])), "battle": battle,
                "foods": [food if p == who or state.revealed[p] else "hidden" for p, food in enumerate(state.foods)]}

    def _public_view(self, state: State) -> dict[str, Any]:
        """The part of every observation that is the same for all players."""
        label = self.facts(state).labels.__getitem__
        return {
            "current": state.current, "phase": state.phase, "turn": state.turn,
            "hand_sizes": list(map(len, state.hands)), "counters": [list(map(label, c)) for c in state.counters],
            "deck_size": len(state.deck), "cemetery": list(map(label, state.cemetery)),
            "winner": state.winner, "reason": state.reason,
            "map": {space: (label(i) if i >= 0 else None) for space, i in zip(state.spaces, state.map)},
            "queen": state.queen,
        }

    def hidden_leak(self, state: State) -> str | None:
        """Another player's hand card, a face-down attack or an unrevealed territorial food in an observation.

        Hands are the only hidden zone besides the attack and the foods, so each
        observation's hand must be the viewer's own. An observation is its viewer's
        private part and a public part that holds no hand, attack or food: only the
        private parts need checking, one per player.
        """
        for viewer in range(state.players):
            seen = self._private_view(state, viewer)
            if seen["hand"] != [f"{state.designs[i]}#{i}" for i in state.hands[viewer]]:  # written apart from observe
                return f"{player(viewer)}'s observation shows a hand that is not theirs"
            if any(f != "hidden" for p, f in enumerate(seen["foods"]) if p != viewer and not state.revealed[p]):
                return f"{player(viewer)} sees a territorial food that is not revealed"
            if state.battle and viewer != state.battle[0] and seen["battle"]["attack"] != "hidden":
                target = state.battle[1]
                if not any(self.card(state, i).effect("attacked-face-up") for i in state.counters[target]):  # apart too
                    return f"{player(viewer)} sees the face-down attack"
        return None

    def dump(self, state: State) -> dict[str, Any]:
        """JSON-ready: tuples become lists (hands and counters are the only tuples of tuples)."""
        data = dict(state.__dict__)  # every field, in order (states are built whole)
        for name, value in data.items():
            if type(value) is tuple:
                data[name] = [list(group) for group in value] if name in _NESTED else list(value)
        return data

    def load(self, data: dict[str, Any]) -> State:
        """The state ``dump`` wrote (fields it leaves out take their defaults)."""
        if data.keys() != _FIELD_SET:  # fields missing or unknown: the dataclass fills in or says which
            return State(**{name: _tupled(name, value) for name, value in data.items()})
        return _built({name: _tupled(name, value) if type(value) is list else value
                       for name, value in zip(_FIELDS, map(data.__getitem__, _FIELDS))})

    def expectation(self, state: State, expect: dict[str, Any]) -> str | None:
        """None when a scenario's expectation holds, else what differs (see docs/scenarios.md)."""
        if "winner" in expect:
            wanted = expect["winner"]
            got = player(state.winner) if state.winner is not None else None
            if got != wanted or ("reason" in expect and state.reason != expect["reason"]):
                return f"expected winner {wanted} ({expect.get('reason', 'any reason')}), got {got} ({state.reason})"
        for zone in ("counters", "hands"):
            for who, designs in expect.get(zone, {}).items():
                p = player_index(who)
                got = Counter(state.designs[i] for i in getattr(state, zone)[p])
                if got != Counter(designs):
                    return f"expected {who}'s {zone[:-1]} {sorted(designs)}, got {sorted(got.elements())}"
        if "cemetery" in expect and Counter(state.designs[i] for i in state.cemetery) != Counter(expect["cemetery"]):
            return f"expected cemetery {sorted(expect['cemetery'])}, got {sorted(state.designs[i] for i in state.cemetery)}"
        for key in ("phase", "current"):
            if key in expect:
                got = state.phase if key == "phase" else player(state.current)
                if got != expect[key]:
                    return f"expected {key} {expect[key]}, got {got}"
        if "queen" in expect and state.queen != expect["queen"]:
            return f"expected the Queen in {expect['queen']}, got {state.queen}"
        for space, design in expect.get("map", {}).items():
            slot = state.map[state.spaces.index(space)]
            got = state.designs[slot] if slot >= 0 else None
            if got != design:
                return f"expected {design} on {space}, got {got}"
        for who, count in expect.get("valid_ingredients", {}).items():
            got = self.ingredients(state, player_index(who))[0]
            if got != count:
                return f"expected {who} to have {count} valid ingredients, got {got}"
        return None

    def result(self, state: State) -> tuple[int | None, str | None]:
        return state.winner, state.reason

    def invariants(self, state: State) -> list[str]:
        broken = []
        in_hands, on_counters = list(chain.from_iterable(state.hands)), list(chain.from_iterable(state.counters))
        places = in_hands + on_counters + list(state.deck) + list(state.cemetery) \
            + ([state.battle[3]] if state.battle else []) + [i for i in state.map if i >= 0]
        facts = self.facts(state)
        if len(places) != len(state.designs) or set(places) != facts.instances:
            broken.append("conservation: every card instance must be in exactly one zone")
        treasure = facts.treasure
        if any(map(treasure.__getitem__, in_hands)):
            broken.append("a treasure is in a hand instead of on its counter")
        if not all(map(treasure.__getitem__, on_counters)):
            broken.append("a card that is not a treasure is on a counter")
        if (state.phase == "over") != (state.reason is not None):
            broken.append("a game is over exactly when it has a reason")
        if (state.phase == "defend") != (state.battle is not None):
            broken.append("a battle is pending exactly in the defend phase")
        if state.refused and len(state.refused) != len(state.counters):
            broken.append("a refused paella is recorded for each player or for none")
        if (state.phase == "toss") != (state.toss is not None):
            broken.append("coin tosses are pending exactly in the toss phase")
        if state.spaces and all(i < 0 for i in state.map) and (state.deck or state.cemetery) and state.phase != "over":
            broken.append("the map is empty while cards remain to refill it")
        return broken


def _replace(state: State, **changes: Any) -> State:
    """``dataclasses.replace`` without re-running ``__init__`` (41% of a playout's time went there)."""
    fields = state.__dict__.copy()
    fields.update(changes)
    new = object.__new__(State)
    object.__setattr__(new, "__dict__", fields)  # as _built does (spared a call: this is the hottest copy)
    return new


def _built(fields: dict[str, Any]) -> State:
    """The state with every one of ``fields`` (a frozen dataclass: they are set all at once)."""
    state = object.__new__(State)
    object.__setattr__(state, "__dict__", fields)
    return state


def _tupled(name: str, value: Any) -> Any:
    """A state field read back from JSON: lists become tuples (of tuples for hands and counters)."""
    if type(value) is not list:
        return value
    return tuple(map(tuple, value)) if name in _NESTED else tuple(value)


def _reshuffle(state: State, rng: random.Random | None) -> State:
    """The base game's deck exhaustion: the cemetery, shuffled, becomes the deck."""
    if rng is None:
        raise RuntimeError("the deck must be reshuffled from the cemetery: pass rng=")
    pile = list(state.cemetery)
    rng.shuffle(pile)
    return _replace(state, deck=tuple(pile), cemetery=())


def _next(state: State, who: int) -> int:
    return (who + 1) % state.players


def _without(groups: tuple[tuple[int, ...], ...], who: int, instance: int) -> tuple[tuple[int, ...], ...]:
    """``groups`` with ``instance`` taken out of ``groups[who]``."""
    group = groups[who]
    if instance not in group:
        return groups
    at = group.index(instance)
    return groups[:who] + (group[:at] + group[at + 1:],) + groups[who + 1:]


def _with(groups: tuple[tuple[int, ...], ...], who: int, instance: int) -> tuple[tuple[int, ...], ...]:
    """``groups`` with ``instance`` put into ``groups[who]``, kept in number order."""
    group = groups[who]
    at = bisect(group, instance)
    return groups[:who] + (group[:at] + (instance,) + group[at:],) + groups[who + 1:]


def _rivals(players: int, me: int) -> tuple[int, ...]:
    """Everyone but ``me``, in the notation's order of player names."""
    order = _RIVALS.get((players, me))
    if order is None:
        order = _RIVALS[(players, me)] = tuple(sorted((p for p in range(players) if p != me), key=player))
    return order


_RIVALS: dict[tuple[int, int], tuple[int, ...]] = {}
_COINS = (Coin(True), Coin(False))
"""The humour coin's outcomes in notation order ("coin heads" < "coin tails")."""
_COIN_PHASES = frozenset({"toss", "turn-coin", "interior-coin"})
_CHANCE_PHASES = _COIN_PHASES | {"first"}
_CHANCE_ACTIONS = frozenset({Coin, Take, First})
_HANDLERS = {kind: getattr(FalleraRules, f"_apply_{kind.__name__.lower()}")
             for kind in (Almoina, Sell, Attack, Defend, NoDefence, Coin, Take, First, Move, Burn)}
"""Each action type's handler (looked up once, not by name at each step)."""


class TurnChoices(Sequence):
    """A turn's legal actions in notation order: almoina, battles, Queen moves, sales.

    Battles are the many: one per rival treasure and battle card in hand. They are
    built only when looked at, so a random playout that looks at one action pays for one.
    """

    __slots__ = ("_facts", "_me", "_counters", "_weapons", "_moves", "_sales", "_battles", "_size")

    def __init__(self, facts: Facts, state: State, moves: tuple[FalleraAction, ...]) -> None:
        me, counters, hand = state.current, state.counters, state.hands[state.current]
        self._facts, self._me, self._counters, self._moves = facts, me, counters, moves
        self._weapons = hand if facts.hands_all_battle else [i for i in hand if facts.battle[i]]
        sellable = facts.sellable
        self._sales = [i for i in counters[me] if sellable[i]]
        self._battles = (sum(map(len, counters)) - len(counters[me])) * len(self._weapons)
        self._size = 1 + self._battles + len(moves) + len(self._sales)

    def __len__(self) -> int:
        return self._size

    def __getitem__(self, index):  # type: ignore[override]
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self._size))]
        if index < 0:
            index += self._size
        if not 0 <= index < self._size:
            raise IndexError(index)
        facts = self._facts
        if index == 0:
            return facts.plain(Almoina, self._me)
        index -= 1
        if index < self._battles:
            loot, weapon = divmod(index, len(self._weapons))
            for target in _rivals(len(self._counters), self._me):
                counter = self._counters[target]
                if loot < len(counter):
                    break
                loot -= len(counter)
            return facts.attack(self._me, target, facts.in_order(counter)[loot], facts.in_order(self._weapons)[weapon])
        index -= self._battles
        if index < len(self._moves):
            return self._moves[index]
        return facts.row(Sell, self._me)[facts.in_order(self._sales)[index - len(self._moves)]]

    def __iter__(self) -> Iterator[FalleraAction]:
        facts, me = self._facts, self._me
        yield facts.plain(Almoina, me)
        weapons = facts.in_order(self._weapons)
        for target in _rivals(len(self._counters), me):
            for treasure in facts.in_order(self._counters[target]):
                for weapon in weapons:
                    yield facts.attack(me, target, treasure, weapon)
        yield from self._moves
        sells = facts.row(Sell, me)
        for sale in facts.in_order(self._sales):
            yield sells[sale]


_FIELDS = tuple(State.__dataclass_fields__)
_NESTED = frozenset({"hands", "counters", "refused"})
"""The state's tuples of tuples."""
_FIELD_SET = frozenset(_FIELDS)
