"""``cardworks simulate`` on the shipped games: figures, reproducibility, executors, packs, bad input."""

from __future__ import annotations

import json
import re

import pytest

from simulate_helpers import PACK, simulate, simulate_json

MIXED = ("--game", "fallera", "--set", "base", "--players", "4", "--agent", "greedy,random,random,random")


def test_four_player_base_figures_and_the_same_json_twice_and_on_two_workers() -> None:
    args = (*MIXED, "--games", "60", "--seed", "1")
    first, _ = simulate(*args, "--format", "json", "--workers", "1")
    again, _ = simulate(*args, "--format", "json", "--workers", "1")
    two, _ = simulate(*args, "--format", "json", "--workers", "2")
    assert first == again == two
    report = json.loads(first)
    seats = report["seats"]
    assert sum(s["rate"] for s in seats) == pytest.approx(1.0, abs=1e-5)
    assert all(s["low"] <= s["rate"] <= s["high"] and s["n"] == report["table"]["games"] - report["no_winner"]["rate"] * 60
               for s in seats)
    steps = report["length"]["steps"]
    assert steps["n"] == 60 and steps["low"] < steps["mean"] < steps["high"] and steps["min"] <= steps["median"] <= steps["max"]
    assert report["length"]["turns"]["mean"] <= steps["mean"] and report["length"]["rounds"]["mean"] < report["length"]["turns"]["mean"]
    assert sum(e["rate"] for e in report["endings"].values()) == pytest.approx(1.0, abs=1e-5)
    cards = {c["card"]: c for c in report["cards"]}
    assert "conill" in cards and cards["conill"]["held"] > 0
    assert all(c["win_rate_held"]["n"] + c["win_rate_not_held"]["n"] == 240 for c in cards.values())
    assert sum(c["played"] for c in cards.values()) > 0  # battle cards are played
    assert report["agents"]["greedy"]["n"] == 60 and report["agents"]["random"]["n"] == 180


def test_a_different_seed_gives_different_games() -> None:
    a = simulate_json(*MIXED, "--games", "20", "--seed", "1", "--workers", "1")
    b = simulate_json(*MIXED, "--games", "20", "--seed", "2", "--workers", "1")
    assert a["histograms"] != b["histograms"]


@pytest.mark.parametrize("selection,players", [("base-2", 3), ("base-3", 2), ("expert", 5), ("base", 2)])
def test_every_fallera_configuration_plays_with_purposeful_agents(selection: str, players: int) -> None:
    report = simulate_json("--set", selection, "--players", str(players), "--games", "6", "--agent", "greedy",
                           "--workers", "1", "--seed", "3")
    assert report["table"]["games"] == 6 and len(report["seats"]) == players
    assert sum(report["endings"][k]["rate"] for k in report["endings"]) == pytest.approx(1.0, abs=1e-5)


def test_calavera_with_every_agent_shares_tied_wins() -> None:
    report = simulate_json("--game", "calavera", "--players", "3", "--games", "12", "--agent", "mcts,greedy,random",
                           "--budget", "8", "--workers", "1")
    assert sum(s["rate"] for s in report["seats"]) == pytest.approx(1.0, abs=1e-5)
    assert set(report["agents"]) == {"mcts-8", "greedy", "random"} and "cards" not in report
    length = report["length"]
    assert length["turns"]["mean"] == pytest.approx(3 * length["rounds"]["mean"], abs=1e-4)  # whole rounds, 3 seats


def test_compare_with_the_example_pack_prints_the_pack_cards_difference() -> None:
    out, _ = simulate(str(PACK), "--compare", *MIXED, "--games", "40", "--workers", "1")
    assert "Deck A:" in out and "Deck B:" in out and "B - A" in out
    assert "pack cards (improvement when held, in deck B):" in out
    assert "example-cavaller:" in out.split("B - A")[1] and "example-orxata:" in out.split("B - A")[1]
    report = simulate_json(str(PACK), "--compare", *MIXED, "--games", "40", "--workers", "1")
    new = {c["card"]: c for c in report["compare"]["cards"] if c["new"]}
    pack_ids = {c["id"] for path in (PACK / "sets").glob("*.json") for c in json.loads(path.read_text())["cards"]}
    assert {"example-cavaller", "example-orxata"} <= set(new) <= pack_ids
    assert report["a"]["table"]["packs"] == [] and report["b"]["table"]["packs"] == ["example-pack"]
    pack = report["b"]["pack"]
    assert pack["held"] > 0 and set(pack["rank_among_base"]) == set(new)
    base = [c["improvement"]["difference"] for c in report["b"]["cards"] if not c["pack"]]
    assert pack["base_cards"] == len(base) and pack["mean_improvement_base"] == pytest.approx(sum(base) / len(base), abs=1e-5)
    cavaller = next(c for c in report["b"]["cards"] if c["card"] == "example-cavaller")["improvement"]["difference"]
    assert pack["rank_among_base"]["example-cavaller"] == sum(v < cavaller for v in base)
    assert "pack cards against the base deck: mean improvement" in out
    assert {c["card"] for c in report["b"]["cards"] if c["pack"]} == set(new)


@pytest.mark.parametrize("args,message", [
    (("--game", "diables"), "does not play whole games"),
    (("--agent", "clever"), "unknown agent 'clever'"),
    (("--agent", "greedy,random"), "give one agent for every seat"),
    (("--set", "nope"), "--set 'nope'"),
    (("--players", "9"), "--players 9"),
    (("--compare",), "give at least one pack"),
])
def test_wrong_usage_exits_2_without_a_traceback(args: tuple[str, ...], message: str) -> None:
    _, err = simulate(*args, "--games", "1", expect=2)
    assert message in err


def test_report_files_are_written(tmp_path) -> None:
    out, err = simulate(*MIXED, "--games", "8", "--workers", "1", "--out", str(tmp_path / "r"))
    report = json.loads((tmp_path / "r" / "report.json").read_text())
    html = (tmp_path / "r" / "report.html").read_text()
    assert report["table"]["games"] == 8 and "report.json: written" in err
    assert html.count("<svg") >= 5 and "<script" not in html and "<link" not in html
    assert all(ref.startswith("#") for ref in re.findall(r'(?:src|href)="([^"]*)"', html))  # nothing outside the page


def test_a_broken_pack_is_reported_with_its_file_and_exit_1(tmp_path) -> None:
    import shutil

    pack = tmp_path / "pack"
    shutil.copytree(PACK, pack)
    (pack / "sets" / "example.json").write_text('{"id": "example-set", "cards": [', encoding="utf-8")
    _, err = simulate(str(pack), "--games", "2", "--workers", "1", "--out", str(tmp_path / "out"), expect=1)
    assert "example.json:1:" in err and "run 'cardworks validate'" in err
    assert not (tmp_path / "out").exists()  # nothing written for a failed run


def test_stalled_games_are_listed_and_replay_alone_with_first() -> None:
    report = simulate_json(*MIXED, "--games", "30", "--max-steps", "150", "--workers", "2", "--seed", "9")
    stalled = report["stalled_games"]
    assert stalled and len(stalled) == min(20, round(report["endings"]["step-limit"]["rate"] * 30))
    assert stalled == sorted(stalled)
    decided = next(i for i in range(30) if i not in stalled)
    again = simulate_json(*MIXED, "--games", "1", "--first", str(stalled[-1]), "--max-steps", "150", "--seed", "9")
    assert again["stalled_games"] == [stalled[-1]] and again["table"]["first"] == stalled[-1]
    other = simulate_json(*MIXED, "--games", "1", "--first", str(decided), "--max-steps", "150", "--seed", "9")
    assert other["stalled_games"] == [] and other["no_winner"]["rate"] == 0
