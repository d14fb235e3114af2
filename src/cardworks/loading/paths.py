"""Paths named in data must stay inside their game folder or pack."""

from __future__ import annotations

from pathlib import Path, PurePosixPath

from ..errors import CardworksError


class PathEscape(CardworksError, ValueError):
    """A path in data points outside the folder it belongs to."""


def resolve_inside(root: Path, relative: str) -> Path:
    """Resolve ``relative`` (``/``-separated) against ``root``, refusing any escape.

    Raises :class:`PathEscape` for absolute paths, drive letters, ``..`` that
    climbs out, and symlinks whose target lies outside ``root``.
    """
    if "\\" in relative or "\x00" in relative:
        raise PathEscape(f"{relative!r} must use '/' and no control characters")
    pure = PurePosixPath(relative)
    if pure.is_absolute() or (len(relative) > 1 and relative[1] == ":"):
        raise PathEscape(f"{relative!r} is absolute; paths are relative to the folder that holds the data")
    if ".." in pure.parts:
        raise PathEscape(f"{relative!r} climbs out with '..'; paths must stay inside the folder")
    root_real = root.resolve()
    try:
        target = (root / pure).resolve()
    except (RuntimeError, OSError):  # a symbolic link loop
        raise PathEscape(f"{relative!r} is a symbolic link loop; it leads nowhere") from None
    if target != root_real and root_real not in target.parents:
        raise PathEscape(f"{relative!r} leads outside the folder (through a symbolic link)")
    return target


def is_inside(root: Path, path: Path) -> bool:
    """True when ``path``, symlinks followed, lies inside ``root``."""
    root_real = root.resolve()
    try:
        target = path.resolve()
    except (RuntimeError, OSError):  # a symbolic link loop is inside nothing
        return False
    return target == root_real or root_real in target.parents


def read_text_inside(root: Path, path: Path, limit: int | None = None) -> str:
    """The UTF-8 text of ``path`` through the checked reader, refused unless it lies inside ``root``.

    Raises :class:`~cardworks.fileio.UnsafeFile` (a ``ValueError``): ``path-escape`` for a symlink
    that leads out of ``root``, or whatever the checked reader refuses (a FIFO, a device, a huge file).
    """
    from ..fileio import MAX_TEXT_BYTES, UnsafeFile, read_text_limited

    if not is_inside(root, path):
        raise UnsafeFile("path-escape", "symbolic link to a file outside the folder; it is not read", path)
    return read_text_limited(path, MAX_TEXT_BYTES if limit is None else limit)
