"""Helpers of the simulation tests: the real command run in-process, its stdout apart from stderr."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from cardworks.cli.main import cli

REPO = Path(__file__).resolve().parents[2]
CARDS = REPO / "tests" / "fixtures" / "cards"
"""The fixture games (``tests/fixtures/cards/build.py``): the simulation tests play them, not the shipped database."""
PACK = REPO / "examples" / "fallera-pack"


def simulate(*args: str, expect: int = 0, cards: Path = CARDS) -> tuple[str, str]:
    """``cardworks --cards CARDS simulate ARGS``: (stdout, stderr); fails the test on another exit code."""
    result = CliRunner().invoke(cli, ["--cards", str(cards), "simulate", *args], catch_exceptions=True)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"uncaught {type(result.exception).__name__}: {result.exception}") from result.exception
    assert result.exit_code == expect, result.output
    assert "Traceback" not in result.output
    return result.stdout, result.stderr


def simulate_json(*args: str, cards: Path = CARDS) -> dict:
    out, _ = simulate(*args, "--format", "json", cards=cards)
    return json.loads(out)
