"""Files other commands read outside ``validate``'s loader go through the same checked reader: a FIFO or a
device handed to ``preflight`` is refused at once, never waited on or read until memory runs out."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from corpus import cardworks, judge

FAMILY = "paths"


@pytest.mark.parametrize("kind", ["fifo", "device"])
def test_preflight_refuses_a_special_file(kind: str, tmp_path: Path) -> None:
    target = tmp_path / ("print.pdf" if kind == "fifo" else "face.png")
    if kind == "fifo":
        os.mkfifo(target)
    else:
        os.symlink("/dev/zero", target)
    result = cardworks("preflight", str(target), "--profile", "pdf", timeout=30)
    judge(f"preflight of a {kind}", FAMILY, result, refuse=True, names=target.name, code="not-a-regular-file")
