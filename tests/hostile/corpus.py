"""The hostile corpus's runner: run the real command line on a hostile input, under a time bound, and judge it.

Each case runs ``python -m cardworks`` in its own process group (a hang is
killed with the group, workers included) and is judged into one verdict:

- ``refused``: exit 1 or 2 and a ``file…: [code] message`` line naming the file (expected for bad input);
- ``accepted``: exit 0 and the case's own check of the output passed (expected for good input);
- ``interrupted``: stopped by Ctrl-C mid-work with exit 130, one line and no traceback, and the case's
  own check passed (nothing half-written, no process left);
- ``traceback``, ``hang``, ``silent-wrong`` (bad input accepted, or an output check failed),
  ``unclear-refusal`` (refused without naming the file), ``bytes-lost`` (files that must not change
  did) and ``escape`` (the command read a file outside its folder: its output, or a page it served,
  shows a marker only that outside file holds): each of these fails the case.

Verdicts are collected for the summary printed at the end of the run (see ``conftest.py``).
"""

from __future__ import annotations

import hashlib
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

GOOD = {"refused", "accepted", "interrupted"}
VERDICTS = ["refused", "accepted", "interrupted", "traceback", "hang", "silent-wrong", "unclear-refusal", "bytes-lost", "escape"]


@dataclass
class Result:
    exit_code: int | None
    stdout: str
    stderr: str
    seconds: float
    timed_out: bool


@dataclass
class Outcome:
    case: str
    family: str
    verdict: str
    detail: str = ""


OUTCOMES: list[Outcome] = []


def cardworks(*args: str, cwd: Path | None = None, timeout: float = 30, env: dict[str, str] | None = None) -> Result:
    """Run the real command line; kill its whole process group after ``timeout`` seconds."""
    return finish(start(*args, cwd=cwd, env=env), timeout)


def start(*args: str, cwd: Path | None = None, env: dict[str, str] | None = None) -> subprocess.Popen:
    """Start the command line in its own process group without waiting (for concurrency and kill -9 cases)."""
    return subprocess.Popen([sys.executable, "-m", "cardworks", *args], cwd=cwd, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True, env={**os.environ, **(env or {})},
                            preexec_fn=_as_in_a_terminal)


def _as_in_a_terminal() -> None:
    """Ctrl-C as a terminal's foreground job gets it: a run started from a shell's background job (``&``, some CI
    runners) inherits SIGINT ignored, and every command would then rightly ignore the corpus's Ctrl-C too."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def finish(process: subprocess.Popen, timeout: float = 60) -> Result:
    """Wait for a started command; after ``timeout`` seconds kill its whole process group (a hang)."""
    started = time.monotonic()
    try:
        stdout, stderr = process.communicate(timeout=timeout)
        timed_out = False
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        stdout, stderr = process.communicate()
        timed_out = True
    return Result(process.returncode, stdout, stderr, time.monotonic() - started, timed_out)


def fingerprint(folder: Path) -> dict[str, str]:
    """sha256 of every regular file under ``folder`` (symlinks and special files left alone)."""
    found = {}
    for path in sorted(folder.rglob("*")):
        if path.is_symlink() or not path.is_file():
            continue
        found[str(path.relative_to(folder))] = hashlib.sha256(path.read_bytes()).hexdigest()
    return found


def lost(before: dict[str, str], after: dict[str, str]) -> list[str]:
    """Files that changed or disappeared between two fingerprints."""
    return sorted(name for name, digest in before.items() if after.get(name) != digest)


PROGRESS = re.compile(r"^ *\d+\.\d s  \S")
"""A progress line on stderr: the seconds so far, two spaces, what is being done or was written."""


def judge(case: str, family: str, result: Result, *, refuse: bool, names: str | None = None, code: str | None = None,
          check: Callable[[], str | None] | None = None, changed: list[str] | None = None,
          secret: str | None = None, seen: str = "", outside: list["Outside"] | None = None,
          interrupted: bool = False) -> Outcome:
    """Judge one run, record it, and fail the test when the verdict is not a good one.

    ``names``: text the refusal must show on a ``…: [code]`` line (usually the offending file's name);
    ``code``: the problem code expected; ``check``: returns a message when an accepted output is wrong;
    ``changed``: files that must not have changed but did; ``secret``: a marker only a file outside the
    command's folders holds, looked for in its output and in ``seen`` (pages it served, files it wrote);
    ``outside``: files outside the command's folders that it must not have read (see :class:`Outside`);
    ``interrupted``: the run was stopped by Ctrl-C, so exit 130 is expected (see :func:`interrupt`).
    """
    read = [str(file.path.name) for file in outside or () if file.was_read()]
    if secret is not None and secret in result.stdout + result.stderr + seen:
        verdict, detail = "escape", f"the output shows {secret!r}, read from a file outside the folder"
    elif read:
        verdict, detail = "escape", f"read a file outside its folders: {', '.join(read)}"
    elif result.timed_out:
        verdict, detail = "hang", f"still running after {result.seconds:.0f} s"
    elif "Traceback" in result.stderr or result.exit_code not in (0, 1, 2, *((130,) if interrupted else ())):
        verdict, detail = "traceback", result.stderr[-2000:]
    elif changed:
        verdict, detail = "bytes-lost", f"changed or lost: {', '.join(changed[:5])}"
    elif interrupted:
        # progress lines ("  12.0 s  writing the files", as build and export print them) are not the message
        lines = [line for line in result.stderr.splitlines() if line.strip() and not PROGRESS.match(line)]
        message = check() if check else None
        if result.exit_code != 130:
            verdict, detail = "silent-wrong", f"Ctrl-C ended with exit {result.exit_code}, not 130\n{result.stderr[-1000:]}"
        elif len(lines) != 1 or "interrupted" not in lines[0]:
            verdict, detail = "silent-wrong", f"Ctrl-C should print one line, printed:\n{result.stderr[-1000:]}"
        else:
            verdict, detail = ("silent-wrong", message) if message else ("interrupted", "")
    elif refuse and result.exit_code == 0:
        verdict, detail = "silent-wrong", "bad input accepted (exit 0)\n" + result.stdout[-1000:] + result.stderr[-1000:]
    elif refuse:
        output = result.stdout + "\n" + result.stderr
        lines = [line for line in output.splitlines() if re.search(r": \[[a-z0-9-]+\] ", line)]
        if names is not None:
            lines = [line for line in lines if names in line]
        if code is not None:
            lines = [line for line in lines if f"[{code}]" in line]
        verdict = "refused" if lines or (result.exit_code == 2 and names is None and code is None) else "unclear-refusal"
        detail = (lines[0] if lines else result.stderr[-1500:])
    elif result.exit_code != 0:
        verdict, detail = "silent-wrong", "good input refused\n" + result.stderr[-1500:]
    else:
        message = check() if check else None
        verdict, detail = ("silent-wrong", message) if message else ("accepted", "")
    outcome = Outcome(case, family, verdict, detail)
    OUTCOMES.append(outcome)
    assert verdict in GOOD, f"{case}: {verdict}: {detail}"
    return outcome


def judge_files(case: str, family: str, changed: list[str]) -> Outcome:
    """Judge a fault case by its files alone (the process was killed): nothing that must stay may change."""
    return judge(case, family, Result(0, "", "", 0.0, False), refuse=False, changed=changed)


def judge_output(case: str, family: str, wrong: str | None) -> Outcome:
    """Judge an output checked in-process (``wrong``: what is wrong with it, or None)."""
    return judge(case, family, Result(0, "", "", 0.0, False), refuse=False, check=lambda: wrong)


def group(pgid: int) -> list[int]:
    """Process ids still in the process group ``pgid`` (a command and every worker it started)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                if os.getpgid(int(entry)) != pgid:
                    continue
                state = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()[0]
            except (OSError, IndexError):  # gone meanwhile
                continue
            if state != "Z":  # a zombie has ended; it only waits to be reaped
                found.append(int(entry))
    return found


@dataclass
class Interrupted:
    result: Result
    paused: bool
    """The command reached the point it was to be interrupted at (else it was killed after ``wait``)."""
    stop_seconds: float
    """From Ctrl-C to the command's exit."""
    left: list[int]
    """Processes of its group still alive after it exited."""


def interrupt(*args: str, at: str, tmp: Path, wait: float = 120, env: dict[str, str] | None = None,
              ready: Callable[[subprocess.Popen], bool] | None = None, signum: int = signal.SIGINT) -> Interrupted:
    """Run the command line, and send Ctrl-C (SIGINT to its whole group, as a terminal does; or ``signum``)
    once it pauses at the fault point ``at`` (``CARDWORKS_PAUSE_AT``, see ``fileio.fault_point``) or, with
    ``at=""``, once ``ready(process)`` says it is under way. A command that never gets there is killed after
    ``wait``."""
    flag = tmp / f"paused-{time.monotonic_ns()}"
    extra = {"CARDWORKS_PAUSE_AT": at, "CARDWORKS_PAUSED": str(flag)} if at else {}
    process = start(*args, env={**extra, **(env or {})})
    deadline = time.monotonic() + wait
    reached = False
    while time.monotonic() < deadline and process.poll() is None:
        if (flag.exists() if at else ready(process)):  # type: ignore[misc]
            reached = True
            break
        time.sleep(0.05)
    if not reached:
        result = finish(process, timeout=0.1)
        result.timed_out = result.timed_out or process.returncode is None
        return Interrupted(result, False, 0.0, [])
    os.killpg(process.pid, signum)
    sent = time.monotonic()
    result = finish(process, timeout=30)
    stopped = time.monotonic() - sent
    left = group(process.pid)
    settle = time.monotonic() + 1
    while left and time.monotonic() < settle:  # a worker killed at the same moment may take a moment to go
        time.sleep(0.1)
        left = group(process.pid)
    if left:
        os.killpg(process.pid, signal.SIGKILL)
    return Interrupted(result, True, stopped, left)


class Outside:
    """A file outside every folder a command may read, holding ``text``; :meth:`was_read` says whether any
    process read it since. Reads are seen through the access time: it is set before the modification time,
    so the kernel's ``relatime`` updates it on the next read. The file system is checked first: where
    access times are not kept the test fails, it never passes blind."""

    def __init__(self, path: Path, text: str) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        self.path = path
        self._rewind()
        path.read_bytes()
        assert self.was_read(), f"{path.parent}: this file system keeps no access times; reads cannot be seen"
        self._rewind()

    def _rewind(self) -> None:
        info = self.path.stat()
        os.utime(self.path, ns=(info.st_mtime_ns - 10**12, info.st_mtime_ns))
        self._atime = self.path.stat().st_atime_ns

    def was_read(self) -> bool:
        return self.path.stat().st_atime_ns != self._atime


@dataclass
class Summary:
    cases: int = 0
    counts: dict[str, int] = field(default_factory=dict)
    families: dict[str, int] = field(default_factory=dict)

    def line(self) -> str:
        c = self.counts
        return (f"{self.cases} cases: {c.get('refused', 0)} cleanly refused, {c.get('accepted', 0)} accepted with "
                f"correct output, {c.get('interrupted', 0)} stopped cleanly by Ctrl-C; tracebacks {c.get('traceback', 0)}, hangs {c.get('hang', 0)}, silent wrong outputs "
                f"{c.get('silent-wrong', 0) + c.get('unclear-refusal', 0)}, bytes lost {c.get('bytes-lost', 0)}, "
                f"escapes {c.get('escape', 0)}")


def summary(outcomes: list[Outcome]) -> Summary:
    result = Summary(cases=len(outcomes))
    for outcome in outcomes:
        result.counts[outcome.verdict] = result.counts.get(outcome.verdict, 0) + 1
        result.families[outcome.family] = result.families.get(outcome.family, 0) + 1
    return result


# Fixtures shared by the corpus's modules (imported there by name).

import copy  # noqa: E402
import shutil  # noqa: E402

import pytest  # noqa: E402

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def mini(tmp_path: Path):
    """The suite's valid mini game, written to ``tmp_path/cards/mini``."""
    from conftest import GameDir, mini_files

    game = GameDir(tmp_path / "cards", copy.deepcopy(mini_files()))
    game.write()
    return game


@pytest.fixture
def diables(tmp_path: Path) -> Path:
    """A copy of the shipped Diables database (the quickest game with card sheets and pieces), as a cards root."""
    root = tmp_path / "cards"
    shutil.copytree(REPO / "cards" / "diables", root / "diables")
    return root


BUILD = ("--jobs", "1", "--no-docs", "--locale", "en")
"""One locale, no rulebooks: a build of Diables in a few seconds (card sheets, print-shop file, pieces)."""


_DIABLES_BUILT: list[tuple[Path, Path]] = []


@pytest.fixture
def diables_built(tmp_path_factory) -> tuple[Path, Path]:
    """A Diables database and a good build of it, made once for the whole corpus; tests copy both (the copy of
    the output keeps its face cache, so a test's own builds lay out only the faces that changed). Kept here, not
    as a session fixture: a fixture imported into several modules would be made once per module."""
    if not _DIABLES_BUILT:
        base = tmp_path_factory.mktemp("diables-built")
        cards = base / "cards"
        shutil.copytree(REPO / "cards" / "diables", cards / "diables")
        result = cardworks("--cards", str(cards), "build", "--out", str(base / "out"), *BUILD, timeout=120)
        assert result.exit_code == 0, result.stderr
        _DIABLES_BUILT.append((cards, base / "out"))
    return _DIABLES_BUILT[0]


def terminal_summary(terminalreporter) -> None:
    """The corpus's summary, printed after a run that included it."""
    if not OUTCOMES:
        return
    result = summary(OUTCOMES)
    terminalreporter.write_sep("=", "hostile corpus")
    terminalreporter.write_line(result.line())
    terminalreporter.write_line("by family: " + ", ".join(f"{name} {n}" for name, n in sorted(result.families.items())))
    for outcome in OUTCOMES:
        if outcome.verdict not in GOOD:
            terminalreporter.write_line(f"  {outcome.verdict}: {outcome.case}: {outcome.detail[:300]}")


class Tmpfs:
    """A small tmpfs mounted for one test (the corpus runs as root in CI; a failed mount fails the test,
    it is never skipped). ``fill`` leaves only ``free`` bytes; ``read_only`` remounts it read-only."""

    def __init__(self, where: Path, size: str) -> None:
        import subprocess as sp

        where.mkdir(parents=True, exist_ok=True)
        done = sp.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where)], capture_output=True, text=True)
        assert done.returncode == 0, f"cannot mount a tmpfs (the corpus needs root): {done.stderr}"
        self.where = where

    def fill(self, free: int) -> Path:
        filler = self.where / "filler.bin"
        stats = os.statvfs(self.where)
        size = stats.f_bavail * stats.f_frsize - free
        with open(filler, "wb") as handle:
            handle.write(b"\0" * max(0, size))
        return filler

    def read_only(self, flag: bool = True) -> None:
        import subprocess as sp

        option = "remount,ro" if flag else "remount,rw"
        done = sp.run(["mount", "-o", option, str(self.where)], capture_output=True, text=True)
        assert done.returncode == 0, done.stderr

    def close(self) -> None:
        import subprocess as sp

        sp.run(["umount", "-l", str(self.where)], capture_output=True)


@pytest.fixture
def tmpfs(tmp_path: Path):
    mounts: list[Tmpfs] = []

    def mount(name: str = "disk", size: str = "1m") -> Tmpfs:
        mounts.append(Tmpfs(tmp_path / name, size))
        return mounts[-1]

    yield mount
    for mounted in mounts:
        mounted.close()
