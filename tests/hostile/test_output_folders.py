"""Export folders that are killed or are links: ``kill -9`` right after an export moved its earlier folder away
(between its two renames, or right after the one-step swap), and an ``--out`` that is a symbolic link (to an
earlier export, to nothing, in a loop). The earlier export is never lost: it stays where it was, or the next run
puts it back before doing anything else; after the next run nothing is left beside ``--out``; a link is followed
(the export lands in the folder it names, the link stays) or refused naming it. ``build``, ``schema`` and
``simulate --out`` keep the same rule: a file killed before its rename leaves the earlier one, and its temporary
is removed by the next run.

The kill comes from a hook in the process itself (run as ``python -c``): it wraps ``os.replace`` (and the
one-step swap, where the code has one) and sends SIGKILL to its own process right after the call that moved
``--out``, so the moment is the same on any code, before or after the fix."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from corpus import BUILD, REPO, Result, cardworks, finish, fingerprint, judge, mini  # noqa: F401  (fixtures)

FAMILY = "output-folders"

KILLER = r"""
import os, signal, sys
out = os.path.abspath(sys.argv[1])
sys.argv = ["cardworks", *sys.argv[2:]]
import cardworks.fileio as fileio
if os.environ.get("TEST_NO_EXCHANGE"):
    fileio.EXCHANGE = None  # a system without renameat2: two renames
real_replace = os.replace
def replace(source, target, *args, **kwargs):
    if os.environ.get("TEST_KILL_BEFORE_RENAME_INTO") and os.path.dirname(os.path.abspath(target)) == out:
        os.kill(os.getpid(), signal.SIGKILL)  # a file written, not yet renamed into --out
    real_replace(source, target, *args, **kwargs)
    if os.path.abspath(source) == out:
        os.kill(os.getpid(), signal.SIGKILL)
os.replace = replace
if hasattr(fileio, "exchange"):
    import cardworks.export.common as common
    real_exchange = fileio.exchange
    def exchange(first, second):
        done = real_exchange(first, second)
        if done and out in (os.path.abspath(first), os.path.abspath(second)):
            os.kill(os.getpid(), signal.SIGKILL)
        return done
    fileio.exchange = common.exchange = exchange
from cardworks.cli.main import main
main()
"""


def _killed(out: Path, *args: str, exchange: bool = True, into: bool = False) -> Result:
    """The command line, killed (SIGKILL) right after it moved ``out`` away or swapped it (``into``: right before
    it renames a file it wrote into ``out``)."""
    env = {**os.environ, **({} if exchange else {"TEST_NO_EXCHANGE": "1"}),
           **({"TEST_KILL_BEFORE_RENAME_INTO": "1"} if into else {})}
    process = subprocess.Popen([sys.executable, "-c", KILLER, str(out), *args], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, start_new_session=True, env=env)
    return finish(process, timeout=180)


def _export(mini, out: Path, *more: str) -> tuple[str, ...]:
    return ("--cards", str(mini.cards_root), "export", "print-shop", *more, "--out", str(out))


def _beside(folder: Path) -> list[str]:
    """Hidden entries an export into ``folder`` may leave beside it."""
    return sorted(entry.name for entry in folder.parent.iterdir() if entry.name.startswith(f".{folder.name}."))


def _earlier(mini, out: Path) -> dict[str, str]:
    done = cardworks(*_export(mini, out), timeout=180)
    assert done.exit_code == 0, done.stderr
    return fingerprint(out)


@pytest.mark.parametrize("exchange", [True, False], ids=["swap", "two-renames"])
def test_an_export_killed_as_it_publishes_loses_nothing_and_the_next_leaves_nothing_beside(
        exchange: bool, mini, tmp_path: Path) -> None:
    out = tmp_path / "out"
    earlier = _earlier(mini, out)
    killed = _killed(out, *_export(mini, out), exchange=exchange)
    assert killed.exit_code == -9, f"the kill never came: exit {killed.exit_code}\n{killed.stderr[-1500:]}"
    hidden = _beside(out)
    now = fingerprint(out) if out.is_dir() else None
    if exchange and now is None:  # swapped in one step: --out is never missing, whatever the moment
        judge_files = f"--out is missing right after the kill; beside it: {hidden}"
    else:
        judge_files = None
    again = cardworks(*_export(mini, out), timeout=180)

    def whole() -> str | None:
        if judge_files:
            return judge_files
        if not (out / "export.json").is_file() or out.is_symlink():
            return f"no export in --out after the next run (hidden beside it after the kill: {hidden})"
        left = _beside(out)
        return f"left beside --out after the next run: {left}" if left else None

    judge(f"export killed as it publishes ({'swap' if exchange else 'two renames'}), then run again", FAMILY, again,
          refuse=False, check=whole)
    assert earlier  # the earlier export existed


def test_the_next_run_restores_a_hidden_export_before_anything_else(mini, tmp_path: Path) -> None:
    """Killed between the two renames, the earlier export is hidden; the next run, even one refused at once (an
    unknown set), puts it back byte for byte and removes what the killed run left."""
    out = tmp_path / "out"
    earlier = _earlier(mini, out)
    killed = _killed(out, *_export(mini, out), exchange=False)
    assert killed.exit_code == -9 and not out.exists(), (killed.exit_code, killed.stderr[-1500:])
    refused = cardworks(*_export(mini, out, "--set", "no-such-set"), timeout=120)
    after = fingerprint(out) if out.is_dir() else {}
    changed = sorted(name for name in earlier if after.get(name) != earlier[name])
    judge("a refused export after one killed between its renames", FAMILY, refused, refuse=True, changed=changed)
    assert not _beside(out), _beside(out)


def test_an_out_that_is_a_link_is_followed_and_nothing_is_left_beside_it(mini, tmp_path: Path) -> None:
    real = tmp_path / "real"
    _earlier(mini, real)
    (real / "stale.txt").write_text("from the earlier export\n")
    link = tmp_path / "link"
    link.symlink_to("real")
    result = cardworks(*_export(mini, link), timeout=180)

    def followed() -> str | None:
        if not link.is_symlink() or os.readlink(link) != "real":
            return f"--out is no longer the link to real: {link.is_symlink()}"
        if (real / "stale.txt").exists() or not (real / "export.json").is_file():
            return f"the folder the link names does not hold the new export: {sorted(p.name for p in real.iterdir())}"
        left = _beside(link) + _beside(real)
        return f"left beside the link or its folder: {left}" if left else None

    judge("export --out a symbolic link to an earlier export", FAMILY, result, refuse=False, check=followed)


@pytest.mark.parametrize("kind", ["to-nothing", "loop", "to-a-file"])
def test_an_out_that_is_a_link_to_no_folder_is_refused_naming_it(kind: str, mini, tmp_path: Path) -> None:
    link = tmp_path / "link"
    if kind == "to-nothing":
        link.symlink_to("missing")
    elif kind == "loop":
        link.symlink_to("link")
    else:
        (tmp_path / "file.txt").write_text("a file\n")
        link.symlink_to("file.txt")
    before = sorted(p.name for p in tmp_path.iterdir())
    result = cardworks(*_export(mini, link), timeout=120)
    judge(f"export --out a symbolic link {kind}", FAMILY, result, refuse=True)
    after = sorted(p.name for p in tmp_path.iterdir())
    assert "--out" in result.stderr and str(link) in result.stderr and link.is_symlink() and after == before, \
        (result.stderr, before, after)


def test_a_build_into_a_link_lands_where_it_points(mini, tmp_path: Path) -> None:
    real = tmp_path / "real"
    real.mkdir()
    link = tmp_path / "link"
    link.symlink_to("real")
    result = cardworks("--cards", str(mini.cards_root), "build", "--out", str(link), *BUILD, timeout=180)

    def followed() -> str | None:
        if not link.is_symlink() or not (real / "manifest.json").is_file():
            return f"the build did not land in the folder the link names: {sorted(p.name for p in real.iterdir())}"
        left = _beside(link) + _beside(real) + sorted(p.name for p in real.iterdir() if p.name.startswith(".staging-") or p.name.endswith(".tmp"))
        return f"left beside or inside: {left}" if left else None

    judge("build --out a symbolic link", FAMILY, result, refuse=False, check=followed)


SIMULATE = ("--cards", str(REPO / "tests" / "fixtures" / "cards"), "simulate", "--games", "2", "--workers", "1")


def _writers(mini, out: Path) -> dict[str, tuple[str, ...]]:
    return {"build": ("--cards", str(mini.cards_root), "build", "--out", str(out), *BUILD),
            "schema": ("schema", "--out", str(out)),
            "simulate": (*SIMULATE, "--out", str(out))}


@pytest.mark.parametrize("command", ["build", "schema", "simulate"])
@pytest.mark.parametrize("kind", ["to-nothing", "loop"])
def test_a_folder_option_that_is_a_link_to_no_folder_is_refused_naming_it(command: str, kind: str, mini,
                                                                         tmp_path: Path) -> None:
    link = tmp_path / "link"
    link.symlink_to("missing" if kind == "to-nothing" else "link")
    result = cardworks(*_writers(mini, link)[command], timeout=120)
    judge(f"{command} --out a symbolic link {kind}", FAMILY, result, refuse=True, names=None if command != "simulate"
          else str(link))
    after = sorted(p.name for p in tmp_path.iterdir() if p.name != "cards")
    assert "--out" in result.stderr and "symbolic link" in result.stderr and link.is_symlink() and after == ["link"], \
        (result.stderr[-1500:], after)


@pytest.mark.parametrize("command", ["schema", "simulate"])
def test_a_folder_option_that_is_a_link_is_followed(command: str, mini, tmp_path: Path) -> None:
    real = tmp_path / "real"
    real.mkdir()
    link = tmp_path / "link"
    link.symlink_to("real")
    result = cardworks(*_writers(mini, link)[command], timeout=120)

    def followed() -> str | None:
        written = sorted(p.name for p in real.iterdir())
        if not link.is_symlink() or not written or any(name.startswith(".") for name in written):
            return f"not written where the link points, or leftovers: {written}"
        left = _beside(link) + _beside(real)
        return f"left beside: {left}" if left else None

    judge(f"{command} --out a symbolic link to a folder", FAMILY, result, refuse=False, check=followed)


@pytest.mark.parametrize("command", ["schema", "simulate"])
def test_a_file_killed_before_its_rename_keeps_the_earlier_and_the_next_run_removes_its_temporary(
        command: str, mini, tmp_path: Path) -> None:
    out = tmp_path / "out"
    first = cardworks(*_writers(mini, out)[command], timeout=120)
    assert first.exit_code == 0, first.stderr
    name = {"schema": "game.schema.json", "simulate": "report.json"}[command]
    (out / name).write_text("{}\n")  # so the next run must write it again
    earlier = fingerprint(out)
    killed = _killed(out, *_writers(mini, out)[command], into=True)
    assert killed.exit_code == -9, f"the kill never came: exit {killed.exit_code}\n{killed.stderr[-1500:]}"
    temps = sorted(p.name for p in out.iterdir() if p.name.endswith(".tmp"))
    changed = sorted(n for n, digest in earlier.items() if fingerprint(out).get(n) != digest)
    again = cardworks(*_writers(mini, out)[command], timeout=120)

    def cleaned() -> str | None:
        if changed:
            return f"the kill changed or lost {changed}"
        left = sorted(p.name for p in out.iterdir() if p.name.startswith("."))
        return f"left in --out after the next run: {left} (after the kill: {temps})" if left else None

    judge(f"{command} killed before renaming a file into --out, then run again", FAMILY, again, refuse=False,
          check=cleaned)
