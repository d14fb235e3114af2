"""Optional cards (the Misteri d'Elx) are printed only when asked for, through the same build and checks."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from cardworks.loading import load_database
from cardworks.render.deck import build_deck
from conftest import FIXTURE_CARDS, REPO, run_cli

CARDS = REPO / "cards"


def test_optional_cards_join_the_deck_only_when_asked() -> None:
    db = load_database(FIXTURE_CARDS / "fallera")  # the fixture game keeps the Misteri d'Elx
    plain = build_deck(db, "base-2")
    assert "misteri-d-elx" not in {c.card.id for c in plain.cards}
    for asked in (("all",), ("misteri-d-elx",)):
        deck = build_deck(db, "base-2", optional=asked)
        assert {c.card.id for c in deck.cards} - {c.card.id for c in plain.cards} == {"misteri-d-elx"}
        assert deck.label == "base-2-with-optional"
    assert build_deck(db, "base", optional=("all",)).optional == ()  # no optional card in the base set


@pytest.mark.parametrize("value, message", [("conill", "not an optional card"),
                                            ("misteri-d-elx", "which this deck leaves out")])
def test_a_card_that_cannot_be_added_is_a_usage_error(tmp_path: Path, value: str, message: str) -> None:
    run = run_cli("--cards", str(FIXTURE_CARDS), "build", "--game", "fallera", "--set", "base", "--locale", "en",
                  "--no-docs", "--with-optional", value, "--out", str(tmp_path))
    assert run.exit_code == 2 and message in run.output


@pytest.mark.slow
def test_with_optional_prints_the_misteri_d_elx(tmp_path: Path) -> None:
    run = run_cli("--cards", str(CARDS), "build", "--game", "fallera", "--set", "base-2", "--locale", "en",
                  "--no-docs", "--with-optional", "--out", str(tmp_path))
    assert run.exit_code == 0, run.output
    records = {r["path"]: r for r in json.loads((tmp_path / "manifest.json").read_text())["outputs"]}
    shop = tmp_path / "fallera/en/print-shop/cards-base-2-with-optional.pdf"
    text = subprocess.run(["pdftotext", str(shop), "-"], capture_output=True, text=True, check=True).stdout
    assert "Misteri d'Elx" in text or "Misteri d’Elx" in text
    assert "fallera/en/cards-base-2-with-optional-a4.pdf" in records
