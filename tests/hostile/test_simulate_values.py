"""Hostile values for ``cardworks simulate`` and ``check``: sweeps and seeds of thousands of digits, a quantity of
a billion, an attack too large for any figure. Each is refused where it is parsed (exit 2, one line naming the
option), before any game is played, and no report is written; a sweep at the documented limits runs and writes
a complete report.

Every case runs with its address space capped (:data:`MEMORY`), so the code before the bounds (which built a
list of a billion values) fails with a MemoryError here instead of taking the machine's memory."""

from __future__ import annotations

import json
import resource
import subprocess
import sys
import time
from pathlib import Path

import pytest

from corpus import REPO, Result, judge

FAMILY = "simulate"
CARDS = REPO / "tests" / "fixtures" / "cards"
BALANCE = REPO / "tests" / "simulate" / "balance-pack"
MEMORY = 3 * 2**30
"""The address space each case may use (bytes)."""


def _capped() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


def cardworks(*args: str, timeout: float = 120) -> Result:
    """The real command line with its address space capped; killed after ``timeout`` seconds (a hang)."""
    started = time.monotonic()
    process = subprocess.Popen([sys.executable, "-m", "cardworks", *args], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, start_new_session=True, preexec_fn=_capped)
    try:
        stdout, stderr = process.communicate(timeout=timeout)
        timed_out = False
    except subprocess.TimeoutExpired:
        process.kill()
        stdout, stderr = process.communicate()
        timed_out = True
    return Result(process.returncode, stdout, stderr, time.monotonic() - started, timed_out)


HUGE = "9" * 5001
WIDE = "9" * 401
SIMULATE = ("--cards", str(CARDS), "simulate", "--games", "2", "--workers", "1")


@pytest.mark.parametrize("args,option", [
    ((str(BALANCE), "--sweep", f"balance-soldat.attack=1..{HUGE}"), "--sweep"),
    ((str(BALANCE), "--sweep", f"balance-soldat.attack={WIDE}..{WIDE}"), "--sweep"),
    ((str(BALANCE), "--sweep", "balance-soldat.quantity=1..1000000000"), "--sweep"),
    ((str(BALANCE), "--sweep", "balance-soldat.quantity=100..100"), "--sweep"),
    ((str(BALANCE), "--sweep", f"balance-soldat.defence=1..2:{HUGE}"), "--sweep"),
    (("--seed", HUGE), "--seed"),
    (("--first", HUGE), "--first"),
    (("--seed", str(2**63)), "--seed"),
], ids=["attack-5001-digits", "attack-401-digits", "quantity-a-billion", "quantity-100", "step-5001-digits",
        "seed-5001-digits", "first-5001-digits", "seed-2**63"])
def test_a_value_out_of_bounds_is_refused_where_it_is_parsed(args: tuple[str, ...], option: str, tmp_path: Path) -> None:
    out = tmp_path / "report"
    result = cardworks(*SIMULATE, *args, "--out", str(out))
    judge(f"simulate {option} {args[-1][:40]}", FAMILY, result, refuse=True)
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert result.exit_code == 2 and option in lines[-1] and len(lines[-1]) < 300, result.stderr[-600:]
    assert not out.exists() and "games/s" not in result.stderr, "games were played or a report written"


def test_a_check_seed_of_thousands_of_digits_is_refused() -> None:
    result = cardworks("--cards", str(CARDS), "check", "--game", "diables", "--playouts", "1", "--seed", HUGE)
    judge("check --seed of 5,001 digits", FAMILY, result, refuse=True)
    assert result.exit_code == 2 and "--seed" in result.stderr and len(result.stderr) < 1000, result.stderr[-600:]


def test_a_sweep_at_the_documented_limits_runs_and_writes_a_complete_report(tmp_path: Path) -> None:
    out = tmp_path / "report"
    result = cardworks(*SIMULATE, str(BALANCE), "--sweep", "balance-soldat.attack=-999..999:1998", "--out", str(out),
                       "--format", "json")

    def complete() -> str | None:
        written = json.loads((out / "report.json").read_text())
        values = [row["value"] for row in written["sweep"]["values"]]
        html = (out / "report.html").read_text()
        if values != [-999, 999] or not html.rstrip().endswith("</html>") or json.loads(result.stdout) != written:
            return f"report incomplete: values {values}, html ends {html[-40:]!r}"
        return None

    judge("simulate --sweep at its limits (attack -999 and 999)", FAMILY, result, refuse=False, check=complete)
