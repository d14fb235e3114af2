"""Calavera's turn engine: rolling, setting dice aside, marking rows, the skulls' gift, the end.

Read from the rulebook (``calavera.fr.txt``; lines in brackets):

* The first player is chosen at random [18], a chance outcome here; play runs
  clockwise [18]. The active player rolls the six dice, at most three times
  [22]. After a roll they set aside the dice they want and reroll the rest
  [22]; a die showing a skull is set aside at once and never rerolled [22, 28]
  (rule ``skull-stays-aside``).
* Marking [22, 29]: after the last roll the active player chooses a colour,
  or the jokers, among their dice and ticks exactly that many boxes, left to
  right, on that colour's row. The Dutch list says jokers are *flexible* for
  the active player and may go to the passive players when the active player
  leaves them unused [31]; so the active player either counts the colour alone
  or the colour together with every joker. "Choosing the jokers" is the second
  case for a colour no die shows: the jokers alone, ticked on the row of a
  colour the player names. Any other count is refused (``mark-exact-count``),
  also when it pushes the row into the danger zone [29].
* The skulls' gift [22, 30, 31]: for each skull set aside, each passive player
  may choose one colour the active player did not use and tick *the number of
  dice showing it* on their own sheet ("cocher ces cases", line 22: the boxes
  that colour's dice stand for; line 30: they choose among the dice the active
  player did not choose). Jokers the active player left unused may join one of
  those choices [31]; jokers the active player used may not
  (``jokers-used-by-active``). Each choice is optional (``peuvent``, line 22):
  ``pass`` gives up the remaining ones.
* The game ends at the end of the round in which someone closed their four
  rows, or reached the last boxes of the given number of rows [26] (that number
  is assumed). Each row scores the number under its last ticked box; the
  totals decide; a tie shares the win [26].

Assumed (the text does not settle it; see docs/scenarios.md): a die set aside
stays aside for the rest of the turn (``set-aside-stays``); stopping early is
simply marking after the first or second roll; a passive player uses each
colour at most once per turn (``passive-colour-once``) and the unused jokers
at most once; a closed row takes no more marks (``row-closed``) and a count
larger than the boxes left fills the row; a player with nothing to mark passes
(the active player only then: ``active-must-mark``); a passive player with
nothing to mark is skipped; a row with no tick scores 0; the end conditions
are checked when the round ends, not at once ("dès que" in line 26 could mean
either).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from .actions import JOKER, SKULL, CalaveraAction, Die, First, Mark, Pass, Reroll, Roll, parse_action, player
from .invariants import more_invariants
from ...engine.base_rules import BaseRules
from ...engine.core import CHANCE, IllegalActionError, Outcome, player_index



@dataclass(frozen=True)
class State:
    """A position. ``sheets[p][r]`` is how many boxes player ``p`` has ticked on row ``r``."""

    sheets: tuple[tuple[int, ...], ...]
    first: int
    """The player who started the game: a round ends when the turn comes back to them."""
    current: int
    """The active player."""
    phase: str
    """``first`` (chance), ``roll``, ``dice`` (chance), ``choose``, ``passive`` or ``over``."""
    round: int = 1
    dice: tuple[str | None, ...] = ()
    """What each die shows; ``None`` while it is being rolled or before the first roll."""
    aside: tuple[bool, ...] = ()
    """Dice set aside this turn (skulls at once, others by choice)."""
    pending: tuple[int, ...] = ()
    """Dice whose outcome is still due, in the order they land."""
    rolls: int = 0
    chosen: str | None = None
    """The colour the active player ticked (``None`` before marking, or after a pass)."""
    jokers_used: bool = False
    """The active player counted the jokers."""
    passive: int | None = None
    """The passive player deciding now."""
    credits: int = 0
    """Skulls the deciding passive player may still use."""
    taken: tuple[str, ...] = ()
    """Colours the deciding passive player has ticked this turn."""
    passive_jokers: bool = False
    """The deciding passive player has counted the unused jokers."""
    winners: tuple[int, ...] = ()
    reason: str | None = None
    scores: tuple[int, ...] = ()
    """Final totals, once the game is over."""

    @property
    def players(self) -> int:
        return len(self.sheets)


@dataclass
class CalaveraRules(BaseRules, state=State, actions=parse_action):
    """The rules, bound to one sheet layout, dice and player count."""

    players: int
    colours: tuple[str, ...]
    """The colour of each row, top to bottom."""
    values: tuple[tuple[int, ...], ...]
    """The number under each box of each row."""
    faces: tuple[tuple[str, int], ...]
    """Each die face and how many sides show it."""
    dice: int = 6
    rolls: int = 3
    rows_to_end: int = 3
    zones: tuple[tuple[str, ...], ...] = ()
    """The zone of each box of each row (``normal``, ``bonus``, ``danger``), as the sheet is printed."""
    _cache: dict[tuple, list[CalaveraAction]] = field(default_factory=dict, repr=False, compare=False)

    # --- the core protocol ------------------------------------------------------------------
    def new_game(self) -> State:
        """Empty sheets; the first player is the first chance outcome."""
        return State(tuple((0,) * len(self.colours) for _ in range(self.players)), 0, 0, "first")

    def actor(self, state: State) -> int | None:
        if state.phase == "over":
            return None
        if state.phase in ("first", "dice"):
            return CHANCE
        return state.passive if state.phase == "passive" else state.current

    def legal_actions(self, state: State) -> list[CalaveraAction]:
        """Every legal action, sorted. A die face on several sides is listed once per side, so a uniform
        pick among chance outcomes has the die's odds."""
        phase = state.phase
        if phase == "first":
            actions: list[CalaveraAction] = [First(p) for p in range(state.players)]
        elif phase == "roll":
            actions = [Roll(state.current)]
        elif phase == "dice":
            return self._outcomes(state.pending[0])
        elif phase == "choose":
            me = state.current
            marks = sorted((Mark(me, c, n) for c, n in self._options(state, me, jokers=True)), key=_notation)
            if state.rolls < self.rolls:  # "mark" sorts before "reroll"
                marks += self._rerolls(me, tuple(d for d in range(self.dice) if not state.aside[d]))
            return marks or [Pass(me)]
        elif phase == "passive":
            who = state.passive
            actions = [Pass(who)] + [Mark(who, c, n) for c, n in self._passive_options(state)]
        else:
            return []
        return sorted(actions, key=lambda a: a.notation())

    def _outcomes(self, die: int) -> list[Die]:
        """The sorted outcomes of one die (cached: playouts ask for them at every die)."""
        key = ("die", die)
        if key not in self._cache:
            self._cache[key] = sorted((Die(die, face) for face, sides in self.faces for _ in range(sides)), key=_notation)
        return list(self._cache[key])

    def _rerolls(self, me: int, free: tuple[int, ...]) -> list[Reroll]:
        """Every non-empty choice of free dice to reroll, sorted (cached by player and free dice)."""
        key = ("reroll", me, free)
        if key not in self._cache:
            choices = (Reroll(me, dice) for k in range(1, len(free) + 1) for dice in combinations(free, k))
            self._cache[key] = sorted(choices, key=_notation)
        return list(self._cache[key])

    def apply(self, state: State, action: CalaveraAction, *, rng: random.Random | None = None) -> State:
        """The state after ``action``; IllegalActionError names the rule it breaks."""
        text = action.notation()
        actor = self.actor(state)
        if actor is None:
            raise IllegalActionError(text, "game-over", "the game is over")
        if isinstance(action, (First, Die)):
            if actor != CHANCE:
                raise IllegalActionError(text, "not-chance", "no chance outcome is due now")
        elif actor == CHANCE:
            raise IllegalActionError(text, "chance-pending", "a chance outcome (a die, the first player) comes first")
        elif action.player != actor:
            raise IllegalActionError(text, "not-your-turn", f"it is {player(actor)}'s decision")
        return getattr(self, f"_apply_{type(action).__name__.lower()}")(state, action)

    # --- actions ------------------------------------------------------------------------------
    def _apply_first(self, state: State, action: First) -> State:
        self._need(state, action, "first", "the first player is drawn once, before the first turn")
        if not 0 <= action.player < state.players:
            raise IllegalActionError(action.notation(), "no-such-player", f"there are {state.players} players")
        return _replace(state, first=action.player, current=action.player, phase="roll")

    def _apply_roll(self, state: State, action: Roll) -> State:
        self._need(state, action, "roll", "the first roll starts the turn; later rolls are rerolls")
        every = tuple(range(self.dice))
        return _replace(state, phase="dice", dice=(None,) * self.dice, aside=(False,) * self.dice,
                        pending=every, rolls=1)

    def _apply_die(self, state: State, action: Die) -> State:
        text = action.notation()
        self._need(state, action, "dice", "a die lands only after a roll or a reroll")
        if action.die != state.pending[0]:
            raise IllegalActionError(text, "dice-in-order", f"die {state.pending[0] + 1} lands next")
        if action.face not in {face for face, _ in self.faces}:
            raise IllegalActionError(text, "no-such-face", f"the dice have no face {action.face!r}")
        die = action.die
        dice = state.dice[:die] + (action.face,) + state.dice[die + 1:]
        aside = state.aside
        if action.face == SKULL:  # set aside at once [22, 28]
            aside = aside[:die] + (True,) + aside[die + 1:]
        pending = state.pending[1:]
        return _replace(state, dice=dice, aside=aside, pending=pending, phase="dice" if pending else "choose")

    def _apply_reroll(self, state: State, action: Reroll) -> State:
        text = action.notation()
        self._need(state, action, "choose", "dice are rerolled right after a roll, before marking")
        if state.rolls >= self.rolls:
            raise IllegalActionError(text, "three-rolls", f"at most {self.rolls} rolls per turn")
        for die in action.dice:
            if not 0 <= die < self.dice:
                raise IllegalActionError(text, "no-such-die", f"there are {self.dice} dice")
            if state.dice[die] == SKULL:
                raise IllegalActionError(text, "skull-stays-aside", f"die {die + 1} shows a skull: it is never rerolled")
            if state.aside[die]:
                raise IllegalActionError(text, "set-aside-stays", f"die {die + 1} was set aside by an earlier roll")
        rolled = set(action.dice)
        aside = tuple(d not in rolled for d in range(self.dice))
        dice = tuple(None if d in rolled else face for d, face in enumerate(state.dice))
        return _replace(state, phase="dice", dice=dice, aside=aside, pending=action.dice, rolls=state.rolls + 1)

    def _apply_mark(self, state: State, action: Mark) -> State:
        if state.phase == "passive":
            return self._passive_mark(state, action)
        self._need(state, action, "choose", "marking comes after a roll")
        colour_dice, jokers = self._check_mark(state, action, jokers=True)
        state = self._tick(state, action.player, action.colour, action.count)
        used = jokers > 0 and action.count == colour_dice + jokers
        return self._start_passive(_replace(state, chosen=action.colour, jokers_used=used))

    def _apply_pass(self, state: State, action: Pass) -> State:
        if state.phase == "passive":
            return self._next_passive(state)
        self._need(state, action, "choose", "passing ends a turn after its roll")
        if self._options(state, state.current, jokers=True):
            raise IllegalActionError(action.notation(), "active-must-mark",
                                     "the active player must choose a colour or the jokers among the dice")
        return self._start_passive(_replace(state, chosen=None, jokers_used=False))

    def _passive_mark(self, state: State, action: Mark) -> State:
        text = action.notation()
        if action.colour == state.chosen:
            raise IllegalActionError(text, "passive-not-active-colour",
                                     f"{action.colour} was chosen by the active player; pick a colour they did not use")
        if action.colour in state.taken:
            raise IllegalActionError(text, "passive-colour-once", f"{action.colour} was already ticked for a skull this turn")
        available = not state.jokers_used and not state.passive_jokers
        every = self._count(state, JOKER)
        if not available and every and action.count == self._count(state, action.colour) + every:
            if state.jokers_used:
                raise IllegalActionError(text, "jokers-used-by-active", "the active player counted the jokers")
            raise IllegalActionError(text, "jokers-once", "the unused jokers were already counted for another skull")
        colour_dice, jokers = self._check_mark(state, action, jokers=available)
        state = self._tick(state, action.player, action.colour, action.count)
        used = jokers > 0 and action.count == colour_dice + jokers
        state = _replace(state, credits=state.credits - 1, taken=state.taken + (action.colour,),
                         passive_jokers=state.passive_jokers or used)
        if state.credits and self._passive_options(state):
            return state
        return self._next_passive(state)

    # --- marking --------------------------------------------------------------------------------
    def _count(self, state: State, face: str) -> int:
        return state.dice.count(face)

    def _counts(self, state: State, colour: str, jokers: bool) -> tuple[int, ...]:
        """The counts allowed for ``colour``: its dice alone, and with every joker (when the jokers are available)."""
        n, j = self._count(state, colour), self._count(state, JOKER) if jokers else 0
        return tuple(c for c, ok in ((n, n > 0), (n + j, j > 0)) if ok)

    def _options(self, state: State, who: int, jokers: bool, exclude: tuple[str, ...] = ()) -> list[tuple[str, int]]:
        sheet = state.sheets[who]
        return [(c, n) for r, c in enumerate(self.colours) if c not in exclude and sheet[r] < len(self.values[r])
                for n in self._counts(state, c, jokers)]

    def _passive_options(self, state: State) -> list[tuple[str, int]]:
        jokers = not state.jokers_used and not state.passive_jokers
        exclude = state.taken + ((state.chosen,) if state.chosen else ())
        return self._options(state, state.passive, jokers, exclude)

    def _check_mark(self, state: State, action: Mark, jokers: bool) -> tuple[int, int]:
        """The colour's dice and the jokers counted; IllegalActionError when the mark is not allowed."""
        text = action.notation()
        if action.colour not in self.colours:
            raise IllegalActionError(text, "mark-a-colour-row", f"there is no {action.colour} row; rows are {', '.join(self.colours)}")
        row = self.colours.index(action.colour)
        if state.sheets[action.player][row] >= len(self.values[row]):
            raise IllegalActionError(text, "row-closed", f"the {action.colour} row is closed")
        allowed = self._counts(state, action.colour, jokers)
        if not allowed:
            raise IllegalActionError(text, "symbol-among-dice", f"no die shows {action.colour}" + (" or a joker" if jokers else ""))
        if action.count not in allowed:
            raise IllegalActionError(text, "mark-exact-count",
                                     f"tick exactly {' or '.join(map(str, allowed))} boxes for {action.colour}")
        return self._count(state, action.colour), self._count(state, JOKER) if jokers else 0

    def _tick(self, state: State, who: int, colour: str, count: int) -> State:
        """Tick ``count`` boxes left to right; a row cannot take more boxes than it has."""
        row = self.colours.index(colour)
        sheet = state.sheets[who]
        marked = min(len(self.values[row]), sheet[row] + count)
        sheet = sheet[:row] + (marked,) + sheet[row + 1:]
        return _replace(state, sheets=state.sheets[:who] + (sheet,) + state.sheets[who + 1:])

    # --- flow ---------------------------------------------------------------------------------
    def _need(self, state: State, action: CalaveraAction, phase: str, why: str) -> None:
        if state.phase != phase:
            raise IllegalActionError(action.notation(), "turn-sequence", f"not now ({state.phase}): {why}")

    def _start_passive(self, state: State) -> State:
        skulls = self._count(state, SKULL)
        state = _replace(state, phase="passive", passive=state.current, credits=0)
        return self._next_passive(state, skulls)

    def _next_passive(self, state: State, skulls: int | None = None) -> State:
        """Hand the skulls to the next passive player who can use them; end the turn after the last."""
        skulls = self._count(state, SKULL) if skulls is None else skulls
        who = state.passive
        while skulls:
            who = (who + 1) % state.players
            if who == state.current:
                break
            state = _replace(state, passive=who, credits=skulls, taken=(), passive_jokers=False)
            if self._passive_options(state):
                return state
        return self._end_turn(state)

    def _end_turn(self, state: State) -> State:
        nxt = (state.current + 1) % state.players
        state = _replace(state, phase="roll", current=nxt, passive=None, credits=0, taken=(), passive_jokers=False,
                         chosen=None, jokers_used=False, dice=(), aside=(), pending=(), rolls=0)
        if nxt != state.first:
            return state
        reason = self._end_reason(state)
        if reason is None:
            return _replace(state, round=state.round + 1)
        scores = tuple(self.score(state, p) for p in range(state.players))
        best = max(scores)
        return _replace(state, phase="over", reason=reason, scores=scores,
                        winners=tuple(p for p, s in enumerate(scores) if s == best))

    def closed_rows(self, state: State, who: int) -> int:
        return sum(m == len(v) for m, v in zip(state.sheets[who], self.values))

    def _end_reason(self, state: State) -> str | None:
        closed = [self.closed_rows(state, p) for p in range(state.players)]
        if max(closed) == len(self.colours):
            return "all-rows-closed"
        if max(closed) >= self.rows_to_end:
            return "rows-closed"
        return None

    def score(self, state: State, who: int) -> int:
        """The number under the last ticked box of each row, summed (an untouched row scores 0)."""
        return sum(values[m - 1] if m else 0 for m, values in zip(state.sheets[who], self.values))

    # --- views ------------------------------------------------------------------------------
    def observe(self, state: State, who: int) -> dict[str, Any]:
        """Everything is public in Calavera except the dice still rolling, which show ``None``.

        Players are named as scenarios name them (``p1``…: ``you``, ``first``, ``current``, ``passive``,
        ``winners``); lists by seat (``sheets``, ``scores``) hold p1's first."""
        seen = {"you": player(who), **self.dump(state)}
        seen.update(first=player(state.first), current=player(state.current),
                    passive=None if state.passive is None else player(state.passive),
                    winners=list(map(player, state.winners)))
        return seen

    def hidden_leak(self, state: State) -> str | None:
        """The only hidden thing is the future: a die still rolling must show nothing to anyone."""
        if state.pending:
            shown = self.observe(state, 0)["dice"]  # every player sees the same table
            if any(shown[d] is not None for d in state.pending):
                return "an observation shows a die that has not landed yet"
        return None

    def outcome(self, state: State) -> Outcome | None:
        """How the game ended: the players tied for the best score share the win."""
        if state.phase != "over":
            return None
        return Outcome(state.reason, tuple(state.winners or ()))

    def invariants(self, state: State) -> list[str]:
        broken = []
        for p, sheet in enumerate(state.sheets):
            if any(not 0 <= m <= len(v) for m, v in zip(sheet, self.values)):
                broken.append(f"{player(p)} has a row ticked beyond its boxes")
        if state.dice:
            if any(face == SKULL and not aside for face, aside in zip(state.dice, state.aside)):
                broken.append("a skull is not set aside")
            if any(state.dice[d] is not None for d in state.pending):
                broken.append("a die still rolling shows a face")
            if any(face is None for d, face in enumerate(state.dice) if d not in state.pending):
                broken.append("a die that has landed shows no face")
        if not 0 <= state.rolls <= self.rolls:
            broken.append(f"{state.rolls} rolls in a turn")
        if (state.phase == "over") != (state.reason is not None) or (state.phase == "over") != bool(state.winners):
            broken.append("a game is over exactly when it has a reason and winners")
        if (state.phase == "passive") != (state.passive is not None and state.credits > 0):
            broken.append("a passive player decides exactly in the passive phase, with a skull to use")
        if state.phase == "passive" and state.passive == state.current:
            broken.append("the active player is deciding as a passive player")
        if state.phase == "over" and state.scores != tuple(self.score(state, p) for p in range(state.players)):
            broken.append("final scores differ from the sheets")
        return [*broken, *more_invariants(self, state)]

    def expectation(self, state: State, expect: dict[str, Any]) -> str | None:
        """None when a scenario's expectation holds, else what differs (keys: docs/scenarios.md, Calavera)."""
        for key in ("phase", "rolls", "round"):
            if key in expect and getattr(state, key) != expect[key]:
                return f"expected {key} {expect[key]!r}, got {getattr(state, key)!r}"
        for key in ("current", "passive"):
            if key in expect:
                got = getattr(state, key)
                got = player(got) if got is not None else None
                if got != expect[key]:
                    return f"expected {key} {expect[key]}, got {got}"
        if "dice" in expect and list(state.dice) != expect["dice"]:
            return f"expected dice {expect['dice']}, got {list(state.dice)}"
        if "aside" in expect:
            got = [d + 1 for d, aside in enumerate(state.aside) if aside]
            if got != expect["aside"]:
                return f"expected dice {expect['aside']} set aside, got {got}"
        for who, rows in expect.get("sheets", {}).items():
            p = player_index(who)
            for colour, count in rows.items():
                got = state.sheets[p][self.colours.index(colour)]
                if got != count:
                    return f"expected {who} to have {count} boxes ticked on {colour}, got {got}"
        for who, total in expect.get("scores", {}).items():
            got = self.score(state, player_index(who))
            if got != total:
                return f"expected {who} to score {total}, got {got}"
        if "winners" in expect:
            got = [player(p) for p in state.winners]
            if got != expect["winners"] or ("reason" in expect and state.reason != expect["reason"]):
                return f"expected winners {expect['winners']} ({expect.get('reason', 'any reason')}), got {got} ({state.reason})"
        return None




def _replace(state: State, **changes: Any) -> State:
    """``dataclasses.replace`` without re-running ``__init__`` (states are copied at every step)."""
    new = object.__new__(State)
    new.__dict__.update(state.__dict__)
    new.__dict__.update(changes)
    return new



def _notation(action: CalaveraAction) -> str:
    return action.notation()
