"""The strict scenario runner: scripted steps from an explicit position, then expectations.

A step is an action in the game's notation; ``#n`` may be left out when any
instance of the design will do. Every decision and every chance outcome must
be scripted: a chance outcome the script does not give, a step that does not
apply, or a script line left unused fails the scenario with a clear message.
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import DataError
from ..fileio import read_text_limited
from ..loading.database import Database, display_path
from ..models.scenarios import ScenarioFile
from ..problems import Problem
from ..validate.expectations import Expectation, scenario_problems
from .core import CHANCE, IllegalActionError, SetupRefused, player_index
from .playouts import raised
from .plugins import plugin_for

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
    """Equal, and of the same JSON type all the way down: ``3.0`` is not ``3`` and ``false`` is not ``0`` (typed
    means typed; Python's ``==`` says both are)."""
    if isinstance(got, list) and isinstance(wanted, list):
        return len(got) == len(wanted) and all(map(_same, got, wanted))
    if isinstance(got, str) and isinstance(wanted, str) and "#" not in wanted:
        return _NUMBER.sub("", got) == wanted
    return bool(_typed(got) == _typed(wanted))


def _typed(value: Any) -> Any:
    """``value`` with each number tagged by its JSON type, so that ``==`` tells ``3``, ``3.0`` and ``true`` apart."""
    if isinstance(value, bool | int | float):
        return type(value).__name__, value
    if isinstance(value, list | tuple):
        return type(value)(map(_typed, value))
    if isinstance(value, dict):
        return {key: _typed(item) for key, item in value.items()}
    return value


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


def _scenario_files(db: Database, extra: list[Path]) -> list[tuple[str, ScenarioFile]]:
    files = [(loaded.display, doc) for loaded, doc in db.docs("scenarios")]
    for path in extra:
        paths = sorted(path.glob("*.json")) if path.is_dir() else [path]
        for item in paths:
            try:
                files.append((display_path(item), ScenarioFile.model_validate(json.loads(read_text_limited(item)))))
            except (OSError, ValueError) as exc:
                raise DataError(f"{display_path(item)}: not a readable scenario file",
                                [Problem(display_path(item), "", "scenario-unreadable", str(exc).splitlines()[0])]) from None
    return files


def run_scenarios(db: Database, scenario_paths: list[Path] | None = None) -> list[ScenarioResult]:
    """Every scenario of the game (and of ``scenario_paths``), each run on its own, failures included.

    Raises DataError, before any runs, when a scenario expects a key the game does not read, a value of the wrong
    type or an id the game lacks, or has a step that does not parse (``expectations.scenario_problems``)."""
    plugin = plugin_for(db.game_doc.id)
    files = _scenario_files(db, scenario_paths or [])
    problems = [p for file, doc in files for p in scenario_problems(plugin, db, file, doc.scenarios)]
    if problems:  # refused before anything runs: a key no game reads would pass silently
        raise DataError(f"{len(problems)} problem(s) in the scenarios; none was run", problems)
    results = []
    for file, doc in files:
        for scenario in doc.scenarios:
            try:
                rules, state = plugin.scenario_state(db, scenario.setup)
            except SetupRefused as exc:
                results.append(_refusal_result(scenario, file, exc))
                continue
            except (ValueError, KeyError, TypeError) as exc:
                results.append(ScenarioResult(scenario.id, file, False, [f"setup: {exc}"]))
                continue
            except Exception as exc:  # the game's own code raised: a failed scenario, not a crashed run
                results.append(ScenarioResult(scenario.id, file, False, [f"setup: {raised(exc)}"]))
                continue
            if scenario.refused:
                results.append(ScenarioResult(scenario.id, file, False, [
                    f"setup: expected it refused by rule {scenario.refused!r}, but the engine accepted it"]))
                continue
            rng = random.Random(scenario.setup.get("seed", 0))
            try:
                results.append(run_scenario(rules, state, scenario, file, rng=rng))
            except Exception as exc:  # a step, an effect or an invariant raised (a saved failed playout replays so)
                results.append(ScenarioResult(scenario.id, file, False, [raised(exc)]))
    return results


def _refusal_result(scenario: Any, file: str, refusal: SetupRefused) -> ScenarioResult:
    """A refused setup passes exactly when the scenario expects that refusal, by that rule."""
    if scenario.refused == refusal.rule:
        return ScenarioResult(scenario.id, file, True)
    if scenario.refused:
        return ScenarioResult(scenario.id, file, False, [f"setup: refused by rule {refusal.rule!r}, expected "
                                                         f"{scenario.refused!r}: {refusal}"])
    return ScenarioResult(scenario.id, file, False, [f"setup refused: {refusal}"])
