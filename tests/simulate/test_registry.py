"""The simulator reaches games only through the engine's plugin registry: a game registered from outside
the repository plays through the real command, and one whose plugin offers no simulation is refused."""

from __future__ import annotations

import json
import shutil

from click.testing import CliRunner

from cardworks.cli.main import cli
from cardworks import plugin_registry
from cardworks.engine import plugins
from cardworks.simulate.tables import build_table

from simulate_helpers import CARDS, simulate_json


def _simulate(cards, *args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["--cards", str(cards), "simulate", *args], catch_exceptions=True)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"uncaught {type(result.exception).__name__}: {result.exception}") from result.exception
    return result.exit_code, result.stdout if result.exit_code == 0 else result.output  # stderr holds progress lines


def _register(monkeypatch, plugin) -> None:
    """``plugin`` declared under the registry's entry point group, as another distribution would."""

    class Point:
        name = plugin.id

        def load(self):
            return plugin

    monkeypatch.setattr(plugins, "_REGISTRY", {})
    monkeypatch.setattr(plugin_registry, "entry_points", lambda group: [Point()] if group == plugins.ENTRY_POINT_GROUP else [])
    build_table.cache_clear()


def test_a_game_registered_through_the_registry_is_reachable_by_simulate(monkeypatch, tmp_path) -> None:
    # Calavera's plugin again, under a name no module of cardworks knows, with its data in a folder of that name
    calavera = plugins.registered()["calavera"]
    fourth = plugins.Plugin(**{**{f: getattr(calavera, f) for f in calavera.__dataclass_fields__}, "id": "fourth"})
    shutil.copytree(CARDS / "calavera", tmp_path / "fourth")
    args = ("--players", "3", "--games", "12", "--agent", "greedy", "--workers", "1", "--format", "json")
    expected = simulate_json("--game", "calavera", *args[:-2])
    _register(monkeypatch, fourth)
    code, output = _simulate(tmp_path, "--game", "fourth", *args)
    assert code == 0, output
    report = json.loads(output)
    assert report["table"]["game"] == "fourth"
    # the same games as Calavera's own: the simulator took rules, deal, agents and turn counting from the plugin
    for key in ("agents", "seats", "length", "endings"):
        assert report[key] == expected[key], key
    assert report["length"]["rounds"]["mean"] > 0


def test_a_registered_game_without_a_simulation_is_refused_by_name(monkeypatch, tmp_path) -> None:
    calavera = plugins.registered()["calavera"]
    fields = {f: getattr(calavera, f) for f in calavera.__dataclass_fields__}
    _register(monkeypatch, plugins.Plugin(**{**fields, "id": "fifth", "simulation": None}))
    shutil.copytree(CARDS / "calavera", tmp_path / "fifth")
    code, output = _simulate(tmp_path, "--game", "fifth", "--games", "2")
    assert code == 2 and "the 'fifth' engine does not play whole games" in output and "Traceback" not in output
    assert "calavera" in output and "fallera" in output  # what it does play, from the registry
