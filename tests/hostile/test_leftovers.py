"""Killed runs leave nothing behind: no worker process, no copy of the database, no temporary file.

A ``check`` whose main process is killed (kill -9, or a timeout's SIGTERM) leaves no worker running: each
forked worker notices its parent is gone and ends within about a second. A ``sheet import`` killed while its
copy of the database is in the temporary folder leaves a ``cardworks-sheet-<pid>-…`` copy, which the next
import removes (its process is dead); an import ended any way the process controls removes its own.
"""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import pytest

from corpus import REPO, group, judge_output, mini, start  # noqa: F401  (fixtures)

FAMILY = "leftovers"
CARDS = REPO / "cards"


def _children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (from /proc)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid and fields[0] != "Z":
                found.append(int(entry))
    return found


@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGTERM], ids=["kill-9", "sigterm"])
def test_a_killed_checks_workers_end_with_it(how: signal.Signals) -> None:
    process = start("--cards", str(CARDS), "check", "--game", "fallera", "--playouts", "500", "--seed", "1")
    workers: list[int] = []
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and process.poll() is None and not workers:
        workers = _children(process.pid)
        time.sleep(0.05)
    try:
        assert process.poll() is None and workers, "the check ended (or never started workers) before it was killed"
        time.sleep(0.5)  # the workers are playing
        os.kill(process.pid, how)  # the main process only, as a timeout does
        process.wait(timeout=30)  # not communicate(): a worker left running would hold its pipes open
        left = group(process.pid)
        settle = time.monotonic() + 10  # a bound, not a timing: about a second is expected
        while left and time.monotonic() < settle:
            time.sleep(0.1)
            left = group(process.pid)
    finally:
        if group(process.pid):
            os.killpg(process.pid, signal.SIGKILL)
        process.communicate()
    judge_output(f"check --playouts 500 whose main process got {how.name}: no worker left", FAMILY,
                 f"{len(left)} worker process(es) still running 10 s after their parent died" if left else None)


def _copies(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.startswith("cardworks-sheet-"))


def test_a_sheet_imports_database_copy_goes_on_sigterm_and_after_kill_9(mini, tmp_path: Path) -> None:
    from test_concurrent_imports import _edit_sheet, _sheet

    temp = tmp_path / "temp"
    temp.mkdir()
    edited = _edit_sheet(_sheet(mini, tmp_path), "edited.csv", "capita", "name@es", "capitán")
    args = ("--cards", str(mini.cards_root), "sheet", "import", edited)
    # SIGTERM while the copy is being validated: the process ends as it would on Ctrl-C, removing its copy
    flag = tmp_path / "paused"
    process = start(*args, env={"TMPDIR": str(temp), "CARDWORKS_PAUSE_AT": "sheet-copy", "CARDWORKS_PAUSED": str(flag)})
    deadline = time.monotonic() + 60
    while not flag.exists() and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert flag.exists(), process.communicate()[1][-2000:]
    assert _copies(temp), "the import made no copy of the database to validate"
    os.kill(process.pid, signal.SIGTERM)
    _, stderr = process.communicate(timeout=30)
    judge_output("sheet import ended by SIGTERM while validating its copy: no copy left", FAMILY,
                 f"left {_copies(temp)} (exit {process.returncode})" if _copies(temp) else
                 None if "Traceback" not in stderr else stderr[-1500:])
    # kill -9 at the same moment leaves the copy; the next import removes it (its process is dead)
    killed = start(*args, env={"TMPDIR": str(temp), "CARDWORKS_KILL_AT": "sheet-copy"})
    killed.communicate(timeout=60)
    assert killed.returncode == -signal.SIGKILL and _copies(temp), (killed.returncode, _copies(temp))
    again = start(*args, env={"TMPDIR": str(temp)})
    _, stderr = again.communicate(timeout=60)
    judge_output("the next sheet import removes the copy a kill -9 left", FAMILY,
                 f"left {_copies(temp)} (exit {again.returncode}: {stderr[-500:]})" if _copies(temp) or again.returncode
                 else None)


def test_an_i18n_import_ended_by_sigterm_removes_its_temporaries(mini, tmp_path: Path) -> None:
    from test_concurrent_imports import MAP, _po, _save

    edited = _save(_po(mini, tmp_path), tmp_path, "es.po", {MAP: "Plano"})
    before = {p.name: p.read_bytes() for p in mini.root.rglob("*") if p.is_file()}
    flag = tmp_path / "paused"
    process = start("--cards", str(mini.cards_root), "i18n", "import", edited,
                    env={"CARDWORKS_PAUSE_AT": "import-before-commit", "CARDWORKS_PAUSED": str(flag)})
    deadline = time.monotonic() + 60
    while not flag.exists() and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert flag.exists() and list(mini.root.rglob("*.tmp")), process.communicate()[1][-2000:]
    os.kill(process.pid, signal.SIGTERM)
    _, stderr = process.communicate(timeout=30)
    after = {p.name: p.read_bytes() for p in mini.root.rglob("*") if p.is_file()}
    wrong = (f"left {sorted(set(after) - set(before))} (exit {process.returncode})" if after != before else
             stderr[-1500:] if "Traceback" in stderr or process.returncode != 143 else None)
    judge_output("i18n import ended by SIGTERM before its commit: data as it was, no temporary left", FAMILY, wrong)
