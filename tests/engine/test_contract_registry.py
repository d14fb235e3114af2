"""Where the registry finds games: every one, cardworks' own included, declared under the ``cardworks.games``
entry point group (``pyproject.toml``), none in a list kept by hand. A source tree whose package was never
installed (or was installed before its games were entry points) has no game: every command says so in one line
and exits 2, rather than play on without its games. A command for one game imports that game alone."""

from __future__ import annotations

import subprocess
import sys
import tomllib

import pytest

from cardworks import plugin_registry
from cardworks.engine import plugins
from conftest import FIXTURE_CARDS, REPO, run_cli

GAMES_PACKAGE = REPO / "src" / "cardworks" / "games"


def test_cardworks_own_games_are_the_entry_points_its_pyproject_declares() -> None:
    """The installed metadata says what ``pyproject.toml`` says (a stale install is found here, by name), and
    every game package of the source tree is declared, each by its id, loading its package's ``PLUGIN``."""
    declared = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]["entry-points"]
    declared = declared[plugin_registry.ENTRY_POINT_GROUP]
    installed = {name: point.value for name, point in plugin_registry.own_points().items()}
    assert installed == declared, "the installed metadata differs from pyproject.toml: pip install -e . again"
    packages = sorted(p.parent.name for p in GAMES_PACKAGE.glob("*/__init__.py"))
    assert packages and sorted(declared) == packages
    assert all(value == f"cardworks.games.{name}:PLUGIN" for name, value in declared.items())
    assert sorted(plugins.registered()) == sorted({*declared, *(p.id for _, p in plugin_registry.loaded_entry_points())})


def test_the_registry_keeps_no_list_of_games() -> None:
    """No module outside a game's own package names a shipped game's id in a tuple, list or set of ids."""
    source = (REPO / "src" / "cardworks" / "plugin_registry.py").read_text(encoding="utf-8") \
        + (REPO / "src" / "cardworks" / "engine" / "plugins.py").read_text(encoding="utf-8")
    named = [game for game in plugin_registry.own_games() if f'"{game}"' in source or f"'{game}'" in source]
    assert plugin_registry.own_games() and named == []


def test_other_distributions_entry_points_never_hold_cardworks_own() -> None:
    """cardworks' own games are not loaded with other distributions' plugins (each command loads those to report
    the broken ones: loading the shipped games there would import every game in every command)."""
    loaded = [point.name for point, _ in plugin_registry.loaded_entry_points()]
    assert "minitrick" in loaded and not set(loaded) & set(plugin_registry.own_games())


def _not_installed(monkeypatch, how: str) -> None:
    """cardworks' metadata as a source tree never installed (``missing``) or installed before its games were entry
    points (``stale``) leaves it."""
    class Stale:
        version = "0.1.0"
        entry_points = ()

    def distribution(name: str):
        if how == "missing":
            raise plugin_registry.PackageNotFoundError(name)
        return Stale()

    monkeypatch.setattr(plugin_registry, "distribution", distribution)
    monkeypatch.setattr(plugin_registry, "_OWN", {})
    monkeypatch.setattr(plugins, "_REGISTRY", {})


@pytest.mark.parametrize("how", ["missing", "stale"])
def test_without_cardworks_own_games_every_lookup_says_to_install_the_package(monkeypatch, how: str) -> None:
    _not_installed(monkeypatch, how)
    for ask in (plugins.registered, lambda: plugins.plugin_for("calavera"), lambda: plugin_registry.plugin_of("x"),
                plugin_registry.loaded_entry_points):
        with pytest.raises(plugin_registry.NotInstalled, match="no game is registered: .*install"):
            ask()
    run = run_cli("--cards", str(FIXTURE_CARDS), "check", "--game", "calavera", "--playouts", "0")
    lines = run.output.strip().splitlines()  # stderr, as nothing else is written
    assert run.exit_code == 2 and len(lines) == 1 and lines[0].startswith("cardworks: error: no game is registered")
    assert "pip install -e" in lines[0]


NOT_INSTALLED = """
import importlib.metadata as metadata, sys
real = metadata.distribution
def distribution(name):  # what a checkout never installed gives: no metadata of cardworks anywhere on the path
    if name == "cardworks":
        raise metadata.PackageNotFoundError(name)
    return real(name)
metadata.distribution = distribution
from cardworks.cli.main import main
sys.argv = ["cardworks", *sys.argv[1:]]
main()
"""


@pytest.mark.parametrize("command", [("validate",), ("check", "--game", "diables", "--playouts", "0")])
def test_a_command_run_from_a_source_tree_never_installed_fails_in_one_line(command: tuple[str, ...]) -> None:
    done = subprocess.run([sys.executable, "-c", NOT_INSTALLED, "--cards", str(FIXTURE_CARDS / "diables"), *command],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and done.stdout == "", (done.returncode, done.stdout, done.stderr)
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert done.stderr.startswith("cardworks: error: no game is registered: the cardworks package is not installed")


IMPORTED = """
import sys
from cardworks.cli.main import cli
try:
    cli.main(sys.argv[1:])
except SystemExit as exit:
    print("GAMES", sorted({m.split(".")[2] for m in sys.modules if m.startswith("cardworks.games.")}), exit.code)
"""


@pytest.mark.parametrize("game", ["calavera", "diables"])
def test_a_command_for_one_game_imports_that_game_alone(game: str) -> None:
    for command in (("--cards", str(FIXTURE_CARDS / game), "validate"),
                    ("--cards", str(FIXTURE_CARDS), "check", "--game", game, "--playouts", "1")):
        done = subprocess.run([sys.executable, "-c", IMPORTED, *command],
                              capture_output=True, text=True, timeout=120)
        assert f"GAMES ['{game}'] 0" in done.stdout, (command, done.stdout[-500:], done.stderr[-1500:])


def test_an_own_entry_point_naming_another_game_is_a_defect(monkeypatch) -> None:
    calavera = plugin_registry.own_points()["calavera"]
    misnamed = type(calavera)("fallera", calavera.value, calavera.group)  # loads calavera's plugin under another name
    monkeypatch.setattr(plugin_registry, "_OWN", {"fallera": misnamed})
    with pytest.raises(plugin_registry.OwnGameMisnamed, match="'fallera = cardworks.games.calavera:PLUGIN' .* id is 'calavera'"):
        plugin_registry.plugin_of("fallera")
