"""``copy_limited`` copies a file under ``read_limited``'s checks without holding it: preflight checks a deck's
PDF from such a copy."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from cardworks.fileio import UnsafeFile, copy_limited, read_limited


def test_a_regular_file_is_copied_whole(tmp_path: Path) -> None:
    source = tmp_path / "deck.pdf"
    source.write_bytes(os.urandom(3 * (1 << 20) + 5))  # more than one chunk
    copy_limited(source, tmp_path / "copy.pdf", 4 << 20)
    assert (tmp_path / "copy.pdf").read_bytes() == source.read_bytes() == read_limited(source, 4 << 20)


def test_a_file_over_the_limit_is_refused_and_not_copied(tmp_path: Path) -> None:
    source = tmp_path / "deck.pdf"
    source.write_bytes(b"x" * 101)
    with pytest.raises(UnsafeFile) as refused:
        copy_limited(source, tmp_path / "copy.pdf", 100)
    assert refused.value.code == "file-too-large" and not (tmp_path / "copy.pdf").exists()
    copy_limited(source, tmp_path / "copy.pdf", 101)  # at the limit: copied
    assert (tmp_path / "copy.pdf").stat().st_size == 101


def test_a_fifo_is_refused_at_once(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe")
    with pytest.raises(UnsafeFile) as refused:
        copy_limited(tmp_path / "pipe", tmp_path / "copy.pdf", 100)
    assert refused.value.code == "not-a-regular-file" and not (tmp_path / "copy.pdf").exists()


def test_an_existing_target_is_never_overwritten(tmp_path: Path) -> None:
    (tmp_path / "deck.pdf").write_bytes(b"new")
    (tmp_path / "copy.pdf").write_bytes(b"old")
    with pytest.raises(FileExistsError):
        copy_limited(tmp_path / "deck.pdf", tmp_path / "copy.pdf", 100)
    assert (tmp_path / "copy.pdf").read_bytes() == b"old"
