"""``FalleraRules.apply`` plays the next step on the draft it kept (``rules.py``): the draft must be what a fresh
thaw of the state gives, be taken by one ``apply`` only, and never change a game."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from cardworks.engine.plugins import plugin_for
from cardworks.games.fallera.state import FIELDS, TALLIES, thawed
from cardworks.loading import load_database
from conftest import FALLERA

DB = load_database(FALLERA)
PLUGIN = plugin_for("fallera")
CONFIGS = [c for c in PLUGIN.configurations(DB)[0] if c.label in ("base/3p", "base-2/4p", "base-3/4p", "expert/2p")]


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: c.label)
def test_the_kept_draft_is_a_fresh_thaw_and_changes_no_step(config) -> None:
    """A few games stepped through ``apply``, each step also played by rules of their own from an equal state
    loaded from its dump (so always thawed afresh): the results are equal, and the draft kept is field by field
    what thawing the state gives. At every other step two actions are first tried from the state, as ``check``'s
    sample tries them: the first on the kept draft, the second on a fresh thaw of the same state, each equal to
    the same try from the loaded state (neither starts from where the other left the draft)."""
    kept_steps = 0
    for seed in range(100_003, 100_008):
        rules, state = PLUGIN.new_game(DB, config, random.Random(seed))
        fresh_rules = replace(rules)  # the same definitions, nothing kept from ``rules``' steps
        pick, chance = random.Random(seed).random, random.Random(seed + 1)
        legal, step = rules.choices(state), 0
        while len(legal):
            if step % 2:
                for other in list(legal)[:2]:
                    tried = rules.apply(state, other, rng=random.Random(step))
                    assert tried == fresh_rules.apply(rules.load(rules.dump(state)), other, rng=random.Random(step))
            elif step:
                assert rules._spare[0][0] is state  # the next step starts on the kept draft
                kept_steps += 1
            action, draw = legal[int(pick() * len(legal))], chance.random()
            before, state = state, rules.apply(state, action, rng=random.Random(draw))
            assert state == fresh_rules.apply(rules.load(rules.dump(before)), action, rng=random.Random(draw))
            kept_state, kept = rules._spare[0]
            assert kept_state is state
            fresh = thawed(state, rules.facts(state))
            for name in FIELDS + TALLIES:
                assert getattr(kept, name) == getattr(fresh, name), name
            legal, step = rules.choices(state), step + 1
    assert kept_steps > 50
