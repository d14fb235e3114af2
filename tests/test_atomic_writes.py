"""Atomic writes name the file they meant to write when the disk fails them (a full disk fails ``write`` or
``fsync`` itself, and Python's error then names no file: the user would read ``?``)."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from cardworks import fileio


def test_a_full_disk_during_a_write_names_the_file_and_leaves_no_temporary(tmp_path: Path, monkeypatch) -> None:
    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))  # as the kernel reports it: no file name

    monkeypatch.setattr(fileio.os, "fsync", full)
    target = tmp_path / "out" / "cards.pdf"
    with pytest.raises(OSError) as failed:
        fileio.write_bytes_atomic(target, b"%PDF-1.7")
    assert failed.value.errno == errno.ENOSPC and failed.value.filename == str(target)
    assert list((tmp_path / "out").iterdir()) == []  # neither the file nor its temporary


def test_an_error_that_names_its_file_keeps_it(tmp_path: Path, monkeypatch) -> None:
    def denied(fd: int) -> None:
        raise OSError(errno.EACCES, os.strerror(errno.EACCES), "/elsewhere")

    monkeypatch.setattr(fileio.os, "fsync", denied)
    with pytest.raises(OSError) as failed:
        fileio.write_bytes_atomic(tmp_path / "a.txt", b"x")
    assert failed.value.filename == "/elsewhere"
