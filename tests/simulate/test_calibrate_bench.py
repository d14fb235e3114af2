"""bench/calibrate_verdicts.py, whose confusion table docs/performance.md quotes, still runs on a tiny budget and
prints what it says: one row per planted card counting every seed once, the goals, and the sweep's in-line values.
Its figures (and its speed) are the bench's to print, not this test's."""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any


REPO = Path(__file__).resolve().parents[2]
PLANTED = ("twin-capita", "twin-delica", "twin-taronger", "twin-conill", "op-attack", "op-battle", "op-draw", "op-actions",
           "weak-hand", "weak-discard", "weak-sell", "weak-sell-curse", "twin-cagallo")


def test_the_calibration_bench_prints_a_confusion_table_goals_and_a_sweep() -> None:
    env = {**os.environ, "PYTHONPATH": str(REPO / "src")}
    done = subprocess.run([sys.executable, str(REPO / "bench" / "calibrate_verdicts.py"), "--games", "12", "--seeds",
                           "1-2", "--workers", "1", "--sweep-games", "12", "--sweep-values", "2,10"],
                          capture_output=True, text=True, env=env,
                          timeout=600, check=True)
    out = done.stdout
    assert "Confusion table: 2 seeds x 12 paired games, agents random" in out
    header = next(line for line in out.splitlines() if line.startswith("card "))
    assert header.split()[:3] == ["card", "kind", "in"]
    for card in PLANTED:
        row = next(line for line in out.splitlines() if line.startswith(card + " "))
        rest = row[len(card):].strip()
        kind = next(k for k in ("plain twin", "overpowered", "weak") if rest.startswith(k))
        counts = [int(n) for n in rest[len(kind):].split()[:7]]
        assert sum(counts) == 2, row  # each seed gives each planted card exactly one answer
    for kind in ("plain twin", "overpowered", "weak"):
        assert re.search(rf"^all {kind}\s+\d+", out, re.M)
    assert re.search(r"^Goal: no plain twin ever strong or weak: \d+ of 10 -> (met|NOT MET)$", out, re.M)
    assert len(re.findall(r"^Goal: op-\w+ strong or decides in >= 95% of seeds: \d/2 ", out, re.M)) == 4
    for card in ("weak-hand", "weak-discard", "weak-sell-curse"):
        assert re.search(rf"^Goal: {card} weak: \d/2 \(\d+%\) -> (met|NOT MET)$", out, re.M), card
    assert re.search(r"^Goal: weak-sell never strong, decides or in line \(expected not decided: .*thin.*\): not decided "
                     r"\d/2, weak \d, not judged \d, strong, decides or in line \d; its band thin at \d/2 seeds -> "
                     r"(met|NOT MET)$", out, re.M)
    assert re.search(r"^  attack 2: .*: (in line|not decided|strong|weak|not judged)", out, re.M)
    assert re.search(r"^Goal: in line at a contiguous range of attack values excluding 10: in line at .* -> (met|NOT MET)$",
                     out, re.M)


def test_the_battle_log_reads_each_battle_of_op_attack_and_tombatossals_off_the_games() -> None:
    env = {**os.environ, "PYTHONPATH": str(REPO / "src")}
    out = subprocess.run([sys.executable, str(REPO / "bench" / "calibrate_verdicts.py"), "--agent", "greedy", "--seeds",
                          "1", "--battles", "6"], capture_output=True, text=True, env=env, timeout=600, check=True).stdout
    battles = re.findall(r"^    game (\d+), step \d+: p\d attacks \S+ of p\d with (\S+) \((\d+)\); defence (.+): (stolen|kept)$",
                         out, re.M)
    assert battles, out
    for _, weapon, attack, _, _ in battles:
        assert (weapon, attack) != ("op-attack", "6")  # the printed attack is the card's own
    assert any("op-attack" in line for line in out.splitlines() if line.startswith("    game"))
    for card in ("op-attack (10/10)", "tombatossals (6/1)"):
        assert re.search(rf"^  {re.escape(card)}: .*largest defence it attacked: \S+, largest attack it defended against",
                         out, re.M), out


def _bench() -> Any:
    """The bench as a module (registered first: its dataclasses look their module up)."""
    if "calibrate_verdicts" not in sys.modules:
        spec = importlib.util.spec_from_file_location("calibrate_verdicts", REPO / "bench" / "calibrate_verdicts.py")
        module = sys.modules["calibrate_verdicts"] = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    return sys.modules["calibrate_verdicts"]


def _run(*args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(REPO / "src")}
    return subprocess.run([sys.executable, str(REPO / "bench" / "calibrate_verdicts.py"), *args], capture_output=True,
                          text=True, env=env, timeout=600)


def _table(out: str) -> str:
    """The confusion table and its goals, as printed (from its title to the last goal line)."""
    lines = out.splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith("Confusion table"))
    last = max(i for i, line in enumerate(lines) if line.startswith("Goal: "))
    return "\n".join(lines[first:last + 1])


def test_a_plain_twin_plays_the_stats_its_original_plays(tmp_path: Path) -> None:
    """Most base battle cards print no stats (the fixture's assumptions give them): a twin must copy what the game
    plays, not stand in a 2 for a missing number (cagallo is 0/0, la delica 1/2)."""
    from cardworks.simulate.tables import TableSpec, build_table

    bench = _bench()
    pack = bench.write_pack(tmp_path)
    planted = build_table(TableSpec(str(bench.CARDS), "fallera", "base", 4, (str(pack),), 5000)).cards
    for twin, original in bench.TWINS.items():
        for stat in ("attack", "defence", "sell"):
            assert getattr(planted[twin], stat) == getattr(planted[original], stat), (twin, stat)
    assert (planted["twin-cagallo"].attack, planted["twin-cagallo"].defence) == (0, 0)


def test_seeds_split_over_processes_print_the_table_of_one_run(tmp_path: Path) -> None:
    """--measure in two processes, then --from-figures, prints the very table one process playing both seeds prints."""
    quick = ("--games", "12", "--workers", "1", "--no-sweep", "--agent", "greedy", "--log-games", "0")
    whole = _run(*quick, "--seeds", "1-2")
    assert whole.returncode == 0, whole.stderr
    for seed in ("2", "1"):
        part = _run(*quick, "--seeds", seed, "--measure", str(tmp_path))
        assert part.returncode == 0, part.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["seed-1.json", "seed-2.json"]
    joined = _run("--from-figures", str(tmp_path), "--seeds", "1,2", "--no-sweep")
    assert joined.returncode == 0, joined.stderr
    assert _table(joined.stdout) == _table(whole.stdout)
    assert "agents greedy" in _table(joined.stdout)


def test_a_seed_without_figures_is_an_error_before_any_table(tmp_path: Path) -> None:
    done = _run("--games", "12", "--workers", "1", "--no-sweep", "--log-games", "0", "--seeds", "1",
                "--measure", str(tmp_path))
    assert done.returncode == 0, done.stderr
    missing = _run("--from-figures", str(tmp_path), "--seeds", "1-2", "--no-sweep")
    assert missing.returncode != 0
    assert "no figures for seed 2" in missing.stderr
    assert "Confusion table" not in missing.stdout and "seed 1" not in missing.stdout


def test_seeds_are_ranges_and_lists() -> None:
    import argparse

    import pytest

    parse = _bench().parse_seeds
    assert parse("1-3") == [1, 2, 3]
    assert parse("1,2,5") == [1, 2, 5]
    assert parse("1-3,7") == [1, 2, 3, 7]
    assert parse("4") == [4]
    for bad in ("3-1", "1,1", "a", "1,,2"):
        with pytest.raises(argparse.ArgumentTypeError):
            parse(bad)


def test_greedy_sees_op_attack_as_a_6_because_the_deck_has_no_defence_from_5_to_9(tmp_path: Path) -> None:
    """docs/simulate.md, "A card that wins every battle": greedy's odds take a card's own attack, uncapped; in the
    planted deck an attack of 10 has the odds of a 6 only because no defence lies between them."""
    from cardworks.games.fallera.heuristics import _kept_defences, _odds
    from cardworks.simulate.tables import TableSpec, build_table

    bench = _bench()
    table = build_table(TableSpec(str(bench.CARDS), "fallera", "base", 4, (str(bench.write_pack(tmp_path)),), 5000))
    defences = list(_kept_defences(table).everything)
    assert not [d for d in defences if 5 <= d <= 9] and defences.count(10) == 2
    odds = [_odds(attack, defences, 5) for attack in range(11)]
    assert odds[5:] == [odds[5]] * 6 and 0 < odds[5] < 1
    assert odds == sorted(odds) and odds[4] < odds[5]
    beyond = sorted([*defences, 7])  # one defence of 7 in the deck: a 10 then wins battles a 6 loses
    assert _odds(10, beyond, 5) > _odds(6, beyond, 5)


def test_a_weak_plant_in_a_thin_band_has_its_own_goal_and_every_other_needs_95_percent() -> None:
    """weak-sell is expected to stay not decided (a thin band): its goal says so and fails only on a wrong answer;
    every other weak plant must be weak at 95% of the seeds."""
    from collections import Counter

    goal = _bench().weak_goal
    assert goal("weak-sell", Counter({"not decided": 9, "weak": 1}), 10, 10).endswith("-> met")
    for wrong in ("in line", "strong", "decides"):
        line = goal("weak-sell", Counter({"not decided": 9, wrong: 1}), 10, 10)
        assert line.endswith("strong, decides or in line 1; its band thin at 10/10 seeds -> NOT MET"), line
    assert "expected not decided" in goal("weak-sell", Counter({"not decided": 10}), 10, 10)
    assert goal("weak-hand", Counter({"weak": 10}), 0, 10) == "Goal: weak-hand weak: 10/10 (100%) -> met"
    assert goal("weak-hand", Counter({"weak": 9, "not decided": 1}), 0, 10).endswith("9/10 (90%) -> NOT MET")


def test_the_cursed_sellable_weakens_every_battle_card_of_the_table(tmp_path: Path) -> None:
    """weak-sell-curse's -10 must reach every battle card the table holds, base and planted, or a card it misses
    would fight at its printed stats."""
    from cardworks.simulate.tables import TableSpec, build_table

    bench = _bench()
    table = build_table(TableSpec(str(bench.CARDS), "fallera", "base", 4, (str(bench.write_pack(tmp_path)),), 5000))
    battle = {design for design, card in table.cards.items() if card.battle}
    assert {"weak-hand", "op-attack", "tombatossals", "cagallo"} <= battle
    curse = [verb for effect in table.cards["weak-sell-curse"].effects for verb in effect.do if verb.verb == "modify-stat"]
    assert len(curse) == 1 and battle <= set(curse[0].cards)  # a base design the table leaves out may be named too
    assert (curse[0].attack, curse[0].defence) == (-10, -10)


def test_using_weak_hand_costs_its_user_the_whole_hand(tmp_path: Path) -> None:
    """Read off real greedy games: the user of weak-hand holds no card once the battle it fought in is over and
    they have discarded (one card a decision): what the 0/0 card's use costs is the hand, not two cards."""
    from cardworks.games.fallera.actions import Attack, Defend

    bench = _bench()
    table = bench.build_table(bench._spec(bench.write_pack(tmp_path)))
    emptied, user = [], None
    for step in bench.played_steps(table, "greedy", 12, 1):
        if type(step.action) in (Attack, Defend) and step.action.card.design == "weak-hand":
            user = step.actor
        state = step.play()
        if user is not None and state.battle is None and state.phase != "discard":  # its battle and discards are over
            emptied.append(len(state.hands[user]))
            user = None
    assert emptied and set(emptied) == {0}, emptied


def test_the_spending_log_finds_greedy_seats_spending_cards_where_greedy_would(tmp_path: Path) -> None:
    """--spending asks greedy every decision an agent could use op-attack or tombatossals: with greedy seats the
    two agree at each (ties broken by another generator may differ, so only nearly), and the counts are read off
    real decisions."""
    bench = _bench()
    lines = bench.spending_log(bench.write_pack(tmp_path), ("op-attack", "tombatossals"), 6, "greedy", 1)
    assert len(lines) == 4
    for line in lines:
        could, used, would, only_used, only_greedy = map(int, re.findall(r"\d+", line.split(":", 1)[1]))
        assert used <= could and would <= could
        assert only_used == used - (would - only_greedy)  # the decisions each used it at, less those both did
        assert only_used + only_greedy <= 1, line
    attack = next(line for line in lines if line.startswith("  op-attack, attack:"))
    assert int(re.search(r"could at (\d+)", attack).group(1)) > 0
