"""Agents play the verbs that choose a target (issue 26 item 3): random, greedy and ISMCTS seats play the
invented specials of ``tests/engine/verbs_pack`` in real games, answering every choice they ask."""

from __future__ import annotations

import pytest

from conftest import REPO
from simulate_helpers import simulate_json

PACK = REPO / "tests" / "engine" / "verbs_pack"


@pytest.mark.parametrize("agent, games", [("random", 30), ("greedy", 30), ("mcts,random,random", 3)])
def test_the_agents_play_the_new_verbs_in_real_games(agent: str, games: int) -> None:
    report = simulate_json(str(PACK), "--agent", agent, "--games", str(games), "--workers", "1", "--no-paired",
                           "--budget", "4", "--seed", "2", "--players", "3")
    played = {row["card"]: row["played"] for row in report["cards"] if row["card"].startswith("verbs-")}
    assert sum(played.values()) > 0, (agent, played)
