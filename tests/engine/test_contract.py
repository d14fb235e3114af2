"""The contract every registered game keeps, run over each one the registry lists (shipped or from an entry
point), over scenario starts and positions reached by seeded playouts.

Behaviour, tested without asking the game (``contract_checks``): changed actions that are not legal are
refused with IllegalActionError; legal actions are sorted and stable; ``apply`` leaves its input alone;
``new_game``, ``apply`` and ``observe`` use no global randomness or clock (patched to raise); an observation
does not change when only what its viewer may not see changes; every position survives dump/load; a scenario
setup that raises fails. Also: notation round trip, seeded replay, a typed Outcome at the end, unknown setup
keys refused, every member of the game's vocabulary handled; and the engine core names no game.
``test_contract_fixture.py`` shows each behavioural check failing on a game that breaks it.
"""

from __future__ import annotations

import dataclasses
import json
import random
import re
from pathlib import Path
from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import contract_checks as contract
from cardworks.engine.core import Outcome, SetupRefused
from cardworks.engine.playouts import play_one
from cardworks.engine.plugins import GamePlugin, data_folder, registered
from cardworks.loading import load_database
from conftest import FIXTURE_CARDS, REPO

GAMES = sorted(registered())
STEPS = 40
"""Steps each seeded game is followed for (enough to reach battles, coins and the map)."""
POSITIONS_PER_GAME = 160
"""About how many playout positions each game is checked at (spread over its configurations): the fast
suite stays within a few seconds per game."""


@cache
def _db(game: str):
    """The game's data: the shipped games' fixtures (tests/fixtures/cards/build.py), else the game's own folder."""
    fixture = FIXTURE_CARDS / game
    return load_database(fixture if fixture.is_dir() else data_folder(registered()[game]))


def _scenarios(db) -> list[contract.Scenario]:
    return [contract.Scenario(s.id, s.setup, s.refused) for _, doc in db.docs("scenarios") for s in doc.scenarios]


def _scenario_setups(db) -> list[dict]:
    return [s.setup for s in _scenarios(db) if not s.refused and "state" not in s.setup]


@cache
def _configs(game: str) -> list:
    return registered()[game].configurations(_db(game))[0]


@cache
def _positions(game: str) -> list[contract.Position]:
    """Every scenario's start (a setup that raises fails here) and positions of one seeded game per
    configuration, every few steps so that each game has about ``POSITIONS_PER_GAME``."""
    plugin, db = registered()[game], _db(game)
    found = contract.scenario_positions(plugin, db, _scenarios(db))
    configs = _configs(game)
    if configs:
        every = max(1, STEPS * len(configs) // POSITIONS_PER_GAME)
        found += contract.playout_positions(plugin, db, configs, steps=STEPS, every=every)
    return found


def test_the_three_games_are_registered_as_plugins() -> None:
    assert {"fallera", "calavera", "diables"} <= set(GAMES)
    assert all(isinstance(plugin, GamePlugin) for plugin in registered().values())


@pytest.mark.parametrize("game", GAMES)
def test_notation_round_trip(game: str) -> None:
    plugin, checked = registered()[game], 0
    for rules, state, _ in _positions(game):
        for action in rules.legal_actions(state):
            text = action.notation()
            assert plugin.parse_action(text) == action and plugin.parse_action(text).notation() == text
            checked += 1
    assert checked


@pytest.mark.parametrize("game", GAMES)
def test_every_scenario_setup_gives_a_position_or_its_expected_refusal(game: str) -> None:
    plugin, db = registered()[game], _db(game)
    assert contract.scenario_positions(plugin, db, _scenarios(db)) or not _scenarios(db)


@pytest.mark.parametrize("game", GAMES)
def test_positions_come_from_scenarios_and_seeded_playouts(game: str) -> None:
    wheres = [p.where for p in _positions(game)]
    assert any(w.startswith("scenario ") for w in wheres) or not _scenarios(_db(game))
    assert any(" step " in w for w in wheres) == bool(_configs(game))
    assert len(wheres) <= len(_scenarios(_db(game))) + 2 * POSITIONS_PER_GAME


@pytest.mark.parametrize("game", GAMES)
def test_actions_that_are_not_legal_are_refused(game: str) -> None:
    assert contract.check_illegal_actions_refused(registered()[game], _positions(game)) > 0


@pytest.mark.parametrize("game", GAMES)
def test_every_configuration_gives_a_catalogue_of_played_and_left_out_designs(game: str) -> None:
    contract.check_catalogues(registered()[game], _db(game), _configs(game))


@pytest.mark.parametrize("game", GAMES)
def test_legal_actions_are_sorted_and_the_same_on_every_call(game: str) -> None:
    contract.check_legal_actions_sorted_and_stable(_positions(game))


@pytest.mark.parametrize("game", GAMES)
def test_apply_never_changes_its_input(game: str) -> None:
    contract.check_apply_leaves_its_input_alone(_positions(game))


@pytest.mark.parametrize("game", GAMES)
def test_no_global_randomness_or_clock_in_new_game_apply_and_observe(game: str) -> None:
    plugin = registered()[game]
    packages = ("cardworks", type(plugin).__module__, plugin.new_game.__module__)
    contract.check_no_global_chance(plugin, _db(game), _configs(game), _positions(game), packages=packages)


@pytest.mark.parametrize("game", GAMES)
def test_observations_do_not_change_with_what_their_viewer_may_not_see(game: str) -> None:
    plugin = registered()[game]
    compared = contract.check_observations_hide_what_the_rules_hide(plugin, _positions(game))
    assert compared > 0 or not (plugin.hidden.private or plugin.hidden.secret)


@pytest.mark.parametrize("game", GAMES)
def test_observations_name_players_as_scenarios_do(game: str) -> None:
    """Issue 46 item 6: ``p2`` in an observation, as in a scenario's setup and expectations, never the seat ``1``."""
    assert contract.check_observations_name_players_as_scenarios_do(_positions(game)) > 0


@pytest.mark.parametrize("seen", [{"you": "p1", "current": 1}, {"you": 0}, {"battle": {"attacker": "p1", "called":
                                  [[2, "conill"]]}}, {"winners": [0]}, {"plaza": [[{"owner": 1, "kind": "diable"}]]}])
def test_the_player_notation_check_finds_a_seat_number(seen: dict) -> None:
    class Numbered:
        players = 1

        def observe(self, state: object, viewer: int) -> dict:
            return seen

    with pytest.raises(AssertionError, match="observation"):
        contract.check_observations_name_players_as_scenarios_do([contract.Position(Numbered(), None, "planted")])


@pytest.mark.parametrize("game", GAMES)
def test_observations_are_plain_json_and_the_game_finds_no_leak_itself(game: str) -> None:
    assert _positions(game)
    for rules, state, _ in _positions(game):
        assert rules.hidden_leak(state) is None
        for viewer in range(contract._players(rules, state)):
            json.dumps(rules.observe(state, viewer))  # plain JSON


@pytest.mark.parametrize("game", GAMES)
def test_the_rules_take_parse_codec_and_result_from_the_base_class(game: str) -> None:
    """One place for each: no game writes ``parse``, ``dump``/``load`` or ``result`` (read from ``outcome``, so
    the two cannot disagree) beside ``BaseRules``."""
    from cardworks.engine.base_rules import BaseRules

    positions = _positions(game)
    assert positions
    for rules, state, where in positions:
        assert isinstance(rules, BaseRules), f"{game}: {type(rules).__qualname__} is not made from BaseRules"
        written = [name for name in ("parse", "dump", "load", "result") if getattr(type(rules), name) is not
                   getattr(BaseRules, name)]
        assert not written, f"{game}: {type(rules).__qualname__} writes {', '.join(written)} itself"
        outcome = rules.outcome(state)
        assert rules.result(state) == ((None, None) if outcome is None else (outcome.winners, outcome.termination))


@pytest.mark.parametrize("game", GAMES)
def test_dump_load_round_trip_through_json(game: str) -> None:
    contract.check_dump_load_round_trip(_positions(game))


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=6, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_the_contract_holds_at_positions_hypothesis_reaches(game: str, data) -> None:
    """Positions deeper and elsewhere than the fixed ones: a configuration, a seed and a number of steps drawn
    by hypothesis (derandomized, so the fast suite is the same on every run)."""
    plugin, db, configs = registered()[game], _db(game), _configs(game)
    if not configs:  # a game whose engine plays no whole game yet: its scenario positions are checked above
        assert plugin.configurations(db)[1], "a game without playable configurations says why"
        return
    config = data.draw(st.sampled_from(configs))
    seed, steps = data.draw(st.integers(0, 2**16)), data.draw(st.integers(0, 200))
    positions = contract.playout_positions(plugin, db, [config], steps=steps, every=max(1, steps // 4), seed=seed)
    contract.check_legal_actions_sorted_and_stable(positions)
    contract.check_illegal_actions_refused(plugin, positions, per_position=6, seed=seed)
    contract.check_apply_leaves_its_input_alone(positions, per_position=2, seed=seed)
    contract.check_observations_hide_what_the_rules_hide(plugin, positions, per_viewer=1, seed=seed)
    contract.check_dump_load_round_trip(positions)


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


def _naming(root: Path, folders: tuple[str, ...], games: list[str]) -> dict[str, list[str]]:
    """Each source file under ``root``'s ``folders`` (path and text) → the game ids it names. A name counts as a
    whole word, ``_`` and ``-`` separating words too (``diables_sections`` names a game; ``highlight`` does not
    name a game ``high``)."""
    names = re.compile(r"(?<![a-z0-9])(?:" + "|".join(map(re.escape, sorted(games))) + r")(?![a-z0-9])", re.IGNORECASE)
    found = {}
    for folder in folders:
        for path in sorted((root / folder).rglob("*")):
            if path.is_file() and path.suffix in (".py", ".j2", ".css", ".js", ".json"):
                relative = path.relative_to(root).as_posix()
                found[relative] = names.findall(relative + "\n" + path.read_text(encoding="utf-8"))
    return found


CORE = ("engine", "render", "export", "serve")
"""The folders of ``src/cardworks`` that reach a game only through its plugin."""


def test_the_engine_core_renderer_exporters_and_server_name_no_game() -> None:
    named = _naming(REPO / "src" / "cardworks", CORE, GAMES)
    assert all(sum(1 for f in named if f.startswith(folder + "/")) >= 8 for folder in CORE), sorted(named)
    assert not {name: found for name, found in named.items() if found}


def test_the_names_check_finds_a_planted_game_name(tmp_path: Path) -> None:
    (tmp_path / "render" / "docs").mkdir(parents=True)
    (tmp_path / "render" / "docs" / "generated.py").write_text("from .tables import SECTIONS  # highlight\n")
    (tmp_path / "render" / "docs" / "tables.py").write_text('SECTIONS = {"diables-components": None}\n')
    (tmp_path / "render" / "pieces.py").write_text('SYMBOLS = {"Calavera": "x"}\n')
    (tmp_path / "render" / "high_sections.py").write_text("")
    (tmp_path / "serve").mkdir()
    (tmp_path / "serve" / "app.py").write_text("CALAVERAS = 1  # fallerable, highway\n")
    named = _naming(tmp_path, ("render", "serve"), [*GAMES, "high"])
    assert named == {"render/docs/generated.py": [], "render/docs/tables.py": ["diables"],
                     "render/high_sections.py": ["high"], "render/pieces.py": ["Calavera"], "serve/app.py": []}


def test_a_game_outside_the_repository_registers_through_an_entry_point(monkeypatch) -> None:
    from cardworks import plugin_registry
    from cardworks.engine import plugins

    fallera = registered()["fallera"]
    outside = plugins.Plugin(**{**{f: getattr(fallera, f) for f in fallera.__dataclass_fields__}, "id": "fourth"})

    class Point:
        name = "fourth"

        def load(self):
            return outside

    monkeypatch.setattr(plugins, "_REGISTRY", {})
    monkeypatch.setattr(plugin_registry, "entry_points", lambda group: [Point()] if group == plugins.ENTRY_POINT_GROUP else [])
    assert plugins.plugin_for("fourth") is outside and "fallera" in plugins.registered()

    class NotAPlugin:
        def load(self):
            return object()

    monkeypatch.setattr(plugins, "_REGISTRY", {})
    monkeypatch.setattr(plugin_registry, "_BROKEN", {})
    monkeypatch.setattr(plugin_registry, "entry_points", lambda group: [NotAPlugin()])
    NotAPlugin.name = "broken"
    assert "broken" not in plugins.registered() and "fallera" in plugins.registered()  # left out, the rest work
    assert [b.name for b in plugin_registry.broken_plugins()] == ["broken"]
    assert "the plugin has no id, setup_keys" in plugin_registry.broken_plugins()[0].line()  # named field by field


@pytest.mark.parametrize("planted", ["battle-card-not-in-hand", "battle-against-yourself", "treasure-of-another"])
def test_the_illegal_action_check_finds_a_rule_removed_from_fallera(planted: str, monkeypatch) -> None:
    """A check removed from the shipped Fallera rules (a card not in the hand, a wrong target) is found by the
    changed candidates, at the same positions the suite uses."""
    from cardworks.games.fallera.legality import Checks

    instance, check_attack = Checks._instance, Checks._check_attack
    skipped = {"battle-card-not-in-hand": "battle-card-in-hand", "treasure-of-another": "battle-for-treasure"}

    def lenient_instance(self, state, card, where, action, rule, place, whose=None):
        if rule == skipped.get(planted):
            return card.number if 0 <= card.number < len(state.designs) else instance(
                self, state, card, where, action, rule, place, whose)
        return instance(self, state, card, where, action, rule, place, whose)

    def lenient_attack(self, draft, action):
        if action.target == action.player:  # the rival check skipped
            return None
        return check_attack(self, draft, action)

    monkeypatch.setattr(Checks, "_instance", lenient_instance)
    if planted == "battle-against-yourself":
        monkeypatch.setattr(Checks, "_check_attack", lenient_attack)
    import cardworks.games.fallera.rules as fallera_rules
    from cardworks.games.fallera.actions import Attack

    monkeypatch.setitem(fallera_rules._CHECKS, Attack, Checks._check_attack)
    with pytest.raises(AssertionError, match="is not among the legal actions, but apply accepted|is not legal and raised") as found:
        contract.check_illegal_actions_refused(registered()["fallera"], _positions("fallera"))
    shown = {"battle-card-not-in-hand": r"'p\d battle p\d \S+ with \S+' is not (among|legal)",
             "battle-against-yourself": r"'p(\d) battle p\1 ", "treasure-of-another": r"'p\d battle p\d "}
    assert re.search(shown[planted], str(found.value)), found.value


def test_the_fixture_game_comes_through_an_entry_point_with_its_own_data_folder() -> None:
    """Minitrick (tests/fixtures/games) is found as another distribution's game is, and the suite above
    runs on the data folder it names, not on the shipped database."""
    from importlib.metadata import entry_points

    from cardworks import plugin_registry

    assert "minitrick" in GAMES and "minitrick" not in plugin_registry.own_games()
    assert [p.value for p in entry_points(group=plugin_registry.ENTRY_POINT_GROUP) if p.name == "minitrick"] \
        == ["minitrick:PLUGIN"]
    folder = data_folder(registered()["minitrick"])
    assert (folder / "game.json").is_file() and REPO / "cards" not in folder.parents
    assert _db("minitrick").game_doc.id == "minitrick" and _scenarios(_db("minitrick"))
    from cardworks.engine.schemas import render_schemas

    assert not [name for name in render_schemas() if name.startswith("minitrick/")]  # they stay with its data


@pytest.mark.parametrize("bad", ["two-words", "2nd", "Upper", "class", "façade"])
def test_a_game_id_that_cannot_name_a_package_is_refused(bad: str, monkeypatch) -> None:
    """A game's id names the module it is imported from: an id with a hyphen, a leading digit, a capital, a
    keyword or a non-ASCII letter is refused when the registry is read (the game is left out, with a line saying
    why; the other games work)."""
    from cardworks import plugin_registry
    from cardworks.engine import plugins

    minitrick = registered()["minitrick"]
    renamed = plugins.Plugin(**{**{f: getattr(minitrick, f) for f in minitrick.__dataclass_fields__}, "id": bad})

    class Point:
        name = bad

        def load(self):
            return renamed

    monkeypatch.setattr(plugins, "_REGISTRY", {})
    monkeypatch.setattr(plugin_registry, "_BROKEN", {})
    monkeypatch.setattr(plugin_registry, "entry_points", lambda group: [Point()])
    with pytest.raises(plugins.PluginError, match="not an importable name"):
        plugins._checked(renamed)
    assert bad not in plugins.registered()  # left out, and said in one line: the other games work
    assert "not an importable name" in plugin_registry.broken_plugins()[0].line()


def test_one_contract_the_registry_and_the_protocol_name_the_same_fields() -> None:
    """``GamePlugin`` types every field a plugin has; the registry's ``CONTRACT`` names the same ones, so a plugin
    lacking one is left out before any layer reads it (no ``getattr`` on a plugin anywhere)."""
    import typing

    from cardworks import plugin_registry
    from cardworks.engine.plugins import GamePlugin, Plugin

    protocol = set(typing.get_type_hints(GamePlugin)) | {name for name in vars(GamePlugin) if not name.startswith("_")}
    assert set(plugin_registry.CONTRACT) == protocol
    assert set(plugin_registry.CONTRACT) <= {field.name for field in dataclasses.fields(Plugin)}


def test_a_plugin_lacking_a_field_is_left_out_naming_it(monkeypatch) -> None:
    from cardworks import plugin_registry

    class Point:
        name, value, dist = "half_game", "half_game:PLUGIN", None

        def load(self):
            return type("Half", (), {"id": "half_game"})()

    monkeypatch.setattr(plugin_registry, "entry_points", lambda group: [Point()])
    monkeypatch.setattr(plugin_registry, "_BROKEN", {})
    assert plugin_registry.loaded_entry_points() == []
    [broken] = plugin_registry.broken_plugins()
    assert "the plugin has no setup_keys, expectations" in broken.error and broken.name == "half_game"
