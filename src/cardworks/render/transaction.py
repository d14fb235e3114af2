"""A build as a transaction: stage every output, then publish them with the manifest.

While a build runs, every output goes into ``<out>/.staging-<id>/`` (same
file system, so publishing is a rename per file). Only when the whole build
succeeded is a commit mark (``PUBLISH``, the list of staged paths) written
into the staging folder; then each file and finally the manifest are renamed
into place. So:

- a build that fails, or is killed before the commit mark, leaves the
  previous outputs and manifest exactly as they were; its staging folder is
  removed by the next build;
- a build killed after the commit mark is finished (rolled forward) by the
  next build, so no output of it is lost and the manifest again matches the
  files;
- an output whose bytes equal the published file is not staged at all, so a
  build that changes nothing writes nothing (and works on a read-only
  folder).

Only one build writes into an output folder at a time: the folder is locked
(``flock`` on the folder itself) and a second build waits for the first.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
import uuid
from collections.abc import Callable
from pathlib import Path
from types import TracebackType

from ..errors import DataError, UsageError
from ..fileio import OS_ERROR_CODES, fault_point, folder_lock, link_to_no_folder, write_bytes_atomic
from ..loading.database import display_path
from ..problems import Problem

STAGING_PREFIX = ".staging-"
COMMIT_MARK = "PUBLISH"
MANIFEST = "manifest.json"
_TEMP_SUFFIX = ".tmp"

_ACTIVE: dict[Path, "BuildTransaction"] = {}
"""The transaction of each output folder being built in this process."""


def active(out_dir: Path) -> "BuildTransaction | None":
    """The transaction writing into ``out_dir``, if a build holds one."""
    return _ACTIVE.get(out_dir.resolve())


def _kill_point(name: str) -> None:
    """Fault injection for the hostile tests (kill -9 or a pause for Ctrl-C here: see ``fileio.fault_point``)."""
    fault_point(name)


def output_problem(path: Path, exc: OSError) -> DataError:
    """A DataError naming the output file and what the machine said."""
    code = OS_ERROR_CODES.get(exc.errno or 0, "output-unwritable")
    shown = display_path(path)
    message = f"cannot write: {exc.strerror or exc}; the previous build's files are unchanged"
    return DataError(f"{shown}: [{code}] {message}", [Problem(shown, "", code, message)])


Produce = Callable[[Path], None]
"""Writes one output into the file it is given (a large PDF saved straight to disk, never held in memory)."""


def file_sha256(path: Path) -> str:
    """The sha256 of a file, read in blocks."""
    with open(path, "rb") as handle:
        return hashlib.file_digest(handle, "sha256").hexdigest()


def produced_temp(folder: Path, name: str, produce: Produce) -> Path:
    """A synced temporary file ``.<name>.…tmp`` in ``folder`` (ordinary permissions) that ``produce`` wrote."""
    fault_point("write")
    folder.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{name}.", suffix=_TEMP_SUFFIX)
    os.close(fd)
    try:
        produce(Path(tmp))
        with open(tmp, "rb") as handle:
            os.fsync(handle.fileno())
        os.chmod(tmp, 0o666 & ~_umask())
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return Path(tmp)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def same_file(path: Path, size: int, digest: str) -> bool:
    """Whether ``path`` is a plain file of ``size`` bytes whose sha256 is ``digest``."""
    try:
        return path.is_file() and not path.is_symlink() and path.stat().st_size == size and file_sha256(path) == digest
    except OSError:
        return False


def _safe_relative(relative: str) -> bool:
    parts = Path(relative).parts
    return bool(parts) and not Path(relative).is_absolute() and ".." not in parts and not parts[0].startswith(".")


def _roll_forward(out: Path, staging: Path) -> None:
    """Move every staged file of a committed staging folder into place, the manifest last; then drop the folder."""
    listed = json.loads((staging / COMMIT_MARK).read_text(encoding="utf-8"))
    for number, relative in enumerate(listed):
        source = staging / relative
        if _safe_relative(relative) and source.is_file():
            (out / relative).parent.mkdir(parents=True, exist_ok=True)
            os.replace(source, out / relative)
        if number == 0:
            _kill_point("publish-after-first")
    if (staging / MANIFEST).is_file():
        os.replace(staging / MANIFEST, out / MANIFEST)
    shutil.rmtree(staging, ignore_errors=True)


def recover(out: Path) -> list[str]:
    """Finish committed builds that were interrupted, drop uncommitted staging folders and stray temporaries.

    Called with the folder locked. Returns what was done, for the report.
    """
    done = []
    for entry in sorted(out.glob(f"{STAGING_PREFIX}*")):
        if not entry.is_dir() or entry.is_symlink():
            continue
        if (entry / COMMIT_MARK).is_file():
            try:
                _roll_forward(out, entry)
                done.append(f"finished publishing an interrupted build ({entry.name})")
                continue
            except (OSError, ValueError):
                pass  # an unreadable mark: the build never committed cleanly
        shutil.rmtree(entry, ignore_errors=True)
        done.append(f"removed the staging folder of a failed build ({entry.name})")
    for folder, dirnames, filenames in os.walk(out):
        dirnames[:] = [d for d in dirnames if not d.startswith(STAGING_PREFIX)]
        for name in filenames:
            if name.startswith(".") and name.endswith(_TEMP_SUFFIX):  # left by an atomic write that was killed
                Path(folder, name).unlink(missing_ok=True)
                done.append(f"removed a stray temporary file {name}")
    return done


class BuildTransaction:
    """Stage outputs under ``out``, publish them with the manifest, or leave ``out`` untouched."""

    def __init__(self, out: Path) -> None:
        self.out = out
        self.staging: Path | None = None
        self.staged: list[str] = []
        self.recovered: list[str] = []
        self._lock = None

    def __enter__(self) -> "BuildTransaction":
        pointed = link_to_no_folder(self.out)  # a link to a folder is followed: the build lands there
        if pointed is not None:
            raise UsageError(f"--out {self.out} is a symbolic link to {pointed}, which is not a folder; point it at "
                             "a folder or choose another --out")
        try:
            self.out.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise output_problem(self.out, exc) from None
        self._lock = folder_lock(self.out, "build")
        self._lock.__enter__()
        try:
            if os.access(self.out, os.W_OK):
                self.recovered = recover(self.out)
        except BaseException:
            self._lock.__exit__(None, None, None)
            raise
        _ACTIVE[self.out.resolve()] = self
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        _ACTIVE.pop(self.out.resolve(), None)
        try:
            if self.staging is not None and self.staging.exists():
                shutil.rmtree(self.staging, ignore_errors=True)  # failed or aborted: nothing is published
        finally:
            self._lock.__exit__(kind, exc, tb)

    def _staging(self) -> Path:
        if self.staging is None:
            staging = self.out / f"{STAGING_PREFIX}{os.getpid()}-{uuid.uuid4().hex[:8]}"
            try:
                staging.mkdir()
            except OSError as exc:
                raise output_problem(self.out, exc) from None
            self.staging = staging
        return self.staging

    def write(self, relative: str, data: bytes) -> str:
        """Stage one output (unless the published file already has these bytes); return its sha256."""
        digest = hashlib.sha256(data).hexdigest()
        published = self.out / relative
        try:
            if published.is_file() and not published.is_symlink() and published.stat().st_size == len(data) \
                    and hashlib.sha256(published.read_bytes()).hexdigest() == digest:
                return digest
        except OSError:
            pass
        try:
            write_bytes_atomic(self._staging() / relative, data)
        except OSError as exc:
            raise output_problem(published, exc) from None
        self.staged.append(relative)
        _kill_point("after-first-output")
        return digest

    def write_file(self, relative: str, produce: Produce) -> tuple[str, Path]:
        """Stage one output that ``produce`` writes to a file (unless the published file already has its bytes);
        return its sha256 and the file that holds it now (the staged one, or the published one), to read back."""
        published = self.out / relative
        try:
            staging: Path | None = self._staging()
        except DataError:  # a read-only folder: an output equal to the published one still needs no staging
            staging = None
        try:
            tmp = produced_temp((staging / relative).parent if staging else Path(tempfile.gettempdir()),
                                published.name, produce)
        except OSError as exc:
            raise output_problem(published, exc) from None
        digest = file_sha256(tmp)
        if same_file(published, tmp.stat().st_size, digest):
            tmp.unlink()
            return digest, published
        if staging is None:
            tmp.unlink()
            self._staging()  # raises the folder's problem
        try:
            os.replace(tmp, staging / relative)  # type: ignore[operator]
        except OSError as exc:
            tmp.unlink(missing_ok=True)
            raise output_problem(published, exc) from None
        self.staged.append(relative)
        _kill_point("after-first-output")
        return digest, staging / relative  # type: ignore[operator]

    def publish(self, manifest: bytes) -> Path:
        """Write the commit mark, then move every staged output and the manifest into place."""
        target = self.out / MANIFEST
        try:
            unchanged = target.is_file() and target.read_bytes() == manifest
        except OSError:
            unchanged = False
        if unchanged and not self.staged:
            return target  # nothing changed: nothing is written
        staging = self._staging()
        try:
            write_bytes_atomic(staging / MANIFEST, manifest)
            _kill_point("before-commit")
            write_bytes_atomic(staging / COMMIT_MARK, json.dumps(self.staged).encode())
        except OSError as exc:
            raise output_problem(target, exc) from None
        self.staging = None  # committed: from here on a failure is finished by the next build, not undone
        _kill_point("after-commit")
        try:
            _roll_forward(self.out, staging)
        except OSError as exc:
            raise output_problem(target, exc) from None
        return target
