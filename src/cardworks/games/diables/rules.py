"""Diables' scoring engine: phase 2 (passage of time) and the scoring moments of phase 1.

Covered: the round's lluïment (weighted majorities, tied players share a rank),
each show scored with its tile's condition, at most as many figures as the
last follower icon reached, once per show and one show a round (two in the
third); street spectators left uncovered; the social media wall (its update
during play, its final scoring in round 3, the Firebot's 2/5/8 icons); sound
from the tabalers, the FP for moves past the end of the sound track, and the
thrilled crowd actions its icons give; turn order from the sound track with
its tie rule; fame points never below 0; the Firebot's show scoring and its
chosen token; the winner. Not covered: the performance phase's placements and
spectator actions, rewards printed on cards and spaces (the rulebook does not
list them), follower moves, and phases 3 and 4.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from itertools import combinations
from typing import Any

from .models import PlazaMajority
from ...engine.base_rules import BaseRules
from ...engine.core import IllegalActionError, Outcome
from .actions import (SHOWS, Camera, DiablesAction, Drums, EndPerformance, Like, ScoreLluiment, ScoreShow,
                              ScoreSocialMedia, ScoreStreet, Thrill, TurnOrder, parse_action)
from .scoring import Figure, Layout, figure_points, figure_refs, plaza_count, plaza_rewards
from .invariants import more_invariants

FIREBOT = "firebot"


@dataclass(frozen=True)
class Post:
    """A post on the social media wall: photo or video, its likes and like slots, cameras by seat."""

    kind: str
    likes: int
    like_slots: int
    cameras: tuple[int, ...] = ()


@dataclass(frozen=True)
class State:
    """What scoring needs. Per-seat tuples follow ``seats``; per-show tuples follow ``SHOWS``."""

    seats: tuple[str, ...]
    round: int
    phase: str
    """``performance``, ``time`` (phase 2), ``round-over`` (phase 2 done, rounds 1-2) or ``over``."""
    lluiments: tuple[str, ...]
    """Lluïment tiles on the timeline, round 1 first (named without ``lluiment-tile-``)."""
    tiles: tuple[str | None, ...]
    """Each show's scoring tile (component id), None when the position gives none."""
    plaza: tuple[tuple[Figure, ...], ...]
    icons: tuple[tuple[int, ...], ...]
    """Per seat and show: the number on the last follower-track icon reached (0: none)."""
    scored: tuple[tuple[bool, ...], ...]
    """Per seat and show: the follower token shows its scored side."""
    fp: tuple[int, ...]
    sound: tuple[int, ...]
    """Sound track positions; 0 is the starting square."""
    order: tuple[int, ...]
    """Turn order, first seat first."""
    street: tuple[tuple[tuple[bool, int], ...], ...]
    """Per seat: its street spectator cards as (a performer is on it, thrilled crowd tokens)."""
    drums: tuple[tuple[int, ...], ...]
    """Per seat: the sound printed under each tabaler space it occupies."""
    drummed: tuple[bool, ...]
    """A tabaler leader already stands on the bottom space this round."""
    thrills: tuple[int, ...]
    """Thrilled crowd actions earned and not yet resolved."""
    social_icons: tuple[int, ...]
    """Social media icons visible on each player's colla grid (the Firebot's come from the round)."""
    wall: tuple[Post, ...]
    done: tuple[str, ...] = ()
    """Phase 2 steps finished this round: ``lluiment``, ``street``, ``social-media``."""
    shows_now: tuple[int, ...] = ()
    """Shows each seat has scored this round."""
    firebot_show: str | None = None
    """Where the Firebot's chosen token is."""
    winner: int | None = None


class DiablesRules(BaseRules, state=State, actions=parse_action):
    """The scoring rules, with the game's parameters, the tiles' conditions and the shows' layouts."""

    def __init__(self, params: dict[str, Any], tiles: dict[str, Any], layouts: dict[str, Layout],
                 sound_last: int | None = None, thrill_icons: tuple[int, ...] = ()) -> None:
        self.params = params
        self.tiles = tiles
        """Component id → its scoring condition."""
        self.layouts = layouts
        self.sound_last = sound_last
        """Index of the sound track's last space, None when not given (no end)."""
        self.thrill_icons = thrill_icons
        """Positions on the sound track printed with a thrilled crowd icon."""
        weights = params["lluiment-weights"]
        self.weights = dict(zip(("diable", "character", "small-beast", "large-beast"), weights))

    # ---- the core protocol -------------------------------------------------------------------

    def actor(self, state: State) -> int | None:
        """Scoring steps belong to the table (0); None once the scoring this engine covers is over."""
        return None if state.phase in ("round-over", "over") else 0

    def outcome(self, state: State) -> Outcome | None:
        """How play ended: the game's end, or the end of a round's scoring (later phases are not modelled)."""
        if state.phase == "over":
            return Outcome("game-over", () if state.winner is None else (state.winner,))
        if state.phase == "round-over":
            return Outcome("round-scored")
        return None

    def legal_actions(self, state: State) -> list[DiablesAction]:
        found: list[DiablesAction] = []
        candidates: list[DiablesAction] = [EndPerformance(), ScoreStreet(), ScoreSocialMedia(), TurnOrder()]
        if state.round <= len(state.lluiments):
            candidates.append(ScoreLluiment(state.lluiments[state.round - 1]))
        for seat, name in enumerate(state.seats):
            candidates.append(Drums(name))
            candidates += [Thrill(name, n) for n in range(1, len(state.street[seat]) + 1)]
            candidates += [Like(name, n) for n in range(1, len(state.wall) + 1)]
            candidates += [Camera(name, n) for n in range(1, len(state.wall) + 1)]
            candidates += self._show_choices(state, seat)
        for action in candidates:
            try:
                self.apply(state, action)
            except IllegalActionError:
                continue
            found.append(action)
        return sorted(found, key=lambda a: a.notation())

    def _show_choices(self, state: State, seat: int) -> list[ScoreShow]:
        name = state.seats[seat]
        if name == FIREBOT:
            return [ScoreShow(name, show) for show in SHOWS]
        choices = []
        for s, show in enumerate(SHOWS):
            if state.tiles[s] is None:
                continue
            own = sorted(ref for ref, f in figure_refs(state.plaza[s]).items() if f.owner == seat)
            size = min(state.icons[seat][s], len(own))
            choices += [ScoreShow(name, show, combo) for combo in combinations(own, size)]
        return choices

    def apply(self, state: State, action: DiablesAction, *, rng: random.Random | None = None) -> State:
        handler = getattr(self, f"_apply_{type(action).__name__.lower()}")
        return handler(state, action)

    # ---- phase 1 -------------------------------------------------------------------------------

    def _need_phase(self, state: State, action: DiablesAction, phase: str) -> None:
        if state.phase != phase:
            raise IllegalActionError(action.notation(), f"phase-{phase}", f"allowed only in the {phase} phase, "
                                     f"now {state.phase}")

    def _seat(self, state: State, action: DiablesAction, name: str) -> int:
        if name not in state.seats:
            raise IllegalActionError(action.notation(), "seat", f"{name} is not playing")
        return state.seats.index(name)

    def _apply_endperformance(self, state: State, action: EndPerformance) -> State:
        self._need_phase(state, action, "performance")
        return replace(state, phase="time")

    def _apply_drums(self, state: State, action: Drums) -> State:
        self._need_phase(state, action, "performance")
        seat = self._seat(state, action, action.seat)
        if action.seat == FIREBOT:
            raise IllegalActionError(action.notation(), "firebot-no-leaders", "the Firebot has no tabaler leaders")
        if state.drummed[seat]:
            raise IllegalActionError(action.notation(), "leader-space-once",
                                     "a tabaler leader already stands on the bottom space this round")
        state = replace(state, drummed=_set(state.drummed, seat, True))
        return self.earn_sound(state, seat, sum(state.drums[seat]))

    def earn_sound(self, state: State, seat: int, points: int) -> State:
        """Move along the sound track: FP for moves past its end, a thrill per icon passed."""
        start = state.sound[seat]
        end = start + points if self.sound_last is None else min(start + points, self.sound_last)
        state = self.gain(state, seat, start + points - end)
        crossed = sum(start < icon <= end for icon in self.thrill_icons)
        return replace(state, sound=_set(state.sound, seat, end),
                       thrills=_set(state.thrills, seat, state.thrills[seat] + crossed))

    def _apply_thrill(self, state: State, action: Thrill) -> State:
        seat = self._seat(state, action, action.seat)
        if state.thrills[seat] < 1:
            raise IllegalActionError(action.notation(), "thrill-pending", "no thrilled crowd action to resolve")
        cards = list(state.street[seat])
        if action.card > len(cards):
            raise IllegalActionError(action.notation(), "street-card", f"street has {len(cards)} spectator cards")
        covered, tokens = cards[action.card - 1]
        if tokens + 1 >= self.params["thrilled-crowd-tokens-to-leave"]:
            del cards[action.card - 1]  # the card runs to the plaza; its tokens go back to the supply
        else:
            cards[action.card - 1] = (covered, tokens + 1)
        return replace(state, street=_set(state.street, seat, tuple(cards)),
                       thrills=_set(state.thrills, seat, state.thrills[seat] - 1))

    def _post(self, state: State, action: Like | Camera) -> Post:
        self._need_phase(state, action, "performance")
        if action.post > len(state.wall):
            raise IllegalActionError(action.notation(), "post-on-wall", f"the wall has {len(state.wall)} posts")
        return state.wall[action.post - 1]

    def _apply_like(self, state: State, action: Like) -> State:
        self._seat(state, action, action.seat)
        post = self._post(state, action)
        if post.likes >= post.like_slots:
            raise IllegalActionError(action.notation(), "like-slot-free", "the post has no free like slot")
        return replace(state, wall=_set(state.wall, action.post - 1, replace(post, likes=post.likes + 1)))

    def _apply_camera(self, state: State, action: Camera) -> State:
        seat = self._seat(state, action, action.seat)
        post = self._post(state, action)
        if len(post.cameras) >= self.camera_slots(post):
            raise IllegalActionError(action.notation(), "camera-slot-free", "no free requirement or scene on the post")
        if sum(p.cameras.count(seat) for p in state.wall) >= self.params["camera-tokens-per-player"]:
            raise IllegalActionError(action.notation(), "camera-reserve", "no camera token left in the reserve")
        if action.seat == FIREBOT and post.kind == "video" and seat in post.cameras:
            raise IllegalActionError(action.notation(), "firebot-one-camera-per-video",
                                     "the Firebot never films a video it is already in")
        return replace(state, wall=_set(state.wall, action.post - 1, replace(post, cameras=post.cameras + (seat,))))

    def camera_slots(self, post: Post) -> int:
        return self.params["video-scenes"] if post.kind == "video" else self.params["photo-requirements"]

    # ---- phase 2 -------------------------------------------------------------------------------

    def _step_once(self, state: State, action: DiablesAction, step: str) -> None:
        self._need_phase(state, action, "time")
        if step in state.done:
            raise IllegalActionError(action.notation(), "step-once-per-round", f"{step} is already scored this round")
        if step != "lluiment" and state.round <= len(state.lluiments) and "lluiment" not in state.done:
            raise IllegalActionError(action.notation(), "timeline-order", "the lluïment is scored first")

    def _apply_scorelluiment(self, state: State, action: ScoreLluiment) -> State:
        self._step_once(state, action, "lluiment")
        if state.round > len(state.lluiments) or state.lluiments[state.round - 1] != action.tile:
            raise IllegalActionError(action.notation(), "lluiment-of-the-round",
                                     f"{action.tile} is not the lluïment of round {state.round}")
        rule = self.tiles[f"lluiment-tile-{action.tile}"]
        for seat, points in enumerate(plaza_rewards(rule, self.lluiment_counts(state, rule))):
            state = self.gain(state, seat, points)
        return replace(state, done=tuple(sorted(state.done + ("lluiment",))))

    def lluiment_counts(self, state: State, rule: PlazaMajority) -> list[int]:
        everything = [f for show in state.plaza for f in show]
        return [plaza_count(rule, everything, seat, self.weights) for seat in range(len(state.seats))]

    def _apply_scoreshow(self, state: State, action: ScoreShow) -> State:
        self._step_once(state, action, f"show-{action.seat}-{action.show}")
        seat = self._seat(state, action, action.seat)
        s = SHOWS.index(action.show)
        if state.scored[seat][s]:
            raise IllegalActionError(action.notation(), "show-scored-once", f"{action.show} is already scored")
        if state.shows_now[seat] >= self.params["shows-scored-per-round"][state.round - 1]:
            raise IllegalActionError(action.notation(), "shows-per-round", f"no more shows to score in round {state.round}")
        if action.seat == FIREBOT:
            points = self._firebot_points(state, action, seat, s)
        else:
            points = sum(self.figure_points(state, action.show, f) for f in self._chosen(state, action, seat, s))
        state = self.gain(state, seat, points)
        state = replace(state, scored=_set(state.scored, seat, _set(state.scored[seat], s, True)),
                        shows_now=_set(state.shows_now, seat, state.shows_now[seat] + 1))
        return self._move_chosen_token(state, seat) if action.seat == FIREBOT else state

    def _chosen(self, state: State, action: ScoreShow, seat: int, s: int) -> list[Figure]:
        if state.tiles[s] is None:
            raise ValueError(f"no scoring tile is set for {action.show}")
        refs = figure_refs(state.plaza[s])
        if len(set(action.figures)) != len(action.figures):
            raise IllegalActionError(action.notation(), "figure-once", "a figure is scored once")
        for ref in action.figures:
            if ref not in refs:
                raise IllegalActionError(action.notation(), "figure-in-show", f"no figure on {ref} in {action.show}")
            if refs[ref].owner != seat:
                raise IllegalActionError(action.notation(), "own-figures", f"the figure on {ref} is not {action.seat}'s")
        own = sum(f.owner == seat for f in state.plaza[s])
        limit = min(state.icons[seat][s], own)
        if len(action.figures) != limit:
            raise IllegalActionError(action.notation(), "follower-limit",
                                     f"{action.seat} scores {limit} figures in {action.show} (follower icon "
                                     f"{state.icons[seat][s]}, {own} figures there)")
        return [refs[ref] for ref in action.figures]

    def figure_points(self, state: State, show: str, figure: Figure) -> int:
        """FP one figure earns in ``show`` under that show's tile."""
        s = SHOWS.index(show)
        if state.tiles[s] is None:
            raise ValueError(f"no scoring tile is set for {show}")
        return figure_points(self.tiles[state.tiles[s]], state.plaza[s], figure, self.layouts[show], len(state.seats))

    def _firebot_points(self, state: State, action: ScoreShow, seat: int, s: int) -> int:
        if action.figures:
            raise IllegalActionError(action.notation(), "firebot-ignores-tiles", "the Firebot scores all its figures")
        if state.round < 3 and state.firebot_show != action.show:
            raise IllegalActionError(action.notation(), "firebot-chosen-show",
                                     f"the Firebot scores the show of its chosen token ({state.firebot_show})")
        mine = sum(f.owner == seat for f in state.plaza[s])
        return self.params["firebot-show-multiplier"] * mine * state.icons[seat][s]

    def _move_chosen_token(self, state: State, seat: int) -> State:
        """To the unscored show with most Firebot figures; a tie goes clockwise from where it stood."""
        left = [s for s in range(len(SHOWS)) if not state.scored[seat][s]]
        if not left:
            return replace(state, firebot_show=None)
        count = {s: sum(f.owner == seat for f in state.plaza[s]) for s in left}
        best = [SHOWS[s] for s in left if count[s] == max(count.values())]
        clockwise = list(self.params["show-clockwise-order"])
        here = clockwise.index(state.firebot_show) if state.firebot_show in clockwise else 0
        ring = clockwise[here + 1:] + clockwise[:here + 1]
        return replace(state, firebot_show=next(show for show in ring if show in best))

    def _apply_scorestreet(self, state: State, action: ScoreStreet) -> State:
        self._step_once(state, action, "street")
        for seat, name in enumerate(state.seats):
            if name != FIREBOT:
                uncovered = sum(not covered for covered, _ in state.street[seat])
                state = self.gain(state, seat, -self.params["street-spectator-penalty"] * uncovered)
        return replace(state, done=tuple(sorted(state.done + ("street",))))

    def _apply_scoresocialmedia(self, state: State, action: ScoreSocialMedia) -> State:
        if state.phase == "performance":
            if not state.wall or not self.wall_full(state):
                raise IllegalActionError(action.notation(), "wall-update-condition",
                                         "the wall updates only when every post has a camera or no like slot is free")
            return replace(self._score_wall(state), wall=())
        self._step_once(state, action, "social-media")
        if state.round != 3:
            raise IllegalActionError(action.notation(), "final-social-media-round-3",
                                     "the final social media scoring is only in round 3")
        return replace(self._score_wall(state), done=tuple(sorted(state.done + ("social-media",))))

    def wall_full(self, state: State) -> bool:
        return all(p.cameras for p in state.wall) or all(p.likes >= p.like_slots for p in state.wall)

    def _score_wall(self, state: State) -> State:
        for seat, name in enumerate(state.seats):
            icons = (self.params["firebot-social-media-icons"][state.round - 1] if name == FIREBOT
                     else state.social_icons[seat])
            state = self.gain(state, seat, icons * sum(p.likes for p in state.wall if seat in p.cameras))
        return state

    def _apply_turnorder(self, state: State, action: TurnOrder) -> State:
        self._step_once(state, action, "turn-order")
        missing = [step for step in ("street",) + (("social-media",) if state.round == 3 else ()) if step not in state.done]
        quota = self.params["shows-scored-per-round"][state.round - 1]
        missing += [f"{name}'s shows" for seat, name in enumerate(state.seats)
                    if state.shows_now[seat] < quota and not all(state.scored[seat])]
        if missing:
            raise IllegalActionError(action.notation(), "timeline-order", f"still to score: {', '.join(missing)}")
        before = {seat: place for place, seat in enumerate(state.order)}
        order = tuple(sorted(state.order, key=lambda seat: (-state.sound[seat], -before[seat])))
        state = replace(state, order=order, sound=tuple(0 for _ in state.seats))
        if state.round < 3:
            return replace(state, phase="round-over")
        return replace(state, phase="over", winner=self._winner(state))

    def _winner(self, state: State) -> int:
        if FIREBOT in state.seats:  # solo: the player must beat the Firebot outright
            bot = state.seats.index(FIREBOT)
            player = 1 - bot
            return player if state.fp[player] > state.fp[bot] else bot
        best = max(state.fp)
        return next(seat for seat in state.order if state.fp[seat] == best)

    def gain(self, state: State, seat: int, points: int) -> State:
        """Add (or take away) FP; the score never drops below the track's first mark."""
        floor = self.params["fame-point-limits"][0]
        return replace(state, fp=_set(state.fp, seat, max(floor, state.fp[seat] + points)))

    # ---- views ---------------------------------------------------------------------------------

    def observe(self, state: State, player: int) -> dict[str, Any]:
        """Everything scoring uses lies open on the table.

        Seats are named as scenarios name them (``p1``…, ``firebot``: ``order``, ``winner``, a figure's ``owner``
        in ``plaza``, a post's ``cameras``); lists by seat (``fp``, ``sound``…) follow ``seats``."""
        seen = self.dump(state)
        name = state.seats.__getitem__
        seen.update(order=list(map(name, state.order)), winner=None if state.winner is None else name(state.winner))
        for figures in seen["plaza"]:
            for figure in figures:
                figure["owner"] = None if figure["owner"] is None else name(figure["owner"])
        for post in seen["wall"]:
            post["cameras"] = list(map(name, post["cameras"]))
        return seen

    def invariants(self, state: State) -> list[str]:
        broken = []
        if any(points < self.params["fame-point-limits"][0] for points in state.fp):
            broken.append("fame points below 0")
        if sorted(state.order) != list(range(len(state.seats))):
            broken.append("the turn order is not one place per seat")
        if any(p.likes > p.like_slots or len(p.cameras) > self.camera_slots(p) for p in state.wall):
            broken.append("a post holds more likes or cameras than it has spaces")
        if any(t >= self.params["thrilled-crowd-tokens-to-leave"] for cards in state.street for _, t in cards):
            broken.append("a street card kept the thrilled crowd tokens that send it to the plaza")
        if (state.phase == "over") != (state.winner is not None):
            broken.append("a winner exists exactly when the game is over")
        return [*broken, *more_invariants(self, state)]

    def expectation(self, state: State, expect: dict[str, Any]) -> str | None:
        """None when a scenario's expectation holds, else what differs (see docs/scenarios.md)."""
        from .expect import check

        return check(self, state, expect)


def _set(values: tuple, index: int, value: Any) -> tuple:
    return values[:index] + (value,) + values[index + 1:]
