"""A game plugin of another distribution that cannot be loaded: its module raises on import (an error, a missing
import, even ``SystemExit``). Every command says so in one line naming the distribution and the entry point, and
goes on with the other games; asking for that game by name is a usage error naming the plugin. An entry point
that loads but is no game plugin is said the same way."""

from __future__ import annotations

import os
import signal
import socket
import time
import urllib.request
from pathlib import Path

import pytest

from corpus import REPO, Result, cardworks, finish, judge, mini, start  # noqa: F401  (fixtures)

FAMILY = "plugins"
CARDS = REPO / "tests" / "fixtures" / "cards"
DISTRIBUTION = "cardworks-hostile-game 6.6"
ENTRY_POINT = "hostile = hostile_game:PLUGIN"
RAISES = {"an-error": 'raise RuntimeError("the plugin cannot start")\n',
          "a-missing-import": "import cardworks_no_such_module  # noqa: F401\n",
          "system-exit": "raise SystemExit(3)\n"}


def _site(tmp_path: Path, body: str) -> dict[str, str]:
    """A folder on the path holding an installed distribution whose game plugin's module runs ``body`` on import;
    the environment that puts it on the path."""
    site = tmp_path / "site"
    info = site / "cardworks_hostile_game-6.6.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: cardworks-hostile-game\nVersion: 6.6\n")
    (info / "entry_points.txt").write_text(f"[cardworks.games]\n{ENTRY_POINT}\n")
    (site / "hostile_game.py").write_text(body)
    return {"PYTHONPATH": os.pathsep.join(p for p in (str(site), os.environ.get("PYTHONPATH", "")) if p)}


def _reported(result: Result, error: str = "RuntimeError: the plugin cannot start") -> str | None:
    """What is wrong with how the command reported the plugin: one line naming the distribution, the entry point
    and the error."""
    lines = [line for line in result.stderr.splitlines() if "hostile" in line]
    if len(lines) != 1 or DISTRIBUTION not in lines[0] or ENTRY_POINT not in lines[0] or error not in lines[0]:
        return f"expected one line naming {DISTRIBUTION}, {ENTRY_POINT!r} and {error!r}; stderr:\n{result.stderr[-1500:]}"
    return None


def _commands(mini, tmp: Path) -> dict[str, tuple[str, ...]]:
    root = str(mini.cards_root)
    return {
        "validate": ("--cards", root, "validate"),
        "cards": ("--cards", root, "cards"),
        "check": ("--cards", str(CARDS), "check", "--game", "diables", "--playouts", "1"),
        "build": ("--cards", root, "build", "--out", str(tmp / "build"), "--locale", "en", "--no-docs", "--jobs", "1"),
        "export print-shop": ("--cards", root, "export", "print-shop", "--out", str(tmp / "shop")),
        "export tts": ("--cards", root, "export", "tts", "--out", str(tmp / "tts")),
        "freeze": ("--cards", root, "freeze"),
        "i18n status": ("--cards", root, "i18n", "status"),
        "i18n export": ("--cards", root, "i18n", "export", "--locale", "es", "--out", str(tmp / "es.po")),
        "sheet export": ("--cards", root, "sheet", "export", "--out", str(tmp / "cards.csv")),
        "schema": ("schema", "--out", str(tmp / "schema")),
        "simulate": ("--cards", str(CARDS), "simulate", "--games", "2", "--workers", "1"),
        "simulate --game calavera": ("--cards", str(CARDS), "simulate", "--game", "calavera", "--players", "3",
                                     "--games", "2", "--workers", "1"),
    }


COMMANDS = ["validate", "cards", "check", "build", "export print-shop", "export tts", "freeze", "i18n status",
            "i18n export", "sheet export", "schema", "simulate", "simulate --game calavera"]


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_reports_a_plugin_that_raises_on_import_and_works_on(command: str, mini, tmp_path: Path) -> None:
    env = _site(tmp_path, RAISES["an-error"])
    result = cardworks(*_commands(mini, tmp_path)[command], env=env, timeout=180)
    judge(f"{command} with a game plugin that raises on import", FAMILY, result, refuse=False,
          check=lambda: _reported(result))


def test_preflight_reports_it_too(tmp_path: Path) -> None:
    env = _site(tmp_path, RAISES["an-error"])
    (tmp_path / "empty.pdf").write_bytes(b"")
    result = cardworks("preflight", str(tmp_path / "empty.pdf"), env=env)
    judge("preflight with a game plugin that raises on import", FAMILY, result, refuse=True)
    assert _reported(result) is None, _reported(result)


@pytest.mark.parametrize("how", list(RAISES))
def test_asking_for_the_game_of_a_broken_plugin_is_a_usage_error_naming_it(how: str, tmp_path: Path) -> None:
    env = _site(tmp_path, RAISES[how])
    error = {"an-error": "RuntimeError: the plugin cannot start", "a-missing-import": "ModuleNotFoundError",
             "system-exit": "SystemExit: 3"}[how]
    result = cardworks("--cards", str(CARDS), "check", "--game", "hostile", env=env)
    judge(f"check --game of a plugin that fails on import ({how})", FAMILY, result, refuse=True)
    wrong = _reported(Result(0, "", "\n".join(line for line in result.stderr.splitlines() if "warning" in line), 0, False),
                      error)
    assert result.exit_code == 2 and not wrong and "'hostile'" in result.stderr.splitlines()[-1] \
        and ENTRY_POINT in result.stderr.splitlines()[-1], (wrong, result.stderr)


def test_serve_reports_it_and_serves(mini, tmp_path: Path) -> None:
    env = _site(tmp_path, RAISES["an-error"])
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    process = start("--cards", str(mini.cards_root), "serve", "--port", str(port), env=env)
    listening = False
    deadline = time.monotonic() + 90
    while not listening and time.monotonic() < deadline and process.poll() is None:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            listening = True
        except OSError:
            time.sleep(0.1)
    status = None
    if listening:  # the deck's page, faces and all: the game is served
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/deck", timeout=90) as response:
                status = response.status
        except OSError as exc:
            status = str(exc)
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGINT)  # Ctrl-C is how serve stops: exit 0
    result = finish(process, timeout=30)
    judge("serve with a game plugin that raises on import", FAMILY, result, refuse=False,
          check=lambda: _reported(result) or (None if status == 200 else f"the deck page answered {status}"))


@pytest.mark.parametrize("command", ["validate", "schema", "simulate", "simulate --game calavera"])
def test_a_plugin_that_is_no_game_plugin_is_reported_the_same_way(command: str, mini, tmp_path: Path) -> None:
    """An entry point that loads, but not a ``GamePlugin`` (here a bare object): left out and said, like one
    that raises."""
    env = _site(tmp_path, "PLUGIN = object()\n")
    result = cardworks(*_commands(mini, tmp_path)[command], env=env, timeout=180)
    judge(f"{command} with an entry point that is no game plugin", FAMILY, result, refuse=False,
          check=lambda: _reported(result, "TypeError: the plugin has no id, setup_keys"))
