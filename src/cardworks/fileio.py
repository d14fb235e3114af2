"""Safe file reads and atomic writes.

Reads: data comes from other people, so a file is opened without blocking and
read only when it is a regular file under a size limit (a FIFO, a device or a
3 GB file is refused, never waited on or swallowed whole).

Writes: a failed or interrupted write never leaves half a file; several files
that belong together (one import) are written as one journaled change by
:mod:`cardworks.journal`.
"""

from __future__ import annotations

import errno
import fcntl
import hashlib
import os
import shutil
import signal
import stat
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from glob import escape as glob_escape
from pathlib import Path

from .errors import CardworksError

_UMASK = os.umask(0)
os.umask(_UMASK)

MAX_TEXT_BYTES = 16 * 1024 * 1024
"""Largest text file (rulebook section, translator's file) read; real ones are under 100 KB."""
MAX_ASSET_BYTES = 64 * 1024 * 1024
"""Largest file of any kind a game folder may hold (art, icons); hashing reads it whole."""


OS_ERROR_CODES = {errno.ENOSPC: "disk-full", errno.EDQUOT: "disk-full", errno.EROFS: "read-only",
                  errno.EACCES: "permission-denied", errno.EPERM: "permission-denied"}
"""OS errors that say something about the machine, not a bug: the problem code each is reported with."""


class UnsafeFile(CardworksError, ValueError):
    """A file that is not read: not a regular file, too large, or unreadable. ``code`` says which."""

    def __init__(self, code: str, message: str, path: Path | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.path = path


@contextmanager
def _regular(path: Path, limit: int) -> Iterator[int]:
    """A descriptor of ``path`` opened without blocking (a FIFO is refused, not waited on) when it is a regular
    file of at most ``limit`` bytes; else :class:`UnsafeFile` (errors reading it: see :func:`_chunks`)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise UnsafeFile("symlink-loop", "symbolic link loop; it leads nowhere", path) from None
        raise UnsafeFile("file-unreadable", f"cannot read the file: {exc.strerror}", path) from None
    try:
        try:
            info = os.fstat(fd)
        except OSError as exc:
            raise UnsafeFile("file-unreadable", f"cannot read the file: {exc.strerror}", path) from None
        if not stat.S_ISREG(info.st_mode):
            raise UnsafeFile("not-a-regular-file", f"this is a {file_type(info.st_mode)}, not a regular file; it is not read", path)
        if info.st_size > limit:
            raise UnsafeFile("file-too-large", f"file is {info.st_size:,} bytes; the limit is {limit:,} bytes", path)
        yield fd  # an error of the caller's own (writing a copy to a full disk) goes up as it is
    finally:
        os.close(fd)


def _chunks(fd: int, limit: int, path: Path) -> Iterator[bytes]:
    """The file's bytes a MB at a time; :class:`UnsafeFile` once it has grown past ``limit`` while read."""
    remaining = limit + 1
    while remaining > 0:
        try:
            chunk = os.read(fd, min(remaining, 1 << 20))
        except OSError as exc:
            raise UnsafeFile("file-unreadable", f"cannot read the file: {exc.strerror}", path) from None
        if not chunk:
            return
        remaining -= len(chunk)
        if remaining <= 0:  # grew while being read
            raise UnsafeFile("file-too-large", f"file is over the limit of {limit:,} bytes", path)
        yield chunk


SETTLED_NS = 2_000_000_000
"""A file last changed longer ago than this (2 s) has its digest kept in the process (:func:`file_digest`)."""
_DIGESTS: dict[str, tuple[tuple[int, int, int, int, int], bytes]] = {}


def file_digest(path: str | Path, info: os.stat_result | None, read: Callable[[], bytes]) -> bytes:
    """The SHA-256 of the file's bytes (``read()`` gives them). A process that builds again and again (``build
    --watch``, ``serve``) hashes the package, the templates and the database before each build; a file whose
    status (modification and change times, size, inode, device) is what it was when it was read is not read
    again. The change time moves with every write and cannot be set back, and a digest is kept only for a file
    that had not changed for ``SETTLED_NS`` when it was read, so a write within the file system's time
    resolution of the reading cannot pass for no change (the "racy" case of git's index)."""
    if info is None:  # no status: read (and refused) as usual, kept by nothing
        return hashlib.sha256(read()).digest()
    signature = (info.st_mtime_ns, info.st_ctime_ns, info.st_size, info.st_ino, info.st_dev)
    kept = _DIGESTS.get(str(path))
    if kept is not None and kept[0] == signature:
        return kept[1]
    value = hashlib.sha256(read()).digest()
    if time.time_ns() - max(info.st_mtime_ns, info.st_ctime_ns) > SETTLED_NS:
        _DIGESTS[str(path)] = (signature, value)
    return value


def read_limited(path: Path, limit: int = MAX_TEXT_BYTES) -> bytes:
    """The bytes of ``path`` when it is a regular file of at most ``limit`` bytes; else :class:`UnsafeFile`.

    The file is opened with ``O_NONBLOCK`` so a FIFO is refused instead of waited on.
    """
    with _regular(path, limit) as fd:
        return b"".join(_chunks(fd, limit, path))


def copy_limited(path: Path, target: Path, limit: int) -> None:
    """Copy ``path`` into the new file ``target`` under the checks of :func:`read_limited`, a MB at a time: a large
    file is checked from a copy no one else changes, never held in memory whole."""
    with _regular(path, limit) as fd, open(target, "xb") as handle:
        for chunk in _chunks(fd, limit, path):
            handle.write(chunk)


def read_text_limited(path: Path, limit: int = MAX_TEXT_BYTES) -> str:
    """UTF-8 text of a regular file (see :func:`read_limited`); undecodable bytes are an :class:`UnsafeFile`."""
    try:
        return read_limited(path, limit).decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UnsafeFile("encoding", f"invalid UTF-8 at byte {exc.start}; save the file as UTF-8", path) from None


def file_type(mode: int) -> str:
    """A reader's name for what a non-regular file is."""
    if stat.S_ISFIFO(mode):
        return "named pipe (FIFO)"
    if stat.S_ISSOCK(mode):
        return "socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "device"
    if stat.S_ISDIR(mode):
        return "folder"
    return "special file"


def fault_point(name: str) -> None:
    """Fault injection for the hostile tests, at a named moment of a command's work.

    ``CARDWORKS_KILL_AT=<name>`` kills the process here (as kill -9 would); ``CARDWORKS_PAUSE_AT=<name>``
    writes this process's id into the file ``CARDWORKS_PAUSED`` names and waits here, so a test can send
    Ctrl-C at exactly this moment. Points: ``write`` (before any atomic write or grouped write), the
    build transaction's (see ``render.transaction``), ``export-publish`` (an export's staged folder
    complete, before it replaces ``--out``), ``face-pass`` (a chunk of faces about to be laid out, in whichever
    process or cluster worker lays it out), ``new-publish`` (``cardworks new``'s game complete in its staging folder,
    about to be renamed into place), ``sheet-copy`` (a sheet import's copy of the database made, about to be
    validated), ``import-before-commit`` and ``import-between-renames`` (see :mod:`cardworks.journal`). With ``CARDWORKS_KILL_ONCE=<file>`` only the first process to
    create that file is killed, so a test can kill one worker of several.
    """
    if os.environ.get("CARDWORKS_KILL_AT") == name and _first_to_die():
        os.kill(os.getpid(), signal.SIGKILL)
    if os.environ.get("CARDWORKS_PAUSE_AT") == name and threading.current_thread() is threading.main_thread():
        # only the main thread pauses: Ctrl-C interrupts it alone (a helper thread's write passes through)
        flag = os.environ.get("CARDWORKS_PAUSED")
        if flag:
            Path(flag).write_text(str(os.getpid()))
        time.sleep(120)  # Ctrl-C ends the wait with KeyboardInterrupt, as it would end real work here


PARENT_POLL_S = 0.5
"""How often a forked worker looks whether the process that started it is still alive."""
_WATCHING: list[bool] = []


def end_workers_with_their_parent() -> None:
    """Make every process forked from this one from now on (a build's, a check's or a simulation's worker, and
    theirs) end within about a second once the process that forked it is gone, however it went (kill -9, a
    timeout's SIGTERM, out of memory): a killed run leaves no worker behind to run for an hour with parent 1.

    Each forked child gets a daemon thread that polls :func:`os.getppid`: it changes when the parent dies and
    the child is handed to init (or a subreaper). A poll, not ``PR_SET_PDEATHSIG``: that fires when the
    *thread* that forked ends, and a pool may fork from a helper thread. Called once, by the command line.
    """
    if _WATCHING or not hasattr(os, "register_at_fork"):
        return
    _WATCHING.append(True)
    os.register_at_fork(after_in_child=_watch_parent)


def _watch_parent() -> None:
    parent = os.getppid()

    def watch() -> None:
        while True:
            time.sleep(PARENT_POLL_S)
            if os.getppid() != parent:
                os._exit(1)

    threading.Thread(target=watch, name="cardworks-parent-watch", daemon=True).start()


def _first_to_die() -> bool:
    once = os.environ.get("CARDWORKS_KILL_ONCE")
    if not once:
        return True
    try:
        os.close(os.open(once, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
    except FileExistsError:
        return False
    return True


def user_cache_folder() -> Path:
    """Where verdicts are remembered between runs: ``$CARDWORKS_CACHE``, else the platform's user cache folder."""
    if os.environ.get("CARDWORKS_CACHE"):
        return Path(os.environ["CARDWORKS_CACHE"])
    import platformdirs

    return Path(platformdirs.user_cache_dir("cardworks"))  # honours XDG_CACHE_HOME on Linux


def read_cache_table(name: str) -> object:
    """The JSON table ``name`` kept between runs in :func:`user_cache_folder`, or None when there is none yet or it
    is damaged or unsafe to read (the caller then starts afresh: a cache only ever saves time)."""
    import json

    try:
        return json.loads(read_limited(user_cache_folder() / name))
    except (UnsafeFile, ValueError, RecursionError):  # RecursionError: JSON nested thousands deep
        return None


def write_cache_table(name: str, table: object) -> None:
    """Save the JSON table ``name`` in :func:`user_cache_folder` atomically; a cache that cannot be written is
    simply not kept."""
    import json

    try:
        write_text_atomic(user_cache_folder() / name, json.dumps(table))
    except OSError:
        pass


def write_temp(path: Path, data: bytes, tag: str = "") -> str:
    """``data`` in a synced temporary file beside ``path`` (named ``.<name>.<tag>…tmp``); returns its name."""
    fault_point("write")
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.{tag}", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, 0o666 & ~_UMASK)  # mkstemp makes 0600; outputs are ordinary files
    except OSError as exc:  # a full disk fails the write itself, which names no file: name the one meant
        Path(tmp).unlink(missing_ok=True)
        if exc.filename is None:
            raise OSError(exc.errno, exc.strerror, str(path)) from exc
        raise
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return tmp


def write_bytes_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file in the same folder (``.<name>.<pid>.…tmp``, so the
    next writer can tell one a killed process left: :func:`remove_stale_temps`) and a rename."""
    tmp = write_temp(path, data, f"{os.getpid()}.")
    try:
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def remove_stale_temps(path: Path) -> list[Path]:
    """Remove the temporaries that atomic writes of ``path`` left beside it when their process was killed between
    writing and renaming (``.<name>.<pid>.…tmp`` of a process that has ended); those of a live process stay."""
    removed = []
    for entry in path.parent.glob(f".{glob_escape(path.name)}.*.tmp"):
        number = entry.name[len(path.name) + 2:].split(".")[0]
        if not number.isdigit() or entry.is_dir() or process_alive(int(number)):
            continue
        entry.unlink(missing_ok=True)
        removed.append(entry)
    return removed


def remove_stale_runs(parent: Path, prefix: str) -> list[Path]:
    """Remove the folders a killed run left in ``parent``: those named ``<prefix><pid>`` or ``<prefix><pid>-…``
    (a staging folder, an earlier output put aside) whose process has ended. A folder of a run still going (its
    process alive) stays; one without a process id (an older cardworks) is stale. Returns the folders removed."""
    removed = []
    for entry in parent.glob(f"{glob_escape(prefix)}*"):
        if run_ended(entry, prefix):
            shutil.rmtree(entry, ignore_errors=True)
            removed.append(entry)
    return removed


def run_ended(entry: Path, prefix: str) -> bool:
    """Whether ``entry`` is a folder ``<prefix><pid>[-…]`` (not a link to one) whose process has ended."""
    number = entry.name[len(prefix):].split("-")[0]
    return entry.is_dir() and not entry.is_symlink() and not (number.isdigit() and process_alive(int(number)))


def process_alive(pid: int) -> bool:
    """Whether process ``pid`` is running (another user's process counts). A killed worker whose parent died too
    is a zombie until the system reaps it, which can take a while, and a zombie answers signals; where ``/proc``
    says it is one, it has ended."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):
        return True
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:  # no /proc (macOS), or it ended just now: what it left is removed next time
        return True
    return stat.rpartition(")")[2].split()[:1] != ["Z"]


def sweep_dead_temporaries(prefix: str, folder: Path | None = None) -> list[str]:
    """Remove this user's folders ``<prefix><pid>-…`` in the temporary folder (or ``folder``) whose process has
    ended: what a process killed outright (kill -9, out of memory) left, since no clean-up of its own ran. A live
    process's folder, another user's, and any other name are left. Returns the names removed."""
    removed = []
    try:
        entries = list(os.scandir(folder or tempfile.gettempdir()))
    except OSError:
        return removed
    for entry in entries:
        number, dash, rest = entry.name[len(prefix):].partition("-") if entry.name.startswith(prefix) else ("", "", "")
        if not (number.isdigit() and dash and rest) or not entry.is_dir(follow_symlinks=False):
            continue
        try:
            if entry.stat(follow_symlinks=False).st_uid != os.getuid() or process_alive(int(number)):
                continue
        except OSError:
            continue
        shutil.rmtree(entry.path, ignore_errors=True)
        removed.append(entry.name)
    return removed


def link_to_no_folder(path: Path) -> str | None:
    """What ``path`` points to, when it is a symbolic link that leads to no folder (to nothing, in a loop, to a
    file); None otherwise. A command that writes a folder follows a link to one and refuses any other."""
    if path.is_symlink() and not path.is_dir():
        return os.readlink(path)
    return None


def write_text_atomic(path: Path, text: str) -> None:
    """Write UTF-8 ``text`` to ``path`` atomically."""
    write_bytes_atomic(path, text.encode("utf-8"))


def _renameat2() -> object | None:
    """The C library's ``renameat2`` (Linux, glibc 2.28 and later), or None."""
    import ctypes

    try:
        function = ctypes.CDLL(None, use_errno=True).renameat2
    except (OSError, AttributeError, TypeError):
        return None
    function.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
    function.restype = ctypes.c_int
    return function


_UNKNOWN = object()
EXCHANGE: object | None = _UNKNOWN
"""``renameat2``, with which :func:`exchange` swaps two folders in one step, looked up on first use; None where
there is none (the tests set it to None to run the two-rename way)."""
_AT_FDCWD, _RENAME_EXCHANGE = -100, 2


def exchange(first: Path, second: Path) -> bool:
    """Swap two existing paths in one step (``renameat2(RENAME_EXCHANGE)``): each then holds what the other held,
    and no reader, nor a kill, ever finds one of them missing. False when this system or file system cannot (the
    caller then renames twice); OSError when it can but the swap fails."""
    import ctypes

    global EXCHANGE
    if EXCHANGE is _UNKNOWN:
        EXCHANGE = _renameat2()
    if EXCHANGE is None:
        return False
    if EXCHANGE(_AT_FDCWD, os.fsencode(first), _AT_FDCWD, os.fsencode(second), _RENAME_EXCHANGE) == 0:  # type: ignore[operator]
        return True
    number = ctypes.get_errno()
    if number in (errno.ENOSYS, errno.EINVAL, errno.EOPNOTSUPP, errno.ENOTSUP):
        return False
    raise OSError(number, os.strerror(number), str(second))


@contextmanager
def folder_lock(folder: Path, what: str) -> Iterator[None]:
    """Hold an exclusive lock on ``folder`` (``flock`` on the folder itself, so a read-only folder
    can be locked and no lock file is left behind); a second holder waits, saying why."""
    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            print(f"cardworks: waiting: another {what} is using {folder}", file=sys.stderr, flush=True)
            fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing releases the lock


@contextmanager
def folder_locks(folders: list[Path], what: str) -> Iterator[None]:
    """:func:`folder_lock` on each of ``folders`` (each once, in the order given): an import holds the game
    folder and every pack it may write into, so no reader recovers a pack under its feet."""
    seen: set[Path] = set()
    with ExitStack() as stack:
        for folder in folders:
            if folder.resolve() not in seen:
                seen.add(folder.resolve())
                stack.enter_context(folder_lock(folder, what))
        yield
