"""Outputs written straight to a file by the build's transaction: staged (and published) like bytes, not staged
when the published file already has them, and a failed write leaves no temporary file and names the output."""

from __future__ import annotations

import errno
import hashlib
from pathlib import Path

import pytest

from cardworks.errors import DataError
from cardworks.render.manifest import write_output_file
from cardworks.render.transaction import BuildTransaction


def _writer(data: bytes):
    return lambda path: path.write_bytes(data)


def test_a_file_output_is_staged_then_published(tmp_path: Path) -> None:
    out = tmp_path / "out"
    with BuildTransaction(out) as transaction:
        digest, where = write_output_file(out, "g/deck.pdf", _writer(b"new deck"))
        assert where.read_bytes() == b"new deck" and where == transaction.staging / "g" / "deck.pdf"
        assert not (out / "g" / "deck.pdf").exists()  # nothing published before the commit
        transaction.publish(b"{}")
    assert (out / "g" / "deck.pdf").read_bytes() == b"new deck"
    assert digest == hashlib.sha256(b"new deck").hexdigest()


def test_an_unchanged_file_output_is_not_staged_and_is_read_where_it_is(tmp_path: Path) -> None:
    out = tmp_path / "out"
    (out / "g").mkdir(parents=True)
    (out / "g" / "deck.pdf").write_bytes(b"same deck")
    with BuildTransaction(out) as transaction:
        _, where = write_output_file(out, "g/deck.pdf", _writer(b"same deck"))
        assert where == out / "g" / "deck.pdf" and transaction.staged == []
        assert not list(transaction.staging.rglob("*.tmp"))


def test_a_failed_file_write_names_the_output_and_leaves_no_temporary_file(tmp_path: Path) -> None:
    out = tmp_path / "out"

    def full(path: Path) -> None:
        path.write_bytes(b"half")
        raise OSError(errno.ENOSPC, "No space left on device")

    with BuildTransaction(out) as transaction:
        with pytest.raises(DataError, match="deck.pdf") as caught:
            write_output_file(out, "g/deck.pdf", full)
        assert "[disk-full]" in str(caught.value)
        assert transaction.staged == [] and not [p for p in transaction.staging.rglob("*") if p.is_file()]
