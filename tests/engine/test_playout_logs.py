"""Seeded playouts play exactly as they did before the engine was made faster (issue 47 item 5): the action log
and the final state of checked and unchecked games of every configuration of each game, compared with digests
recorded from the tree before the change (``playout-logs.json``), and Fallera's quick count of valid
ingredients against the count that reads every card's effects, at every step of those games.

Record again only for a change that is meant to alter play: ``python tests/engine/test_playout_logs.py``.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path

import pytest

from cardworks.engine.playouts import play_one
from cardworks.engine.plugins import plugin_for
from cardworks.loading.database import Database, load_game

FIXTURE = Path(__file__).with_name("playout-logs.json")
CARDS = Path(__file__).resolve().parents[1] / "fixtures" / "cards"
GAMES = ("fallera", "calavera")
"""The games that play configurations (Diables checks scenarios only)."""
SEEDS = range(4)


def _configurations(game: str) -> tuple[Database, object, list]:
    db = Database(game=load_game(CARDS / game), packs=[])
    plugin = plugin_for(game)
    configs, _ = plugin.configurations(db)
    return db, plugin, configs


def digests(game: str) -> dict[str, str]:
    """Per configuration and seed, checked and unchecked: SHA-256 of the log and the dumped final state."""
    db, plugin, configs = _configurations(game)
    found = {}
    for config in configs:
        for seed in SEEDS:
            for check in (True, False):
                rules, state = plugin.new_game(db, config, random.Random(seed))
                final, log, failure = play_one(rules, state, seed, config.label, check=check)
                text = json.dumps([log, failure, rules.dump(final)], sort_keys=True, default=str)
                found[f"{config.label} seed {seed}{'' if check else ' unchecked'}"] = \
                    hashlib.sha256(text.encode()).hexdigest()
    return found


@pytest.mark.parametrize("game", GAMES)
def test_seeded_playouts_play_as_recorded(game: str) -> None:
    recorded = json.loads(FIXTURE.read_text(encoding="utf-8"))[game]
    found = digests(game)
    assert len(found) >= 8 and found.keys() == recorded.keys()
    differ = sorted(key for key in found if found[key] != recorded[key])
    assert not differ, f"{len(differ)} of {len(found)} playouts differ from the recorded ones, first {differ[0]}"


def _quick_and_full(rules, state) -> tuple[int, int]:
    """(counters compared, counters whose quick count differs from the full one) in ``state``."""
    compared = differ = 0
    for who in range(len(state.counters)):
        compared += 1
        differ += rules.ingredients(state, who) != rules.ingredients_in_full(state, who)
    return compared, differ


def test_quick_ingredient_count_equals_the_full_one() -> None:
    db, plugin, configs = _configurations("fallera")
    compared = differ = quick = 0
    for config in configs:
        for seed in SEEDS:
            rules, state = plugin.new_game(db, config, random.Random(seed))
            chance = random.Random(seed)
            for _ in range(400):
                legal = rules.legal_actions(state)
                if not legal:
                    break
                state = rules.apply(state, legal[chance.randrange(len(legal))], rng=chance)
                seen, wrong = _quick_and_full(rules, state)
                compared, differ = compared + seen, differ + wrong
                kinds = rules.facts(state).ingredient_kind
                quick += not state.marks and all(kinds[i] is not None for c in state.counters for i in c)
    assert compared > 1000 and quick > compared // 20 and differ == 0, (compared, quick, differ)


def test_a_wrong_quick_count_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The comparison above is sharp: a quick path that takes a seafood ingredient for a plain one differs."""
    from cardworks.games.fallera import facts

    original = facts.Facts.__init__

    def seafood_as_plain(self, *args, **kwargs) -> None:
        original(self, *args, **kwargs)
        self.ingredient_kind = tuple(1 if kind == 2 else kind for kind in self.ingredient_kind)

    monkeypatch.setattr(facts.Facts, "__init__", seafood_as_plain)
    db, plugin, configs = _configurations("fallera")
    differ = 0
    for config in configs:
        rules, state = plugin.new_game(db, config, random.Random(1))
        chance = random.Random(1)
        for _ in range(400):
            legal = rules.legal_actions(state)
            if not legal:
                break
            state = rules.apply(state, legal[chance.randrange(len(legal))], rng=chance)
            differ += _quick_and_full(rules, state)[1]
    assert differ > 0


if __name__ == "__main__":
    FIXTURE.write_text(json.dumps({game: digests(game) for game in GAMES}, indent=1, sort_keys=True) + "\n",
                       encoding="utf-8")
    print(f"recorded {FIXTURE}", file=sys.stderr)
