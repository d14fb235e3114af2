"""No test asserts only inside loops: such a test passes when its loop runs zero times (an empty query, a
build that wrote nothing), so each one also asserts that the loop has something to go through."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)
_LOOPS = (ast.For, ast.AsyncFor, ast.While)


def _never_empty(loop: ast.AST) -> bool:
    """A loop over a literal with items, or over ``range(N)``/``enumerate``/``zip`` of such: it always runs."""
    if not isinstance(loop, (ast.For, ast.AsyncFor)):
        return False
    source = loop.iter
    if isinstance(source, ast.Call) and isinstance(source.func, ast.Name) and source.args:
        if source.func.id == "range" and isinstance(source.args[0], ast.Constant):
            return len(source.args) == 1 and isinstance(source.args[0].value, int) and source.args[0].value > 0
        if source.func.id in ("enumerate", "zip", "sorted", "list", "tuple"):
            source = source.args[0]
    return isinstance(source, (ast.Tuple, ast.List, ast.Set)) and bool(source.elts) or \
        isinstance(source, ast.Dict) and bool(source.keys)


def _is_check(node: ast.AST) -> bool:
    """An assert, a ``pytest.raises``/``warns`` block or a call to a ``check_…``/``assert_…`` helper."""
    if isinstance(node, ast.Assert):
        return True
    if isinstance(node, ast.Call):
        name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
        return name in ("raises", "warns") or name.startswith(("check_", "assert_"))
    return False


def checks_by_loops(function: ast.AST) -> list[bool]:
    """For each check in ``function``'s own body: whether it always runs (no loop around it may be empty).
    A loop's iterable and its ``else`` are outside the loop."""
    found: list[bool] = []

    def visit(node: ast.AST, always: bool) -> None:
        if _is_check(node):
            found.append(always)
        if isinstance(node, _LOOPS):
            visit(node.iter if isinstance(node, (ast.For, ast.AsyncFor)) else node.test, always)
            for inner in node.body:
                visit(inner, always and _never_empty(node))
            for inner in node.orelse:
                visit(inner, always)
            return
        for child in ast.iter_child_nodes(node):
            if not isinstance(child, _SCOPES):
                visit(child, always)

    for statement in function.body:
        visit(statement, True)
    return found


def loop_only_tests(source: str) -> list[str]:
    """The test functions of ``source`` whose every check sits in a loop that may run zero times."""
    tree = ast.parse(source)
    return [node.name for node in ast.walk(tree)
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("test_")
            and (found := checks_by_loops(node)) and not any(found)]


def test_no_test_asserts_only_inside_loops() -> None:
    files = sorted(TESTS.rglob("test_*.py"))
    assert len(files) > 50
    found = {str(path.relative_to(TESTS)): names for path in files
             if (names := loop_only_tests(path.read_text(encoding="utf-8")))}
    assert not found, f"these tests pass when their loop is empty; assert that it ran: {found}"


def test_a_test_asserting_only_in_a_loop_is_found() -> None:
    source = '''
def test_only_in_loop(items):
    for item in items:
        assert item.ok

def test_in_loop_and_after(items):
    for item in items:
        assert item.ok
    assert items

def test_in_a_literal_loop():
    for n in (1, 2):
        assert n

def test_only_in_a_while(queue):
    while queue:
        assert queue.pop()

def test_in_a_loop_and_a_helper(items):
    for item in items:
        assert item
    check_all(items)

def helper(items):
    for item in items:
        assert item
'''
    assert loop_only_tests(source) == ["test_only_in_loop", "test_only_in_a_while"]
