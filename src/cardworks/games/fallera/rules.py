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
refilling an emptied map at once (the player lays the five cards drawn where
they wish), the Realm symbol's extra action, hidden
territorial foods and the win with 4 ingredients while the Queen is in your
terreta, on or off turn; in expert mode, burning cards before each turn and
the terreta bonuses (declared on the board's spaces). Not covered yet:
special cards and most card abilities; cards that need them are left out of
decks with a reason.

The rules are written once, on mutable drafts (``fallera_state``): ``apply``
thaws a state, plays the action and freezes the result; a playout without
checks keeps one draft for a whole game. Each action kind has a check (the
rule it would break, before anything changes) and an effect; actions that
``choices`` listed are legal by construction, so in-place playouts play their
effects alone. Per-deck tables and the lazily built turn choices are in
``fallera_facts``.
"""

from __future__ import annotations

import random
from bisect import insort
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import partial
from itertools import chain
from typing import Any

from ...engine.core import CHANCE, IllegalActionError, Outcome, Playout, player_index
from .actions import (Almoina, Attack, Burn, Card, Coin, Defend, FalleraAction, First, Lay, Move,
                              NoDefence, Sell, Take, parse_action, player)
from .cards import CardDef
from .facts import Facts, TurnChoices
from .interpreter import GRANTED, holds, ordered, verbs_at
from .state import FIELD_SET, FIELDS, NESTED, Draft, State, built, frozen, thawed, tupled

MAX_REDEALS = 100


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
    food_spaces: tuple[str, ...] = ()
    """The terretes that have a territorial food card, dealt one per player (Benidorm has none)."""
    _facts: dict[tuple[str, ...], Facts] = field(default_factory=dict, init=False, repr=False, compare=False)
    _last: tuple[tuple[str, ...], Facts] | None = field(default=None, init=False, repr=False, compare=False)
    _moves: dict[tuple[str | None, tuple[str, ...]], tuple[str, ...]] = field(default_factory=dict, init=False, repr=False, compare=False)
    _deck: tuple[str, ...] | None = field(default=None, init=False, repr=False, compare=False)
    _uses: bool = field(default=False, init=False, repr=False, compare=False)
    """Some card or terreta has effects when a card is used (else using one triggers nothing)."""
    _starts: bool = field(default=False, init=False, repr=False, compare=False)
    _card_events: frozenset[str] = field(default=frozenset(), init=False, repr=False, compare=False)
    _turn_starts: bool = field(default=False, init=False, repr=False, compare=False)
    """Something happens at the start of a turn: a refused paella offered again (expansion 2), the expert burn,
    an effect (else a turn starts with its action)."""
    """Some terreta has effects at the start of a turn (cards' are in ``Facts.turn_start``)."""

    def __post_init__(self) -> None:
        terretes = [e for effects in (self.bonuses or {}).values() for e in effects]
        cards = [e for card in self.defs.values() for e in card.effects]
        self._uses = any(e.when.event == "card-used" for e in terretes + cards)
        self._starts = any(e.when.event == "turn-start" for e in terretes)
        self._card_events = frozenset(e.when.event for e in cards)
        self._turn_starts = self.discord or self.burning or self._starts or "turn-start" in self._card_events

    def facts(self, state: State) -> Facts:
        """The per-instance facts of ``state``'s deck (built on first use; the last one is at hand)."""
        last = self._last
        if last is not None and last[0] is state.designs:
            return last[1]
        facts = self._facts.get(state.designs)
        if facts is None:
            facts = self._facts[state.designs] = Facts(self.defs, self.players, state.designs)
        self._last = (state.designs, facts)
        return facts

    def terreta_doing(self, state: State, verb: str) -> list[Any]:
        """The ``verb``s of the standing effects of the terreta where the Queen stands (expert mode)."""
        if not self.bonuses or state.queen not in self.bonuses:
            return []
        return [v for e in self.bonuses[state.queen] if e.when.event == "always" for v in e.do if v.verb == verb]

    def value(self, state: State, instance: int, stat: str, user: int | None = None) -> int:
        """A battle card's attack or defence, with what the Queen's terreta and the user's counter add."""
        facts = self.facts(state)
        if not self.bonuses and not facts.modifiers:
            return facts.points[stat][instance]
        design = state.designs[instance]
        extra = sum(getattr(v, stat) for v in self.terreta_doing(state, "modify-stat") if design in v.cards)
        if user is not None and facts.modifiers:
            for holder in state.counters[user]:
                for effect, verb in facts.defs[holder].doing("modify-stat"):
                    if design in verb.cards and holds(effect.while_, state, user, holder):
                        extra += getattr(verb, stat)
        return getattr(facts.defs[instance], stat) + extra

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
        made_valid = {c for v in self.terreta_doing(state, "valid-ingredient") for c in v.cards}
        for holder in counter:
            for effect, verb in defs[holder].doing("valid-ingredient"):
                if holds(effect.while_, state, who, holder):
                    made_valid.update(verb.cards)
        count, blocked, seafood = 0, False, 0
        for instance in counter:
            card = defs[instance]
            if card.kind != "ingredient":
                continue
            if card.category == "forbidden" and card.id not in made_valid:
                blocked = blocked or self.discord
                continue
            value = 1
            for effect, verb in card.doing("count-as-ingredients"):
                if holds(effect.while_, state, who, instance):
                    value = verb.value
            count += value
            seafood += card.category == "seafood"
        return count, blocked, seafood

    def _may_win(self, draft: Draft, who: int) -> bool:
        """Whether ``who`` could have enough valid ingredients to win now: a quick bound (the most each
        counter's cards can add, kept up to date) that spares counting them on most counters."""
        return draft.weights[who] >= (4 if draft.foods and draft.queen == draft.foods[who] else 5)

    # --- setup --------------------------------------------------------------------------------
    def new_game(self, *, rng: random.Random, deal: int, designs: tuple[str, ...] | None = None) -> State:
        """Shuffle, lay the map (expansion 3), deal, place treasures, re-deal on 3+ ingredients, choose who starts."""
        if designs is None:
            designs = self.deck_designs()
        instances = list(range(len(designs)))
        spaces = tuple(self.board) if self.board else ()
        foods = tuple(rng.sample(self.food_spaces, self.players)) if spaces else ()
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
            draft = thawed(state, self.facts(state))
            for p, hand in enumerate(hands):
                for instance in hand:
                    self._place(draft, p, instance)
            if all(sum(self.card(draft, i).kind == "ingredient" for i in c) < 3 for c in draft.counters):
                break
        self._choose_first(draft)
        return frozen(draft)

    def deck_designs(self) -> tuple[str, ...]:
        """The design of each card instance of a new game, in catalogue order (by id) before any shuffle."""
        if self._deck is None:
            self._deck = tuple(d for card in sorted(self.defs.values(), key=lambda c: c.id) for d in [card.id] * card.copies)
        return self._deck

    def _choose_first(self, draft: Draft) -> None:
        def key(p: int) -> tuple[int, int]:
            counter = draft.counters[p]
            return len(counter), sum(self.card(draft, i).kind == "ingredient" for i in counter)
        best = min(key(p) for p in range(draft.players))
        tied = tuple(p for p in range(draft.players) if key(p) == best)
        if len(tied) == 1:
            draft.current, draft.turn = tied[0], 1
            self._start_turn(draft)
        else:
            draft.phase, draft.candidates = "first", tied

    def started(self, state: State) -> State:
        """``state`` once its current player's turn has started (a scenario's explicit position)."""
        draft = thawed(state, self.facts(state))
        self._start_turn(draft)
        return frozen(draft)

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
        if state.takes is None and (phase == "turn" or phase == "defend"):  # by far the most common
            facts = state.facts if type(state) is Draft else self.facts(state)
            if phase == "turn":
                return TurnChoices(facts, state, self._queen_moves(state, facts, state.current) if state.spaces else ())
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
        if phase == "lay":
            empty = [space for space, slot in zip(state.spaces, state.map) if slot < 0]
            lays = (Lay(state.current, facts.refs[i], space) for i in state.laying for space in empty)
            return sorted(lays, key=Lay.notation)
        return ()

    def _queen_moves(self, state: State, facts: Facts, me: int) -> tuple[FalleraAction, ...]:
        """The Queen's moves from where she stands, in notation order (there is a map)."""
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
        draft = thawed(state, self.facts(state))
        self.play(draft, action, rng)
        return frozen(draft)

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

    # --- checks: each refuses an action the rules do not allow now, before anything changes -----
    def _check_first(self, draft: Draft, action: First) -> None:
        if draft.phase != "first" or action.player not in draft.candidates:
            raise IllegalActionError(action.notation(), "first-player", "only a player tied for first can be chosen")

    def _check_almoina(self, draft: Draft, action: Almoina) -> None:
        self._need_phase(draft, action, "turn")

    def _check_sell(self, draft: Draft, action: Sell) -> None:
        self._need_phase(draft, action, "turn")
        instance = self._instance(draft, action.card, draft.counters[action.player], action, "sell-own-treasure",
                                  "on your counter")
        card = draft.facts.defs[instance]
        if card.kind != "sellable" or card.sell is None:
            raise IllegalActionError(action.notation(), "sell-sellable", f"{action.card} is not a sellable treasure")

    def _check_attack(self, draft: Draft, action: Attack) -> None:
        self._need_phase(draft, action, "turn")
        if action.target == action.player or not 0 <= action.target < len(draft.hands):
            raise IllegalActionError(action.notation(), "battle-rival", "a battle is called against a rival")
        attack = self._instance(draft, action.card, draft.hands[action.player], action, "battle-card-in-hand",
                                "in your hand")
        if not draft.facts.battle[attack]:
            raise IllegalActionError(action.notation(), "battle-card", f"{action.card} is not a battle card")
        self._instance(draft, action.treasure, draft.counters[action.target], action, "battle-for-treasure",
                       "on {}'s counter", action.target)

    def _check_move(self, draft: Draft, action: Move) -> None:
        self._need_phase(draft, action, "turn")
        if not draft.spaces:
            raise IllegalActionError(action.notation(), "queen-needs-map", "there is no Kingdom map in this game")
        if action.space not in self._reachable(draft):
            raise IllegalActionError(action.notation(), "queen-access",
                                     f"the Queen cannot go from {draft.queen} to {action.space}: no access joins them")

    def _check_lay(self, draft: Draft, action: Lay) -> None:
        self._need_phase(draft, action, "lay")
        self._instance(draft, action.card, draft.laying, action, "lay-drawn-card", "among the cards drawn for the map")
        if action.space not in draft.spaces or draft.map[draft.spaces.index(action.space)] >= 0:
            raise IllegalActionError(action.notation(), "lay-on-empty-terreta", f"{action.space} is not an empty terreta")

    def _check_burn(self, draft: Draft, action: Burn) -> None:
        self._need_phase(draft, action, "burn")
        self._instance(draft, action.card, draft.hands[action.player], action, "burn-hand-card", "in your hand")

    def _check_nodefence(self, draft: Draft, action: NoDefence) -> None:
        self._need_phase(draft, action, "defend")

    def _check_defend(self, draft: Draft, action: Defend) -> None:
        self._need_phase(draft, action, "defend")
        defence = self._instance(draft, action.card, draft.hands[action.player], action, "defend-from-hand",
                                 "in your hand")
        if not draft.facts.battle[defence]:
            raise IllegalActionError(action.notation(), "defend-with-battle-card", f"{action.card} is not a battle card")

    def _check_coin(self, draft: Draft, action: Coin) -> None:
        """Nothing beyond ``play``'s own check: a chance outcome must be due."""

    def _check_take(self, draft: Draft, action: Take) -> None:
        taker, victim, left = draft.takes
        if (action.taker, action.victim) != (taker, victim):
            raise IllegalActionError(action.notation(), "tails-steal", f"{player(taker)} takes from {player(victim)}")
        self._instance(draft, action.card, draft.hands[victim], action, "take-from-hand", "in {}'s hand", victim)

    def _need_phase(self, draft: Draft, action: FalleraAction, phase: str) -> None:
        if draft.phase != phase:
            raise IllegalActionError(action.notation(), "one-action-per-turn",
                                     f"this is allowed in the {phase} phase, not during {draft.phase}")

    # --- effects: each plays an action its check allows --------------------------------------------
    def _play_first(self, draft: Draft, action: First) -> None:
        draft.current, draft.candidates, draft.turn = action.player, (), 1
        self._start_turn(draft)

    def _play_almoina(self, draft: Draft, action: Almoina) -> None:
        if self._draw(draft, action.player, 1):
            self._later(draft, _END_ACTION)
            return
        self._end_action(draft)

    def _play_sell(self, draft: Draft, action: Sell) -> None:
        instance = action.card.number
        self._unplace(draft, action.player, instance)
        draft.cemetery.append(instance)
        used = self._used(draft, action.player, instance)  # selling is using it
        if self._draw(draft, action.player, draft.facts.defs[instance].sell):
            self._later(draft, *used, _END_ACTION)
            return
        if not used:
            self._end_action(draft)
            return
        draft.pending = used + _END_ACTION_STEPS
        self._resume(draft)

    def _play_attack(self, draft: Draft, action: Attack) -> None:
        attack = action.card.number
        draft.hands[action.player].remove(attack)
        draft.phase, draft.battle = "defend", (action.player, action.target, action.treasure.number, attack)

    def _play_move(self, draft: Draft, action: Move) -> None:
        """The Queen moves and the card of her terreta is taken: a win is looked for at that instant (the
        card taken, or the Queen entering a terreta, may make one), before an emptied map is refilled."""
        slot = draft.spaces.index(action.space)
        taken = draft.map[slot]
        draft.queen, draft.map[slot] = action.space, -1
        if taken >= 0:
            self._place(draft, action.player, taken)
        realm = taken >= 0 and "realm" in draft.facts.defs[taken].icons
        if self._check_victory(draft):
            self._later(draft, ("refill", realm))
            return
        self._refill(draft, realm)

    def _end_move(self, draft: Draft, realm: bool) -> bool:
        """The rest of a move, once the map holds cards: the Realm's extra action, or what acts when a move
        ends the turn (the Interior's coin, expert mode), then the next turn."""
        if realm:  # a Realm card taken by the last action grants another action
            draft.phase = "turn"
            return False
        steps = self._triggered(draft, "move-ends-turn", draft.current)
        if not steps:
            return self._next_turn(draft)
        draft.pending = steps + (("next-turn",),) + draft.pending
        return self._resume(draft)

    def _play_burn(self, draft: Draft, action: Burn) -> None:
        instance = action.card.number
        draft.hands[action.player].remove(instance)
        draft.cemetery.append(instance)
        self._after_burn(draft)

    def _refill(self, draft: Draft, realm: bool) -> bool:
        """An emptied map is refilled at once: a card is drawn for each terreta, and the player lays them as
        they wish (phase ``lay``; rulebook 3, lines 106-108); then the move ends."""
        if any(slot >= 0 for slot in draft.map):
            return self._end_move(draft, realm)
        drawn: list[int] = []
        for _ in draft.spaces:
            if not draft.deck:  # only in the base game: with expansion 2 the game ended when it ran out
                if not draft.cemetery:
                    break
                _reshuffle(draft)
            drawn.append(draft.deck.pop(0))
            if self.discord and not draft.deck:  # the game ends the moment the deck runs out (rulebook 2, line 34)
                draft.laying = tuple(drawn)  # drawn, and never laid
                self._deck_exhausted(draft)
                return True
        if not drawn:
            return self._end_move(draft, realm)
        draft.laying, draft.phase = tuple(drawn), "lay"
        self._later(draft, ("end-move", realm))
        return True

    def _play_lay(self, draft: Draft, action: Lay) -> None:
        instance = action.card.number
        draft.map[draft.spaces.index(action.space)] = instance
        draft.laying = tuple(i for i in draft.laying if i != instance)
        if draft.laying:
            return
        draft.phase = "turn"  # every card laid: the move goes on
        self._resume(draft)

    def _play_defence(self, draft: Draft, action: Defend | NoDefence) -> None:
        """The end of a battle, defended (``Defend``) or not (``NoDefence``): the effect of both. A win is
        looked for as the treasure changes hands, before any card the terreta's bonus draws."""
        attacker, target, treasure, attack = draft.battle
        if type(action) is NoDefence:
            steals, defence = True, None
        else:
            defence = action.card.number
            draft.hands[action.player].remove(defence)
            facts = draft.facts
            if self.bonuses or facts.modifiers:
                steals = self.value(draft, attack, "attack", attacker) > self.value(draft, defence, "defence", target)
            else:  # printed values only: most games
                steals = facts.points["attack"][attack] > facts.points["defence"][defence]
            used = (attack, defence)
        used = tuple(step for who, card in ((attacker, attack), (target, defence)) if card is not None
                     for step in self._used(draft, who, card)) if self._uses else ()
        draft.battle, draft.phase = None, "turn"
        draft.cemetery += (attack,) if defence is None else (attack, defence)
        if steals:
            if treasure in draft.counters[target]:
                self._unplace(draft, target, treasure)
            self._place(draft, attacker, treasure)
            if max(draft.weights) >= (4 if draft.foods else 5) and self._check_victory(draft):
                self._later(draft, *used, _END_ACTION)
                return
        if not used:
            self._end_action(draft)
            return
        draft.pending = used + _END_ACTION_STEPS  # what using these cards does (a terreta's draws), on or off turn
        self._resume(draft)

    def _play_coin(self, draft: Draft, action: Coin) -> None:
        if draft.phase == "effect-coin":  # an effect's coin: the side it lands on is played, then the rest
            _, who, source, index, path, position = draft.pending[0]
            side = f"{path}.{position}.{'heads' if action.heads else 'tails'}".lstrip(".")
            draft.pending = (("verbs", who, source, index, side, 0),) + draft.pending[1:]
            draft.phase = "turn"
            self._resume(draft)
            return
        who, left, all_heads = draft.toss
        draft.toss = (who, left - 1, all_heads and action.heads)
        if not action.heads and draft.hands[who]:
            draft.takes = (_next(draft, who), who, 1)
        self._after_toss(draft)

    def _play_take(self, draft: Draft, action: Take) -> None:
        instance = action.card.number
        draft.hands[action.victim].remove(instance)
        draft.takes = None
        self._place(draft, action.taker, instance)
        self._after_toss(draft)

    # --- flow ---------------------------------------------------------------------------------
    # A step that stops for a decision or a chance outcome returns True, having left what remains of
    # itself in ``draft.pending``; its caller then adds what remains of its own (``_later``), and
    # ``_resume`` plays them in order once the decision or outcome is given.
    def _later(self, draft: Draft, *steps: tuple[Any, ...]) -> None:
        """``steps`` wait in the queue after those already there (nothing waits once the game is over)."""
        if draft.phase != "over":
            draft.pending += steps

    def _resume(self, draft: Draft) -> bool:
        """Play the steps waiting in the queue, in order, until one stops again (True) or none is left. A
        step that grants another action drops the end of the turn waiting after it."""
        steps, draft.pending = draft.pending, ()
        while steps:
            (name, *args), steps = steps[0], steps[1:]
            done = _STEPS[name](self, draft, *args)
            if done == GRANTED:
                steps = tuple(s for s in steps if s[0] not in _TURN_ENDS)
            elif done:
                self._later(draft, *steps)
                return True
        return False

    def _effects(self, draft: Draft, event: str, actor: int, everyone: bool = True) -> list[tuple[int, Any, int, Any, str]]:
        """(holder, source, index, effect, design) of every effect with trigger ``event`` that could act now:
        the Queen's terreta's (held by ``actor``), then the cards on the actor's counter and, with ``everyone``,
        on each other counter in turn order."""
        found: list[tuple[int, Any, int, Any, str]] = []
        if self.bonuses and draft.queen in self.bonuses:
            found += [(actor, f"terreta:{draft.queen}", i, e, draft.queen)
                      for i, e in enumerate(self.bonuses[draft.queen]) if e.when.event == event]
        if event not in self._card_events:
            return found
        defs, events = draft.facts.defs, draft.facts.events
        for k in range(draft.players if everyone else 1):
            holder = (actor + k) % draft.players
            for instance in draft.counters[holder]:
                if event in events[instance]:
                    found += [(holder, instance, i, e, draft.designs[instance]) for i, e in defs[instance].triggered(event)]
        return found

    def _triggered(self, draft: Draft, event: str, actor: int) -> tuple[tuple[Any, ...], ...]:
        """The queue steps of the actor's own effects with trigger ``event`` (those of the Queen's terreta and
        of the cards on the actor's counter) whose conditions hold now."""
        steps = []
        found = self._effects(draft, event, actor, everyone=False)
        for holder, source, index, effect, _ in (ordered(found) if len(found) > 1 else found):
            instance = source if type(source) is int else None
            if holds(effect.while_, draft, holder, instance):
                steps.append(("verbs", holder, source, index, "", 0))
        return tuple(steps)

    def _used(self, draft: Draft, user: int, instance: int) -> tuple[tuple[Any, ...], ...]:
        """The queue steps of what using ``instance`` (in a battle, or selling it) triggers, played by ``user``."""
        if not self._uses:
            return ()
        design = draft.designs[instance]
        steps = []
        for holder, source, index, effect, _ in self._effects(draft, "card-used", user):
            if design in effect.when.cards and holds(effect.while_, draft, holder, source if type(source) is int else None):
                steps.append(("verbs", user, source, index, "", 0))
        return tuple(steps)

    def _effect(self, draft: Draft, source: Any, index: int) -> Any:
        if type(source) is int:
            return draft.facts.defs[source].effects[index]
        return self.bonuses[source.removeprefix("terreta:")][index]

    def _verbs(self, draft: Draft, who: int, source: Any, index: int, path: str,
               position: int) -> Any:
        """Play the verbs at ``path`` of an effect from ``position``: a step of the queue (see ``interpreter``)."""
        verbs = verbs_at(self._effect(draft, source, index), path)
        granted = False
        for k in range(position, len(verbs)):
            verb = verbs[k]
            name = verb.verb
            if name == "draw":
                if self._draw(draft, who, verb.count):
                    self._later(draft, ("verbs", who, source, index, path, k + 1))
                    return True
            elif name == "coin":
                draft.phase = "effect-coin"
                self._later(draft, ("coin", who, source, index, path, k), ("verbs", who, source, index, path, k + 1))
                return True
            elif name == "extra-action":
                draft.phase, granted = "turn", True
            elif name == "win":
                draft.phase, draft.winner, draft.reason = "over", who, "effect-win"
                return True
        return GRANTED if granted else False

    def _end_action(self, draft: Draft) -> bool:
        """After a turn's action (a battle's after its defence): a winner, the coin, or the next turn."""
        if max(draft.weights) >= (4 if draft.foods else 5) and self._check_victory(draft):  # seldom: most
            self._later(draft, ("next-turn",))  # wins were found at the change that made them
            return True
        return self._next_turn(draft)

    def _check_victory(self, draft: Draft) -> bool:
        """Victory at the instant of 5 valid ingredients (4 with the Queen in your food's terreta), on or off
        turn; seafood asks the coin first. True when the game is over or the coin is to be tossed."""
        if max(draft.weights) < (4 if draft.foods else 5):  # no counter can make enough: most of the time
            return False
        counters = draft.counters
        players = len(counters)
        for k in range(players):
            who = (draft.current + k) % players
            if not self._may_win(draft, who):
                continue
            count, blocked, seafood = self.ingredients(draft, who)
            territorial = bool(draft.foods) and count >= 4 and draft.queen == draft.foods[who]
            if (count >= 5 or territorial) and not blocked:
                if self.discord and seafood:
                    if draft.refused and draft.refused[who] == tuple(counters[who]):
                        continue  # this very paella was refused: it is offered again on its holder's turn
                    draft.phase, draft.toss = "toss", (who, seafood, True)
                    return True
                if count < 5:
                    draft.revealed = tuple(r or p == who for p, r in enumerate(draft.revealed))
                    draft.phase, draft.winner, draft.reason = "over", who, "four-ingredients-territorial"
                    return True
                draft.phase, draft.winner, draft.reason = "over", who, "five-ingredients"
                return True
        return False

    def _after_toss(self, draft: Draft) -> None:
        if draft.takes is not None:
            return
        who, left, all_heads = draft.toss
        if left > 0:
            return
        draft.toss, draft.phase = None, "turn"
        if all_heads:
            draft.phase, draft.winner, draft.reason = "over", who, "five-ingredients-seafood"
            draft.pending = ()
            return
        refused = list(draft.refused or [()] * len(draft.counters))
        refused[who] = tuple(draft.counters[who])
        draft.refused = tuple(refused)
        if not self._check_victory(draft):  # another player's paella may be complete too
            self._resume(draft)

    def _next_turn(self, draft: Draft) -> bool:
        draft.current = (draft.current + 1) % len(draft.hands)
        draft.turn += 1
        draft.phase = "turn"
        if self._turn_starts:  # else nothing happens at the start of a turn
            return self._start_turn(draft)
        return False

    def _start_turn(self, draft: Draft) -> bool:
        me = draft.current
        if self.discord and self._may_win(draft, me):  # a refused paella is offered again: the turn is the tosses
            count, blocked, seafood = self.ingredients(draft, me)
            territorial = bool(draft.foods) and count >= 4 and draft.queen == draft.foods[me]
            if (count >= 5 or territorial) and not blocked and seafood:
                draft.phase, draft.toss = "toss", (me, seafood, True)
                self._later(draft, ("next-turn",))
                return True
        if self.burning:  # draw one, then discard a hand card (none to discard: nothing more)
            draft.phase = "turn"
            if self._draw(draft, me, 1):
                self._later(draft, ("burn",))
                return True
            return self._burn(draft)
        return self._after_burn(draft)

    def _burn(self, draft: Draft) -> bool:
        """Expert mode's burn, once its card is drawn: a hand card to discard, if there is one."""
        if draft.hands[draft.current]:
            draft.phase = "burn"
            return True
        return self._after_burn(draft)

    def _after_burn(self, draft: Draft) -> bool:
        """What acts at the start of the turn (the gamba's coin, the taronger's card…), then the action."""
        draft.phase = "turn"
        if not any(map(draft.facts.turn_start.__getitem__, draft.counters[draft.current])) and not self._starts:
            return False
        steps = self._triggered(draft, "turn-start", draft.current)
        if not steps:
            return False
        draft.pending = steps + draft.pending
        return self._resume(draft)

    def _draw(self, draft: Draft, who: int, count: int) -> bool:
        """``who`` draws ``count`` cards, one at a time from the top, a win looked for as each arrives: the
        cemetery is reshuffled into an empty deck (base game), or the game ends when the deck runs out
        (expansion 2; the last card leaving the deck ends it). True when the draw stopped (the rest waits)."""
        deck = draft.deck
        for k in range(count):
            if not deck:
                if self.discord:
                    self._deck_exhausted(draft)
                    return True
                if not draft.cemetery:
                    return False
                _reshuffle(draft)
                deck = draft.deck
            self._place(draft, who, deck.pop(0))
            if self.discord and not deck:
                self._deck_exhausted(draft)
                return True
            # only ``who``'s counter changed: nobody else can have reached a paella
            if draft.weights[who] >= (4 if draft.foods else 5) and self._check_victory(draft):
                if k + 1 < count:
                    self._later(draft, ("draw", who, count - k - 1))
                return True
        return False

    def _deck_exhausted(self, draft: Draft) -> None:
        """The game ends as the deck runs out (expansion 2): a card that wins then wins (the fideuà)."""
        draft.phase, draft.winner, draft.reason = "over", None, "deck-exhausted"
        draft.pending = ()
        for holder, source, index, effect, _ in self._effects(draft, "deck-runs-out", 0):
            instance = source if type(source) is int else None
            if holds(effect.while_, draft, holder, instance) and any(v.verb == "win" for v in effect.do):
                draft.winner, draft.reason = holder, "deck-exhausted-holder"
                return

    def _place(self, draft: Draft, who: int, instance: int) -> None:
        """``instance`` reaches ``who``: a treasure goes onto the counter, any other card into the hand
        (both kept in number order)."""
        facts = draft.facts
        if facts.treasure[instance]:
            insort(draft.counters[who], instance)
            draft.weights[who] += facts.weight[instance]
            draft.sellables[who] += facts.sellable[instance]
            draft.on_counters += 1
        else:
            insort(draft.hands[who], instance)

    def _unplace(self, draft: Draft, who: int, instance: int) -> None:
        """``instance`` leaves ``who``'s counter (the only way a counter loses a card)."""
        facts = draft.facts
        draft.counters[who].remove(instance)
        draft.weights[who] -= facts.weight[instance]
        draft.sellables[who] -= facts.sellable[instance]
        draft.on_counters -= 1

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
            "queen": state.queen, "laying": list(map(label, state.laying)),
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
                if not any(self.card(state, i).doing("face-up-attacks") for i in state.counters[target]):  # apart too
                    return f"{player(viewer)} sees the face-down attack"
        return None

    def dump(self, state: State) -> dict[str, Any]:
        """JSON-ready: tuples become lists (hands and counters are the only tuples of tuples)."""
        data = dict(state.__dict__)  # every field, in order (states are built whole)
        for name, value in data.items():
            if type(value) is tuple:
                data[name] = [list(group) for group in value] if name in NESTED else list(value)
        return data

    def load(self, data: dict[str, Any]) -> State:
        """The state ``dump`` wrote (fields it leaves out take their defaults)."""
        if data.keys() != FIELD_SET:  # fields missing or unknown: the dataclass fills in or says which
            return State(**{name: tupled(name, value) for name, value in data.items()})
        return built({name: tupled(name, value) if type(value) is list else value
                       for name, value in zip(FIELDS, map(data.__getitem__, FIELDS))})

    def expectation(self, state: State, expect: dict[str, Any]) -> str | None:
        """None when a scenario's expectation holds, else what differs (see docs/scenarios.md)."""
        if "winner" in expect:
            wanted = expect["winner"]
            got = player(state.winner) if state.winner is not None else None
            if got != wanted or ("reason" in expect and state.reason != expect["reason"]):
                return f"expected winner {wanted} ({expect.get('reason', 'any reason')}), got {got} ({state.reason})"
        present = sorted(set(expect.get("absent", ())) & set(state.designs))
        if present:
            return f"expected no card of {', '.join(present)} in the game, found one"
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

    def outcome(self, state: State) -> Outcome | None:
        """How the game ended (the winner, or nobody when the deck ran out with no fideuà held)."""
        if state.phase != "over":
            return None
        return Outcome(state.reason, () if state.winner is None else (state.winner,))

    def result(self, state: State) -> tuple[int | None, str | None]:
        return state.winner, state.reason

    def invariants(self, state: State) -> list[str]:
        broken = []
        in_hands, on_counters = list(chain.from_iterable(state.hands)), list(chain.from_iterable(state.counters))
        places = in_hands + on_counters + list(state.deck) + list(state.cemetery) \
            + ([state.battle[3]] if state.battle else []) + [i for i in state.map if i >= 0] + list(state.laying)
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
        if (state.phase == "lay") != bool(state.laying) and state.phase != "over":
            broken.append("cards wait to be laid on the map exactly in the lay phase")
        if (state.phase == "toss") != (state.toss is not None):
            broken.append("coin tosses are pending exactly in the toss phase")
        if state.pending and state.phase in ("turn", "over"):
            broken.append("steps wait in the queue only while a decision or chance outcome is due")
        if state.spaces and all(i < 0 for i in state.map) and (state.deck or state.cemetery) \
                and state.phase not in ("over", "lay"):
            broken.append("the map is empty while cards remain to refill it")
        return broken


def _reshuffle(draft: Draft) -> None:
    """The base game's deck exhaustion: the cemetery, shuffled with the step's rng, becomes the deck."""
    if draft.rng is None:
        raise RuntimeError("the deck must be reshuffled from the cemetery: pass rng=")
    draft.rng.shuffle(draft.cemetery)
    draft.deck, draft.cemetery = draft.cemetery, []


def _next(draft: Draft, who: int) -> int:
    return (who + 1) % draft.players


_COINS = (Coin(True), Coin(False))
"""The humour coin's outcomes in notation order ("coin heads" < "coin tails")."""
_COIN_PHASES = frozenset({"toss", "effect-coin"})
_CHANCE_PHASES = _COIN_PHASES | {"first"}
_CHANCE_ACTIONS = frozenset({Coin, Take, First})
_KINDS = (Almoina, Sell, Attack, Defend, NoDefence, Coin, Take, First, Move, Burn, Lay)
_DEFENCES = (Defend, NoDefence)
_END_ACTION = ("end-action",)
_END_ACTION_STEPS = (_END_ACTION,)
_TURN_ENDS = frozenset({"end-action", "next-turn"})
"""Queue steps that end the turn: an extra action granted drops them."""
_STEPS = {"draw": FalleraRules._draw,
          "end-action": FalleraRules._end_action, "next-turn": FalleraRules._next_turn,
          "refill": FalleraRules._refill, "end-move": FalleraRules._end_move, "burn": FalleraRules._burn,
          "verbs": FalleraRules._verbs}
"""The steps that may wait in ``pending``, by name: each takes the rules, the draft and its arguments."""
_CHECKS = {kind: getattr(FalleraRules, f"_check_{kind.__name__.lower()}") for kind in _KINDS}
_EFFECTS = {kind: getattr(FalleraRules, f"_play_{kind.__name__.lower()}") for kind in _KINDS if kind not in _DEFENCES}
_EFFECTS.update(dict.fromkeys(_DEFENCES, FalleraRules._play_defence))
"""Each action type's check and effect (looked up once, not by name at each step)."""
