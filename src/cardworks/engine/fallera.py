"""La Fallera Calavera's rules: base game and the rules of expansion 2 ("discord").

Covered: setup (deal 7, or 10 with two players; re-deal on 3+ ingredients;
first player by fewest treasures, then fewest ingredients, then a chance
tie-break), treasures placed automatically, one action per turn (sell, battle,
almoina), battles (defend or not, attack must beat defence, both cards to the
cemetery), victory at the instant of 5 valid ingredients (cabeça d'alls and
other ``ingredient-value`` effects), deck exhaustion (reshuffle in the base
game; with expansion 2 the game ends and the ``wins-at-deck-exhaustion`` card
wins), xoriç blocking victory, seafood coin tosses (each tails lets the next
player take a hand card; a turn that starts on a won position is only the
tosses), the gamba's turn-start draw and the clòtxina's face-up battles; with
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
from collections import Counter
from dataclasses import dataclass
from typing import Any

from .core import CHANCE, IllegalActionError
from .fallera_actions import (Almoina, Attack, Burn, Card, Coin, Defend, FalleraAction, First, Move, NoDefence,
                              Sell, Take, parse_action, player)
from .fallera_cards import CardDef

MAX_REDEALS = 100


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

    @property
    def players(self) -> int:
        return len(self.hands)


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

    def bonus(self, state: State, op: str) -> list[Any]:
        """Bonuses of the terreta where the Queen stands."""
        if not self.bonuses or state.queen not in self.bonuses:
            return []
        return [b for b in self.bonuses[state.queen] if b.op == op]

    def value(self, state: State, instance: int, stat: str) -> int:
        """A battle card's attack or defence, with the terreta's bonus."""
        card = self.card(state, instance)
        extra = sum(getattr(b, stat) for b in self.bonus(state, "stat-bonus") if card.id in b.cards)
        return getattr(card, stat) + extra

    # --- helpers --------------------------------------------------------------------------
    def card(self, state: State, instance: int) -> CardDef:
        return self.defs[state.designs[instance]]

    def _ref(self, state: State, instance: int) -> Card:
        return Card(state.designs[instance], instance)

    def _instance(self, state: State, card: Card, where: tuple[int, ...], action: FalleraAction, rule: str, place: str) -> int:
        if not 0 <= card.number < len(state.designs) or state.designs[card.number] != card.design:
            raise IllegalActionError(action.notation(), "no-such-card", f"there is no card {card} in this game")
        if card.number not in where:
            raise IllegalActionError(action.notation(), rule, f"{card} is not {place}")
        return card.number

    def ingredients(self, state: State, who: int) -> tuple[int, bool, int]:
        """Valid ingredient count, whether a forbidden ingredient blocks, and seafood count, on a counter."""
        counter = state.counters[who]
        designs = {state.designs[i] for i in counter}
        made_valid = {c for b in self.bonus(state, "valid-ingredient") for c in b.cards}
        count, blocked, seafood = 0, False, 0
        for instance in counter:
            card = self.card(state, instance)
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

    # --- setup --------------------------------------------------------------------------------
    def new_game(self, *, rng: random.Random, deal: int, designs: tuple[str, ...] | None = None) -> State:
        """Shuffle, lay the map (expansion 3), deal, place treasures, re-deal on 3+ ingredients, choose who starts."""
        if designs is None:
            designs = tuple(d for card in sorted(self.defs.values(), key=lambda c: c.id) for d in [card.id] * card.copies)
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
        if state.phase == "over":
            return None
        if state.phase in {"toss", "turn-coin", "interior-coin", "first"} or state.takes is not None:
            return CHANCE
        if state.phase == "defend":
            return state.battle[1]
        return state.current

    def legal_actions(self, state: State) -> list[FalleraAction]:
        actions: list[FalleraAction] = []
        if state.phase == "over":
            return []
        if state.takes is not None:
            taker, victim, _ = state.takes
            actions = [Take(taker, victim, self._ref(state, i)) for i in state.hands[victim]]
        elif state.phase in {"toss", "turn-coin", "interior-coin"}:
            actions = [Coin(True), Coin(False)]
        elif state.phase == "burn":
            actions = [Burn(state.current, self._ref(state, i)) for i in state.hands[state.current]]
        elif state.phase == "first":
            actions = [First(p) for p in state.candidates]
        elif state.phase == "defend":
            target = state.battle[1]
            actions = [NoDefence(target)] + [Defend(target, self._ref(state, i)) for i in state.hands[target]
                                             if self.card(state, i).battle]
        else:
            me = state.current
            actions.append(Almoina(me))
            actions += [Sell(me, self._ref(state, i)) for i in state.counters[me] if self.card(state, i).kind == "sellable"]
            actions += [Move(me, space) for space in self._reachable(state)]
            battles = [i for i in state.hands[me] if self.card(state, i).battle]
            for target in range(state.players):
                if target == me:
                    continue
                for treasure in state.counters[target]:
                    actions += [Attack(me, target, self._ref(state, treasure), self._ref(state, b)) for b in battles]
        return sorted(actions, key=lambda a: a.notation())

    def _reachable(self, state: State) -> tuple[str, ...]:
        if not state.spaces:
            return ()
        return state.spaces if state.queen == "start" else self.board[state.queen]

    def parse(self, text: str) -> FalleraAction:
        return parse_action(text)

    def apply(self, state: State, action: FalleraAction, *, rng: random.Random | None = None) -> State:
        """The state after ``action``; IllegalActionError names the rule it breaks."""
        text = action.notation()
        if state.phase == "over":
            raise IllegalActionError(text, "game-over", "the game is over")
        actor = self.actor(state)
        if isinstance(action, (Coin, Take, First)):
            if actor != CHANCE:
                raise IllegalActionError(text, "not-chance", "no chance outcome is due now")
        elif actor == CHANCE:
            raise IllegalActionError(text, "chance-pending", "a chance outcome (coin, pick, tie-break) comes first")
        elif getattr(action, "player", None) != actor:
            raise IllegalActionError(text, "not-your-turn", f"it is {player(actor)}'s decision")
        handler = getattr(self, f"_apply_{type(action).__name__.lower()}")
        return handler(state, action, rng)

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
        card = self.card(state, instance)
        if card.kind != "sellable" or card.sell is None:
            raise IllegalActionError(action.notation(), "sell-sellable", f"{action.card} is not a sellable treasure")
        state = _replace(state, counters=_without(state.counters, action.player, instance),
                        cemetery=state.cemetery + (instance,))
        return self._after_action(self._draw(state, action.player, card.sell, rng), rng)

    def _apply_attack(self, state: State, action: Attack, rng: random.Random | None) -> State:
        self._need_phase(state, action, "turn")
        if action.target == action.player or not 0 <= action.target < state.players:
            raise IllegalActionError(action.notation(), "battle-rival", "a battle is called against a rival")
        attack = self._instance(state, action.card, state.hands[action.player], action, "battle-card-in-hand",
                                "in your hand")
        if not self.card(state, attack).battle:
            raise IllegalActionError(action.notation(), "battle-card", f"{action.card} is not a battle card")
        treasure = self._instance(state, action.treasure, state.counters[action.target], action, "battle-for-treasure",
                                  f"on {player(action.target)}'s counter")
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
        if not self.card(state, defence).battle:
            raise IllegalActionError(action.notation(), "defend-with-battle-card", f"{action.card} is not a battle card")
        state = _replace(state, hands=_without(state.hands, action.player, defence))
        return self._resolve_battle(state, defence, rng)

    def _resolve_battle(self, state: State, defence: int | None, rng: random.Random | None) -> State:
        attacker, target, treasure, attack = state.battle
        steals = defence is None or self.value(state, attack, "attack") > self.value(state, defence, "defence")
        used = (attack,) + ((defence,) if defence is not None else ())
        draws = [(who, sum(b.draw for b in self.bonus(state, "draw-after-use") if state.designs[card] in b.cards))
                 for who, card in ((attacker, attack), (target, defence)) if card is not None]
        state = _replace(state, battle=None, phase="turn", cemetery=state.cemetery + used)
        if steals:
            state = self._receive(_replace(state, counters=_without(state.counters, target, treasure)), attacker, [treasure])
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
                                  f"in {player(victim)}'s hand")
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
        order = [(state.current + k) % state.players for k in range(state.players)]
        for who in order:
            if who == skip:
                continue
            count, blocked, seafood = self.ingredients(state, who)
            territorial = bool(state.foods) and count >= 4 and state.queen == state.foods[who]
            if (count >= 5 or territorial) and not blocked:
                if self.discord and seafood:
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
        # a card taken on tails may complete another player's paella (the tosser already tried)
        state = self._check_victory(state, rng, then=then, skip=who)
        if state.phase != "turn":
            return state
        return state if then == "continue" else self._next_turn(state)

    def _next_turn(self, state: State) -> State:
        return self._start_turn(_replace(state, current=_next(state, state.current), turn=state.turn + 1, phase="turn"))

    def _start_turn(self, state: State) -> State:
        me = state.current
        if self.discord:
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
        me = state.current
        if self.discord and any(self.card(state, i).effect("turn-start-coin-draw") for i in state.counters[me]):
            return _replace(state, phase="turn-coin")
        return _replace(state, phase="turn")

    def _draw(self, state: State, who: int, count: int, rng: random.Random | None) -> State:
        for _ in range(count):
            if not state.deck:
                if self.discord:
                    return self._deck_exhausted(state)
                if not state.cemetery:
                    return state
                state = _reshuffle(state, rng)
            top, rest = state.deck[0], state.deck[1:]
            state = self._receive(_replace(state, deck=rest), who, [top])
            if self.discord and not state.deck:
                return self._deck_exhausted(state)
        return state

    def _deck_exhausted(self, state: State) -> State:
        for who in range(state.players):
            if any(self.card(state, i).effect("wins-at-deck-exhaustion") for i in state.counters[who]):
                return _replace(state, phase="over", winner=who, reason="deck-exhausted-holder")
        return _replace(state, phase="over", winner=None, reason="deck-exhausted")

    def _receive(self, state: State, who: int, instances: list[int]) -> State:
        """Cards arrive in a hand; treasures go straight onto the counter."""
        hands, counters = list(state.hands), list(state.counters)
        for i in instances:
            if self.card(state, i).treasure:
                counters[who] = tuple(sorted(counters[who] + (i,)))
            else:
                hands[who] = tuple(sorted(hands[who] + (i,)))
        return _replace(state, hands=tuple(hands), counters=tuple(counters))

    # --- views ------------------------------------------------------------------------------
    def observe(self, state: State, who: int) -> dict[str, Any]:
        """What ``who`` sees: their hand, every counter, hand sizes (public), the cemetery; the deck as a count."""
        names = state.designs

        def shown(instances) -> list[str]:
            return [f"{names[i]}#{i}" for i in instances]

        battle = None
        if state.battle is not None:
            attacker, target, treasure, attack = state.battle
            face_up = any(self.card(state, i).effect("attacked-face-up") for i in state.counters[target])
            battle = {"attacker": attacker, "target": target, "treasure": f"{names[treasure]}#{treasure}",
                      "attack": f"{names[attack]}#{attack}" if who == attacker or face_up else "hidden"}
        return {
            "you": who, "current": state.current, "phase": state.phase, "turn": state.turn,
            "hand": shown(state.hands[who]), "hand_sizes": [len(h) for h in state.hands],
            "counters": [shown(c) for c in state.counters],
            "deck_size": len(state.deck), "cemetery": shown(state.cemetery),
            "battle": battle, "winner": state.winner, "reason": state.reason,
            "map": {space: (f"{names[i]}#{i}" if i >= 0 else None) for space, i in zip(state.spaces, state.map)},
            "queen": state.queen,
            "foods": [food if p == who or state.revealed[p] else "hidden" for p, food in enumerate(state.foods)],
        }

    def hidden_leak(self, state: State) -> str | None:
        """Another player's hand card, a face-down attack or an unrevealed territorial food in an observation.

        Hands are the only hidden zone besides the attack and the foods, so each
        observation's hand must be the viewer's own.
        """
        for viewer in range(state.players):
            seen = self.observe(state, viewer)
            if seen["hand"] != [f"{state.designs[i]}#{i}" for i in state.hands[viewer]]:
                return f"{player(viewer)}'s observation shows a hand that is not theirs"
            if any(f != "hidden" for p, f in enumerate(seen["foods"]) if p != viewer and not state.revealed[p]):
                return f"{player(viewer)} sees a territorial food that is not revealed"
            if state.battle and viewer != state.battle[0] and seen["battle"]["attack"] != "hidden":
                target = state.battle[1]
                if not any(self.card(state, i).effect("attacked-face-up") for i in state.counters[target]):
                    return f"{player(viewer)} sees the face-down attack"
        return None

    def dump(self, state: State) -> dict[str, Any]:
        """JSON-ready: tuples become lists."""
        return {name: _lists(getattr(state, name)) for name in _FIELDS}

    def load(self, data: dict[str, Any]) -> State:
        return State(**{key: _tuples(value) for key, value in data.items()})

    def expectation(self, state: State, expect: dict[str, Any]) -> str | None:
        """None when a scenario's expectation holds, else what differs (see docs/scenarios.md)."""
        if "winner" in expect:
            wanted = expect["winner"]
            got = player(state.winner) if state.winner is not None else None
            if got != wanted or ("reason" in expect and state.reason != expect["reason"]):
                return f"expected winner {wanted} ({expect.get('reason', 'any reason')}), got {got} ({state.reason})"
        for zone in ("counters", "hands"):
            for who, designs in expect.get(zone, {}).items():
                p = int(who.removeprefix("p")) - 1
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
            got = self.ingredients(state, int(who.removeprefix("p")) - 1)[0]
            if got != count:
                return f"expected {who} to have {count} valid ingredients, got {got}"
        return None

    def result(self, state: State) -> tuple[int | None, str | None]:
        return state.winner, state.reason

    def invariants(self, state: State) -> list[str]:
        broken = []
        places = [i for h in state.hands for i in h] + [i for c in state.counters for i in c] + list(state.deck) \
            + list(state.cemetery) + ([state.battle[3]] if state.battle else []) + [i for i in state.map if i >= 0]
        if sorted(places) != list(range(len(state.designs))):
            broken.append("conservation: every card instance must be in exactly one zone")
        if any(self.card(state, i).treasure for h in state.hands for i in h):
            broken.append("a treasure is in a hand instead of on its counter")
        if any(not self.card(state, i).treasure for c in state.counters for i in c):
            broken.append("a card that is not a treasure is on a counter")
        if (state.phase == "over") != (state.reason is not None):
            broken.append("a game is over exactly when it has a reason")
        if (state.phase == "defend") != (state.battle is not None):
            broken.append("a battle is pending exactly in the defend phase")
        if (state.phase == "toss") != (state.toss is not None):
            broken.append("coin tosses are pending exactly in the toss phase")
        if state.spaces and all(i < 0 for i in state.map) and (state.deck or state.cemetery) and state.phase != "over":
            broken.append("the map is empty while cards remain to refill it")
        return broken


def _replace(state: State, **changes: Any) -> State:
    """``dataclasses.replace`` without re-running ``__init__`` (41% of a playout's time went there)."""
    new = object.__new__(State)
    new.__dict__.update(state.__dict__)
    new.__dict__.update(changes)
    return new


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
    return tuple(tuple(i for i in g if i != instance) if p == who else g for p, g in enumerate(groups))


_FIELDS = tuple(State.__dataclass_fields__)


def _lists(value: Any) -> Any:
    if type(value) is tuple:
        return [_lists(v) if type(v) is tuple else v for v in value]
    return value


def _tuples(value: Any) -> Any:
    if type(value) is list:
        return tuple(_tuples(v) if type(v) is list else v for v in value)
    return value
