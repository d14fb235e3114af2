"""The strict scenario runner: scripted steps from an explicit position, then expectations.

A step is an action in the game's notation; ``#n`` may be left out when any
instance of the design will do. Every decision and every chance outcome must
be scripted: a chance outcome the script does not give, a step that does not
apply, or a script line left unused fails the scenario with a clear message.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from typing import Any

from .core import CHANCE, IllegalActionError, player_index
from .expectations import Expectation

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
    """Give each bare design id in ``text`` the number of its first instance (for refused actions).

    Games without card instances (dice, boards) have no ``designs`` and the text stays as it is.
    """
    first: dict[str, int] = {}
    for number, design in enumerate(getattr(state, "designs", ())):
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

    broken = rules.invariants(state)
    if broken:
        return fail(f"the starting position: {'; '.join(broken)}")
    at_steps = _expectations_at(scenario)
    if isinstance(at_steps, str):
        return fail(at_steps)
    for expectation in at_steps.get(0, []):
        message = check_expectation(rules, state, expectation, rng)
        if message:
            fail(f"at the start: {message}")
    for number, step in enumerate(scenario.steps, start=1):
        if rules.actor(state) is None:
            return fail(f"step {number} {step!r} is left unused: the game was already over ({rules.result(state)[1]})")
        try:
            action = resolve(rules, state, step)
            state = rules.apply(state, action, rng=rng)
        except (IllegalActionError, ValueError) as exc:
            return fail(f"step {number} {step!r} does not apply: {exc}")
        broken = rules.invariants(state)
        if broken:
            return fail(f"after step {number} {step!r}: {'; '.join(broken)}")
        for expectation in at_steps.get(number, []):
            message = check_expectation(rules, state, expectation, rng)
            if message:
                fail(f"after step {number} {step!r}: {message}")
    if rules.actor(state) == CHANCE:
        options = ", ".join(a.notation() for a in rules.legal_actions(state)[:4])
        return fail(f"the script ends while a chance outcome is due (one of: {options}); script it")
    for expectation in scenario.expect:
        if "after" in expectation:
            continue
        message = check_expectation(rules, state, expectation, rng)
        if message:
            fail(message)
    return result


def _expectations_at(scenario: Any) -> dict[int, list[dict[str, Any]]] | str:
    """Expectations with ``after`` by step number (0: the starting position), or what is wrong with one.

    ``after`` is a step's number, or a step's text (its first occurrence): an expectation at a named step.
    """
    found: dict[int, list[dict[str, Any]]] = {}
    texts = [" ".join(step.split()) for step in scenario.steps]
    for expectation in scenario.expect:
        if "after" not in expectation:
            continue
        where = expectation["after"]
        if isinstance(where, str):
            if " ".join(where.split()) not in texts:
                return f"an expectation is set after the step {where!r}, which the script does not have"
            where = texts.index(" ".join(where.split())) + 1
        if not isinstance(where, int) or not 0 <= where <= len(texts):
            return f"an expectation is set after step {where!r}; the script has steps 0 to {len(texts)}"
        found.setdefault(where, []).append({k: v for k, v in expectation.items() if k != "after"})
    return found


def check_legal(rules: Any, state: Any, expect: dict[str, Any]) -> str | None:
    """``legal`` (exactly these actions are legal), ``legal_includes`` and ``legal_excludes`` (each must or must
    not be legal); actions as the notation writes them, ``#n`` left out matching any instance."""
    legal = [a.notation() for a in rules.legal_actions(state)]
    loose = sorted(_NUMBER.sub("", text) for text in legal)

    def listed(wanted: str) -> bool:
        wanted = " ".join(wanted.split())
        return wanted in legal if _NUMBER.search(wanted) else _NUMBER.sub("", wanted) in loose

    if "legal" in expect:
        wanted = sorted(_NUMBER.sub("", " ".join(w.split())) if not _NUMBER.search(w) else w for w in expect["legal"])
        got = loose if not any(_NUMBER.search(w) for w in expect["legal"]) else sorted(legal)
        if wanted != got:
            return f"expected exactly the legal actions {wanted}, got {got}"
    missing = [w for w in expect.get("legal_includes", []) if not listed(w)]
    if missing:
        return f"expected {missing} to be legal; legal now: {sorted(legal)[:12]}"
    present = [w for w in expect.get("legal_excludes", []) if listed(w)]
    if present:
        return f"expected {present} not to be legal, but they are"
    return None


GENERIC_KEYS = Expectation.generic_keys()
"""Expectation keys the runner reads itself, for every game (``after`` is read before a check is made)."""


def check_observation(rules: Any, state: Any, who: str, sees: dict[str, Any]) -> str | None:
    """None when player ``who``'s observation holds each of ``sees``, else the first difference.

    Keys are dotted paths into ``rules.observe`` (``battle.attack``, ``hand_sizes.2``);
    a card written without ``#n`` matches any instance of its design.
    """
    seen = rules.observe(state, player_index(who))
    for path, wanted in sees.items():
        got: Any = seen
        for part in path.split("."):
            if isinstance(got, list) and part.isdigit() and int(part) < len(got):
                got = got[int(part)]
            elif isinstance(got, dict) and part in got:
                got = got[part]
            else:
                return f"{who}'s observation has no {path!r}"
        if not _same(got, wanted):
            return f"expected {who} to see {path} = {wanted!r}, got {got!r}"
    return None


def _same(got: Any, wanted: Any) -> bool:
    if isinstance(got, list) and isinstance(wanted, list):
        return len(got) == len(wanted) and all(map(_same, got, wanted))
    if isinstance(got, str) and isinstance(wanted, str) and "#" not in wanted:
        return _NUMBER.sub("", got) == wanted
    return bool(got == wanted)


def check_expectation(rules: Any, state: Any, expect: dict[str, Any], rng: random.Random) -> str | None:
    """None when the expectation holds, else what differs.

    ``illegal`` (an action that must be refused, optionally by ``rule``), ``observe`` (what one player
    sees, ``sees``) and the legal actions (``check_legal``) are the same for every game;
    every other key is read by the game's ``rules.expectation``.
    """
    message = rules.expectation(state, {k: v for k, v in expect.items() if k not in GENERIC_KEYS})
    if message is None:
        message = check_legal(rules, state, expect)
    if message is None and "observe" in expect:
        message = check_observation(rules, state, expect["observe"], expect.get("sees", {}))
    if message or "illegal" not in expect:
        return message
    try:
        rules.apply(state, resolve(rules, state, expect["illegal"]), rng=rng)
    except IllegalActionError as exc:
        if "rule" in expect and exc.rule != expect["rule"]:
            return f"{expect['illegal']!r} was refused by rule {exc.rule!r}, expected {expect['rule']!r}"
        return None
    except ValueError as exc:
        return f"{expect['illegal']!r} is not an action: {exc}"
    return f"{expect['illegal']!r} was allowed; expected it refused ({expect.get('rule', 'any rule')})"
