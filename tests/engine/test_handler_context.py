"""Acting verbs are written against a documented context (``games/fallera/handler_context.VerbContext``): every
handler takes ``rules: VerbContext`` and uses no other attribute of it, so no handler reaches into the rules'
private methods, and the rules really offer every member the protocol documents."""

from __future__ import annotations

import ast
from pathlib import Path

from cardworks.games.fallera.handler_context import MEMBERS
from cardworks.games.fallera.registry import REGISTRY
from cardworks.games.fallera.rules import FalleraRules

PACKAGE = Path(__file__).resolve().parents[2] / "src" / "cardworks" / "games" / "fallera"


def context_uses(source: str) -> dict[str, set[str]]:
    """For each function whose first parameter is ``rules: VerbContext``: the attributes it reads on ``rules``."""
    found: dict[str, set[str]] = {}
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef) and node.args.args and node.args.args[0].arg == "rules" \
                and ast.unparse(node.args.args[0].annotation or ast.Constant("")) == "VerbContext":
            found[node.name] = {sub.attr for sub in ast.walk(node) if isinstance(sub, ast.Attribute)
                                and isinstance(sub.value, ast.Name) and sub.value.id == "rules"}
    return found


def beyond_the_context(uses: dict[str, set[str]]) -> list[str]:
    return sorted(f"{name}: rules.{attribute}" for name, attributes in uses.items() for attribute in attributes
                  if attribute not in MEMBERS)


def test_every_acting_handler_uses_only_the_context() -> None:
    uses: dict[str, set[str]] = {}
    for path in sorted(PACKAGE.glob("*.py")):
        uses.update(context_uses(path.read_text(encoding="utf-8")))
    handlers = {b.handler.__name__ for b in REGISTRY.bindings.values() if b.kind == "acts"}
    assert len(handlers) >= 16
    assert handlers <= set(uses), f"handlers not written against VerbContext: {sorted(handlers - set(uses))}"
    assert beyond_the_context(uses) == []


def test_the_rules_offer_every_member_of_the_context() -> None:
    assert len(MEMBERS) >= 10
    assert [name for name in sorted(MEMBERS) if not callable(getattr(FalleraRules, name, None))] == []


def test_a_handler_reaching_into_the_rules_is_found() -> None:
    source = ("def steal(rules: VerbContext, draft, who, source, index, path, k, verb):\n"
              "    rules._later(draft, ())\n    rules.schedule(draft, ())\n")
    assert beyond_the_context(context_uses(source)) == ["steal: rules._later"]
