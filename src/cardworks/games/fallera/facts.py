"""What La Fallera Calavera's hot paths ask of a deck, worked out once: per-instance tables, the
actions a game keeps offering (built once, reused), and a turn's legal actions as a lazy sequence."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Iterator

from .actions import Almoina, Attack, Card, Defend, FalleraAction, NoDefence, Play, Sell, player
from .cards import CardDef
from .effects import Draw, OnYourCounter
from .state import Draft, tallies

MAX_KEPT_ACTIONS = 50_000
"""Battles a deck's ``Facts`` keeps for reuse before starting afresh (there can be millions)."""
MAX_KEPT_TALLIES = 20_000
"""Counters' tallies a deck's ``Facts`` keeps for reuse before starting afresh."""
_ATTACKS: dict[tuple[tuple[str, ...], int], list[list[dict[int, Any]]]] = {}
_ROWS: dict[tuple[tuple[str, ...], int], dict[tuple[Any, ...], Any]] = {}


def _shared_attacks(designs: tuple[str, ...], players: int) -> list[list[dict[int, Any]]]:
    """The table of built ``Attack`` actions, per attacker and target, shared by every ``Facts`` of the same
    deal order and players: an attack names cards by design and number only, so the rules of a paired game's
    twin (one card's definition changed) list the very same actions and need not build them again. One
    table per deal order a process meets (a simulation's tables deal one each), each bounded as ``attack``
    keeps it."""
    return _ATTACKS.setdefault((designs, players), [[{} for _ in range(players)] for _ in range(players)])


def _shared_rows(designs: tuple[str, ...], players: int) -> dict[tuple[Any, ...], Any]:
    """``Facts.row``'s and ``Facts.plain``'s built actions, shared as ``_shared_attacks`` shares battles: a row
    (``Sell(p, card)`` for every instance) names cards by design and number only, so a twin's rules (one card's
    definition changed) and a sweep's tables (one card's number changed) list the very same actions. Building
    them again for each of a paired run's 29 tables was about a sixth of the processor time of a 30-game run."""
    return _ROWS.setdefault((designs, players), {})


STANDING_TABLES = {"face-up-attacks": "face_up"}
"""Standing verbs whose bound rule reads a table of ``Facts`` made once per deck from ``CardDef.doing``, not the
cards themselves (a view is built at every step of a search): verb → the table's attribute."""


class Facts:
    """What the hot paths ask of each card instance of one deck, by instance number.

    Built once per deck and player count (the rules keep it): a step indexes tuples instead
    of resolving a design, its definition and its effects each time. Actions are built once
    too, and reused, since a game keeps offering the same ones.
    """

    def __init__(self, defs_by_design: dict[str, CardDef], players: int, designs: tuple[str, ...]) -> None:
        defs = tuple(defs_by_design[d] for d in designs)
        self.defs = defs
        self.designs = designs
        self.labels = tuple(f"{d}#{i}" for i, d in enumerate(designs))
        """Each instance as the notation and observations write it."""
        self.refs = tuple(Card(d, i) for i, d in enumerate(designs))
        self.size = len(designs)
        self.instances = frozenset(range(len(designs)))
        rank = [0] * len(designs)
        for position, instance in enumerate(sorted(range(len(designs)), key=self.labels.__getitem__)):
            rank[instance] = position
        self.rank = tuple(rank)
        """Position of each instance's label in notation order (zones are kept in number order)."""
        self.rank_of = self.rank.__getitem__
        """``rank``'s lookup, the sort key of ``in_order`` (made once: sorting is in every step of a playout)."""
        self.in_number_order = rank == list(range(len(designs)))
        self.treasure = tuple(c.treasure for c in defs)
        self.battle = tuple(c.battle for c in defs)
        self.sellable = tuple(c.kind == "sellable" for c in defs)
        self.ingredient = tuple(c.kind == "ingredient" for c in defs)
        """Whether each instance is an ingredient (forbidden ones too: what the deal's re-deal rules count)."""
        self.hands_all_battle = all(c.treasure or c.battle for c in defs)
        """Every card that goes to a hand is a battle card: a hand is its own list of weapons."""
        present = set(designs)
        raised = max([verb.value for c in defs if any(v.verb == "attach" for e in c.effects for v in e.do)
                      for _, verb in c.doing("count-as-ingredients")], default=0)  # what an attached special raises an ingredient to
        self.weight = tuple(max(_most_valid(c, players, present), raised if c.kind == "ingredient" else 0)
                            for c in defs)
        """The most an instance can add to a valid ingredient count: a quick bound before counting."""
        self.plain_count = tuple(None if any(all(_may_hold(c, players, present) for c in effect.while_)
                                             for verb in ("valid-ingredient", "count-as-ingredients")
                                             for effect, _ in card.doing(verb))
                                 else int(card.kind == "ingredient" and card.category != "forbidden") for card in defs)
        """What an instance adds to its counter's valid ingredients when no terreta bonus or mark is at play: 1
        for an ingredient, 0 for a forbidden one or any other card; None for a card with an effect that may
        change a count in this deck (``valid-ingredient``, ``count-as-ingredients``). A counter without such a
        card counts the sum (what ``Victory.ingredients`` finds, without reading any effect)."""
        self.all_plain = None not in self.plain_count
        self.ingredient_kind = tuple(None if count is None else 0 if card.kind != "ingredient"
                                     else 3 if card.category == "forbidden" else 2 if card.category == "seafood"
                                     else 1 for card, count in zip(defs, self.plain_count))
        """How ``Victory.ingredients`` counts an instance with no terreta bonus or mark at play, read without its
        effects: 0 not an ingredient, 1 an ingredient, 2 a seafood one, 3 a forbidden one; None for a card with an
        effect that may change a count in this deck (as ``plain_count``), counted in full."""
        """No card of the deck needs its effects read to count valid ingredients (see ``plain_count``)."""
        self.points = {stat: tuple(getattr(c, stat) for c in defs) for stat in ("attack", "defence")}
        """A battle card's printed attack and defence."""
        self.face_up = tuple(bool(c.doing("face-up-attacks")) for c in defs)
        """Battle cards used against this card's holder are face up (conditions: on the holder's counter). The
        rule bound to ``face-up-attacks`` reads this table (``STANDING_TABLES``), not the cards, in every view."""
        self.turn_start = tuple(bool(c.triggered("turn-start")) for c in defs)
        self.more_actions = tuple(bool(c.doing("actions-per-turn")) for c in defs)
        """The card may allow its holder more than one action a turn (its effect's condition still to check)."""
        self.actions_allowed = tuple(_actions_allowed(c) for c in defs)
        """Read where the card is on its holder's counter: the actions a turn it allows when every condition of its
        ``actions-per-turn`` effects is that it is on its holder's counter (1 for a card with none); None when a
        condition needs looking at (``TurnFlow._another_action`` then reads it)."""
        self.start_draw = tuple(_start_draw(c) for c in defs)
        """Read where the card is on its holder's counter: (effect index, cards) when its only turn-start effect
        is drawing, with no condition but that it is on its holder's counter (the taronger putrefacte); else None."""
        self.playable = tuple(bool(c.triggered("played")) for c in defs)
        """The card is a special played from the hand as the turn's action."""
        self.any_playable = any(self.playable)
        self.events = tuple(frozenset(e.when.event for e in c.effects) for c in defs)
        """The triggers of each instance's effects."""
        self._answering: dict[str, tuple[bool, ...]] = {}
        self._answerers: dict[str, frozenset[int]] = {}
        self.takes_back = frozenset(i for i, c in enumerate(defs)
                                    if any(verb.verb == "return-from-cemetery" for e in c.effects for verb in e.do))
        """The instances that take a card back from the cemetery by choice (``return-from-cemetery``)."""
        self.modifiers = any(c.doing("modify-stat") for c in defs)
        """Some card of the deck changes battle cards' attack or defence."""
        """The card has effects at the start of its holder's turn."""
        self._rows: dict[tuple[Any, ...], Any] = _shared_rows(designs, players)
        self.rivals = tuple(tuple(sorted((p for p in range(players) if p != me), key=player)) for me in range(players))
        """For each player, everyone else in the notation's order of player names."""
        self.almoina = tuple(Almoina(p) for p in range(players))
        self.no_defence = tuple(NoDefence(p) for p in range(players))
        self.sells = tuple(self.row(Sell, p) for p in range(players))
        self.defends = tuple(self.row(Defend, p) for p in range(players))
        """Each player's actions of these kinds (for ``Sell`` and ``Defend``, one per instance)."""
        self._attacks = _shared_attacks(designs, players)
        self._kept = max(1, MAX_KEPT_ACTIONS // (players * players or 1))
        self._tallies: dict[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], tuple[int, ...], int]] = {}
        self._last_tallies: tuple[Any, Any] | None = None

    def tallies(self, counters: tuple[tuple[int, ...], ...]) -> tuple[list[int], list[int], int]:
        """A draft's ``TALLIES`` for a state's ``counters``, kept for reuse: a checked playout thaws the
        same counters for every action it tries, and counters change seldom."""
        last = self._last_tallies
        if last is not None and last[0] is counters:  # a search's determinizations share their counters
            kept = last[1]
        else:
            kept = self._tallies.get(counters)
        if kept is None:
            if len(self._tallies) >= MAX_KEPT_TALLIES:
                self._tallies.clear()
            weights, sellables, on_counters = tallies(self, counters)
            kept = self._tallies[counters] = (tuple(weights), tuple(sellables), on_counters)
        self._last_tallies = (counters, kept)
        return list(kept[0]), list(kept[1]), kept[2]

    def in_order(self, instances: tuple[int, ...] | list[int]) -> tuple[int, ...] | list[int]:
        """``instances`` (in number order) in notation order."""
        return instances if self.in_number_order else sorted(instances, key=self.rank_of)

    def answering(self, event: str) -> tuple[bool, ...]:
        """Per instance, whether one of its effects has the trigger ``event`` (worked out once per event): a response
        window asks only holders of such cards, and most hands hold none."""
        flags = self._answering.get(event)
        if flags is None:
            flags = self._answering[event] = tuple(event in triggers for triggers in self.events)
        return flags

    def answerers(self, event: str) -> frozenset[int]:
        """The instances ``answering`` flags for ``event``, as a set (worked out once per event): a window asks a
        hand only if it is not disjoint from it."""
        found = self._answerers.get(event)
        if found is None:
            flags = self.answering(event)
            found = self._answerers[event] = frozenset(i for i, flag in enumerate(flags) if flag)
        return found

    def row(self, kind: type, *players: int) -> tuple[FalleraAction, ...]:
        """``kind(*players, card)`` (``Sell``, ``Defend``, ``Burn``, ``Take``) for every instance, by
        instance number: built once, then a step only indexes it."""
        row = self._rows.get((kind, *players))
        if row is None:
            row = self._rows[(kind, *players)] = tuple(kind(*players, ref) for ref in self.refs)
        return row

    def plain(self, kind: type, *args: Any) -> FalleraAction:
        """``kind(*args)`` for an action that names no card (``Move(p, space)``, ``First(p)``), built once."""
        action = self._rows.get((kind, *args))
        if action is None:
            action = self._rows[(kind, *args)] = kind(*args)
        return action

    def plains(self, kind: type, me: int, each: tuple[Any, ...]) -> tuple[FalleraAction, ...]:
        """``plain(kind, me, x)`` for each ``x`` of ``each`` (the Queen's moves from where she stands), the tuple
        built once: every turn of a game with the map lists them."""
        key = (kind, me, each)
        actions = self._rows.get(key)
        if actions is None:
            actions = self._rows[key] = tuple(self.plain(kind, me, x) for x in each)
        return actions

    def attack(self, me: int, target: int, treasure: int, card: int) -> FalleraAction:
        """``Attack`` for instance numbers, built once (each pair of players keeps a bounded number)."""
        kept = self._attacks[me][target]
        key = treasure * self.size + card
        action = kept.get(key)
        if action is None:
            if len(kept) >= self._kept:  # many long games: start afresh rather than grow
                kept.clear()
            action = kept[key] = Attack(me, target, self.refs[treasure], self.refs[card])
        return action


def _on_counter_only(effect: Any) -> bool:
    return all(type(condition) is OnYourCounter for condition in effect.while_)


def _actions_allowed(card: CardDef) -> int | None:
    """``Facts.actions_allowed`` of one card."""
    doing = card.doing("actions-per-turn")
    if not all(_on_counter_only(effect) for effect, _ in doing):
        return None
    return max([1] + [verb.count for _, verb in doing])


def _start_draw(card: CardDef) -> tuple[int, int] | None:
    """``Facts.start_draw`` of one card."""
    starts = card.triggered("turn-start")
    if len(starts) != 1:
        return None
    index, effect = starts[0]
    if len(effect.do) != 1 or type(effect.do[0]) is not Draw or not _on_counter_only(effect):
        return None
    return index, effect.do[0].count


def _most_valid(card: CardDef, players: int, present: set[str]) -> int:
    """An upper bound of what ``card`` adds to a valid ingredient count with ``players`` players and a
    deck of the ``present`` designs."""
    if card.kind != "ingredient":
        return 0
    return max([1] + [verb.value for effect, verb in card.doing("count-as-ingredients")
                      if all(_may_hold(c, players, present) for c in effect.while_)])


def _may_hold(condition: Any, players: int, present: set[str]) -> bool:
    """Whether ``condition`` can ever hold in a game of ``players`` with a deck of the ``present`` designs."""
    if condition.is_ == "player-count":
        return players in condition.counts
    if condition.is_ == "with-card":
        return condition.card in present
    return True


class TurnChoices(Sequence):
    """A turn's legal actions in notation order: almoina, battles, specials played, Queen moves, sales.

    Battles are the many: one per rival treasure and battle card in hand. They are
    built only when looked at, so a random playout that looks at one action pays for one.
    """

    __slots__ = ("_facts", "_me", "_counters", "_weapons", "_moves", "_battles", "_size", "_plays")

    def __init__(self, facts: Facts, state: Any, moves: tuple[FalleraAction, ...]) -> None:
        """``state`` is a state or a draft; on a draft, valid until the draft changes (it reads the
        draft's hands and counters)."""
        me, counters = state.current, state.counters
        own, weapons = counters[me], state.hands[me]
        if not facts.hands_all_battle:
            battle = facts.battle
            weapons = [i for i in weapons if battle[i]]
        if type(state) is Draft:  # a draft keeps count of what is on the counters
            on_counters, sales = state.on_counters, state.sellables[me]
        else:
            on_counters, sales = sum(map(len, counters)), sum(map(facts.sellable.__getitem__, own))
        battles = (on_counters - len(own)) * len(weapons)
        self._facts, self._me, self._counters, self._weapons, self._moves = facts, me, counters, weapons, moves
        self._battles = battles  # sales are listed only when one is looked at: their count is enough here
        plays: tuple[FalleraAction, ...] = ()
        if facts.any_playable:  # specials played as the action ("pN play …" sorts between battles and moves)
            playable, hand = facts.playable, state.hands[me]
            if any(map(playable.__getitem__, hand)):  # most hands hold none: no row to look up
                row = facts.row(Play, me)
                plays = tuple(row[i] for i in facts.in_order(hand) if playable[i])
        self._plays = plays
        self._size = 1 + battles + len(plays) + len(moves) + sales

    def __len__(self) -> int:
        return self._size

    def __getitem__(self, index):  # type: ignore[override]
        if type(index) is not int or not 0 <= index < self._size:
            return self._unusual(index)
        facts, me = self._facts, self._me
        if not index:
            return facts.almoina[me]
        index -= 1
        if index < self._battles:  # rivals in name order, each one's treasures, each with every weapon
            counters, weapons = self._counters, self._weapons
            loot, weapon = divmod(index, len(weapons))
            for target in facts.rivals[me]:
                counter = counters[target]
                if loot < len(counter):
                    break
                loot -= len(counter)
            if not facts.in_number_order:
                counter, weapons = facts.in_order(counter), facts.in_order(weapons)
            return facts.attack(me, target, counter[loot], weapons[weapon])
        index -= self._battles
        if self._plays:
            if index < len(self._plays):
                return self._plays[index]
            index -= len(self._plays)
        if index < len(self._moves):
            return self._moves[index]
        return facts.sells[me][self._listed_sales()[index - len(self._moves)]]

    def battle_parts(self) -> tuple[Sequence[int], list[tuple[int, Sequence[int]]]]:
        """The battles, by instance number, without building one: (the weapons, (target, its treasures) for each
        rival in listing order), weapons and treasures in number order; ``__iter__`` lists each treasure (in
        notation order: ``in_order``) with every weapon (in notation order). ``battle`` builds one of them."""
        counters = self._counters
        return self._weapons, [(target, counters[target]) for target in self._facts.rivals[self._me]]

    def battle(self, target: int, treasure: int, weapon: int) -> FalleraAction:
        """The battle of ``battle_parts`` for these instance numbers (the action ``__iter__`` lists)."""
        return self._facts.attack(self._me, target, treasure, weapon)

    def in_order(self, instances: Sequence[int]) -> Sequence[int]:
        """Instances of ``battle_parts`` in notation order (``Facts.in_order``)."""
        return self._facts.in_order(instances)

    @property
    def designs(self) -> tuple[str, ...]:
        """Each instance's design, by number (what the battles built for ``battle_parts`` name)."""
        return self._facts.designs

    def named(self) -> set[str]:
        """The designs of the cards the listed actions name (a battle's weapon and treasure, a special played, a
        treasure sold; an almoina or a Queen's move names none), read off the numbers without building a battle."""
        designs, counters = self._facts.designs, self._counters
        found = {action.card.design for action in self._plays}
        if self._battles:
            found.update(designs[weapon] for weapon in self._weapons)
            for target in self._facts.rivals[self._me]:
                found.update(designs[treasure] for treasure in counters[target])
        sellable = self._facts.sellable
        found.update(designs[treasure] for treasure in counters[self._me] if sellable[treasure])
        return found

    def after_battles(self) -> Iterator[FalleraAction]:
        """The actions listed after the battles, in order: specials played, Queen moves, sales."""
        yield from self._plays
        yield from self._moves
        sells = self._facts.sells[self._me]
        for sale in self._listed_sales():
            yield sells[sale]

    def _listed_sales(self) -> list[int]:
        """The sellable treasures on the player's counter, in notation order."""
        sellable = self._facts.sellable
        return self._facts.in_order([i for i in self._counters[self._me] if sellable[i]])

    def _unusual(self, index: Any) -> Any:
        """A slice, a negative index or one out of range (playouts never ask for these)."""
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self._size))]
        if -self._size <= index < 0:
            return self[index + self._size]
        raise IndexError(index)

    def __iter__(self) -> Iterator[FalleraAction]:
        facts, me = self._facts, self._me
        yield facts.almoina[me]
        weapons = facts.in_order(self._weapons)
        attack, size = facts.attack, facts.size
        for target in facts.rivals[me]:
            get = facts._attacks[me][target].get  # ``Facts.attack``'s own table, read in line
            for treasure in facts.in_order(self._counters[target]):
                for weapon in weapons:
                    yield get(treasure * size + weapon) or attack(me, target, treasure, weapon)
        yield from self._plays
        yield from self._moves
        sells = facts.sells[me]
        for sale in self._listed_sales():
            yield sells[sale]
