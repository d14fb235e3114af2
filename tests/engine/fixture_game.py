"""A small card game that exists to test the contract suite: told to make one mistake, it breaks exactly
one part of the engine contract, and ``test_contract_fixture.py`` shows the suite failing on it.

The game itself (no rulebook: it is not one of the shipped games, and no fact of theirs is used): each
player holds cards; on your turn you play a card from your hand to the table, give one to another player,
or draw the top card of the deck. Eight turns, then the player with most cards on the table wins.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, replace
from typing import Any, NamedTuple

from cardworks.engine.base_rules import BaseRules
from cardworks.engine.codec import Nested
from cardworks.engine.core import IllegalActionError, Outcome, SetupRefused
from cardworks.engine.plugins import Hidden, Plugin

MISTAKES = ("card-not-in-hand", "out-of-turn", "wrong-target", "unsorted", "mutates", "global-random", "leak",
            "dump-load", "setup-raises", "no-catalogue")
TURNS = 8
CARDS = 12
DEAL = 3


def card(instance: int) -> str:
    return f"card#{instance}"


@dataclass(frozen=True)
class Play:
    player: int
    card: int

    def notation(self) -> str:
        return f"p{self.player + 1} play {card(self.card)}"


@dataclass(frozen=True)
class Give:
    player: int
    card: int
    target: int

    def notation(self) -> str:
        return f"p{self.player + 1} give {card(self.card)} p{self.target + 1}"


@dataclass(frozen=True)
class Draw:
    player: int

    def notation(self) -> str:
        return f"p{self.player + 1} draw"


ACTION = re.compile(r"p(\d+) (?:(play) card#(\d+)|(give) card#(\d+) p(\d+)|(draw))")


def parse_action(text: str) -> Any:
    match = ACTION.fullmatch(text)
    if not match:
        raise ValueError(f"not an action: {text!r}")
    who = int(match[1]) - 1
    if match[2]:
        return Play(who, int(match[3]))
    if match[4]:
        return Give(who, int(match[5]), int(match[6]) - 1)
    return Draw(who)


@dataclass(frozen=True)
class State:
    hands: tuple[tuple[int, ...], ...]
    deck: tuple[int, ...]
    table: tuple[tuple[int, ...], ...]
    current: int = 0
    turn: int = 1
    history: Nested = ()
    """The actions played (a tuple; a list only when the game is told to mutate its input)."""


class Catalogue(NamedTuple):
    """Every card is played: twelve numbered designs, none left out."""

    cards: dict[str, int]
    left_out: dict[str, str]


class Config(NamedTuple):
    selection: str
    players: int
    label: str


@dataclass
class Rules(BaseRules, state=State, actions=parse_action):
    """The fixture's rules. Its ``hidden_leak`` is the base class's (None) although it hides the hands: the game
    vouches for itself, and the contract suite must not believe it (the ``leak`` mistake)."""

    players: int
    mistake: str | None = None

    def actor(self, state: State) -> int | None:
        return None if state.turn > TURNS else state.current

    def legal_actions(self, state: State) -> list[Any]:
        if self.actor(state) is None:
            return []
        me = state.current
        actions: list[Any] = [Play(me, c) for c in state.hands[me]]
        actions += [Give(me, c, t) for c in state.hands[me] for t in range(self.players) if t != me]
        if state.deck:
            actions.append(Draw(me))
        ordered = sorted(actions, key=lambda a: a.notation())
        return ordered[::-1] if self.mistake == "unsorted" else ordered

    def apply(self, state: State, action: Any, *, rng: random.Random | None = None) -> State:
        text = action.notation()
        if self.actor(state) is None:
            raise IllegalActionError(text, "game-over", "the game is over")
        if action.player != state.current and self.mistake != "out-of-turn":
            raise IllegalActionError(text, "not-your-turn", f"it is p{state.current + 1}'s turn")
        if not 0 <= action.player < self.players:
            raise IllegalActionError(text, "no-such-player", "no such player")
        hands = [list(h) for h in state.hands]
        deck, table = list(state.deck), [list(t) for t in state.table]
        if isinstance(action, Draw):
            if not deck:
                raise IllegalActionError(text, "empty-deck", "the deck is empty")
            hands[action.player].append(deck.pop(0))
        else:
            if action.card not in hands[action.player]:
                if self.mistake != "card-not-in-hand":
                    raise IllegalActionError(text, "not-in-hand", "that card is not in your hand")
                for zone in hands + table + [deck]:  # taken from wherever it is
                    if action.card in zone:
                        zone.remove(action.card)
            else:
                hands[action.player].remove(action.card)
            if isinstance(action, Play):
                table[action.player].append(action.card)
            else:
                if action.target == action.player or not 0 <= action.target < self.players:
                    if self.mistake != "wrong-target":
                        raise IllegalActionError(text, "target", "give to another player at the table")
                hands[action.target % self.players].append(action.card)
        if self.mistake == "global-random":
            random.shuffle(deck)  # a careless reshuffle from the module's shared generator
        if self.mistake == "mutates":
            state.history.append(text)  # the input state changes under its caller
            history: Any = list(state.history)
        else:
            history = state.history + (text,)
        return State(tuple(tuple(sorted(h)) for h in hands), tuple(deck), tuple(tuple(t) for t in table),
                     (state.current + 1) % self.players, state.turn + (state.current + 1 == self.players), history)

    def observe(self, state: State, who: int) -> dict[str, Any]:
        seen = {"you": who, "hand": [card(c) for c in state.hands[who]], "hand_sizes": [len(h) for h in state.hands],
                "deck_size": len(state.deck), "table": [[card(c) for c in t] for t in state.table],
                "current": state.current, "turn": state.turn}
        if self.mistake == "leak":
            seen["hands"] = [[card(c) for c in h] for h in state.hands]  # every hand, to everyone
        return seen

    def load(self, data: dict[str, Any]) -> State:
        """The codec's load, unless the game is told to lose the deck's order or to keep its history mutable."""
        state = super().load(data)
        if self.mistake == "dump-load":
            state = replace(state, deck=tuple(sorted(state.deck)))
        if self.mistake == "mutates":
            state = replace(state, history=list(state.history))
        return state

    def invariants(self, state: State) -> list[str]:
        held = [c for h in state.hands for c in h] + list(state.deck) + [c for t in state.table for c in t]
        return [] if sorted(held) == list(range(CARDS)) else ["cards appeared or vanished"]

    def expectation(self, state: State, expect: dict[str, Any]) -> str | None:
        return None

    def outcome(self, state: State) -> Outcome | None:
        if self.actor(state) is not None:
            return None
        most = max(len(t) for t in state.table)
        return Outcome("turns", tuple(p for p, t in enumerate(state.table) if len(t) == most))


def plugin(mistake: str | None = None) -> Plugin:
    """The fixture game as a plugin, making ``mistake`` (one of ``MISTAKES``) or none."""

    def configurations(db: Any) -> tuple[list[Config], list[str]]:
        return [Config("base", 3, "base/3p"), Config("base", 2, "base/2p")], []

    def check_setup(db: Any, selection: str | None, players: int | None) -> None:
        if players is not None and not 2 <= players <= 3:
            raise SetupRefused("players", "fixture_game.py", "two or three players")

    def rules_for(db: Any, config: Config) -> tuple[Rules, Any]:
        check_setup(db, config.selection, config.players)
        if mistake == "no-catalogue":  # what an early version of this fixture did, and check crashed on
            return Rules(config.players, mistake), None
        return Rules(config.players, mistake), Catalogue({f"card-{n}": n for n in range(CARDS)}, {})

    def new_game(db: Any, config: Config, rng: random.Random) -> tuple[Rules, State]:
        rules, _ = rules_for(db, config)
        cards = list(range(CARDS))
        rng.shuffle(cards)
        hands = tuple(tuple(sorted(cards[p * DEAL:(p + 1) * DEAL])) for p in range(config.players))
        history: Any = [] if mistake == "mutates" else ()
        return rules, State(hands, tuple(cards[config.players * DEAL:]), tuple(() for _ in hands), history=history)

    def scenario_state(db: Any, setup: dict[str, Any]) -> tuple[Rules, State]:
        unknown = set(setup) - {"players", "hands", "current"}
        if unknown:
            raise ValueError(f"unknown setup keys {sorted(unknown)}")
        players = int(setup.get("players", 2))
        rules, _ = rules_for(db, Config("base", players, f"base/{players}p"))
        if mistake == "setup-raises" and "current" in setup:
            raise KeyError("current")  # a setup key the code forgot
        hands = tuple(tuple(sorted(h)) for h in setup["hands"])
        deck = tuple(c for c in range(CARDS) if not any(c in h for h in hands))
        history: Any = [] if mistake == "mutates" else ()
        return rules, State(hands, deck, tuple(() for _ in hands), int(setup.get("current", 0)), history=history)

    return Plugin(id="fixture", configurations=configurations, rules_for=rules_for, new_game=new_game,
                  scenario_state=scenario_state, check_setup=check_setup, parse_action=parse_action,
                  setup_keys=frozenset({"players", "hands", "current"}),
                  hidden=Hidden(private=("hands",), secret=("deck",)))


SCENARIOS = [
    {"id": "two-players", "setup": {"players": 2, "hands": [[0, 1], [2, 3]]}},
    {"id": "three-players-second-to-play", "setup": {"players": 3, "hands": [[0], [1, 2], [3, 4]], "current": 1}},
    {"id": "four-players-refused", "setup": {"players": 4, "hands": [[0], [1], [2], [3]]}, "refused": "players"},
]
"""The fixture's scenario setups (one expects the refusal of a player count the game forbids)."""
