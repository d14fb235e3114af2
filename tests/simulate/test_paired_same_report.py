"""Paired games made cheaper keep every answer (issue 42 item 5): the same seeds give the very report, byte for
byte, that main gave before the watch took a greedy holder's choice as its twin's (``Simulation.named``) and
greedy counted the unseen defences otherwise, on one process, on two, and on a Dask cluster; what ``named``
skips is what working the choice out again would have found; and a card never drawn has a twin that is,
played out in full, the real game.

The digests are of the JSON reports of main at fa81a05 (``cardworks --cards tests/fixtures/cards simulate ARGS
--format json | sha256sum``). A change that means to change the games (another greedy, another deal) records
them again; one that means to go faster must not."""

from __future__ import annotations

import dataclasses
import hashlib

import pytest

from cardworks.simulate import runner
from cardworks.simulate.agents import parse_agents
from cardworks.simulate.tables import TableSpec, build_table
from conftest import REPO
from simulate_helpers import CARDS, simulate

EXAMPLE = REPO / "examples" / "fallera-pack"
VERBS = REPO / "tests" / "engine" / "verbs_pack"
BALANCE = REPO / "tests" / "simulate" / "balance-pack"
REPORTS = [
    ((str(EXAMPLE), "--compare", "--agent", "greedy", "--games", "12", "--seed", "1"),
     "304e8e9f69ad8cbdec14a9a6b054feb136842f97c1dcac7b086c1aa88fa4ab17"),
    ((str(EXAMPLE), "--compare", "--agent", "greedy,random,greedy,greedy", "--games", "8", "--seed", "2"),
     "2e7241087b9b5cb57ba59aeaea83b7906c755ef253e251053a6ea3ed0caeb946"),
    ((str(VERBS), "--set", "base-3", "--players", "3", "--agent", "greedy", "--games", "10", "--seed", "3"),
     "a8f95831ac578d417b1df4a6fb9eb281bc9ae1991c38b4ac99936ed7fb77046c"),
]


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@pytest.mark.parametrize("args, digest", REPORTS[:1])
def test_a_compare_gives_mains_report_on_one_and_two_processes(args, digest) -> None:
    for workers in ("1", "2"):
        out, _ = simulate(*args, "--workers", workers, "--format", "json")
        assert _digest(out) == digest, f"--workers {workers}: not main's report"


@pytest.mark.parametrize("args, digest", REPORTS[1:])
def test_mixed_seats_and_the_verbs_pack_give_mains_report(args, digest) -> None:
    out, _ = simulate(*args, "--workers", "1", "--format", "json")
    assert _digest(out) == digest


@pytest.mark.slow
def test_a_compare_gives_mains_report_on_a_dask_cluster() -> None:
    import distributed

    args, digest = REPORTS[0]
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  dashboard_address=":0") as cluster:
        out, _ = simulate(*args, "--scheduler", cluster.scheduler_address, "--format", "json")
    assert _digest(out) == digest


def test_a_changed_game_changes_the_digest() -> None:
    """The digest is sharp: one game more is another report."""
    args, digest = REPORTS[0]
    out, _ = simulate(*args[:-4], "--games", "13", *args[-2:], "--workers", "1", "--format", "json")
    assert _digest(out) != digest


@pytest.mark.parametrize("pack, selection, players, agents, games", [
    (EXAMPLE, "base", 4, "greedy", 8), (VERBS, "base-3", 3, "greedy", 6), (BALANCE, "base", 4, "greedy", 6),
    (EXAMPLE, "expert", 3, "greedy,random,greedy", 5)])
def test_named_skips_only_choices_the_twin_makes_alike(pack, selection, players, agents, games) -> None:
    """The watch with ``Simulation.named`` starts every twin where the watch that works out each greedy holder's
    choice again on the twin's table does: the same cards, from the same step, position and generators."""
    table = build_table(TableSpec(str(CARDS), "fallera", selection, players, (str(pack),), paired=True))
    assert table.simulation.named is not None
    slow = dataclasses.replace(table, simulation=dataclasses.replace(table.simulation, named=None))
    seats = parse_agents(agents, players)
    skipped = 0
    for index in range(games):
        _, fast = runner._play(table, seats, 1, index, watch=table.stand_ins)
        _, full = runner._play(slow, seats, 1, index, watch=slow.stand_ins)
        assert fast.keys() == full.keys(), index
        for design, start in fast.items():
            other = full[design]
            assert (start is None) == (other is None), (design, index)
            if start is not None:
                assert start[3] == other[3] and start[1:3] == other[1:3], (design, index)
                assert table.rules.dump(start[0]) == table.rules.dump(other[0]), (design, index)
        skipped += sum(start is not None for start in fast.values())
    assert skipped > 0


def test_a_twin_whose_card_is_never_drawn_is_the_real_game() -> None:
    """A measured card that stays in the deck all game: played out in full from the deal, its twin ends as the real
    game does (the same winners, steps and ending), so its paired effect is exactly 0 and not by construction;
    the report gives it the difference 0 with the interval [0, 0]."""
    table = build_table(TableSpec(str(CARDS), "fallera", "base", 4, (str(EXAMPLE),), paired=True))
    seats = parse_agents("greedy", 4)
    compared = 0
    for index in range(4):
        record, snapshots = runner._play(table, seats, 1, index, watch=table.stand_ins)
        never = [d for d in table.measured if not any(d in held for held in record.held)]
        for design in never:
            assert design not in snapshots  # never could change a step: its twin is not played again
            twin, _ = runner._play(table.stand_ins[design], seats, 1, index)
            assert (twin.winners, twin.steps, twin.reason) == (record.winners, record.steps, record.reason)
            compared += 1
    assert compared > 0
    out, _ = simulate(str(EXAMPLE), "--agent", "greedy", "--games", "1", "--workers", "1", "--seed", "1",
                      "--format", "json")
    import json

    rows = [row for row in json.loads(out)["cards"] if row["pack"] and row["held"] == 0]
    assert rows and all((row["strength"]["difference"], row["strength"]["low"], row["strength"]["high"])
                        == (0.0, 0.0, 0.0) for row in rows)


@pytest.mark.parametrize("pack, selection, players", [(EXAMPLE, "base", 4), (VERBS, "base-3", 3), (EXAMPLE, "expert", 3),
                                                      (VERBS, "base-2", 4)])
def test_an_observation_of_the_playouts_draft_is_that_of_its_frozen_position(pack, selection, players) -> None:
    """The runner reads agents' observations off the playout's own draft (``Table.live``), not off a frozen copy:
    at every step of greedy games, every player's observation of the draft equals that of the frozen position, and
    shares none of the draft's lists (a search may keep it while the game goes on)."""
    from cardworks.engine.core import CHANCE

    table = build_table(TableSpec(str(CARDS), "fallera", selection, players, (str(pack),)))
    seats = parse_agents("greedy", players)
    rules, compared, kinds = table.rules, 0, set()
    for index in range(3):
        chance, *minds = runner.game_rngs(4, index, players)
        playout = table.playout(table.deal(chance))
        choices, play, now = playout
        draft, legal = table.live(playout)(), choices()
        assert type(draft) is not type(now())  # the draft itself, not a state
        while legal:
            frozen = now()
            for who in range(players):
                seen = rules.observe(draft, who)
                assert seen == rules.observe(frozen, who)
                parts = [getattr(draft, name, None) for name in type(draft).__slots__]
                mutable = {id(v) for v in parts if isinstance(v, (list, dict, set))}
                assert not any(id(v) in mutable for v in seen.values())
                compared += 1
            kinds.add(frozen.phase)
            actor = rules.actor(frozen)
            action = legal[int(chance.random() * len(legal))] if actor == CHANCE else \
                seats[actor].choose(table, actor, lambda: rules.observe(frozen, actor), legal, minds[actor])
            play(action, chance)
            legal = choices()
    assert compared > 300 and {"turn", "defend"} <= kinds
