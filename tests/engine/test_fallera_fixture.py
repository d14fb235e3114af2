"""The fixture games the engine tests play on (``tests/fixtures/cards``, written by its ``build.py``) are valid
games, and Fallera's is a cut of the shipped one that the shipped-load counter does not take for it."""

from __future__ import annotations

import json

import conftest
from conftest import FALLERA, FIXTURE_CARDS, REPO, run_cli


def _designs(game) -> set[str]:
    return {card["id"] for path in (game / "sets").glob("*.json")
            for card in json.loads(path.read_text(encoding="utf-8"))["cards"]}


def test_the_fixtures_validate_without_a_problem() -> None:
    """Only the warning the shipped Diables gives too: its set lists fewer cards than the rulebook counts."""
    run = run_cli("--cards", str(FIXTURE_CARDS), "validate", "--strict", "--format", "json")
    assert [(p["code"], p["file"].split("/")[-3]) for p in run.problems] == [("set-incomplete", "diables")], run.output


def test_the_fixture_is_a_cut_of_the_shipped_cards_not_a_copy() -> None:
    kept, shipped = _designs(FALLERA), _designs(REPO / "cards" / "fallera")
    assert kept < shipped and len(kept) * 2 < len(shipped), (len(kept), len(shipped))
    assert conftest._shipped_copy(FALLERA) is None
