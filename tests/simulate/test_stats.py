"""Intervals against published worked examples, and tallies that add up the same in any order."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from cardworks.simulate.stats import WIN_UNIT, GameRecord, Tally, difference, distribution, merged, wilson


def test_wilson_matches_newcombe_1998_examples() -> None:
    # Newcombe (1998), "Two-sided confidence intervals for the single proportion", table I, method 3
    assert wilson(81, 263) == pytest.approx((0.2553, 0.3662), abs=1e-4)
    assert wilson(15, 148) == pytest.approx((0.0624, 0.1605), abs=1e-4)
    assert wilson(0, 20) == pytest.approx((0.0, 0.1611), abs=1e-4)


def test_newcombe_difference_matches_his_1998_example() -> None:
    # Newcombe (1998), "Interval estimation for the difference between independent proportions", 56/70 - 48/80, method 10
    d = difference(56, 70, 48, 80)
    assert d["difference"] == pytest.approx(0.2)
    assert (d["low"], d["high"]) == pytest.approx((0.0524, 0.3339), abs=1e-4)
    assert d["significant"]
    assert not difference(10, 20, 11, 20)["significant"]


def test_distribution_of_a_histogram() -> None:
    dist = distribution({1: 2, 2: 1, 10: 1})
    assert dist["n"] == 4 and dist["mean"] == pytest.approx(3.5)
    assert (dist["min"], dist["median"], dist["max"]) == (1, 1, 10)
    assert dist["low"] < 3.5 < dist["high"]


records = st.builds(
    GameRecord,
    index=st.integers(0, 40),
    seats=st.just(("greedy", "random", "random")),
    winners=st.sampled_from([(), (0,), (1,), (0, 2), (0, 1, 2)]),
    reason=st.sampled_from(["five-ingredients", "step-limit"]),
    steps=st.integers(1, 50), turns=st.integers(1, 20), rounds=st.integers(1, 7),
    held=st.tuples(*[st.frozensets(st.sampled_from(["a", "b", "c"]))] * 3),
    played=st.just((("a", 2),)),
)


@settings(max_examples=40, deadline=None)
@given(st.lists(records, min_size=1, max_size=12), st.randoms())
def test_tallies_sum_the_same_whatever_the_split_and_order(games: list[GameRecord], rng) -> None:
    whole = Tally(3)
    for game in games:
        whole.add(game, frozenset({"c"}))
    cut = rng.randint(0, len(games))
    parts = [Tally(3), Tally(3)]
    for index, game in enumerate(games):
        parts[index >= cut].add(game, frozenset({"c"}))
    assert merged(parts[::-1], 3) == whole == merged(parts, 3)
    assert sum(whole.seat_wins) == whole.decided * WIN_UNIT  # shared wins split exactly


def test_paired_difference_mcnemar_and_benjamini_hochberg_agree_with_scipy() -> None:
    from cardworks.simulate.stats import benjamini_hochberg, mcnemar, paired_difference

    import scipy.stats as scipy_stats  # in the test extra: the cross-check never skips
    for first, second in ((30, 5), (7, 9), (0, 4), (120, 80)):
        assert mcnemar(first, second) == pytest.approx(scipy_stats.binomtest(first, first + second, 0.5).pvalue)
    pvalues = {"a": 0.01, "b": 0.04, "c": 0.03, "d": 0.5, "e": 0.001}
    adjusted = benjamini_hochberg(pvalues)
    expected = scipy_stats.false_discovery_control([pvalues[k] for k in sorted(pvalues)])
    assert [adjusted[k] for k in sorted(pvalues)] == pytest.approx(list(expected), abs=1e-6)
    # Newcombe's paired interval is his unpaired one corrected by the pairs' correlation phi: with phi = 0
    # (AD = BC) it is the unpaired interval of the two rates, and a positive phi narrows it
    uncorrelated, unpaired = paired_difference(4, 2, 2, 1), difference(6, 9, 6, 9)
    assert (uncorrelated["low"], uncorrelated["high"]) == pytest.approx((unpaired["low"], unpaired["high"]), abs=1e-6)
    d = paired_difference(12, 9, 2, 13)  # phi = 0.443
    wide = difference(21, 36, 14, 36)
    assert d["difference"] == pytest.approx(7 / 36, abs=1e-6) and wide["low"] < d["low"] < d["difference"] < d["high"] < wide["high"]
    assert paired_difference(5, 0, 0, 5)["difference"] == 0 and paired_difference(0, 0, 0, 0)["pairs"] == 0
