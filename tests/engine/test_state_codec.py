"""The one state codec (``engine/codec.py``) against the three hand-written ones it replaced.

The old ``dump`` of each shipped game is kept here, verbatim in substance, as the reference: on positions of
seeded playouts (and, for Diables, which deals no game of its own, playouts from its scenario starts) the
codec writes the same JSON and loads back an equal state. The codec also refuses what is not a position, and
round-trips a typed field a game adds without any codec code.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, fields
from functools import cache
from typing import Any

import pytest

from cardworks.engine.codec import StateCodec, StateLoadError
from cardworks.engine.plugins import registered
from cardworks.loading import load_database
from conftest import FIXTURE_CARDS

STEPS = 30


# -- the hand-written dumps this codec replaced (the reference) ---------------------------------------------

def old_calavera_dump(state: Any) -> dict[str, Any]:
    data = dict(state.__dict__)
    data["sheets"] = [list(sheet) for sheet in state.sheets]
    for name in ("dice", "aside", "pending", "taken", "winners", "scores"):
        data[name] = list(data[name])
    return data


def old_diables_dump(state: Any) -> dict[str, Any]:
    def plain(value: Any) -> Any:
        if isinstance(value, tuple):
            return [plain(v) for v in value]
        if hasattr(value, "__dataclass_fields__"):
            return {f.name: plain(getattr(value, f.name)) for f in fields(value)}
        return value
    return {f.name: plain(getattr(state, f.name)) for f in fields(state)}


def old_fallera_dump(state: Any) -> dict[str, Any]:
    data = dict(state.__dict__)
    for name, value in data.items():
        if type(value) is tuple:
            nested = name in {"hands", "counters", "refused", "pending"}
            data[name] = [list(group) for group in value] if nested else list(value)
    return data


OLD = {"calavera": old_calavera_dump, "diables": old_diables_dump, "fallera": old_fallera_dump}


@cache
def _positions(game: str) -> list[tuple[Any, Any, str]]:
    """(rules, state, where) of one seeded playout per configuration and per scenario start."""
    plugin = registered()[game]
    db = load_database(FIXTURE_CARDS / game)  # the fixture games (tests/fixtures/cards/build.py)
    starts = []
    for number, config in enumerate(plugin.configurations(db)[0]):
        rules, state = plugin.new_game(db, config, random.Random(number))
        starts.append((rules, state, config.label))
    for _, doc in db.docs("scenarios"):
        for scenario in doc.scenarios:
            if not scenario.refused:
                rules, state = plugin.scenario_state(db, scenario.setup)
                starts.append((rules, state, f"scenario {scenario.id}"))
    found = []
    for index, (rules, state, label) in enumerate(starts):
        rng = random.Random(1000 + index)
        for step in range(STEPS + 1):
            found.append((rules, state, f"{label} step {step}"))
            legal = rules.legal_actions(state)
            if not legal:
                break
            try:
                state = rules.apply(state, rng.choice(legal), rng=rng)
            except RuntimeError as exc:  # a scenario's small deck run dry: the map cannot be refilled (docs/engine.md)
                if not str(exc).startswith("[map-refill-nothing-left]"):
                    raise
                break
    return found


@pytest.mark.parametrize("game", sorted(OLD))
def test_codec_writes_the_old_json_and_loads_it_back(game: str) -> None:
    positions = _positions(game)
    assert len(positions) > 50, f"{game}: too few positions to compare"
    codec = type(positions[0][0]).codec
    assert isinstance(codec, StateCodec)
    kinds = set()
    for rules, state, where in positions:
        text = json.dumps(codec.dump(state))
        assert text == json.dumps(OLD[game](state)), f"{game} {where}: the codec writes other JSON than the old dump"
        assert codec.load(json.loads(text)) == state, f"{game} {where}: the state does not survive the codec"
        assert rules.dump(state) == codec.dump(state), f"{game} {where}: the rules do not use the codec"
        kinds.add(getattr(state, "phase", None))
    assert len(kinds) > 1, f"{game}: the playouts never left their first phase"


def test_every_registered_shipped_game_is_compared() -> None:
    assert {"calavera", "diables", "fallera"} <= set(registered())


# -- the codec on its own ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class Window:
    player: int
    kinds: tuple[str, ...]


@dataclass(frozen=True)
class Position:
    hands: tuple[tuple[int, ...], ...]
    phase: str
    window: Window | None = None
    pending: tuple[tuple[Any, ...], ...] = ()


def test_a_new_typed_field_round_trips_without_codec_code() -> None:
    codec = StateCodec(Position)
    state = Position(((1, 2), ()), "defend", Window(1, ("defence", "coin")), (("draw", 0, 2),))
    data = json.loads(json.dumps(codec.dump(state)))
    assert data == {"hands": [[1, 2], []], "phase": "defend", "window": {"player": 1, "kinds": ["defence", "coin"]},
                    "pending": [["draw", 0, 2]]}
    assert codec.load(data) == state
    assert codec.load({"hands": [[3]], "phase": "turn"}) == Position(((3,),), "turn")  # defaults fill in


def test_load_refuses_an_unknown_field() -> None:
    with pytest.raises(StateLoadError, match=r"not a Position: /phse: unknown field"):
        StateCodec(Position).load({"hands": [], "phse": "turn"})


def test_load_refuses_a_value_of_the_wrong_type_by_pointer() -> None:
    with pytest.raises(StateLoadError, match=r"/hands/0/1: .*integer"):
        StateCodec(Position).load({"hands": [[1, "two"]], "phase": "turn"})
    with pytest.raises(StateLoadError, match=r"/window/kinds: "):
        StateCodec(Position).load({"hands": [], "phase": "turn", "window": {"player": 0, "kinds": 5}})


def test_a_scenario_state_that_is_not_a_position_is_refused() -> None:
    plugin = registered()["calavera"]
    db = load_database(FIXTURE_CARDS / "calavera")
    rules, state = plugin.new_game(db, plugin.configurations(db)[0][0], random.Random(0))
    bad = {**rules.dump(state), "rolls": "many"}
    with pytest.raises(ValueError, match=r"/rolls: "):
        plugin.scenario_state(db, {"players": rules.players, "state": bad})
