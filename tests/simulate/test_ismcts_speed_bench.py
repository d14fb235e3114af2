"""bench/simulate.py --ismcts --against compares speeds only for the same decisions: each tree's run prints a
digest of its searches' root visit counts, and differing digests stop the comparison (no figure is asserted)."""

from __future__ import annotations

import importlib.util
import subprocess
from pathlib import Path

import pytest

from conftest import REPO

_SPEC = importlib.util.spec_from_file_location("simulate_bench_ismcts", REPO / "bench" / "simulate.py")
bench = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(bench)


def _runs(monkeypatch, digests: dict[str, str], loops: dict[str, str] | None = None) -> list[list[str]]:
    """``subprocess.run`` answering each tree's ``--ismcts`` run with the line it prints, at its tree's digest
    (and the rollout loop it played, ``loops``, compiled by default)."""
    commands = []

    def run(command, env, **_):
        commands.append(command)
        tree = Path(env["PYTHONPATH"]).parent
        loop = (loops or {}).get(str(tree), "compiled")
        line = (f"ISMCTS, four-player base, 200 iterations a decision on 12 decisions: 15,000 iterations per "
                f"processor-second (median of 3; 15,000); decisions digest {digests[str(tree)]}; load average 1.0; "
                f"rollouts {loop}\n")
        return subprocess.CompletedProcess(command, 0, stdout=line)

    monkeypatch.setattr(subprocess, "run", run)
    return commands


def _other(tmp_path: Path) -> Path:
    """A folder the bench takes for a checkout (it holds ``src/cardworks``)."""
    (tmp_path / "src" / "cardworks").mkdir(parents=True)
    return tmp_path


def test_the_same_decisions_are_compared(monkeypatch, capsys, tmp_path) -> None:
    other = _other(tmp_path)
    commands = _runs(monkeypatch, {str(REPO): "0123456789abcdef", str(other): "0123456789abcdef"})
    bench.ismcts_against(str(other), 200, 3, 2)
    out = capsys.readouterr().out
    assert "same decisions, digest 0123456789abcdef" in out and "ratio this tree" in out, out
    assert len(commands) == 4 and all(c[1] == str(REPO / "bench" / "simulate.py") for c in commands)


def test_trees_deciding_differently_are_not_compared(monkeypatch, capsys, tmp_path) -> None:
    other = _other(tmp_path)
    _runs(monkeypatch, {str(REPO): "0123456789abcdef", str(other): "fedcba9876543210"})
    with pytest.raises(SystemExit, match="decide differently"):
        bench.ismcts_against(str(other), 200, 3, 2)
    assert "ratio" not in capsys.readouterr().out


def test_a_tree_with_the_compiled_loop_that_played_the_python_one_is_not_compared(monkeypatch, capsys,
                                                                                tmp_path) -> None:
    """A tree whose compiled rollout loop is not built plays the Python loop, slower: its ratio would credit the
    other tree with the compiled loop, so the bench stops (each tree's line says which loop it played)."""
    other = _other(tmp_path)
    (other / "src" / "cardworks" / "games" / "fallera").mkdir(parents=True)
    (other / "src" / "cardworks" / "games" / "fallera" / "_rollouts.c").write_text("/* the loop */\n")
    _runs(monkeypatch, {str(REPO): "0123456789abcdef", str(other): "0123456789abcdef"}, {str(other): "python"})
    with pytest.raises(SystemExit, match="played the Python loop"):
        bench.ismcts_against(str(other), 200, 3, 2)
    assert "ratio" not in capsys.readouterr().out


def test_a_name_that_is_neither_a_checkout_nor_a_revision_is_refused(tmp_path) -> None:
    """Run with ``PYTHONPATH`` pointing at a folder that holds no sources, the other tree's figure would be this
    tree's installed code measured a second time: the bench stops instead."""
    with pytest.raises(SystemExit, match="neither a checkout folder nor a git revision"):
        bench.ismcts_against(str(tmp_path / "no-such-tree"), 200, 3, 2)


def test_the_digest_is_that_of_the_searches(monkeypatch) -> None:
    """One repeat at a small budget: the rate and a digest of 16 hex digits, the same digest twice."""
    rates, digest = bench.ismcts_rate(4, 2)
    assert len(rates) == 2 and len(digest) == 16 and int(digest, 16) >= 0
    assert bench.ismcts_rate(4, 1)[1] == digest
