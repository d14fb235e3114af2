"""The package's layers, computed from its own imports (function-level ones included): nothing imports a
layer above its own, and no two modules import each other, directly or round a longer circle.

The order is written once here and in docs/architecture.md; change it only with the reason written there."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "cardworks"
LAYERS = [
    {"markup", "fileio", "problems", "resources", "ids", "errors", "fonts", "plugin_registry", "journal", "cluster", "collector"},
    {"models"},
    {"loading"},
    {"i18n"},
    {"validate"},
    {"engine", "catalog"},
    {"games", "simulate"},
    {"render"},
    {"export", "serve"},
    {"cli", "__main__"},
]
RANK = {name: rank for rank, names in enumerate(LAYERS) for name in names}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(path: Path, modules: set[str]) -> set[str]:
    """Every cardworks module ``path`` imports, at any depth of its code (relative imports resolved). ``from pkg
    import sub`` depends on ``pkg.sub``, and on ``pkg`` itself only for names that are not submodules."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names if alias.name.startswith("cardworks")}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if not target.startswith("cardworks"):
                continue
            submodules = {f"{target}.{alias.name}" for alias in node.names} & modules
            found |= submodules
            if len(submodules) < len(node.names):
                found.add(target)
    return found



def graph() -> dict[str, set[str]]:
    modules = {module_name(path): path for path in PACKAGE.rglob("*.py")}
    edges = {}
    for name, path in modules.items():
        edges[name] = {target for target in imports_of(path, set(modules)) if target in modules and target != name}
    return edges


def layer(module: str) -> int:
    top = module.split(".")[1] if "." in module else "__init__"
    if top not in RANK:
        raise AssertionError(f"{module}: its top-level part {top!r} is in no layer; add it to LAYERS with a reason")
    return RANK[top]


def against_the_layers(edges: dict[str, set[str]]) -> list[str]:
    return sorted(f"{source} -> {target}" for source, targets in edges.items() if source != "cardworks"
                  for target in targets if target != "cardworks" and layer(target) > layer(source))


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected groups of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in edges.get(node, ()):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return sorted(found)


def test_no_import_runs_against_the_layers() -> None:
    edges = graph()
    assert len(edges) > 100
    assert against_the_layers(edges) == []


def test_no_modules_import_each_other() -> None:
    assert circles(graph()) == []


@pytest.mark.parametrize("planted", ["upward", "circle"])
def test_the_checks_find_a_planted_fault(planted: str) -> None:
    edges = {name: set(targets) for name, targets in graph().items()}
    if planted == "upward":
        edges["cardworks.models.cards"].add("cardworks.render.build")
        assert "cardworks.models.cards -> cardworks.render.build" in against_the_layers(edges)
    else:
        edges["cardworks.fileio"].add("cardworks.problems")
        edges["cardworks.problems"].add("cardworks.fileio")
        assert any({"cardworks.fileio", "cardworks.problems"} <= set(circle) for circle in circles(edges))
