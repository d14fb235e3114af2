"""Balance verdicts: endings credited to cards, per-card activity, paired strength, verdicts and ``--fail-on``.

``balance-pack`` holds one deliberately overpowered battle card (attack 10, defence 10, always back to the
hand), a card that wins on a coin at the start of its holder's turn, two plain cards and a special the engine
leaves out.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cardworks.simulate.verdicts import verdicts
from simulate_helpers import PACK, simulate, simulate_json

BALANCE = Path(__file__).parent / "balance-pack"
RUN = ("--games", "300", "--seed", "2", "--workers", "1")  # seed 1 lost power when the paella protectora joined the base deck;
# 300 games (were 150): balance-colos must clear every base battle card's interval, not only their point estimates


@pytest.fixture(scope="module")
def report() -> dict:
    return simulate_json(str(BALANCE), *RUN)


def test_the_overpowered_card_is_strong_the_coin_winner_decides_games_and_the_plain_cards_are_in_line(report) -> None:
    cards = report["verdicts"]["cards"]
    assert cards["balance-colos"]["verdict"] == ["strong"]
    assert set(cards["balance-coet"]["verdict"]) == {"strong", "decides"}
    assert cards["balance-soldat"]["verdict"] == ["in line"] and cards["balance-ceba"]["verdict"] == ["in line"]
    assert report["table"]["packs"] == ["balance-test-pack"]  # named by its id, not its folder
    colos = next(c for c in report["cards"] if c["card"] == "balance-colos")
    band = report["verdicts"]["bands"]["battle"]
    assert colos["strength"]["low"] > band["strong_above"] > band["high"] and colos["strength"]["p_adjusted"] < 0.05
    strongest = next(c for c in report["cards"] if c["card"] == band["strongest"])  # the base card at the top edge
    assert strongest["strength"]["high"] == band["strong_above"]
    # every base battle card was measured in the same games (the band is theirs), none of them significant
    base = [c for c in report["cards"] if c["type"] == "battle" and not c["pack"]]
    assert all("strength" in c for c in base) and not any(c["strength"].get("p_adjusted", 1) < 0.05 for c in base)


def test_every_ending_by_a_card_is_credited_to_one_card(report) -> None:
    games = report["table"]["games"]
    credited = sum(round(c["decided"]["rate"] * games) for c in report["cards"])
    by_cards = sum(round(report["endings"].get(r, {"rate": 0})["rate"] * games) for r in ("effect-win", "five-ingredients"))
    assert set(report["endings"]) <= {"effect-win", "five-ingredients"} and credited == by_cards == games
    coet = next(c for c in report["cards"] if c["card"] == "balance-coet")
    assert coet["decided_by_effect"]["rate"] == report["endings"]["effect-win"]["rate"] > 0.5
    # its coin is triggered each turn it is on a counter; the coin and, on heads, the win fire
    assert coet["triggers_per_game"] > 0 and coet["firings_per_game"] > coet["triggers_per_game"]
    ingredients = [c for c in report["cards"] if c["type"] == "ingredient"]
    assert all(c["placed_per_game"] > 0 and c["decided_by_effect"]["rate"] == 0 for c in ingredients)
    colos = next(c for c in report["cards"] if c["card"] == "balance-colos")
    assert colos["played_per_game"] > 0 and colos["placed_per_game"] == 0


def test_left_out_pack_cards_are_listed_with_their_reason(report) -> None:
    left = {c["card"]: c for c in report["left_out"]}
    assert left["balance-sorpresa"]["pack"] and "special-play" in left["balance-sorpresa"]["reason"]
    out, _ = simulate(str(BALANCE), "--games", "4", "--workers", "1", "--no-paired")
    assert "Pack cards left out of play" in out and "balance-sorpresa: " in out


def test_fail_on_strong_exits_1_naming_the_card_in_its_file_and_weak_passes(tmp_path) -> None:
    out, err = simulate(str(BALANCE), *RUN, "--fail-on", "strong", expect=1)
    assert "balance.json:/cards/0: [strong] balance-colos: strong (effect +" in err
    assert "[strong] balance-soldat" not in err and "[strong] balance-ceba" not in err
    assert "Verdicts" in out and "balance-colos: strong" in out
    simulate(str(BALANCE), *RUN, "--fail-on", "weak")
    _, err = simulate(str(BALANCE), *RUN, "--fail-on", "decides", expect=1)
    assert "[decides] balance-coet: decides games" in err and "balance-colos" not in err


def test_paired_figures_are_the_same_on_two_workers() -> None:
    args = (str(BALANCE), "--games", "24", "--seed", "4", "--format", "json")
    one, _ = simulate(*args, "--workers", "1")
    two, _ = simulate(*args, "--workers", "2")
    assert one == two and json.loads(one)["verdicts"]["cards"]


def test_compare_prints_agent_differences_and_verdicts_in_text() -> None:
    out, err = simulate(str(PACK), "--compare", "--agent", "greedy,random,random,random", "--games", "12",
                        "--workers", "1", "--no-paired")
    block = out.split("B - A", 1)[1]
    assert "agent greedy win rate:" in block and "agent random win rate:" in block
    assert "fallera base + example-pack, 4 players: 12/12 games, " in err  # progress on a pipe, the pack by its id


def _card(name: str, kind: str, pack: bool, difference: float | None, low: float = 0, high: float = 0,
          p_adjusted: float = 1.0, ended: float = 0.0, ended_low: float = 0.0) -> dict:
    strength = {"difference": difference, "low": low, "high": high, "p_adjusted": p_adjusted} if difference is not None else {"plain": True}
    return {"card": name, "type": kind, "pack": pack, "strength": strength,
            "decided_by_effect": {"rate": ended, "low": ended_low, "high": ended}}


@pytest.mark.parametrize("pack_card,expected", [
    (_card("x", "battle", True, 0.12, 0.08, 0.16, 0.001), ["strong"]),   # above every base card's interval, significant
    (_card("x", "battle", True, 0.10, 0.06, 0.14, 0.001), ["not decided"]),  # above the band, not above the top card's interval
    (_card("x", "battle", True, 0.10, 0.03, 0.14, 0.001), ["not decided"]),  # reaches into the band and beyond its margin
    (_card("x", "battle", True, 0.12, 0.08, 0.16, 0.2), ["not decided"]),    # not significant once corrected
    (_card("x", "battle", True, 0.01, -0.05, 0.06, 0.9), ["in line"]),       # inside the intervals widened by 2 pts
    (_card("x", "battle", True, -0.12, -0.16, -0.08, 0.001), ["weak"]),
    (_card("x", "battle", True, None, ended=0.3, ended_low=0.2), ["decides"]),
    (_card("x", "battle", True, None, ended=0.3, ended_low=0.1), ["in line"]),  # within 5 points of the base's 0.06
])
def test_verdict_thresholds_against_the_base_band(pack_card: dict, expected: list[str]) -> None:
    base = [_card("a", "battle", False, 0.05, 0.03, 0.07, ended=0.06), _card("b", "battle", False, -0.04, -0.06, -0.02),
            _card("c", "battle", False, None)]
    result = verdicts([*base, pack_card], paired=True)
    assert result["bands"]["battle"] == {"low": -0.04, "high": 0.05, "strong_above": 0.07, "strongest": "a",
                                         "weak_below": -0.06, "weakest": "b", "decides_at_most": 0.06, "base_cards": 3,
                                         "thin": False}
    assert result["cards"]["x"]["verdict"] == expected


def test_a_sweep_plays_the_same_games_at_each_value_and_names_where_the_card_is_in_line() -> None:
    args = (str(BALANCE), "--sweep", "balance-soldat.attack=2..10:8", "--games", "30", "--seed", "2", "--format", "json")
    one, _ = simulate(*args, "--workers", "1")
    two, _ = simulate(*args, "--workers", "2")
    assert one == two
    sweep = json.loads(one)["sweep"]
    rows = {r["value"]: r for r in sweep["values"]}
    assert list(rows) == [2, 10] and sweep["card"] == "balance-soldat" and sweep["field"] == "attack"
    assert rows[2]["strength"] == {"plain": True}  # at 2/2 it is the plain battle card itself
    assert rows[10]["strength"]["pairs"] > 0 and rows[10]["strength"]["difference"] is not None  # measured in paired games
    assert sweep["in_line"] == [r["value"] for r in sweep["values"] if r["verdict"] == ["in line"]] and 2 in sweep["in_line"]
    out, _ = simulate(*args[:-2], "--workers", "1")
    assert "Sweep of balance-soldat.attack" in out and "In line at attack = " in out


def test_a_sweep_measures_the_base_band_once_and_judges_every_value_against_it() -> None:
    """The base cards' twins are played at the first value only (later values pair the swept card alone), every
    value is judged against that one band, and Benjamini-Hochberg runs over the whole sweep's measured cards."""
    from cardworks.simulate.sweep import sweep_specs
    from cardworks.simulate.tables import TableSpec, build_table
    from simulate_helpers import CARDS

    specs = sweep_specs(TableSpec(str(CARDS), "fallera", "base", 4, (str(BALANCE.resolve()),)), "balance-soldat",
                        "attack", [4, 7, 10])
    tables = [build_table(spec) for spec in specs]
    base = {d for d in tables[0].measured if d not in tables[0].pack_cards}
    assert len(base) >= 3 and all(tables[0].families[d] == "battle" for d in base)
    assert [t.measured for t in tables[1:]] == [("balance-soldat",), ("balance-soldat",)]
    sweep = simulate_json(str(BALANCE), "--sweep", "balance-soldat.attack=4..10:3", "--games", "20", "--seed", "3",
                          "--workers", "1")["sweep"]
    bands = [row["band"] for row in sweep["values"]]
    assert len(bands) == 3 and bands[0]["base_cards"] >= 3 and bands[1:] == bands[:-1]  # one band for every value
    assert all(row["strength"]["pairs"] > 0 for row in sweep["values"])
    # BH over the base cards and the three values: no value's adjusted p is below its own raw p
    assert all(row["strength"]["p_adjusted"] >= row["strength"]["p"] for row in sweep["values"])


@pytest.mark.parametrize("sweep,message", [
    ("balance-soldat.attack=5..1", "must run upwards"),
    ("balance-soldat.attack", "write CARD.FIELD=LO..HI"),
    ("balance-soldat.colour=1..2", "'colour' cannot be swept"),
    ("balance-ceba.attack=1..2", "not a battle card"),
    ("conill.quantity=1..2", "not a card the packs add"),
    ("balance-soldat.quantity=0..2", "quantity runs from 1 to 99"),
])
def test_a_wrong_sweep_is_a_usage_error(sweep: str, message: str) -> None:
    _, err = simulate(str(BALANCE), "--sweep", sweep, "--games", "1", "--workers", "1", expect=2)
    assert message in err


def test_measure_agents_states_each_agents_strength_with_an_interval(tmp_path) -> None:
    args = ("--games", "4", "--workers", "1", "--measure-agents", "6", "--budget", "3", "--seed", "2")
    report = simulate_json(*args)
    rows = {r["agent"]: r for r in report["agent_strength"]}
    assert set(rows) == {"greedy", "mcts-3", "mcts-6"}
    assert rows["greedy"]["against"] == "random" and rows["mcts-6"]["against"] == "greedy"
    assert all(r["n"] == 6 and r["games"] == 6 and r["low"] <= r["rate"] <= r["high"] for r in rows.values())
    assert all(r["beats_even"] == (r["low"] > 0.25) for r in rows.values())
    out, _ = simulate(*args, "--out", str(tmp_path / "r"))
    assert "How strong the agents are" in out and "mcts-6 against greedy: " in out
    assert "How strong the agents are" in (tmp_path / "r" / "report.html").read_text()


@pytest.mark.parametrize("args,message", [
    (("--fail-on", "strong"), "--fail-on judges a pack's cards"),
    ((str(BALANCE), "--no-paired", "--fail-on", "strong"), "needs the paired games"),
    ((str(BALANCE), "--compare", "--sweep", "balance-soldat.attack=1..2"), "--sweep judges one pack card"),
])
def test_verdict_options_without_what_they_need_are_usage_errors(args: tuple[str, ...], message: str) -> None:
    _, err = simulate(*args, "--games", "1", "--workers", "1", expect=2)
    assert message in err
