"""Which rulings the engine checks: each behaviour ruling's passing scenarios, or why it has none yet.

A ruling that states behaviour (``states_behaviour``) is *checked* when it names
at least one scenario, every scenario it names exists and passes. Otherwise it
is *blocked*, and the reason must be found, not assumed:

- cards of the ruling that the game's engine leaves out of its decks
  (unmodelled), each with the engine's own reason, read from the game plugin's
  ``configurations`` and ``rules_for``;
- a feature the engine or the scenario format lacks, declared by the game's
  plugin (``missing_features``) with the rulings that need it.

A behaviour ruling with neither is *uncovered*: the coverage test fails on it.
Rulings and scenarios are generic records; only the declared features are
per game (each plugin's own).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable

from ..loading.database import Database
from ..loading.records import Index

def missing_features(game: str) -> dict[str, tuple[str, tuple[str, ...]]]:
    """Feature id → (what is missing, rulings that need it), as the game's plugin declares them: rulings that
    state behaviour no scenario can check yet although all their cards are modelled (or besides that)."""
    from .plugins import plugin_of

    plugin = plugin_of(game)
    return dict(plugin.missing_features) if plugin is not None else {}


@dataclass(frozen=True)
class RulingCoverage:
    """How one behaviour ruling is checked, or why it is not."""

    ruling: str
    passing: tuple[str, ...] = ()
    """Scenarios named by the ruling that exist and pass."""
    failing: tuple[str, ...] = ()
    """Scenarios named by the ruling that fail."""
    missing: tuple[str, ...] = ()
    """Scenario ids named by the ruling that no scenario file defines."""
    left_out: dict[str, str] = field(default_factory=dict)
    """Cards of the ruling the engine leaves out, with the engine's reason."""
    features: dict[str, str] = field(default_factory=dict)
    """Declared missing features the ruling needs, with what is missing."""

    @property
    def checked(self) -> bool:
        return bool(self.passing) and not self.failing and not self.missing

    @property
    def blocked(self) -> bool:
        return not self.checked and not self.failing and not self.missing and bool(self.left_out or self.features)

    @property
    def reason(self) -> str | None:
        """None when the ruling is checked, else why it is not (blocked or broken)."""
        if self.checked:
            return None
        if self.missing:
            return f"names scenarios that do not exist: {', '.join(self.missing)}"
        if self.failing:
            return f"names scenarios that fail: {', '.join(self.failing)}"
        parts = [f"{card} is left out ({why})" for card, why in sorted(self.left_out.items())]
        parts += [f"needs {name}: {what}" for name, what in sorted(self.features.items())]
        return "; ".join(parts) or "states behaviour but has no scenario and concerns no card the engine leaves out"


def classify(rulings: Iterable[Any], scenario_ids: set[str], passed: set[str], left_out: dict[str, str],
             features: dict[str, tuple[str, tuple[str, ...]]]) -> dict[str, RulingCoverage]:
    """Coverage of every ruling that states behaviour (pure: everything is passed in).

    ``rulings``: objects with ``id``, ``cards``, ``scenarios`` and ``states_behaviour``;
    ``scenario_ids``: every scenario defined; ``passed``: those that pass; ``left_out``:
    card id → why the engine leaves it out; ``features``: as ``missing_features`` gives them.
    """
    needs: dict[str, dict[str, str]] = {}
    for name, (what, ruling_ids) in features.items():
        for ruling_id in ruling_ids:
            needs.setdefault(ruling_id, {})[name] = what
    result = {}
    for ruling in rulings:
        if not ruling.states_behaviour:
            continue
        named = list(dict.fromkeys(ruling.scenarios))
        result[ruling.id] = RulingCoverage(
            ruling.id,
            passing=tuple(s for s in named if s in passed),
            failing=tuple(s for s in named if s in scenario_ids and s not in passed),
            missing=tuple(s for s in named if s not in scenario_ids),
            left_out={card: left_out[card] for card in ruling.cards if card in left_out},
            features=needs.get(ruling.id, {}))
    return result


def left_out_cards(db: Database) -> dict[str, str]:
    """Cards the game's engine leaves out in every configuration it plays, with the reason.

    Removals by player count (a card another configuration plays) are not reasons.
    """
    from .plugins import plugin_for

    plugin = plugin_for(db.game_doc.id)
    configs, _ = plugin.configurations(db)
    seen: dict[str, str] = {}
    played: set[str] = set()
    for config in {c.selection: c for c in configs}.values():  # one per selection: player counts only remove
        _, catalogue = plugin.rules_for(db, config)
        played |= set(catalogue.cards)
        seen.update({card: why for card, why in catalogue.left_out.items() if not why.startswith("removed at")})
    return {card: why for card, why in sorted(seen.items()) if card not in played}


def features_waited_on(db: Database, left_out: dict[str, str]) -> dict[str, tuple[int, int]]:
    """Engine feature → (left-out cards whose stated behaviour needs it, the cards it alone would free: those
    recording no missing fact and no other feature), read from the cards' ``needs`` and ``missing``."""
    result: dict[str, tuple[int, int]] = {}
    for record in Index(db).of_kind("card"):
        if record.id not in left_out:
            continue
        card = record.model
        features = {need.feature for need in card.needs}
        for feature in features:
            needing, alone = result.get(feature, (0, 0))
            result[feature] = (needing + 1, alone + int(len(features) == 1 and not card.missing))
    return dict(sorted(result.items()))


def ruling_coverage(db: Database, scenario_results: list[Any] | None = None) -> dict[str, RulingCoverage]:
    """Coverage of every behaviour ruling of ``db``'s game; runs its scenarios unless results are given."""
    from .scenarios import run_scenarios

    results = run_scenarios(db) if scenario_results is None else scenario_results
    index = Index(db)
    rulings = [record.model for record in index.of_kind("ruling")]
    scenario_ids = {record.id for record in index.of_kind("scenario")}
    passed = {r.id for r in results if r.passed}
    return classify(rulings, scenario_ids, passed, left_out_cards(db), missing_features(db.game_doc.id))


def feature_problems(db: Database, coverage: dict[str, RulingCoverage]) -> list[str]:
    """Declared missing features that name unknown rulings, or rulings already checked by a scenario."""
    features = missing_features(db.game_doc.id)
    problems = []
    for name, (_, ruling_ids) in features.items():
        for ruling_id in ruling_ids:
            if ruling_id not in coverage:
                problems.append(f"feature {name} names {ruling_id}, which is not a ruling stating behaviour")
            elif coverage[ruling_id].checked:
                problems.append(f"feature {name} names {ruling_id}, which a scenario now checks: drop it")
    return problems
