"""A set may count its cards per attribute value (24 upper and 24 lower pavement spectator cards) where its
designs are not listed; validate checks the attribute, its values and that they add up to the type's count."""

from __future__ import annotations

import pytest

from conftest import run_cli


@pytest.mark.parametrize("counts, expected", [
    ({"treasure-kind": {"ingredient": 1, "other": 1}}, []),
    ({"treasure-kind": {"ingredient": 2, "other": 1}},
     [("/totals/by_attribute/treasure-kind", "totals-mismatch")]),
    ({"treasure-kind": {"gold": 2}}, [("/totals/by_attribute/treasure-kind/gold", "dangling-ref")]),
    ({"no-such-attribute": {"ingredient": 2}}, [("/totals/by_attribute/no-such-attribute", "dangling-ref")]),
])
def test_counts_per_attribute_value_are_checked(game, counts, expected) -> None:
    game.data("sets/base.json")["totals"]["by_attribute"] = counts
    game.write()
    run = run_cli("--cards", str(game.cards_root), "validate", "--format", "json")
    assert [(p["pointer"], p["code"]) for p in run.problems if p["severity"] == "error"] == expected
    assert run.exit_code == (1 if expected else 0)
