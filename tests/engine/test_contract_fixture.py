"""The contract suite fails on each mistake a game can make: a fixture game (``fixture_game.py``) makes one
at a time, and the suite's own checks (``contract_checks``) are run against it and must fail, naming it.
Without a mistake the same game passes, so each failure is the mistake's."""

from __future__ import annotations

import pytest

import contract_checks as contract
import fixture_game

SCENARIOS = [contract.Scenario(s["id"], s["setup"], s.get("refused")) for s in fixture_game.SCENARIOS]

EXPECTED = {
    "card-not-in-hand": (contract.check_illegal_actions_refused, "is not among the legal actions, but apply accepted"),
    "out-of-turn": (contract.check_illegal_actions_refused, "is not among the legal actions, but apply accepted"),
    "wrong-target": (contract.check_illegal_actions_refused, "is not among the legal actions, but apply accepted"),
    "unsorted": (contract.check_legal_actions_sorted_and_stable, "legal actions not sorted by notation"),
    "mutates": (contract.check_apply_leaves_its_input_alone, "changed its input state"),
    "global-random": (contract.check_no_global_chance, "random.shuffle used inside the game"),
    "leak": (contract.check_observations_hide_what_the_rules_hide, "observation changes with cards hidden from them"),
    "dump-load": (contract.check_dump_load_round_trip, "does not survive dump/load"),
    "setup-raises": (contract.scenario_positions, "setup raised KeyError"),
    "no-catalogue": (contract.check_catalogues, "not a catalogue with cards and left_out"),
}


def _suite(plugin):
    configs, _ = plugin.configurations(None)
    return contract.check_all(plugin, None, SCENARIOS, configs, packages=("fixture_game",))


def test_the_fixture_without_a_mistake_passes_the_whole_suite() -> None:
    positions = _suite(fixture_game.plugin())
    assert len(positions) > 40 and any(p.where.startswith("scenario ") for p in positions)


def test_every_mistake_has_its_expected_failure() -> None:
    assert set(EXPECTED) == set(fixture_game.MISTAKES)


@pytest.mark.parametrize("mistake", fixture_game.MISTAKES)
def test_the_suite_fails_on_each_mistake(mistake: str) -> None:
    with pytest.raises(AssertionError, match=EXPECTED[mistake][1]):
        _suite(fixture_game.plugin(mistake))


@pytest.mark.parametrize("mistake", fixture_game.MISTAKES)
def test_the_check_meant_for_each_mistake_is_the_one_that_fails(mistake: str) -> None:
    """Each check on its own, run on positions of the game without the mistake plus the mistaken game's own:
    the one check meant for the mistake fails, so no check leans on another."""
    plugin = fixture_game.plugin(mistake)
    check, message = EXPECTED[mistake]
    configs, _ = plugin.configurations(None)
    with pytest.raises(AssertionError, match=message):
        if check is contract.scenario_positions:
            check(plugin, None, SCENARIOS)
            return
        if check is contract.check_catalogues:
            check(plugin, None, configs)
            return
        positions = contract.scenario_positions(plugin, None, SCENARIOS[:1]) + \
            contract.playout_positions(plugin, None, configs, steps=30)
        if check is contract.check_no_global_chance:
            check(plugin, None, configs, positions, packages=("fixture_game",))
        elif check in (contract.check_illegal_actions_refused, contract.check_observations_hide_what_the_rules_hide):
            check(plugin, positions)
        else:
            check(positions)


def test_global_randomness_is_caught_however_it_was_imported(monkeypatch) -> None:
    """``from random import shuffle`` in the game's module is patched too: the result is certain."""
    from random import random as shared_random

    monkeypatch.setattr(fixture_game, "shared_random", shared_random, raising=False)
    with contract.no_global_chance("fixture_game"):
        with pytest.raises(contract.GlobalChance, match="random.random"):
            fixture_game.shared_random()
        with pytest.raises(contract.GlobalChance, match="random.Random"):
            __import__("random").Random()
    fixture_game.shared_random()  # restored afterwards
    __import__("random").Random()


def test_global_randomness_is_caught_even_when_the_game_swallows_the_exception(monkeypatch) -> None:
    plugin = fixture_game.plugin()
    rules, state = plugin.new_game(None, plugin.configurations(None)[0][0], __import__("random").Random(1))
    original = fixture_game.Rules.observe

    def observe(self, state, who):
        try:
            __import__("time").time()  # a timestamp, its failure swallowed
        except Exception:  # noqa: BLE001
            pass
        return original(self, state, who)

    monkeypatch.setattr(fixture_game.Rules, "observe", observe)
    positions = [contract.Position(rules, state, "start")]
    with pytest.raises(AssertionError, match="time.time used inside the game .its exception was caught"):
        contract.check_no_global_chance(plugin, None, [], positions, packages=("fixture_game",))


def test_a_generator_kept_at_module_level_is_refused_too(monkeypatch) -> None:
    """Seeded once at import, it is shared by every game: a game using it would not replay from its seed."""
    import random

    monkeypatch.setattr(fixture_game, "RNG", random.Random(0), raising=False)
    with contract.no_global_chance("fixture_game") as used:
        with pytest.raises(contract.GlobalChance, match="fixture_game.RNG, a random.Random kept at module level"):
            fixture_game.RNG.shuffle([1, 2, 3])
    assert used and fixture_game.RNG.random() < 1  # restored afterwards


def test_numpy_global_randomness_is_caught_too(monkeypatch) -> None:
    """``numpy.random.shuffle`` and friends draw from one generator shared by every game, and an unseeded
    ``default_rng()`` from the machine: a game's ``apply`` using either would not replay from its seed."""
    import numpy
    from numpy.random import shuffle as numpy_shuffle

    plugin = fixture_game.plugin()
    rules, state = plugin.new_game(None, plugin.configurations(None)[0][0], __import__("random").Random(1))
    monkeypatch.setattr(fixture_game, "numpy_shuffle", numpy_shuffle, raising=False)
    with contract.no_global_chance("fixture_game"):
        with pytest.raises(contract.GlobalChance, match="numpy.random.shuffle"):
            fixture_game.numpy_shuffle([1, 2, 3])
        with pytest.raises(contract.GlobalChance, match="numpy.random.random"):
            numpy.random.random()
        with pytest.raises(contract.GlobalChance, match=r"numpy.random.default_rng\(\) without a seed"):
            numpy.random.default_rng()
        assert numpy.random.default_rng(5).integers(10) == numpy.random.default_rng(5).integers(10)  # seeded is fine
    original = fixture_game.Rules.apply

    def apply(self, state, action, **kwargs):
        numpy.random.permutation(3)  # chance from the shared generator
        return original(self, state, action, **kwargs)

    monkeypatch.setattr(fixture_game.Rules, "apply", apply)
    positions = [contract.Position(rules, state, "start")]
    with pytest.raises(AssertionError, match="numpy.random.permutation used inside the game"):
        contract.check_no_global_chance(plugin, None, [], positions, packages=("fixture_game",))
    assert 0 <= numpy.random.random() < 1  # restored afterwards
