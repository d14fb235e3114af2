"""bench/mutants.py: the mutator plants exactly the bug it names, the sample is fixed, and a small run kills."""

from __future__ import annotations

import ast
import importlib.util
import sys

import pytest

from conftest import REPO

_SPEC = importlib.util.spec_from_file_location("mutants_bench", REPO / "bench" / "mutants.py")
mutants = importlib.util.module_from_spec(_SPEC)
sys.modules["mutants_bench"] = mutants
_SPEC.loader.exec_module(mutants)

SOURCE = '''
def f(a, b, items):
    if a < b and not items:
        return True
    total = a + 2
    for x in items:
        if x in (1,):
            break
    return False
'''


def _sites(source: str) -> list:
    tree = ast.parse(source)
    skip = mutants._skipped(tree)
    return [mutants.Mutant("m.py", node.lineno, index, kind, text)
            for index, node in enumerate(ast.walk(tree)) if id(node) not in skip
            for kind, text in mutants._sites(node)]


def test_every_operator_finds_its_sites() -> None:
    found = {(m.kind, m.text) for m in _sites(SOURCE)}
    assert found >= {("negate", "< -> >="), ("boundary", "< -> <="), ("boolop", "and -> or"), ("drop-not", "not dropped"),
                     ("flip-bool", "return True -> False"), ("flip-bool", "return False -> True"),
                     ("arith", "+ -> -"), ("plus", "2 -> 3"), ("minus", "2 -> 1"), ("negate", "in -> not in"),
                     ("loop", "break -> continue")}


@pytest.mark.parametrize(("kind", "text", "before", "after"), [
    ("negate", "< -> >=", "a < b", "a >= b"),
    ("boolop", "and -> or", "a < b and (not items)", "a < b or not items"),
    ("drop-not", "not dropped", "and (not items)", "and items"),
    ("flip-bool", "return True -> False", "return True", "return False\n    total"),
    ("arith", "+ -> -", "a + 2", "a - 2"),
    ("plus", "2 -> 3", "a + 2", "a + 3"),
    ("loop", "break -> continue", "break", "continue"),
])
def test_a_mutant_changes_only_what_it_names(kind: str, text: str, before: str, after: str) -> None:
    mutant = next(m for m in _sites(SOURCE) if (m.kind, m.text) == (kind, text))
    changed = mutants.mutated_source(SOURCE, mutant)
    assert after in changed and before in ast.unparse(ast.parse(SOURCE))
    assert sum(a != b for a, b in zip(ast.unparse(ast.parse(SOURCE)).splitlines(), changed.splitlines())) == 1


def test_annotations_and_fstrings_are_not_mutated() -> None:
    found = _sites('def g(x: "list[int]" = 3) -> int:\n    return f"{x:>2}"\n')
    assert [(m.kind, m.text) for m in found] == [("plus", "3 -> 4"), ("minus", "3 -> 2")]


def test_the_sample_is_fixed_and_in_source_order() -> None:
    found = mutants.find_mutants(REPO / "src", "calavera")
    first, again = mutants.sample(found, 30, 1), mutants.sample(found, 30, 1)
    assert first == again and len(first) == 30 and first != mutants.sample(found, 30, 2)
    assert first == sorted(first, key=lambda m: (m.path, m.line, m.index, m.kind))
    assert {m.path.split("/")[-1] for m in found} == {"actions.py", "game.py", "rules.py", "sheet.py"}


@pytest.mark.slow
def test_a_small_run_on_diables_kills_most_planted_bugs() -> None:
    killed, timeouts, counted, survivors, _ = mutants.run_game("diables", 20, 1, 1, None)
    assert counted == 20 and killed + len(survivors) == 20
    assert killed >= 17, [str(m) for m in survivors]
