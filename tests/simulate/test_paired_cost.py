"""Paired games share everything that does not depend on the card (issue 42 items 3 and 5).

A twin game (the card played as a plain card of its type) is the real game until the card's definition could
first change a step: every copy waits in the deck, the cemetery or hands, and each decision of a greedy holder
is the same on the twin's table. The runner plays the twin only from there (``runner._diverging``), and not
at all when that never happens; these tests play every twin from the deal as well and compare, on the fixture
game's tables with several packs and agents. A card that never could change a step (never drawn, or a
special no agent can use) has the paired effect exactly 0 with the interval [0, 0]."""

from __future__ import annotations

import json
import shutil

import pytest

from cardworks.engine.core import CHANCE
from cardworks.simulate import runner
from cardworks.simulate.agents import parse_agents
from cardworks.simulate.tables import Table, TableSpec, build_table
from conftest import REPO
from simulate_helpers import CARDS, simulate_json

VERBS = REPO / "tests" / "engine" / "verbs_pack"
EXAMPLE = REPO / "examples" / "fallera-pack"
BALANCE = REPO / "tests" / "simulate" / "balance-pack"
TABLES = [(EXAMPLE, "base", 4, "greedy", 6), (VERBS, "base", 3, "greedy", 6), (VERBS, "base-3", 3, "greedy", 5),
          (EXAMPLE, "expert", 3, "greedy", 5), (VERBS, "base-2", 4, "greedy", 4), (BALANCE, "base", 4, "greedy", 8),
          (EXAMPLE, "base", 4, "greedy,random,greedy,greedy", 4)]


def _compare(pack, selection: str, players: int, agents: str, games: int) -> tuple[int, int, int]:
    """(twins compared, twins not played at all, steps not played again): each fails the test if a twin played
    from its snapshot ends otherwise than the same twin played from the deal."""
    table = build_table(TableSpec(str(CARDS), "fallera", selection, players, (str(pack),), paired=True))
    seats = parse_agents(agents, players, 4)
    compared = skipped = saved = 0
    for index in range(games):
        record, snapshots = runner._play(table, seats, 1, index, watch=table.stand_ins)
        for design in table.measured:
            if not any(design in held for held in record.held):
                continue
            full, _ = runner._play(table.stand_ins[design], seats, 1, index)
            if design in snapshots:
                start = snapshots[design]
                rejoins = snapshots.rejoins.get(design)
                fast, _ = runner._play(table.stand_ins[design], seats, 1, index, start=start,
                                       rejoin=(rejoins, record) if rejoins else None)
                saved += start[3] if start else 0
            else:
                fast, skipped = record, skipped + 1
            assert (fast.winners, fast.steps, fast.reason) == (full.winners, full.steps, full.reason), (design, index)
            compared += 1
    return compared, skipped, saved


@pytest.mark.parametrize("pack, selection, players, agents, games", TABLES)
def test_a_twin_played_from_its_snapshot_is_the_twin_played_from_the_deal(pack, selection, players, agents,
                                                                           games) -> None:
    compared, skipped, saved = _compare(pack, selection, players, agents, games)
    assert compared > 50 and skipped + saved > 0, (compared, skipped, saved)


def test_a_wrong_quiet_fails_the_comparison(monkeypatch) -> None:
    """The comparison is sharp: a game that calls a card quiet in play (a treasure on a counter, say) makes
    twins that end otherwise."""
    monkeypatch.setattr(Table, "quiets", lambda self, state, designs, settled=False: {})  # every card quiet
    with pytest.raises(AssertionError):
        _compare(EXAMPLE, "base", 4, "greedy", 6)


def test_the_paired_report_is_the_same_with_twins_from_the_deal(monkeypatch) -> None:
    """Pair counts of a whole run, from snapshots and with every twin played from the deal."""
    spec = TableSpec(str(CARDS), "fallera", "base", 4, (str(EXAMPLE),), paired=True)
    seats = parse_agents("greedy", 4)
    fast = runner.play_chunk(spec, seats, 2, 0, 6)
    monkeypatch.setattr(runner, "_diverging", _from_the_deal)
    slow = runner.play_chunk(spec, seats, 2, 0, 6)
    assert fast.pairs == slow.pairs and sum(fast.unchanged.values()) > 0 == sum(slow.unchanged.values())


DIVERGING = runner._diverging


def _from_the_deal(table, seats, state, actor, legal, chance, minds, steps, now, live, snapshots, before, resting=None,
                   answers=None):
    """``runner._diverging`` with every watched card diverging at the deal (the paired games as they were)."""
    for design in list(live):
        snapshots[design] = None
        del live[design]
    return DIVERGING(table, seats, state, actor, legal, chance, minds, steps, now, live, snapshots, before, resting,
                     ({}, {d: None for d in snapshots}))  # none watched again


def test_a_card_no_agent_can_use_has_exactly_no_effect(tmp_path) -> None:
    """Without the Kingdom map nothing can use the xarxa (take from the map) or the carrossa (move the Queen):
    held in hands, never played, their twins are the real games and their effect is 0 with the interval [0, 0].
    (The pack's rescat, which takes a card back from the cemetery by its worth, is left out: with it, a
    cemetery copy of either may be weighed, so it is no longer a card nothing can use.)"""
    pack = tmp_path / "verbs"
    shutil.copytree(VERBS, pack)
    card_set = json.loads((pack / "sets" / "fixture.json").read_text("utf-8"))
    card_set["cards"] = [card for card in card_set["cards"] if card["id"] != "verbs-rescat"]
    card_set["totals"] = {**card_set["totals"], "designs": card_set["totals"]["designs"] - 1,
                          "cards": card_set["totals"]["cards"] - 1,
                          "by_type": {**card_set["totals"]["by_type"],
                                      "special": card_set["totals"]["by_type"]["special"] - 1}}
    (pack / "sets" / "fixture.json").write_text(json.dumps(card_set), "utf-8")
    scenarios = json.loads((pack / "scenarios" / "fixture.json").read_text("utf-8"))
    scenarios["scenarios"] = [s for s in scenarios["scenarios"] if "verbs-rescat" not in s.get("cards", [])]
    (pack / "scenarios" / "fixture.json").write_text(json.dumps(scenarios), "utf-8")
    report = simulate_json(str(pack), "--agent", "greedy", "--games", "12", "--workers", "1", "--seed", "2",
                           "--players", "3")
    cards = {row["card"]: row for row in report["cards"]}
    for card in ("verbs-xarxa", "verbs-carrossa"):
        row = cards[card]
        assert row["held"] > 0 and row["played"] == 0, row
        strength = row["strength"]
        assert (strength["difference"], strength["low"], strength["high"]) == (0.0, 0.0, 0.0), strength
        assert strength["unchanged"] == strength["pairs"] == row["held"]
    played = cards["verbs-ullera"]  # a special greedy does play has a real interval
    assert played["played"] > 0 and played["strength"]["low"] < played["strength"]["high"]


def test_a_card_never_drawn_has_exactly_no_effect() -> None:
    report = simulate_json(str(EXAMPLE), "--agent", "greedy", "--games", "1", "--workers", "1", "--seed", "1")
    never = [row for row in report["cards"] if row["pack"] and row["held"] == 0]
    assert [row["card"] for row in never] == ["example-tempesta"]
    assert never[0]["strength"] == {"difference": 0.0, "low": 0.0, "high": 0.0, "p": 1.0, "pairs": 0, "unchanged": 0,
                                     "p_adjusted": 1.0}


def test_a_twins_rules_list_the_very_actions_of_the_real_rules() -> None:
    """``Facts.row`` is shared by every ``Facts`` of one deal order (``facts._shared_rows``): a twin's rules and a
    sweep's tables list the same action objects as the real table's rules, equal to the actions built afresh."""
    import random

    from cardworks.games.fallera import facts as facts_module
    from cardworks.games.fallera.actions import Defend, Sell, Take

    table = build_table(TableSpec(str(CARDS), "fallera", "base", 4, (str(EXAMPLE),), paired=True))
    swept = build_table(TableSpec(str(CARDS), "fallera", "base", 4, (str(EXAMPLE),), paired=True,
                                  adjust=("example-cavaller", "attack", 9)))
    state = table.deal(random.Random(3))
    real = table.rules.facts(state)
    others = [twin.rules.facts(state) for twin in (*table.stand_ins.values(), swept, *swept.stand_ins.values())]
    assert len(others) > 20 and all(other is not real for other in others)
    for kind, players in ((Sell, (1,)), (Defend, (2,)), (Take, (0, 3))):
        row = real.row(kind, *players)
        assert row == tuple(kind(*players, ref) for ref in real.refs)
        assert all(other.row(kind, *players) is row for other in others)
    fresh = facts_module.Facts(table.rules.defs, 4, state.designs)
    assert all(a is b for a, b in zip(fresh.sells + fresh.defends, real.sells + real.defends, strict=True))


def test_quiet_answers_for_a_frozen_position_as_for_the_same_position_in_play() -> None:
    """``quiet`` keeps where each instance lies for the last frozen position it read (every measured card is asked
    about the same one): at each step of a game, its answers for that position are those for a draft of it."""
    table = build_table(TableSpec(str(CARDS), "fallera", "base", 4, (str(EXAMPLE),), paired=True))
    seats = parse_agents("greedy", 4)
    chance, *minds = runner.game_rngs(1, 0, 4)
    choices, play, now = table.playout(table.deal(chance))
    legal, asked, answers = choices(), 0, set()
    while legal:
        frozen = now()
        kept = [table.quiet(frozen, design) for design in table.measured]
        draft = table.live(table.playout(frozen))()
        assert kept == [table.quiet(draft, design) for design in table.measured]
        asked += len(kept)
        answers.update(a is None for a in kept)
        actor = table.rules.actor(frozen)
        action = legal[int(chance.random() * len(legal))] if actor == CHANCE else \
            seats[actor].choose(table, actor, lambda: table.rules.observe(frozen, actor), legal, minds[actor])
        play(action, chance)
        legal = choices()
    assert asked > 100 and answers == {True, False}  # cards in play and cards waiting were both asked about


def test_a_twin_that_meets_the_real_game_again_is_the_real_game_from_there(monkeypatch) -> None:
    """A twin standing where the real game stood at a step where its card is quiet again (``Snapshots.rejoins``)
    jumps to where the watch parts them again, or ends as the real game did: the comparison with every twin
    played from the deal holds, and twins did meet the real game (and others, having parted for good, did not)."""
    met: list[bool] = []
    meets = runner._meets
    monkeypatch.setattr(runner, "_meets", lambda *args: met.append(meets(*args)) or met[-1])
    compared, _, _ = _compare(EXAMPLE, "base", 4, "greedy", 6)
    assert compared > 50 and sum(met) > 0 and not all(met), (compared, sum(met), len(met))


def test_a_wrong_meeting_fails_the_comparison(monkeypatch) -> None:
    """The comparison is sharp for rejoins too: a twin taken for the real game wherever a rejoin is offered,
    standing there or not, ends otherwise."""
    monkeypatch.setattr(runner, "_meets", lambda *args: True)
    with pytest.raises(AssertionError):
        _compare(EXAMPLE, "base", 4, "greedy", 6)


def test_a_counted_generator_tells_the_state_it_is_in() -> None:
    """The watch lends generators counted (``runner._Counted``): the state it tells (``_Past``: a state it had and
    the ``random()`` calls since) restores to the generator's own, also after a draw of another kind (then read
    again), and two counted copies of one generator with as many calls tell equal states."""
    import random

    rng, twin = random.Random(7), random.Random(7)
    counted, other = runner._Counted(rng), runner._Counted(twin)
    for _ in range(5):
        counted.random(), other.random()
    assert counted.now() == other.now() and counted.now().draws == 5
    blank = runner._blank()
    counted.now().restore(blank)
    assert blank.getstate() == rng.getstate()
    counted.shuffle(list(range(10)))
    told = counted.now()
    assert counted.stale is False and told.draws == 0 and told.base == rng.getstate()
    counted.random()
    assert counted.now() != other.now()
    told.restore(blank)
    assert blank.getstate() != rng.getstate()
    counted.now().restore(blank)
    assert blank.getstate() == rng.getstate()
