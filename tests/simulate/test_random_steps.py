"""Rollouts' fast paths play what the rules play: Fallera's ``random_steps`` against a loop over ``choices`` and
``_play_listed``, and ``Facts.plain_count`` (the evaluation's count of a counter without effects) against
``rules.ingredients``. Each comparison is shown failing on a fast path that is wrong."""

from __future__ import annotations

import inspect
import os
import random
from pathlib import Path

import pytest

from cardworks.engine.playouts import contract_playout
from cardworks.games.fallera.rules import FalleraRules
from cardworks.games.fallera.state import frozen
from cardworks.simulate.tables import TableSpec, build_table
from conftest import FIXTURE_CARDS

TABLES = {"base4": ("base", 4), "base2": ("base", 2), "base2-4": ("base-2", 4), "base3-3": ("base-3", 3),
          "expert3": ("expert", 3)}
"""The bench's table, two players, discord's coins, the Kingdom map and expert mode (the last two: no fast
battles, so every step goes through the rules)."""
STEPS = 12


def _table(name: str):
    selection, players = TABLES[name] if name in TABLES else name
    return build_table(TableSpec(str(FIXTURE_CARDS), "fallera", selection, players))


def _compare(table, games: int = 40) -> tuple[int, int]:
    """(stretches compared, stretches that differ): from positions along seeded games, ``STEPS`` random steps
    played by ``rules.random_steps`` and by the plain loop, each from its own draft with the same seed."""
    rules = table.rules
    compared = differ = 0
    for game in range(games):
        state = table.deal(random.Random(game))
        for stretch in range(40):
            fast, slow = rules.playout(state).play.args[0], rules.playout(state).play.args[0]
            fast_rng, slow_rng = random.Random(stretch * 100 + game), random.Random(stretch * 100 + game)
            rules.random_steps(fast, STEPS, fast_rng)
            for _ in range(STEPS):
                legal = rules.choices(slow)
                if not len(legal):
                    break
                rules._play_listed(slow, legal[int(slow_rng.random() * len(legal))], slow_rng)
            compared += 1
            differ += (frozen(fast) != frozen(slow) or fast.log != slow.log
                       or fast_rng.getstate() != slow_rng.getstate()
                       or (fast.weights, fast.sellables, fast.on_counters) != (slow.weights, slow.sellables, slow.on_counters))
            state = frozen(slow)
            if state.phase == "over":
                break
    return compared, differ


@pytest.fixture(params=["python", "compiled"])
def kernel(request, monkeypatch: pytest.MonkeyPatch) -> str:
    """Each loop of ``random_steps`` in turn: the Python one and the compiled one (``_rollouts.c``)."""
    from cardworks.games.fallera import rollouts

    monkeypatch.setattr(rollouts, "KERNEL", None if request.param == "python" else rollouts._compiled)
    return request.param


@pytest.mark.parametrize("name", list(TABLES))
def test_random_steps_play_what_choices_and_play_play(name: str, kernel: str) -> None:
    compared, differ = _compare(_table(name))
    assert compared >= 100 and differ == 0, (compared, differ)


def test_the_compiled_loop_is_built() -> None:
    """The install builds ``_rollouts.c`` (``setup.py``); a build that failed would leave searches on the Python
    loop, slower, without a word: this fails instead. ``CARDWORKS_PURE_PYTHON`` chooses the Python loop."""
    from cardworks.games.fallera import rollouts

    assert rollouts._compiled is not None, ("the compiled rollout loop was not built: install a C compiler and "
                                           "the Python headers, then pip install -e . again")
    assert rollouts.KERNEL is (None if os.environ.get("CARDWORKS_PURE_PYTHON") else rollouts._compiled)


def test_a_compiled_loop_built_from_another_source_is_refused(tmp_path) -> None:
    """A module built before ``_rollouts.c`` changed would play the old steps: importing ``rollouts`` then fails."""
    from cardworks.games.fallera import rollouts

    source = tmp_path / "_rollouts.c"
    source.write_bytes(Path(rollouts.__file__).with_name("_rollouts.c").read_bytes())
    rollouts._built_from(source, rollouts._compiled)  # the source it was built from
    source.write_bytes(source.read_bytes() + b"/* changed */\n")
    with pytest.raises(ImportError, match="not built from _rollouts.c as it is now"):
        rollouts._built_from(source, rollouts._compiled)


def test_the_fast_battles_are_played_on_the_bench_table() -> None:
    """The comparison above covers the fast path itself: on the four-player base game, battles are plain."""
    assert _table("base4").rules._plain_battles
    assert not _table("expert3").rules._plain_battles


@pytest.mark.parametrize("original, mutant", [
    ("attack_points[attack] > defence_points[defence]", "attack_points[attack] >= defence_points[defence]"),
    ("draft.turn += 1", "draft.turn += 2"),
    ("for target in rivals[me]:", "for target in rivals[me][::-1]:"),
    ("draft.actions + 1 < allowed", "draft.actions + 2 < allowed"),
    ('log += (("trigger", instance), ("draw", instance))', 'log += (("draw", instance), ("trigger", instance))'),
    ("drawn = draft.deck.pop(0)", "drawn = draft.deck.pop()"),
    ("[index - battles - 1]", "[battles - index]"),
    ("weights[target] -= weight[treasure]", "weights[target] -= 0"),
    ("self.draw_cards(draft, current, count)", "self.draw_cards(draft, current, count + 1)"),
])
def test_a_wrong_fast_path_fails_the_comparison(monkeypatch: pytest.MonkeyPatch, original: str, mutant: str) -> None:
    """``random_steps`` with one mistake written in (a tie that steals, a turn counted twice, rivals in the
    wrong order, a second action the allioli does not allow, a turn-start draw logged or drawn wrong, the almoina
    drawing from the bottom, the wrong treasure sold, a stolen treasure still counted on its victim's tally) is
    caught by the comparison with the rules."""
    from cardworks.games.fallera import rollouts

    source = inspect.getsource(rollouts)
    assert source.count(original) == 1
    namespace = {"__name__": "cardworks.games.fallera.mutant", "__package__": "cardworks.games.fallera",
                 "__file__": rollouts.__file__}
    exec(compile(source.replace(original, mutant), rollouts.__file__, "exec"), namespace)
    namespace["KERNEL"] = None  # the mutant is in the Python loop
    monkeypatch.setattr(FalleraRules, "random_steps", namespace["Rollouts"].random_steps)
    compared, differ = _compare(_table("base4"), games=3)
    assert differ > 0, compared


def test_a_table_steps_through_a_checked_playout_as_through_the_rules() -> None:
    """``Table.random_steps`` on a playout through ``apply`` (no draft: the plain loop) reaches the same position
    as on an in-place playout (the rules' own ``random_steps``)."""
    table = _table("base4")
    for game in range(5):
        state = table.deal(random.Random(game))
        in_place, checked = table.playout(state), contract_playout(table.rules, state)
        table.random_steps(in_place, 40, random.Random(game))
        table.random_steps(checked, 40, random.Random(game))
        assert in_place.state() == checked.state()


def _plain_sums(table, plain_count, games: int = 10) -> tuple[int, int]:
    """(counters compared, counters whose ``plain_count`` sum differs from ``rules.ingredients``) along
    seeded random games, where the sum applies (no ``None`` on the counter, no mark, no terreta bonus)."""
    rules = table.rules
    compared = differ = 0
    for game in range(games):
        rng = random.Random(game)
        state = table.deal(rng)
        for _ in range(300):
            legal = rules.legal_actions(state)
            if not legal:
                break
            if not state.marks and not rules.bonuses:
                for who, counter in enumerate(state.counters):
                    values = [plain_count[i] for i in counter]
                    if None not in values:
                        compared += 1
                        differ += sum(values) != rules.ingredients(state, who)[0]
            state = rules.apply(state, legal[int(rng.random() * len(legal))], rng=rng)
    return compared, differ


@pytest.mark.parametrize("name", ["base4", ("base", 5), "base2-4", ("base-2", 6)])
def test_a_plain_count_is_what_the_rules_count(name) -> None:
    table = _table(name)
    plain = table.rules.facts(table.deal(random.Random(0))).plain_count
    compared, differ = _plain_sums(table, plain)
    assert compared > 500 and differ == 0, (compared, differ)


def test_a_plain_count_that_ignores_an_effect_fails_the_comparison() -> None:
    """At five players the cabeça d'alls counts as two ingredients: counted as one, the comparison fails."""
    table = _table(("base", 5))
    facts = table.rules.facts(table.deal(random.Random(0)))
    assert None in facts.plain_count
    wrong = tuple(1 if count is None and facts.defs[i].kind == "ingredient" else count
                  for i, count in enumerate(facts.plain_count))
    compared, differ = _plain_sums(table, wrong, games=30)
    assert differ > 0, compared


def test_the_determinizer_shuffles_as_random_does(kernel: str) -> None:
    """``heuristics.shuffle`` orders a list as ``random.Random.shuffle`` does from the same seed, and leaves the
    generator where it would (a wrong range, one item short, is caught by the same comparison)."""
    from cardworks.games.fallera.heuristics import shuffle

    def short(rng: random.Random, items: list) -> None:
        for i in reversed(range(1, len(items) - 1)):
            j = rng.getrandbits((i + 1).bit_length())
            while j > i:
                j = rng.getrandbits((i + 1).bit_length())
            items[i], items[j] = items[j], items[i]

    def same(shuffler) -> bool:
        for seed in range(200):
            for size in (0, 1, 2, 7, 23, 60):
                ours, theirs = random.Random(seed), random.Random(seed)
                mine, reference = list(range(size)), list(range(size))
                shuffler(ours, mine)
                theirs.shuffle(reference)
                if mine != reference or ours.getstate() != theirs.getstate():
                    return False
        return True

    assert same(shuffle)
    assert not same(short)


def _chances_unlike(table, evaluate, games: int = 8) -> tuple[int, int]:
    """(positions compared, positions where ``evaluate`` differs from the Python evaluation, float for float):
    drafts along seeded random games."""
    from cardworks.games.fallera import rollouts

    rules, python = table.rules, table.heuristics.evaluate
    compared = differ = 0
    for game in range(games):
        rng = random.Random(game)
        draft = rules.playout(table.deal(rng)).play.args[0]
        for _ in range(200):
            legal = rules.choices(draft)
            if not len(legal) or draft.winner is not None:
                break
            ours = evaluate(table, draft)
            kept, rollouts.KERNEL = rollouts.KERNEL, None
            try:
                theirs = python(table, draft)
            finally:
                rollouts.KERNEL = kept
            compared += 1
            differ += ours != theirs
            rules._play_listed(draft, legal[int(rng.random() * len(legal))], rng)
    return compared, differ


@pytest.mark.parametrize("name", ["base4", "base2", "base2-4"])
def test_the_compiled_evaluation_is_the_python_one(name: str) -> None:
    """Where every count is plain (these decks), ``evaluate`` of a draft is ``plain_chances`` compiled: the very
    floats of the Python loop."""
    table = _table(name)
    assert table.rules.facts(table.deal(random.Random(0))).all_plain
    compared, differ = _chances_unlike(table, table.heuristics.evaluate)
    assert compared > 300 and differ == 0, (compared, differ)


def test_an_evaluation_a_rounding_off_fails_the_comparison() -> None:
    """The comparison above sees chances one rounding apart (the softmax's total summed in another order)."""
    import math

    def reordered(table, draft):
        chances = table.heuristics.evaluate(table, draft)
        weights = [c * 1.0 for c in chances]
        return [w / math.fsum(weights) for w in weights]  # a total of 1 up to rounding, not the loop's

    compared, differ = _chances_unlike(_table("base4"), reordered)
    assert differ > 0, compared
