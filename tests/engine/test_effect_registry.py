"""One registry binds each member of Fallera's effect vocabulary to the callable that handles it: a member
without a handler, or a handler without a member, stops the import, and no table of names remains."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from cardworks.games.fallera import effects, interpreter
from cardworks.games.fallera.registry import KINDS, PLACES, REGISTRY, Registry, RegistryError, members, tag_of
from conftest import FIXTURE_CARDS, REPO

_KINDS_OF = {"when": {"trigger"}, "while": {"condition"}, "do": {"acts", "stands", "describes"}}


@pytest.mark.parametrize("part, model", [(part, model) for part, union in effects.PARTS.items()
                                          for model in members(union)],
                         ids=lambda value: value if isinstance(value, str) else tag_of(value))
def test_every_member_of_the_union_is_bound_to_a_callable_of_its_part(part: str, model: type) -> None:
    binding = REGISTRY.bindings[model]
    assert callable(binding.handler) and binding.kind in _KINDS_OF[part], binding
    assert binding.tag == tag_of(model)
    assert binding.reads <= set(PLACES)
    if binding.kind in ("stands", "condition") or (binding.kind == "trigger" and binding.tag != "always"):
        assert binding.reads, f"{binding.tag} says nowhere it is read"


def test_the_registry_is_sealed_and_has_no_member_or_handler_left_over() -> None:
    assert REGISTRY.sealed and REGISTRY.problems() == []
    assert set(REGISTRY.bindings) == {model for union in effects.PARTS.values() for model in members(union)}
    assert interpreter.handled() == interpreter.vocabulary()
    assert not hasattr(interpreter, "HANDLERS")


@pytest.mark.parametrize("tag", ["modify-stat", "card-used", "on-your-counter", "extra-action"])
def test_removing_a_handlers_registration_fails_the_seal(monkeypatch, tag: str) -> None:
    part = next(p for p, union in effects.PARTS.items() if tag in map(tag_of, members(union)))
    monkeypatch.delitem(REGISTRY.bindings, REGISTRY.by_tag(part)[tag].model)
    assert REGISTRY.problems() == [f"{part} {tag}: no handler is bound to it"]
    with pytest.raises(RegistryError, match=tag):
        REGISTRY.seal()


def test_a_handler_for_something_outside_the_vocabulary_is_refused_at_once() -> None:
    registry = Registry(effects.PARTS)

    class Teleport(effects.Model):
        verb: str = "teleport"

    with pytest.raises(RegistryError, match="not a member"):
        registry.bind(Teleport, "acts")
    registry.bind(effects.Draw, "acts")(print)
    with pytest.raises(RegistryError, match="bound twice"):
        registry.bind(effects.Draw, "acts")
    with pytest.raises(RegistryError, match="unknown places"):
        registry.bind(effects.Coin, "acts", reads=("pocket",))
    with pytest.raises(RegistryError, match="unknown kind"):
        registry.bind(effects.Win, "sings")
    assert set(KINDS) >= {"acts", "stands"}


def test_a_member_left_without_its_handler_stops_the_import(tmp_path: Path) -> None:
    """A copy of the package with the decorator binding ``modify-stat`` deleted from ``battles.py``: importing
    the game fails, naming the member."""
    shutil.copytree(REPO / "src" / "cardworks", tmp_path / "cardworks", ignore=shutil.ignore_patterns("__pycache__"))
    battles = tmp_path / "cardworks" / "games" / "fallera" / "battles.py"
    text = battles.read_text(encoding="utf-8")
    line = '    @REGISTRY.bind(ModifyStat, "stands", reads=("counter", "terreta"))\n'
    assert line in text
    battles.write_text(text.replace(line, ""), encoding="utf-8")
    run = subprocess.run([sys.executable, "-c", "import cardworks.games.fallera"], capture_output=True, text=True,
                         env={**os.environ, "PYTHONPATH": str(tmp_path)}, timeout=120)
    assert run.returncode != 0
    assert "RegistryError" in run.stderr and "do modify-stat: no handler is bound to it" in run.stderr, run.stderr
    command = subprocess.run([sys.executable, "-m", "cardworks", "--cards", str(FIXTURE_CARDS), "check", "--game",
                              "fallera", "--playouts", "0"], capture_output=True, text=True, cwd=tmp_path,
                             env={**os.environ, "PYTHONPATH": str(tmp_path)}, timeout=120)
    assert command.returncode == 70, command.stderr  # a defect in code, said in one line, not a traceback
    assert command.stderr.strip().splitlines() == [
        "cardworks: error: [verb-binding] the effect vocabulary and its handlers disagree: do modify-stat: no handler "
        "is bound to it"], command.stderr


def test_no_table_of_method_names_is_left_in_the_interpreter() -> None:
    source = (REPO / "src" / "cardworks" / "games" / "fallera" / "interpreter.py").read_text(encoding="utf-8")
    assert "HANDLERS" not in source and "FalleraRules._" not in source
