"""``engine.base_rules.BaseRules``: the part of the ``Rules`` protocol every game would write the same way
(``parse``, ``dump``/``load``, ``result`` from ``outcome``, a ``hidden_leak`` for rules that hide nothing), given
once; ``test_contract.py`` holds every registered game to using it."""

from __future__ import annotations

import json
from dataclasses import dataclass

import pytest

from cardworks.engine.base_rules import BaseRules
from cardworks.engine.codec import StateLoadError
from cardworks.engine.core import Outcome


@dataclass(frozen=True)
class Count:
    """A position of a made-up game: a counter that ends the game at 3, won by whoever reached it."""

    count: int = 0
    turns: tuple[int, ...] = ()


@dataclass(frozen=True)
class Step:
    player: int

    def notation(self) -> str:
        return f"p{self.player + 1} step"


def parse_step(text: str) -> Step:
    if not (text.startswith("p") and text.endswith(" step")):
        raise ValueError(f"not a step: {text!r}")
    return Step(int(text[1:-5]) - 1)


class CountRules(BaseRules, state=Count, actions=parse_step):
    def outcome(self, state: Count) -> Outcome | None:
        return Outcome("three", (state.turns[-1],)) if state.count >= 3 else None


def test_a_rules_class_is_given_parse_the_codec_result_and_hidden_leak() -> None:
    rules = CountRules()
    assert rules.parse("p2 step") == Step(1) and rules.parse(Step(0).notation()) == Step(0)
    state = Count(2, (0, 1))
    assert json.loads(json.dumps(rules.dump(state))) == {"count": 2, "turns": [0, 1]}
    assert rules.load(rules.dump(state)) == state
    with pytest.raises(StateLoadError, match="/score: unknown field"):
        rules.load({"count": 1, "score": 2})
    assert rules.result(state) == (None, None) and rules.outcome(state) is None
    assert rules.result(Count(3, (0, 1, 1))) == ((1,), "three")
    assert rules.hidden_leak(state) is None


@pytest.mark.parametrize("missing", ["state", "actions", "both"])
def test_a_rules_class_that_does_not_name_its_state_or_parser_is_refused_when_made(missing: str) -> None:
    given = {"state": {"actions": parse_step}, "actions": {"state": Count}, "both": {}}[missing]
    said = {"state": "its state:", "actions": "its actions:", "both": "its state and actions:"}[missing]
    with pytest.raises(TypeError, match=f"does not say {said} write 'class Half\\(BaseRules, state=State, "):
        type("Half", (BaseRules,), {}, **given)


def test_a_subclass_inherits_what_its_parent_named() -> None:
    class Variant(CountRules):  # nothing in its class line: the parent's state and parser hold
        pass

    assert Variant().parse("p1 step") == Step(0) and Variant().load({"count": 2}) == Count(2)


def test_a_rules_class_without_an_outcome_says_so_when_asked_for_a_result() -> None:
    class Endless(BaseRules, state=Count, actions=parse_step):
        pass

    with pytest.raises(NotImplementedError, match="does not say how a game ends"):
        Endless().result(Count())
