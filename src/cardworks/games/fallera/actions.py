"""La Fallera Calavera's actions: frozen, with a notation that parses back identically.

Players are ``p1``…``pN``; a card instance is ``design#n`` (``conill#0``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import ClassVar

from ...engine.core import player


@dataclass(frozen=True, order=True)
class Card:
    """A card instance: its design and its number in the game."""

    design: str
    number: int

    def __str__(self) -> str:
        return f"{self.design}#{self.number}"


@dataclass(frozen=True)
class _Notated:
    """Keeps an action's notation, written once: playouts log every action they take, so writing it
    at each call was a large share of a step."""

    _notation: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_notation", self._write())

    def notation(self) -> str:
        return self._notation

    def _write(self) -> str:
        raise NotImplementedError


@dataclass(frozen=True)
class Almoina(_Notated):
    """Do nothing else and draw one card."""

    player: int

    def _write(self) -> str:
        return f"{player(self.player)} almoina"


@dataclass(frozen=True)
class Sell(_Notated):
    """Discard a sellable treasure from your counter and draw its value."""

    player: int
    card: Card

    def _write(self) -> str:
        return f"{player(self.player)} sell {self.card}"


@dataclass(frozen=True)
class Attack(_Notated):
    """Call a battle for a rival's treasure, one battle card face down."""

    player: int
    target: int
    treasure: Card
    card: Card

    def _write(self) -> str:
        return f"{player(self.player)} battle {player(self.target)} {self.treasure} with {self.card}"


@dataclass(frozen=True)
class Defend(_Notated):
    """Defend with a battle card."""

    player: int
    card: Card

    def _write(self) -> str:
        return f"{player(self.player)} defend {self.card}"


@dataclass(frozen=True)
class NoDefence(_Notated):
    """Let the attack through."""

    player: int

    def _write(self) -> str:
        return f"{player(self.player)} no-defence"


@dataclass(frozen=True)
class Pass(_Notated):
    """Decline the battle a card lets the player call once more (phase ``again``): the action ends."""

    player: int

    def _write(self) -> str:
        return f"{player(self.player)} pass"


@dataclass(frozen=True)
class Coin(_Notated):
    """A toss of the humour coin (chance)."""

    heads: bool

    def _write(self) -> str:
        return f"coin {'heads' if self.heads else 'tails'}"


@dataclass(frozen=True)
class Take(_Notated):
    """A blind pick: ``taker`` takes a card from ``victim``'s hand (chance)."""

    taker: int
    victim: int
    card: Card

    def _write(self) -> str:
        return f"{player(self.taker)} takes {self.card} from {player(self.victim)}"


@dataclass(frozen=True)
class First(_Notated):
    """The tie-break for the first player (chance; in the rulebook, the latest orange juice)."""

    player: int

    def _write(self) -> str:
        return f"first {player(self.player)}"


@dataclass(frozen=True)
class Move(_Notated):
    """Move the Calavera Queen one terreta along an access and take the card there (expansion 3)."""

    player: int
    space: str

    def _write(self) -> str:
        return f"{player(self.player)} queen {self.space}"


@dataclass(frozen=True)
class _PlayerCard(_Notated):
    """An action of one player on one of their cards, written ``pN <verb> <card>``."""

    player: int
    card: Card
    verb: ClassVar[str]

    def _write(self) -> str:
        return f"{player(self.player)} {self.verb} {self.card}"


@dataclass(frozen=True)
class Burn(_PlayerCard):
    """Expert mode: before the turn, discard a hand card (after drawing one)."""

    verb: ClassVar[str] = "burn"


@dataclass(frozen=True)
class Lay(_Notated):
    """Expansion 3: lay one of the cards drawn to refill the emptied map on an empty terreta, as the player wishes."""

    player: int
    card: Card
    space: str

    def _write(self) -> str:
        return f"{player(self.player)} lay {self.card} {self.space}"


@dataclass(frozen=True)
class Play(_PlayerCard):
    """Play a special card from the hand as the turn's action."""

    verb: ClassVar[str] = "play"


@dataclass(frozen=True)
class Respond(_PlayerCard):
    """Play a special card from the hand in answer to a response window (``pN pass`` declines)."""

    verb: ClassVar[str] = "respond"


@dataclass(frozen=True)
class Target(_Notated):
    """Choose a verb's target: a treasure on ``owner``'s counter."""

    player: int
    owner: int
    card: Card

    def _write(self) -> str:
        return f"{player(self.player)} target {player(self.owner)} {self.card}"


@dataclass(frozen=True)
class Discard(_PlayerCard):
    """Discard a card of your choosing from your hand, as a card's effect asks."""

    verb: ClassVar[str] = "discard"


@dataclass(frozen=True)
class Choose(_Notated):
    """Choose a rival for a verb (``choose-player``, ``look-at-hand``, a discard of the player chosen)."""

    player: int
    chosen: int

    def _write(self) -> str:
        return f"{player(self.player)} choose {player(self.chosen)}"


@dataclass(frozen=True)
class Pick(_Notated):
    """Pick a card in ``victim``'s hand, unseen: by its position (from 1) in that hand, not by the card."""

    player: int
    victim: int
    position: int

    def _write(self) -> str:
        return f"{player(self.player)} pick {player(self.victim)} {self.position}"


@dataclass(frozen=True)
class TargetBattle(_PlayerCard):
    """Choose the battle in progress for a verb, named by the treasure it is called for."""

    verb: ClassVar[str] = "target-battle"


@dataclass(frozen=True)
class TargetMap(_PlayerCard):
    """Choose a card lying on the Kingdom map for a verb."""

    verb: ClassVar[str] = "target-map"


@dataclass(frozen=True)
class TargetCemetery(_PlayerCard):
    """Choose a card lying in the cemetery (the discard pile) for a verb."""

    verb: ClassVar[str] = "target-cemetery"


@dataclass(frozen=True)
class TargetTerreta(_Notated):
    """Choose a terreta of the Kingdom map for a verb."""

    player: int
    space: str

    def _write(self) -> str:
        return f"{player(self.player)} target-terreta {self.space}"


@dataclass(frozen=True)
class TargetTreasure(_Notated):
    """Choose a treasure on ``owner``'s counter (the chooser's own included) for a verb (``protect``, ``attach``)."""

    player: int
    owner: int
    card: Card

    def _write(self) -> str:
        return f"{player(self.player)} treasure {player(self.owner)} {self.card}"


@dataclass(frozen=True)
class Call(_Notated):
    """Name a rival and the treasure on their counter a battle of several (``several-battles``) is fought for."""

    player: int
    target: int
    treasure: Card

    def _write(self) -> str:
        return f"{player(self.player)} call {player(self.target)} {self.treasure}"


@dataclass(frozen=True)
class AttackWith(_PlayerCard):
    """Place the one attack of a battle of several face down: the calling ends, the defences follow."""

    verb: ClassVar[str] = "attack-with"


FalleraAction = (Almoina | Sell | Attack | Defend | NoDefence | Pass | Coin | Take | First | Move | Burn | Lay | Play
                 | Respond | Target | Discard | Choose | Pick | TargetBattle | TargetMap | TargetTerreta | TargetTreasure
                 | Call | AttackWith | TargetCemetery)

_P = r"p(\d+)"
_C = r"([a-z0-9-]+)#(\d+)"
_PATTERNS = [
    (re.compile(rf"^{_P} almoina$"), lambda m: Almoina(_p(m[1]))),
    (re.compile(rf"^{_P} sell {_C}$"), lambda m: Sell(_p(m[1]), Card(m[2], int(m[3])))),
    (re.compile(rf"^{_P} battle {_P} {_C} with {_C}$"),
     lambda m: Attack(_p(m[1]), _p(m[2]), Card(m[3], int(m[4])), Card(m[5], int(m[6])))),
    (re.compile(rf"^{_P} defend {_C}$"), lambda m: Defend(_p(m[1]), Card(m[2], int(m[3])))),
    (re.compile(rf"^{_P} no-defence$"), lambda m: NoDefence(_p(m[1]))),
    (re.compile(rf"^{_P} pass$"), lambda m: Pass(_p(m[1]))),
    (re.compile(r"^coin (heads|tails)$"), lambda m: Coin(m[1] == "heads")),
    (re.compile(rf"^{_P} takes {_C} from {_P}$"), lambda m: Take(_p(m[1]), _p(m[4]), Card(m[2], int(m[3])))),
    (re.compile(rf"^first {_P}$"), lambda m: First(_p(m[1]))),
    (re.compile(rf"^{_P} queen ([a-z0-9-]+)$"), lambda m: Move(_p(m[1]), m[2])),
    (re.compile(rf"^{_P} burn {_C}$"), lambda m: Burn(_p(m[1]), Card(m[2], int(m[3])))),
    (re.compile(rf"^{_P} lay {_C} ([a-z0-9-]+)$"), lambda m: Lay(_p(m[1]), Card(m[2], int(m[3])), m[4])),
    (re.compile(rf"^{_P} play {_C}$"), lambda m: Play(_p(m[1]), Card(m[2], int(m[3])))),
    (re.compile(rf"^{_P} respond {_C}$"), lambda m: Respond(_p(m[1]), Card(m[2], int(m[3])))),
    (re.compile(rf"^{_P} target {_P} {_C}$"), lambda m: Target(_p(m[1]), _p(m[2]), Card(m[3], int(m[4])))),
    (re.compile(rf"^{_P} discard {_C}$"), lambda m: Discard(_p(m[1]), Card(m[2], int(m[3])))),
    (re.compile(rf"^{_P} choose {_P}$"), lambda m: Choose(_p(m[1]), _p(m[2]))),
    (re.compile(rf"^{_P} pick {_P} ([1-9]\d*)$"), lambda m: Pick(_p(m[1]), _p(m[2]), int(m[3]))),
    (re.compile(rf"^{_P} target-battle {_C}$"), lambda m: TargetBattle(_p(m[1]), Card(m[2], int(m[3])))),
    (re.compile(rf"^{_P} target-map {_C}$"), lambda m: TargetMap(_p(m[1]), Card(m[2], int(m[3])))),
    (re.compile(rf"^{_P} target-cemetery {_C}$"), lambda m: TargetCemetery(_p(m[1]), Card(m[2], int(m[3])))),
    (re.compile(rf"^{_P} target-terreta ([a-z0-9-]+)$"), lambda m: TargetTerreta(_p(m[1]), m[2])),
    (re.compile(rf"^{_P} treasure {_P} {_C}$"), lambda m: TargetTreasure(_p(m[1]), _p(m[2]), Card(m[3], int(m[4])))),
    (re.compile(rf"^{_P} call {_P} {_C}$"), lambda m: Call(_p(m[1]), _p(m[2]), Card(m[3], int(m[4])))),
    (re.compile(rf"^{_P} attack-with {_C}$"), lambda m: AttackWith(_p(m[1]), Card(m[2], int(m[3])))),
]


def _p(text: str) -> int:
    return int(text) - 1


def parse_action(text: str) -> FalleraAction:
    """The action written ``text``; ValueError naming the notation when it is not one."""
    cleaned = " ".join(text.split())
    for pattern, build in _PATTERNS:
        match = pattern.match(cleaned)
        if match:
            return build(match)
    raise ValueError(f"not an action: {text!r} (e.g. 'p1 almoina', 'p1 battle p2 conill#0 with el-capita-moro#5')")
