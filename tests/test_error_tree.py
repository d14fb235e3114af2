"""One error tree: every exception class cardworks defines under a public name derives from ``CardworksError``,
so the command line can print any of them as one line (a private ``_Name`` is a signal inside its module)."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

from cardworks.errors import CardworksError

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "cardworks"


def outside_the_tree(module: object, names: list[str]) -> list[str]:
    """The exception classes among ``module``'s ``names`` that do not derive from ``CardworksError``."""
    classes = [getattr(module, name) for name in names]
    return [cls.__name__ for cls in classes if issubclass(cls, BaseException) and not issubclass(cls, CardworksError)]


def test_every_public_exception_class_is_a_cardworks_error() -> None:
    outside, exceptions = [], 0
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names = [node.name for node in tree.body if isinstance(node, ast.ClassDef) and not node.name.startswith("_")]
        if not names:
            continue
        module = importlib.import_module(".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts))
        exceptions += sum(issubclass(getattr(module, name), BaseException) for name in names)
        outside += [f"{module.__name__}.{name}" for name in outside_the_tree(module, names)]
    assert exceptions >= 15, exceptions  # the walk did find the tree
    assert outside == [], f"derive these from CardworksError (src/cardworks/errors.py): {outside}"


def test_the_check_sees_an_exception_outside_the_tree() -> None:
    module = type("module", (), {"Stray": type("Stray", (ValueError,), {}), "Kept": CardworksError})
    assert outside_the_tree(module, ["Stray", "Kept"]) == ["Stray"]
