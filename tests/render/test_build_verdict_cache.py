"""The build reuses its last clean validation verdict while nothing validation reads changed, and still fails
on a card broken since."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardworks.validate import cache
from conftest import run_cli

pytestmark = pytest.mark.slow  # builds the mini game's sheets (WeasyPrint)


def test_a_rebuild_reuses_the_verdict_and_a_broken_card_still_fails(game, tmp_path: Path, monkeypatch) -> None:
    game.write()
    out = tmp_path / "out"
    args = ["--cards", str(game.cards_root), "build", "--out", str(out), "--game", "mini", "--locale", "en",
            "--no-docs", "--jobs", "1"]
    first = run_cli(*args)
    assert first.exit_code == 0, first.output
    assert len(list((out / ".cache" / "validation").iterdir())) == 2  # the verdict and its game rules' part
    sheets = {p: p.read_bytes() for p in out.rglob("*.pdf") if ".cache" not in p.parts}

    real = cache.validate
    monkeypatch.setattr(cache, "validate", lambda *a, **k: pytest.fail("validated again although nothing changed"))
    again = run_cli(*args)
    assert again.exit_code == 0 and "rendered" not in again.output
    assert {p: p.read_bytes() for p in sheets} == sheets

    monkeypatch.setattr(cache, "validate", real)
    game.files["sets/base.json"]["cards"][1]["types"] = ["no-such-type"]
    game.write()
    broken = run_cli(*args)
    assert broken.exit_code == 1 and "no-such-type" in broken.output and "nothing was built" in broken.output
    assert {p: p.read_bytes() for p in sheets} == sheets
