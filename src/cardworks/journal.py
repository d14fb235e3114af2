"""Several data files written as one change that survives kill -9: all of them, or none.

An import (translations, a spreadsheet) may change a locale file, card files and
rulebook sections together. Each new file is first written to a temporary beside
its target (``.<name>.import-<id>.tmp``); then a journal (the commit mark,
``.cardworks-import.journal`` in the folder the change belongs to) lists the
temporaries and their targets; only then are they renamed into place and the
journal removed. So:

- killed before the journal is written: no target changed; the temporaries are
  removed (rolled back) by the next command that reads the folder;
- killed after it, between the renames: the next command that reads the folder
  finishes the renames first (rolled forward).

Either way the command says which it did (:func:`settle`, called whenever a game folder or pack is read), so
from the user's point of view the change landed whole or not at all. ``validate`` reports a journal that is
still there (:func:`pending`): one that cannot be finished (unreadable, or listing files no import writes),
or a folder that could not be written.

Importers hold the lock (:func:`cardworks.fileio.folder_lock`) of the game folder and of every pack they
write into; :func:`settle` recovers a folder only when it can take that lock at once, so it never touches the
temporaries of an import still running.
"""

from __future__ import annotations

import fcntl
import json
import os
import re
import stat
import uuid
from pathlib import Path

from .fileio import fault_point, read_limited, write_bytes_atomic, write_temp

JOURNAL = ".cardworks-import.journal"
_TEMP = re.compile(r"^\.(?P<name>.+)\.import-[0-9a-f]{8}\.[A-Za-z0-9_]+\.tmp$")
_TARGET_SUFFIXES = {".json", ".md"}


def write_journaled(anchor: Path, contents: dict[Path, bytes]) -> None:
    """Write ``contents`` (target → bytes) as one change, with its journal in ``anchor``.

    An OSError while writing the temporaries leaves every target as it was (the
    temporaries are removed); one during the renames leaves the journal, so the
    next import finishes the change.
    """
    if not contents:
        return
    token = uuid.uuid4().hex[:8]
    temps: dict[Path, Path] = {}
    try:
        for path, data in contents.items():
            temps[path] = Path(write_temp(path, data, f"import-{token}."))
    except BaseException:
        for temp in temps.values():
            temp.unlink(missing_ok=True)
        raise
    listed = [[os.path.relpath(path, anchor), os.path.relpath(temp, anchor)] for path, temp in temps.items()]
    try:  # until the journal is written, any way out (an error, Ctrl-C, SIGTERM) removes the temporaries
        fault_point("import-before-commit")
        write_bytes_atomic(anchor / JOURNAL, json.dumps({"files": listed}, indent=1).encode("utf-8"))
    except BaseException:
        for temp in temps.values():
            temp.unlink(missing_ok=True)
        raise
    _roll_forward(anchor)


def _pairs(anchor: Path) -> list[tuple[Path, Path]]:
    """The (target, temporary) pairs a journal lists; ValueError when it is not one this module wrote.

    Only a temporary named for its target, in the target's own folder, is ever renamed, so a planted journal
    cannot move other files around.
    """
    if (anchor / JOURNAL).is_symlink():
        raise ValueError("the journal is a symbolic link; an import never writes one")
    data = json.loads(read_limited(anchor / JOURNAL, 4 * 1024 * 1024))
    pairs = []
    for target, temp in data["files"]:
        target_path, temp_path = anchor / target, anchor / temp
        found = _TEMP.match(temp_path.name)
        if (Path(target).is_absolute() or Path(temp).is_absolute() or temp_path.parent != target_path.parent
                or found is None or found["name"] != target_path.name or target_path.suffix not in _TARGET_SUFFIXES):
            raise ValueError(f"the journal lists {target!r} ← {temp!r}, which no import writes")
        pairs.append((target_path, temp_path))
    return pairs


def _roll_forward(anchor: Path) -> int:
    """Rename every listed temporary that is still there onto its target, then drop the journal; returns how many."""
    moved = 0
    for target, temp in _pairs(anchor):
        try:
            info = os.lstat(temp)
        except FileNotFoundError:
            continue  # renamed before the interruption
        if stat.S_ISREG(info.st_mode):
            os.replace(temp, target)
            moved += 1
            fault_point("import-between-renames")
    (anchor / JOURNAL).unlink()
    return moved


def anchor_for(roots: list[Path], paths: list[Path]) -> Path:
    """Where a change's journal goes: the one root (a pack, else the game) that holds every file, else the first
    root (the game folder, which the import has locked)."""
    for root in reversed(roots):  # a pack before the game it extends
        if all(path.resolve().is_relative_to(root.resolve()) for path in paths):
            return root
    return roots[0]


def pending(anchor: Path) -> tuple[int, int] | None:
    """(files still to rename, files in the change) when an import's journal is left in ``anchor``, else None."""
    if not (anchor / JOURNAL).exists():
        return None
    try:
        pairs = _pairs(anchor)
    except (OSError, ValueError, KeyError, TypeError):
        return (0, 0)
    return sum(1 for _, temp in pairs if temp.exists()), len(pairs)


def recover(roots: list[Path]) -> list[str]:
    """Finish interrupted imports whose journal is in one of ``roots`` and sweep uncommitted temporaries.

    Called with the game folder locked, before an import reads anything. Returns what was done, for the
    user. Raises ValueError when a journal is unreadable or lists files no import writes.
    """
    done = []
    for root in roots:
        if (root / JOURNAL).exists():
            try:
                moved = _roll_forward(root)
            except (KeyError, TypeError, json.JSONDecodeError) as exc:
                raise ValueError(f"{root / JOURNAL}: not an import journal ({exc})") from None
            done.append(f"finished an import that was interrupted while writing its files ({moved} file(s) "
                        "renamed into place)")
    for root in roots:
        for folder, dirnames, filenames in os.walk(root):
            dirnames[:] = [d for d in dirnames if not os.path.islink(os.path.join(folder, d))]
            for name in filenames:
                if _TEMP.match(name):
                    Path(folder, name).unlink(missing_ok=True)
                    done.append(f"removed {name}, left by an import stopped before it wrote anything")
    return done


def is_temporary(name: str) -> bool:
    """Whether ``name`` is the name of an import's temporary (``.<target>.import-<id>.<random>.tmp``)."""
    return _TEMP.match(name) is not None


def settle(root: Path, temporaries: list[Path]) -> list[str]:
    """Recover ``root`` (a game folder or pack) as its reader finds it: finish an interrupted import whose
    journal is there (rolled forward) and remove ``temporaries`` (found in ``root`` by the caller) of one stopped
    before its journal (rolled back). Only when no import holds the folder's lock; returns what was done.

    A journal that cannot be finished (see :func:`_pairs`) or a folder that cannot be written is left as it is,
    for ``validate`` to report (``import-half-applied``).
    """
    journal = root / JOURNAL
    if not temporaries and not os.path.lexists(journal):
        return []
    try:
        fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY)
    except OSError:
        return []
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:  # an import is running in it: it finishes or sweeps its own files
            return []
        done = []
        if os.path.lexists(journal):
            try:
                moved = _roll_forward(root)
            except (OSError, ValueError, KeyError, TypeError):
                pass  # left for validate to report
            else:
                done.append(f"finished an import that was interrupted while writing its files: {moved} file(s) "
                            "renamed into place (rolled forward)")
        removed = 0
        for temp in [] if os.path.lexists(journal) else temporaries:  # a journal left: its temporaries are its data
            if temp.parent.resolve().is_relative_to(root.resolve()) and is_temporary(temp.name):
                try:
                    temp.unlink()
                    removed += 1
                except FileNotFoundError:
                    pass
                except OSError:
                    break
        if removed:
            done.append(f"removed {removed} temporary file(s) of an import stopped before it changed any file "
                        "(rolled back)")
        return done
    finally:
        os.close(fd)
