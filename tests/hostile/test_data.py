"""Hostile data files: every document must be the object its schema says, read safely and in bounded time."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from corpus import cardworks, diables, fingerprint, judge, lost, mini  # noqa: F401  (fixtures)

FAMILY = "data"


@pytest.mark.parametrize("relative", ["sets/base.json", "rulings/base.json", "game.json", "components.json"])
def test_json_null_document_is_refused(mini, relative: str) -> None:
    (mini.root / relative).write_text("null\n")
    result = cardworks("--cards", str(mini.cards_root), "validate", timeout=30)
    judge(f"null {relative}", FAMILY, result, refuse=True, names=relative, code="wrong-type")


def test_integer_of_5000_digits_is_refused(mini) -> None:
    data = mini.data("sets/base.json")
    text = json.dumps(data).replace('"quantity": 3', '"quantity": ' + "9" * 5000)
    (mini.root / "sets/base.json").write_text(text)
    result = cardworks("--cards", str(mini.cards_root), "validate", timeout=30)
    judge("5000-digit integer", FAMILY, result, refuse=True, names="sets/base.json", code="json-number-too-long")


def test_json_symlink_loop_is_refused(mini) -> None:
    os.symlink("loop-b.json", mini.root / "rulings" / "loop-a.json")
    os.symlink("loop-a.json", mini.root / "rulings" / "loop-b.json")
    result = cardworks("--cards", str(mini.cards_root), "validate", timeout=30)
    judge("json symlink loop", FAMILY, result, refuse=True, names="loop-a.json", code="symlink-loop")


def test_svg_symlink_loop_is_refused(mini) -> None:
    (mini.root / "icons/treasure.svg").unlink()
    os.symlink("treasure.svg", mini.root / "icons/treasure.svg")
    result = cardworks("--cards", str(mini.cards_root), "validate", timeout=30)
    judge("svg symlink loop", FAMILY, result, refuse=True, names="treasure.svg", code="symlink-loop")


@pytest.mark.parametrize("field", ["name", "rules", "flavour"])
def test_megabyte_card_text_is_refused_quickly(mini, tmp_path: Path, field: str) -> None:
    data = mini.data("sets/base.json")
    data["cards"][1][field] = "Roba " * 200_000
    (mini.root / "sets/base.json").write_text(json.dumps(data))
    result = cardworks("--cards", str(mini.cards_root), "build", "--out", str(tmp_path / "out"), timeout=30)
    judge(f"1 MB card {field}", FAMILY, result, refuse=True, names="sets/base.json", code="text-too-long")


def test_megabyte_translated_name_is_refused(mini) -> None:
    data = mini.data("i18n/es.json")
    data["entries"]["capita"]["name"]["text"] = "x" * 1_000_000
    (mini.root / "i18n/es.json").write_text(json.dumps(data))
    result = cardworks("--cards", str(mini.cards_root), "validate", timeout=30)
    judge("1 MB translated name", FAMILY, result, refuse=True, names="i18n/es.json", code="text-too-long")
