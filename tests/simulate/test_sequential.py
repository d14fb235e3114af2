"""``simulate --games auto``: looks fixed in advance, alpha spent by halves, the same answers on any executor."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cardworks.simulate.sequential import MIN_LOOK, play_until_decided, schedule, spending
from cardworks.simulate.stats import Tally
from simulate_helpers import simulate, simulate_json

BALANCE = Path(__file__).parent / "balance-pack"


def test_the_looks_halve_down_from_the_budget_and_their_alphas_sum_below_alpha() -> None:
    assert schedule(3200) == [50, 100, 200, 400, 800, 1600, 3200]
    assert schedule(150) == [75, 150] and schedule(MIN_LOOK + 1) == [MIN_LOOK + 1] and schedule(10) == [10]
    assert len(schedule(10_000_000)) == 7  # at most seven looks, however large the budget
    alphas = spending(7)
    assert alphas[-1] == 0.025 and all(b == 2 * a for a, b in zip(alphas, alphas[1:])) and sum(alphas) < 0.05


def _fake(opens: list[list[str]], minutes: float | None = None, tick: float = 0.0) -> dict:
    looks = iter(opens)
    now = [0.0]

    def play(games: int, offset: int) -> Tally:
        tally = Tally(2)
        tally.games = games
        return tally

    def judge(tally: Tally, alpha: float) -> dict:
        now[0] += tick
        cards = {c: {"verdict": ["not decided"]} for c in next(looks)}
        return {"games": tally.games, "alpha": alpha, "verdicts": {"games": None, "cards": cards}}

    return play_until_decided(play, judge, 400, minutes, clock=lambda: now[0])


def test_the_run_stops_at_the_first_look_with_nothing_open_or_at_a_budget() -> None:
    done = _fake([["x"], ["x"], []])
    assert done["games"] == 200 and done["sequential"]["stopped"] == "decided" and done["alpha"] == spending(4)[2]
    assert [look["not_decided"] for look in done["sequential"]["looks"]] == [["x"], ["x"], []]
    spent = _fake([["x"]] * 4)
    assert spent["games"] == 400 and spent["sequential"]["stopped"] == "games budget"
    late = _fake([["x"]] * 4, minutes=1.0, tick=45.0)  # 45 s a look: over a minute after the second
    assert late["games"] == 100 and late["sequential"]["stopped"] == "time budget"


def test_auto_plays_the_same_numbered_games_as_a_fixed_run_and_the_same_on_two_workers() -> None:
    args = (str(BALANCE), "--games", "auto", "--max-games", "200", "--seed", "2")
    one = simulate_json(*args, "--workers", "1")
    assert one == simulate_json(*args, "--workers", "2")
    seq = one["sequential"]
    assert seq["schedule"] == [50, 100, 200] and seq["stopped"] in ("decided", "games budget")
    last = seq["looks"][-1]
    assert one["table"]["games"] == last["games"] and one["verdicts"]["thresholds"]["alpha"] == last["alpha"]
    fixed = simulate_json(str(BALANCE), "--games", str(last["games"]), "--seed", "2", "--workers", "1")
    assert one["seats"] == fixed["seats"] and one["length"] == fixed["length"]  # the same games, looks or not
    # the verdicts' intervals are at 1 - the look's alpha: wider than the fixed run's 95%
    wide = {c["card"]: c["strength"] for c in one["cards"] if "difference" in c.get("strength", {})}
    narrow = {c["card"]: c["strength"] for c in fixed["cards"] if "difference" in c.get("strength", {})}
    # (a card whose every twin is the real game has the exact interval [0, 0] at any alpha)
    spread = [c for c in wide if wide[c]["pairs"] and wide[c].get("unchanged") != wide[c]["pairs"]]
    assert spread and all(wide[c]["high"] - wide[c]["low"] > narrow[c]["high"] - narrow[c]["low"] for c in spread)


def test_a_card_left_open_runs_to_the_games_budget_and_is_said_not_decided() -> None:
    report = simulate_json(str(BALANCE), "--games", "auto", "--max-games", "60", "--seed", "2", "--workers", "1")
    assert report["sequential"]["stopped"] == "games budget" and report["table"]["games"] == 60
    still = report["sequential"]["looks"][-1]["not_decided"]
    assert still and all(report["verdicts"]["cards"][c]["answer"] == "not decided" for c in still)
    out, err = simulate(str(BALANCE), "--games", "auto", "--max-games", "60", "--seed", "2", "--workers", "1",
                        "--fail-on", "undecided", expect=1)
    assert "stopped at look 1 of 1, 60 games" in out and "--max-games 60 reached" in out
    assert f"[undecided] {still[0]}: not decided" in err


@pytest.mark.parametrize("extra", [("--compare",), ("--sweep", "balance-soldat.attack=1..2"), ("--no-paired",)])
def test_auto_without_packs_or_with_what_it_cannot_judge_is_a_usage_error(extra: tuple[str, ...]) -> None:
    _, err = simulate(str(BALANCE), "--games", "auto", *extra, "--workers", "1", expect=2)
    assert "--games auto plays until every pack card is decided" in err
    _, err = simulate("--games", "auto", "--workers", "1", expect=2)
    assert "--games auto" in err
    _, err = simulate(str(BALANCE), "--games", "often", "--workers", "1", expect=2)
    assert "often" in err
