"""``fileio.file_digest``: a process that builds again and again (``build --watch``, ``serve``) hashes the package,
the templates and the database before each build, and reads again only the files whose status changed."""

from __future__ import annotations

import os
import time
from pathlib import Path

from cardworks import fileio


def _digest(path: Path, read=None) -> bytes:
    return fileio.file_digest(str(path), os.lstat(path), read or path.read_bytes)


def _unread() -> bytes:
    raise AssertionError("read again although its status is unchanged")


def test_a_file_just_written_is_never_kept_so_a_same_size_write_right_after_is_seen(tmp_path: Path) -> None:
    path = tmp_path / "card.json"
    path.write_text('{"attack": 1}')
    first = _digest(path)
    path.write_text('{"attack": 9}')  # same size, within the file system's time resolution, maybe
    assert _digest(path) != first


def test_a_settled_file_is_read_once_and_again_after_any_write(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(fileio, "SETTLED_NS", 0)  # as if the file had not changed for long when it was read
    path = tmp_path / "card.json"
    path.write_text('{"attack": 1}')
    settled = _digest(path)
    assert _digest(path, _unread) == settled
    time.sleep(0.05)  # past the time resolution, which SETTLED_NS covers outside a test
    path.write_text('{"attack": 5}')
    assert _digest(path) != settled
    assert fileio.file_digest(str(path), None, path.read_bytes) == _digest(path)  # no status: read, not kept
