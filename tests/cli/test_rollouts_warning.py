"""``simulate --agent mcts`` on Fallera says so when the install could not compile the rollout loop
(``games/fallera/_rollouts.c``): the searches then run the Python loop, slower, and a user must not be left
guessing why. The game says what it lacks (``Simulation.missing``); the command says it once, and only where the
agents would use the missing part."""

from __future__ import annotations

import pytest

from cardworks.cli import simulate as command
from cardworks.games.fallera import rollouts
from cardworks.simulate.agents import parse_agents


def _said(capsys, game: str, agents: str) -> str:
    command._warn_of_what_is_missing(game, parse_agents(agents, 4))
    return capsys.readouterr().err


def test_a_search_without_the_compiled_loop_is_told(monkeypatch, capsys) -> None:
    monkeypatch.delenv("CARDWORKS_PURE_PYTHON", raising=False)
    monkeypatch.setattr(rollouts, "KERNEL", None)
    said = _said(capsys, "fallera", "mcts,greedy,greedy,greedy")
    assert said.startswith("warning: [slow-rollouts] the compiled rollout loop") and said.count("\n") == 1


@pytest.mark.parametrize("game, agents", [("fallera", "greedy"), ("calavera", "mcts"), ("diables", "mcts")])
def test_nothing_is_said_where_no_search_plays_the_loop(game: str, agents: str, monkeypatch, capsys) -> None:
    monkeypatch.delenv("CARDWORKS_PURE_PYTHON", raising=False)
    monkeypatch.setattr(rollouts, "KERNEL", None)
    assert _said(capsys, game, agents) == ""


def test_nothing_is_said_when_the_loop_is_built_or_the_python_one_chosen(monkeypatch, capsys) -> None:
    monkeypatch.delenv("CARDWORKS_PURE_PYTHON", raising=False)
    monkeypatch.setattr(rollouts, "KERNEL", object())
    assert _said(capsys, "fallera", "mcts") == ""
    monkeypatch.setattr(rollouts, "KERNEL", None)
    monkeypatch.setenv("CARDWORKS_PURE_PYTHON", "1")
    assert _said(capsys, "fallera", "mcts") == ""
