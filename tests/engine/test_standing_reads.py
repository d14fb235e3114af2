"""Every standing verb is read by the rule it is bound to: a verb bound as ``stands`` to code the engine never
runs, or whose code never asks a card for that verb, would pass ``validate`` and ``check`` and play blank.

The standing verbs' one accessor is ``CardDef.doing`` (and ``terreta_doing`` for a terreta's bonus); a verb whose
rule reads a table made from it once per deck (``facts.STANDING_TABLES``) is read through that table. Here the
accessor and the tables are wrapped to record, for each verb asked for, which standing handlers were running at
that moment; the scenarios of the shipped fixture database and of the effects and verbs packs are then played."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

from cardworks.engine.scenarios import run_scenario
from cardworks.games.fallera.battles import Battles
from cardworks.games.fallera.cards import CardDef
from cardworks.games.fallera.facts import STANDING_TABLES, Facts
from cardworks.games.fallera.game import scenario_state
from cardworks.games.fallera.registry import REGISTRY, Binding
from cardworks.loading import load_database
from cardworks.models import Scenario
from conftest import FALLERA

HERE = Path(__file__).parent
PACKS = [HERE / "effects_pack", HERE / "verbs_pack"]


def standing() -> list[Binding]:
    return [binding for binding in REGISTRY.bindings.values() if binding.kind == "stands"]


def reads_during(play: Any, bindings: list[Binding]) -> set[tuple[str, str]]:
    """(verb, handler name) for each verb asked of the accessor while that standing handler was running."""
    codes = {binding.handler.__code__: binding.handler.__qualname__ for binding in bindings}
    seen: set[tuple[str, str]] = set()

    def running() -> list[str]:
        frame, names = sys._getframe(2), []
        while frame is not None:
            if frame.f_code in codes:
                names.append(codes[frame.f_code])
            frame = frame.f_back
        return names

    doing, terreta_doing = CardDef.doing, Battles.terreta_doing
    tables = {attribute: verb for verb, attribute in STANDING_TABLES.items()}

    def recorded_table(self: Any, name: str) -> Any:
        if name in tables:
            seen.update((tables[name], handler) for handler in running())
        return object.__getattribute__(self, name)

    def recorded_doing(self: Any, verb: str, event: str = "always") -> Any:
        seen.update((verb, name) for name in running())
        return doing(self, verb, event)

    def recorded_terreta_doing(self: Any, state: Any, verb: str) -> Any:
        seen.update((verb, name) for name in running())
        return terreta_doing(self, state, verb)

    CardDef.doing, Battles.terreta_doing, Facts.__getattribute__ = recorded_doing, recorded_terreta_doing, recorded_table
    try:
        play()
    finally:
        CardDef.doing, Battles.terreta_doing = doing, terreta_doing
        del Facts.__getattribute__
    return seen


def unread(bindings: list[Binding], seen: set[tuple[str, str]]) -> list[str]:
    """The standing bindings whose handler never asked for their own verb."""
    return [f"{b.tag} (bound to {b.handler.__qualname__})" for b in bindings if (b.tag, b.handler.__qualname__) not in seen]


def play_every_scenario() -> int:
    played = 0
    for packs in ([], PACKS):
        db = load_database(FALLERA, packs)
        folders = [FALLERA / "scenarios", *(pack / "scenarios" for pack in packs)]
        for path in sorted(file for folder in folders for file in folder.glob("*.json")):
            for data in json.loads(path.read_text("utf-8"))["scenarios"]:
                data.pop("$schema", None)
                try:
                    rules, state = scenario_state(db, data["setup"])
                except Exception:  # noqa: BLE001 - a scenario of the other database's selection
                    continue
                run_scenario(rules, state, Scenario.model_validate(data), path.name, rng=random.Random(0))
                played += 1
    return played


def test_every_standing_verb_is_read_by_its_own_rule() -> None:
    bindings = standing()
    assert len(bindings) >= 7
    played: list[int] = []
    seen = reads_during(lambda: played.append(play_every_scenario()), bindings)
    assert played[0] > 50, played
    assert unread(bindings, seen) == [], "standing verbs their bound rule never reads"


def test_a_dead_binding_is_found() -> None:
    """A binding to a function the engine never runs, and one to a running rule that asks for another verb."""
    bindings = standing()
    value = next(b for b in bindings if b.tag == "modify-stat")

    def never_called(self: Any) -> None:
        """Bound, never run."""

    dead = Binding(value.model, "modify-stat", never_called, "stands", value.reads)
    wrong = Binding(value.model, "return-to-hand", value.handler, "stands", value.reads)
    seen = {("modify-stat", value.handler.__qualname__)}
    assert unread([value, dead, wrong], seen) == [
        "modify-stat (bound to test_a_dead_binding_is_found.<locals>.never_called)",
        f"return-to-hand (bound to {value.handler.__qualname__})"]
