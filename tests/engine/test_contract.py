"""The contract every registered game keeps, run over each one the registry lists.

Notation round trip, dump/load, no hidden card in another player's observation,
seeded replay, a typed Outcome at the end, unknown setup keys refused, every
member of the game's vocabulary handled; and the engine core names no game.
"""

from __future__ import annotations

import json
import random
import re

import pytest

from cardworks.engine.core import Outcome, SetupRefused
from cardworks.engine.playouts import play_one
from cardworks.engine.plugins import GamePlugin, registered
from cardworks.loading import load_database
from conftest import REPO

GAMES = sorted(registered())
STEPS = 40
"""Steps each seeded game is followed for (enough to reach battles, coins and the map)."""


def _db(game: str):
    return load_database(REPO / "cards" / game)


def _scenario_setups(db) -> list[dict]:
    return [s.setup for _, doc in db.docs("scenarios") for s in doc.scenarios if not s.refused and "state" not in s.setup]


def _positions(game: str) -> list[tuple[object, object]]:
    """(rules, state) pairs: every scenario's start, and the first steps of a seeded game per configuration."""
    plugin, db = registered()[game], _db(game)
    found = []
    for setup in _scenario_setups(db):
        try:
            found.append(plugin.scenario_state(db, setup))
        except (ValueError, KeyError):
            continue
    configs, _ = plugin.configurations(db)
    for number, config in enumerate(configs):
        rules, state = plugin.new_game(db, config, random.Random(number))
        rng = random.Random(number + 100)
        for _ in range(STEPS):
            legal = rules.legal_actions(state)
            if not legal:
                break
            found.append((rules, state))
            state = rules.apply(state, rng.choice(legal), rng=rng)
        found.append((rules, state))
    return found


POSITIONS = {game: _positions(game) for game in GAMES}


def test_the_three_games_are_registered_as_plugins() -> None:
    assert {"fallera", "calavera", "diables"} <= set(GAMES)
    assert all(isinstance(plugin, GamePlugin) for plugin in registered().values())


@pytest.mark.parametrize("game", GAMES)
def test_notation_round_trip(game: str) -> None:
    plugin, checked = registered()[game], 0
    for rules, state in POSITIONS[game]:
        for action in rules.legal_actions(state):
            text = action.notation()
            assert plugin.parse_action(text) == action and plugin.parse_action(text).notation() == text
            checked += 1
    assert checked


@pytest.mark.parametrize("game", GAMES)
def test_dump_load_round_trip_through_json(game: str) -> None:
    for rules, state in POSITIONS[game]:
        assert rules.load(json.loads(json.dumps(rules.dump(state)))) == state


@pytest.mark.parametrize("game", GAMES)
def test_no_observation_leaks_hidden_information(game: str) -> None:
    for rules, state in POSITIONS[game]:
        assert rules.hidden_leak(state) is None
        players = len(rules.observe(state, 0).get("hand_sizes", [])) or 1
        for viewer in range(players):
            json.dumps(rules.observe(state, viewer))  # plain JSON


@pytest.mark.parametrize("game", GAMES)
def test_seeded_games_replay_identically_and_end_in_an_outcome(game: str) -> None:
    plugin, db = registered()[game], _db(game)
    configs, later = plugin.configurations(db)
    if not configs:
        assert later, "a game without playable configurations says why"
        return
    for config in configs[:3]:
        rules, state = plugin.new_game(db, config, random.Random(7))
        final, log, failure = play_one(rules, state, 7, config.label)
        again_rules, again = plugin.new_game(db, config, random.Random(7))
        replay, replay_log, _ = play_one(again_rules, again, 7, config.label, check=False)
        assert failure is None and replay_log == log and replay == final
        outcome = rules.outcome(final)
        if outcome is not None:
            assert isinstance(outcome, Outcome) and isinstance(outcome.termination, str)
            assert all(isinstance(w, int) for w in outcome.winners)


@pytest.mark.parametrize("game", GAMES)
def test_unknown_setup_keys_are_refused(game: str) -> None:
    plugin, db = registered()[game], _db(game)
    setup = dict(_scenario_setups(db)[0], **{"no-such-key": 1})
    with pytest.raises(ValueError, match="no-such-key"):
        plugin.scenario_state(db, setup)
    assert "no-such-key" not in plugin.setup_keys


@pytest.mark.parametrize("game", GAMES)
def test_a_player_count_outside_the_game_is_refused_naming_the_rule(game: str) -> None:
    plugin, db = registered()[game], _db(game)
    with pytest.raises(SetupRefused) as refused:
        plugin.check_setup(db, None, db.game_doc.players.max + 1)
    assert refused.value.rule == "players" and refused.value.source


@pytest.mark.parametrize("game", GAMES)
def test_every_vocabulary_member_is_handled(game: str) -> None:
    plugin = registered()[game]
    assert set(plugin.vocabulary) == set(plugin.handlers)
    for part, names in plugin.vocabulary.items():
        assert names <= plugin.handlers[part], f"{game} {part}: no handler for {sorted(names - plugin.handlers[part])}"


OLD_PATHS = {f"{game}{suffix}.py" for game in ("fallera", "calavera", "diables")
             for suffix in ("", "_actions", "_cards", "_facts", "_state", "_game", "_sheet", "_scoring", "_expect")}
"""Aliases keeping old import paths working (``sys.modules`` entries for the moved modules), not core code."""


def test_the_engine_core_names_no_game() -> None:
    names = re.compile("|".join(sorted(GAMES)), re.IGNORECASE)
    core = [p for p in sorted((REPO / "src" / "cardworks" / "engine").glob("*.py")) if p.name not in OLD_PATHS]
    assert len(core) >= 8
    named = {p.name: names.findall(p.read_text(encoding="utf-8")) for p in core}
    assert not {name: found for name, found in named.items() if found}


def test_a_game_outside_the_repository_registers_through_an_entry_point(monkeypatch) -> None:
    from cardworks.engine import plugins

    fallera = registered()["fallera"]
    outside = plugins.Plugin(**{**{f: getattr(fallera, f) for f in fallera.__dataclass_fields__}, "id": "fourth"})

    class Point:
        name = "fourth"

        def load(self):
            return outside

    monkeypatch.setattr(plugins, "_REGISTRY", {})
    monkeypatch.setattr(plugins, "entry_points", lambda group: [Point()] if group == plugins.ENTRY_POINT_GROUP else [])
    assert plugins.plugin_for("fourth") is outside and "fallera" in plugins.registered()

    class NotAPlugin:
        def load(self):
            return object()

    monkeypatch.setattr(plugins, "_REGISTRY", {})
    monkeypatch.setattr(plugins, "entry_points", lambda group: [NotAPlugin()])
    NotAPlugin.name = "broken"
    with pytest.raises(plugins.PluginError):
        plugins.registered()
