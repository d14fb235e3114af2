"""A twin that parted as its card reached a counter meets its real game again where nothing reads the card there
(``Simulation.settled``, Fallera's ``unread``: a treasure whose effects only describe, as the tartana del tio Pep's
``part-of`` the gamba): it costs a step, not the rest of a game, and the reports stay the same."""

from __future__ import annotations

import pytest

from cardworks.games.fallera import simulation as fallera_simulation
from cardworks.simulate import runner
from cardworks.simulate.agents import parse_agents
from cardworks.simulate.tables import Table, TableSpec, build_table
from simulate_helpers import CARDS
from test_paired_cost import EXAMPLE, _compare

TARTANA = "tartana-del-tio-pep"


def _table() -> Table:
    return build_table(TableSpec(str(CARDS), "fallera", "base", 4, (str(EXAMPLE),), paired=True))


def test_only_treasures_whose_effects_describe_are_unread() -> None:
    table = _table()
    unread = {design for design, card in table.cards.items() if fallera_simulation.unread(card)}
    assert TARTANA in unread
    for design in ("example-bunyol", "example-estendard", "example-campana", "allioli-persistent",
                   "taronger-putrefacte", "example-tomaca", "gaiata-de-la-magdalena", "example-cavaller"):
        assert design not in unread, design  # acting, standing or counting effects; a sellable; a battle card


def test_the_tartanas_twins_meet_their_real_games_at_once() -> None:
    """Each game's tartana twin parts as the card reaches a counter (as ``quiet`` always said, so the reports count
    it as they did) and is watched again at the next step until the end: the twin played with its rejoins ends as
    the twin played from the deal, and plays at most one step of its own."""
    table = _table()
    seats = parse_agents("greedy", 4)
    met = 0
    for index in range(6):
        record, snapshots = runner._play(table, seats, 1, index, watch=table.stand_ins)
        if TARTANA not in snapshots:
            continue
        start = snapshots[TARTANA][3] if snapshots[TARTANA] else 0
        rejoins = snapshots.rejoins[TARTANA]
        assert rejoins[0][0][3] <= start + 1 and rejoins[-1][1] == runner.END, (index, start, rejoins)
        twin = table.stand_ins[TARTANA]
        fast, _ = runner._play(twin, seats, 1, index, start=snapshots[TARTANA], rejoin=(rejoins, record))
        full, _ = runner._play(twin, seats, 1, index)
        assert (fast.winners, fast.steps, fast.reason) == (full.winners, full.steps, full.reason) == (
            record.winners, record.steps, record.reason)
        met += 1
    assert met > 0


def test_settling_every_card_fails_the_comparison(monkeypatch) -> None:
    """The comparison of twins with their rejoins against twins from the deal (``test_paired_cost``) is sharp for
    ``settled``: counting every treasure in play as unread (a turn-start draw, a standing bonus) ends twins
    otherwise."""
    monkeypatch.setattr(fallera_simulation, "_unread", lambda card: card.treasure)
    with pytest.raises(AssertionError):
        _compare(EXAMPLE, "base", 4, "greedy", 6)


def test_the_answers_of_all_cards_at_once_are_quiets_answers_one_by_one() -> None:
    """``quiets`` answers at each step of a game what ``quiet`` answers card by card (a card missing from it: quiet
    with no holder), and settled, the same but for the unread cards in play; a game without ``quiets`` answers
    ``quiet`` for both."""
    import dataclasses

    table = _table()
    seats = parse_agents("greedy", 4)
    designs = frozenset(table.measured)
    plain = dataclasses.replace(table, simulation=dataclasses.replace(table.simulation, quiets=None))
    chance, *minds = runner.game_rngs(1, 0, 4)
    choices, play, now = table.playout(table.deal(chance))
    legal, settled_apart = choices(), 0
    while legal:
        frozen = now()
        one_by_one = {d: table.quiet(frozen, d) for d in designs}
        quiet, settled = table.quiets(frozen, designs), table.quiets(frozen, designs, True)
        assert {d: quiet.get(d, ()) for d in designs} == one_by_one
        for design in designs:
            expected = one_by_one[design]
            if expected is None and fallera_simulation.unread(table.cards[design]):
                expected = frozen.hands and tuple(w for w, hand in enumerate(frozen.hands) for i in hand
                                                  if frozen.designs[i] == design)
                settled_apart += 1
            assert settled.get(design, ()) == expected, design
        assert plain.quiets(frozen, designs) == plain.quiets(frozen, designs, True) == one_by_one
        actor = table.rules.actor(frozen)
        action = legal[int(chance.random() * len(legal))] if actor == runner.CHANCE else \
            seats[actor].choose(table, actor, lambda: table.rules.observe(frozen, actor), legal, minds[actor])
        play(action, chance)
        legal = choices()
    assert settled_apart > 0
