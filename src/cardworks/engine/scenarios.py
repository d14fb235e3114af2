"""The strict scenario runner: scripted steps from an explicit position, then expectations.

A step is an action in the game's notation; ``#n`` may be left out when any
instance of the design will do. Every decision and every chance outcome must
be scripted: a chance outcome the script does not give, a step that does not
apply, or a script line left unused fails the scenario with a clear message.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from .core import CHANCE, IllegalActionError
from .fallera_actions import player

_NUMBER = re.compile(r"#\d+")


@dataclass
class ScenarioResult:
    id: str
    file: str
    passed: bool
    messages: list[str] = field(default_factory=list)


def resolve(rules: Any, state: Any, step: str) -> Any:
    """The legal action a step names, or the parsed action (which will then be refused)."""
    legal = rules.legal_actions(state)
    wanted = " ".join(step.split())
    for action in legal:
        if action.notation() == wanted:
            return action
    loose = [a for a in legal if _NUMBER.sub("", a.notation()) == _NUMBER.sub("", wanted)]
    if loose:
        return loose[0]
    return rules.parse(_number_designs(state, wanted))


def _number_designs(state: Any, text: str) -> str:
    """Give each bare design id in ``text`` the number of its first instance (for refused actions)."""
    first: dict[str, int] = {}
    for number, design in enumerate(state.designs):
        first.setdefault(design, number)
    words = [f"{w}#{first[w]}" if w in first else w for w in text.split()]
    return " ".join(words)


def run_scenario(rules: Any, state: Any, scenario: Any, file: str, *, rng: random.Random) -> ScenarioResult:
    """Play a scenario's steps and check its expectations."""
    result = ScenarioResult(scenario.id, file, True)

    def fail(message: str) -> ScenarioResult:
        result.passed = False
        result.messages.append(message)
        return result

    for number, step in enumerate(scenario.steps, start=1):
        if rules.actor(state) is None:
            return fail(f"step {number} {step!r} is left unused: the game was already over ({state.reason})")
        try:
            action = resolve(rules, state, step)
            state = rules.apply(state, action, rng=rng)
        except (IllegalActionError, ValueError) as exc:
            return fail(f"step {number} {step!r} does not apply: {exc}")
        broken = rules.invariants(state)
        if broken:
            return fail(f"after step {number} {step!r}: {'; '.join(broken)}")
    if rules.actor(state) == CHANCE:
        options = ", ".join(a.notation() for a in rules.legal_actions(state)[:4])
        return fail(f"the script ends while a chance outcome is due (one of: {options}); script it")
    for expectation in scenario.expect:
        message = check_expectation(rules, state, expectation, rng)
        if message:
            fail(message)
    return result


def check_expectation(rules: Any, state: Any, expect: dict[str, Any], rng: random.Random) -> str | None:
    """None when the expectation holds, else what differs."""
    if "winner" in expect:
        wanted = expect["winner"]
        got = player(state.winner) if state.winner is not None else None
        if got != wanted or ("reason" in expect and state.reason != expect["reason"]):
            return f"expected winner {wanted} ({expect.get('reason', 'any reason')}), got {got} ({state.reason})"
    for zone in ("counters", "hands"):
        for who, designs in expect.get(zone, {}).items():
            p = int(who.removeprefix("p")) - 1
            got = Counter(state.designs[i] for i in getattr(state, zone)[p])
            if got != Counter(designs):
                return f"expected {who}'s {zone[:-1]} {sorted(designs)}, got {sorted(got.elements())}"
    if "cemetery" in expect and Counter(state.designs[i] for i in state.cemetery) != Counter(expect["cemetery"]):
        return f"expected cemetery {sorted(expect['cemetery'])}, got {sorted(state.designs[i] for i in state.cemetery)}"
    for key in ("phase", "current"):
        if key in expect:
            got = state.phase if key == "phase" else player(state.current)
            if got != expect[key]:
                return f"expected {key} {expect[key]}, got {got}"
    if "queen" in expect and state.queen != expect["queen"]:
        return f"expected the Queen in {expect['queen']}, got {state.queen}"
    for space, design in expect.get("map", {}).items():
        slot = state.map[state.spaces.index(space)]
        got = state.designs[slot] if slot >= 0 else None
        if got != design:
            return f"expected {design} on {space}, got {got}"
    for who, count in expect.get("valid_ingredients", {}).items():
        got = rules.ingredients(state, int(who.removeprefix("p")) - 1)[0]
        if got != count:
            return f"expected {who} to have {count} valid ingredients, got {got}"
    if "illegal" in expect:
        try:
            rules.apply(state, resolve(rules, state, expect["illegal"]), rng=rng)
        except IllegalActionError as exc:
            if "rule" in expect and exc.rule != expect["rule"]:
                return f"{expect['illegal']!r} was refused by rule {exc.rule!r}, expected {expect['rule']!r}"
            return None
        except ValueError as exc:
            return f"{expect['illegal']!r} is not an action: {exc}"
        return f"{expect['illegal']!r} was allowed; expected it refused ({expect.get('rule', 'any rule')})"
    return None
