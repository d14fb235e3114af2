"""ISMCTS plays the same decisions at a fixed seed as the search recorded in ``ismcts-decisions.json``.

The fixture was first written by the search as it stood before any speed work, on the shipped cards; it was
written again, the search unchanged (it still matched that first recording), on the Fallera fixture game's cards
(``tests/fixtures/cards``). Run this file as a script to write it again, only when a change is meant to alter
decisions or the fixture's deck changes, and say so in the commit. Each case is a position
reached by greedy play in a seeded game; the search runs from the acting seat's observation with its own
seeded rng, and the test compares the action chosen and the root's visit counts per action, so a change
that keeps the choice by luck but searches a different tree still fails.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import pytest

from cardworks.engine.core import CHANCE
from cardworks.simulate.agents import parse_agents
from cardworks.simulate.mcts import grow, search
from cardworks.simulate.runner import game_rngs, play_game
from cardworks.simulate.tables import TableSpec, build_table

REPO = Path(__file__).resolve().parents[2]
CARDS = REPO / "tests" / "fixtures" / "cards"
"""The fixture games (``conftest.FIXTURE_CARDS``, named here so the file also runs as a script): the decisions are
those made on the Fallera fixture's cards, which a change to the shipped database does not move."""
FIXTURE = Path(__file__).with_name("ismcts-decisions.json")
TABLES = {"base4": ("base", 4), "base3-2": ("base-3", 2), "expert3": ("expert", 3), "base2-4": ("base-2", 4)}
"""Four-player base (the bench's table), the Kingdom map (moves, lays), expert burns, discord's coins."""
GAMES = 2
STOPS = (3, 11, 24, 40)
"""Steps at which a position is taken from each game (decisions of a player, not of chance)."""
BUDGET = 40


def positions(name: str):
    """(label, table, seat, observation, legal actions) of each case on table ``name``."""
    selection, players = TABLES[name]
    table = build_table(TableSpec(str(CARDS), "fallera", selection, players))
    rules, greedy = table.rules, table.heuristics.greedy
    for game in range(GAMES):
        chance, *minds = game_rngs(7, game, players)
        state = table.deal(chance)
        step = 0
        while rules.actor(state) is not None and step <= STOPS[-1]:
            actor, legal = rules.actor(state), rules.legal_actions(state)
            if actor == CHANCE:
                action = legal[int(chance.random() * len(legal))]
            else:
                if step in STOPS and len(legal) > 1:
                    yield f"{name}/game{game}/step{step}", table, actor, rules.observe(state, actor), legal
                action = greedy(table, actor, rules.observe(state, actor), legal, minds[actor])
            state = rules.apply(state, action, rng=chance)
            step += 1


def decide(table, seat, seen, legal, case: str) -> dict:
    """The search's choice and its root's statistics for one case, at a seed derived from the case."""
    choice = search(table, table.heuristics, seat, seen, legal, BUDGET, random.Random(case))
    root = grow(table, table.heuristics, seat, seen, BUDGET, random.Random(case), legal)
    return {"choice": choice.notation(),
            "visits": {key: child.visits for key, child in sorted(root.children.items())}}


def whole_game() -> dict:
    """A four-player base game with one ISMCTS seat, played to its end at a fixed seed."""
    table = build_table(TableSpec(str(CARDS), "fallera", "base", 4))
    record = play_game(table, parse_agents("mcts,greedy,greedy,greedy", 4, 12), 5, 0)
    return {"steps": record.steps, "winners": list(record.winners), "reason": record.reason,
            "played": [list(pair) for pair in record.played]}


def record() -> dict:
    cases = {label: decide(table, seat, seen, legal, label)
             for name in TABLES for label, table, seat, seen, legal in positions(name)}
    return {**cases, "whole-game": whole_game()}


def test_a_whole_game_plays_as_recorded() -> None:
    recorded = json.loads(FIXTURE.read_text(encoding="utf-8"))
    assert whole_game() == recorded["whole-game"]


@pytest.mark.parametrize("name", list(TABLES))
def test_search_decides_as_recorded(name: str) -> None:
    recorded = json.loads(FIXTURE.read_text(encoding="utf-8"))
    cases = {label: decide(table, seat, seen, legal, label) for label, table, seat, seen, legal in positions(name)}
    assert len(cases) >= 4, cases
    assert cases == {label: recorded[label] for label in cases}


def test_a_changed_search_fails_the_comparison() -> None:
    """The comparison is sharp: one more iteration changes some root's visit counts."""
    global BUDGET
    recorded = json.loads(FIXTURE.read_text(encoding="utf-8"))
    label, table, seat, seen, legal = next(positions("base4"))
    kept = BUDGET
    BUDGET = kept + 1
    try:
        assert decide(table, seat, seen, legal, label) != recorded[label]
    finally:
        BUDGET = kept


if __name__ == "__main__":  # write the fixture again: python tests/simulate/test_ismcts_decisions.py --write
    if sys.argv[1:] != ["--write"]:
        sys.exit("usage: test_ismcts_decisions.py --write")
    FIXTURE.write_text(json.dumps(record(), indent=1, sort_keys=True) + "\n", encoding="utf-8")


@pytest.mark.parametrize("name", list(TABLES))
def test_a_determinization_offers_the_searcher_its_own_legal_actions(name: str) -> None:
    """The root reuses the searcher's legal actions in every determinization: they must be the same list."""
    checked = 0
    for _, table, seat, seen, legal in positions(name):
        sample = table.heuristics.determinizer(table, seen)
        for seed in range(3):
            sampled = sample(random.Random(seed))
            assert [a.notation() for a in table.rules.legal_actions(sampled)] == [a.notation() for a in legal]
            checked += 1
    assert checked >= 12


def test_a_root_list_of_another_length_is_listed_afresh() -> None:
    """Given a list the determinization does not offer (one action short), the root lists its own actions:
    the tree is the one grown without a list, not one missing an action."""
    label, table, seat, seen, legal = next(positions("base4"))
    grown = [grow(table, table.heuristics, seat, seen, BUDGET, random.Random(label), given)
             for given in (legal, legal[:-1], ())]
    counts = [{key: child.visits for key, child in root.children.items()} for root in grown]
    assert counts[0] == counts[1] == counts[2]
    assert legal[-1].notation() in counts[1]


def _complete(table, state, who: int):
    """``state`` with five valid ingredients on ``who``'s counter, taken from the deck and the other counters,
    recorded as the paella the coin refused."""
    cards = table.cards
    valid = lambda i: cards[state.designs[i]].kind == "ingredient" and cards[state.designs[i]].category != "forbidden"
    own = [i for i in state.counters[who] if valid(i)]
    pool = [i for i in state.deck if valid(i)] + [i for p, c in enumerate(state.counters) if p != who for i in c if valid(i)]
    moved = pool[:5 - len(own)]
    assert len(own) + len(moved) == 5
    counters = [sorted([*c, *moved]) if p == who else [i for i in c if i not in moved] for p, c in enumerate(state.counters)]
    return table.rules.load({**table.rules.dump(state), "counters": counters,
                             "deck": [i for i in state.deck if i not in moved],
                             "refused": [c if p == who else [] for p, c in enumerate(counters)]})


def test_a_determinization_keeps_a_refused_paella_waiting() -> None:
    """The determinizer skips looking for refused paellas only where the rules' bound rules them out: a
    complete paella on a counter is still recorded as refused (with expansion 2's coin)."""
    table = build_table(TableSpec(str(CARDS), "fallera", "base-2", 4))
    rules = table.rules
    chance = random.Random(3)
    state = table.deal(chance)
    while rules.actor(state) == CHANCE or state.phase != "turn":
        legal = rules.legal_actions(state)
        state = rules.apply(state, legal[int(chance.random() * len(legal))], rng=chance)
    me = state.current
    rival = (me + 1) % 4
    before = table.heuristics.determinize(table, rules.observe(state, me), random.Random(1))
    assert not any(before.refused)
    waiting = _complete(table, state, rival)
    seen = rules.observe(waiting, me)
    sampled = table.heuristics.determinize(table, seen, random.Random(1))
    assert sampled.refused[rival] == waiting.counters[rival] and not rules.invariants(sampled)


@pytest.mark.parametrize("name", ["base4", "expert3"])
def test_evaluate_reads_a_draft_as_it_reads_its_frozen_state(name: str) -> None:
    """Evaluate takes a draft's ingredient tally where it is exact; it must agree with counting, position after
    position (forbidden ingredients and cards that count as two included)."""
    selection, players = TABLES[name]
    table = build_table(TableSpec(str(CARDS), "fallera", selection, players))
    evaluate, rng, compared, counted = table.heuristics.evaluate, random.Random(2), 0, 0
    cards = table.cards

    def special(design: str) -> bool:  # an ingredient whose count the tally alone does not give
        card = cards[design]
        return card.kind == "ingredient" and (card.category == "forbidden" or bool(card.doing("count-as-ingredients")))

    for _ in range(15):
        playout = table.playout(table.deal(rng))
        choices, play, now = playout
        draft = table.live(playout)()
        legal = choices()
        for step in range(400):
            if not legal:
                break
            if step % 2 == 0:
                assert evaluate(table, draft) == evaluate(table, now())
                compared += 1
                counted += any(special(draft.designs[i]) for c in draft.counters for i in c)
            play(legal[int(rng.random() * len(legal))], rng)
            legal = choices()
    assert compared > 100 and counted > 10, (compared, counted)


def _unlike_thawed(table, seen, seed: int, playouts=None) -> list[str]:
    """The slots of ``determinized_playouts``' draft (or ``playouts``') that differ from the thawed state
    ``determinizer`` draws from the same seed, and ``"rng"`` when the two leave their generators apart."""
    from cardworks.games.fallera.state import Draft, thawed

    heuristics, rules = table.heuristics, table.rules
    ours, theirs = random.Random(seed), random.Random(seed)
    draft = (playouts or heuristics.determinized_playouts(table, seen))(ours).play.args[0]
    reference = thawed(state := heuristics.determinizer(table, seen)(theirs), rules.facts(state))
    differ = [name for name in Draft.__slots__ if getattr(draft, name) != getattr(reference, name)]
    return differ + ["rng"] * (ours.getstate() != theirs.getstate())


@pytest.mark.parametrize("name", list(TABLES))
def test_a_dealt_draft_is_the_thawed_determinization(name: str) -> None:
    """The search deals its determinizations straight into drafts: each is, slot by slot, the thaw of the state
    ``determinizer`` draws, with the same chance taken (a refused paella's worlds go through the state)."""
    checked = 0
    for _, table, seat, seen, legal in positions(name):
        for seed in range(3):
            assert _unlike_thawed(table, seen, seed) == []
            checked += 1
    assert checked >= 12


def test_a_dealt_draft_with_a_wrong_slot_fails_the_comparison() -> None:
    """The comparison above sees one slot dealt wrong (the tallies of the counters one short)."""
    _, table, seat, seen, legal = next(positions("base4"))
    dealt = table.heuristics.determinized_playouts(table, seen)

    def wrong(rng):
        playout = dealt(rng)
        playout.play.args[0].on_counters -= 1
        return playout

    assert _unlike_thawed(table, seen, 1, wrong) == ["on_counters"]
