"""Plugging Diables into the engine: its parameters, its tiles' conditions and scenario positions.

The engine scores; it does not play whole games (the performance phase's
spectator cards, rewards and boards are not in the rulebook's text), so there
are no playout configurations.
"""

from __future__ import annotations

import random
from typing import Any

from pydantic import TypeAdapter

from ...engine.core import SetupRefused
from ...engine.setups import check_players
from ...loading.database import Database
from .rules import FIREBOT, DiablesRules, Post, State
from .actions import SHOWS
from .models import Scoring

SCORING = TypeAdapter(Scoring)
"""A tile's scoring condition, read from the generic component's ``scoring`` (``validate`` checks it)."""
from .scoring import FIRECRACKERS, KINDS, Figure, Layout, Place

LATER = "turn engine: the engine covers scoring; the performance phase needs the spectator, social media and " \
        "board contents the rulebook does not print"


def configurations(db: Database) -> tuple[list[Any], list[str]]:
    """No playable configurations: only scoring is modelled."""
    return [], [LATER]


def parameters(db: Database) -> dict[str, Any]:
    """The game's parameters by id, assumed values filling the unknown ones."""
    from ...loading.records import Index

    return Index(db).parameters()


def tile_conditions(db: Database) -> dict[str, Any]:
    """Component id → scoring condition, for every component with one."""
    from ...loading.records import Index

    return {r.id: SCORING.validate_python(r.model.scoring)
            for r in Index(db).of_kind("component") if getattr(r.model, "scoring", None)}


def check_setup(db: Database, selection: str | None, players: int | None) -> None:
    """Refuse a player count outside the game's range (the Firebot seat is not a player)."""
    if selection not in (None, "base"):
        raise SetupRefused("selection", "game.json", f"Diables has no deck selections; {selection!r} does not exist")
    if players is not None:
        check_players(db.game_doc, players)


def rules_for(db: Database, config: Any) -> tuple[DiablesRules, Any]:
    raise ValueError(LATER)


def new_game(db: Database, config: Any, rng: random.Random) -> tuple[DiablesRules, State]:
    raise ValueError(LATER)


def scenario_state(db: Database, setup: dict[str, Any]) -> tuple[DiablesRules, State]:
    """The explicit position of a scenario (keys in docs/scenarios.md, "Setup (Diables)")."""
    unknown = set(setup) - SETUP_KEYS
    if unknown:
        raise ValueError(f"unknown setup keys {sorted(unknown)}")
    players = int(setup.get("players", 2))
    check_setup(db, None, players)
    seats = tuple(f"p{n}" for n in range(1, players + 1)) + ((FIREBOT,) if setup.get("firebot") else ())
    tiles = tile_conditions(db)
    shows = setup.get("shows", {})
    if set(shows) - set(SHOWS):
        raise ValueError(f"unknown shows {sorted(set(shows) - set(SHOWS))}")
    layouts = {show: _layout(show, shows.get(show, {}).get("places", {})) for show in SHOWS}
    tile_ids = tuple(shows.get(show, {}).get("tile") for show in SHOWS)
    for tile in list(tile_ids) + [f"lluiment-tile-{t}" for t in setup.get("lluiments", [])]:
        if tile is not None and tile not in tiles:
            raise ValueError(f"{tile!r} is not a scoring tile")
    track = setup.get("sound_track", {})
    rules = DiablesRules(parameters(db), tiles, layouts, track.get("last"), tuple(track.get("thrill_icons", [])))

    def per_seat(key: str, default: Any) -> tuple:
        given = setup.get(key, {})
        if set(given) - set(seats):
            raise ValueError(f"{key}: unknown seats {sorted(set(given) - set(seats))}")
        return tuple(given.get(name, default) for name in seats)

    followers = per_seat("followers", {})
    already = per_seat("scored", [])
    state = State(
        seats=seats, round=int(setup.get("round", 1)), phase=setup.get("phase", "time"),
        lluiments=tuple(setup.get("lluiments", [])), tiles=tile_ids,
        plaza=tuple(tuple(_figure(text, seats) for text in shows.get(show, {}).get("figures", [])) for show in SHOWS),
        icons=tuple(tuple(int(f.get(show, 0)) for show in SHOWS) for f in followers),
        scored=tuple(tuple(show in done for show in SHOWS) for done in already),
        fp=per_seat("fp", 0), sound=per_seat("sound", 0),
        order=tuple(seats.index(name) for name in setup.get("order", seats)),
        street=tuple(tuple((bool(c.get("covered", False)), int(c.get("tokens", 0))) for c in cards)
                     for cards in per_seat("street", [])),
        drums=tuple(tuple(d) for d in per_seat("drums", [])), drummed=tuple(False for _ in seats),
        thrills=per_seat("thrills", 0), social_icons=per_seat("social_icons", 0),
        wall=tuple(Post(p["kind"], int(p.get("likes", 0)), int(p["like_slots"]),
                        tuple(seats.index(c) for c in p.get("cameras", []))) for p in setup.get("wall", [])),
        done=tuple(sorted(setup.get("done", []))), shows_now=per_seat("shows_now", 0),
        firebot_show=setup.get("firebot_show"))
    if state.phase not in ("performance", "time"):
        raise ValueError(f"a scenario starts in the performance or time phase, not {state.phase!r}")
    if len(set(state.order)) != len(seats):
        raise ValueError("order must name every seat once")
    broken = rules.invariants(state)
    if broken:
        raise ValueError("; ".join(broken))
    return rules, state


SETUP_KEYS = frozenset({"players", "firebot", "round", "phase", "lluiments", "shows", "followers", "scored", "fp", "sound",
               "order", "street", "drums", "thrills", "social_icons", "wall", "done", "shows_now", "firebot_show",
               "sound_track",
               "seed"})


def _layout(show: str, places: dict[str, dict[str, Any]]) -> Layout:
    built = {}
    for place_id, attrs in places.items():
        extra = set(attrs) - {"quadrants", "opposite", "side", "row", "column", "adjacent"}
        if extra:
            raise ValueError(f"{show} space {place_id!r}: unknown attributes {sorted(extra)}")
        adjacent = attrs.get("adjacent")
        built[place_id] = Place(place_id, tuple(attrs.get("quadrants", ())), attrs.get("opposite"), attrs.get("side"),
                                attrs.get("row"), attrs.get("column"), tuple(adjacent) if adjacent is not None else None)
    return Layout(show, built)


def _figure(text: str, seats: tuple[str, ...]) -> Figure:
    """``"p1 character whistling @c1"``: owner (a seat or ``neutral``), kind, firecracker if any, ``@space``."""
    words = text.split()
    if len(words) not in (3, 4) or not words[-1].startswith("@"):
        raise ValueError(f"figure {text!r}: write 'owner kind [firecracker] @space'")
    owner, kind, place = words[0], words[1], words[-1][1:]
    firecracker = words[2] if len(words) == 4 else None
    if owner != "neutral" and owner not in seats:
        raise ValueError(f"figure {text!r}: {owner} is not playing")
    if kind not in KINDS or (firecracker is not None and firecracker not in FIRECRACKERS):
        raise ValueError(f"figure {text!r}: kinds are {KINDS}, firecrackers {FIRECRACKERS}")
    if (kind == "tabaler") != (firecracker is None):
        raise ValueError(f"figure {text!r}: performers carry one firecracker, tabalers none")
    return Figure(None if owner == "neutral" else seats.index(owner), kind, firecracker, place)
