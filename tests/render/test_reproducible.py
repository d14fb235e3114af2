"""The same input gives the same bytes wherever it lies: a deck with icons and PNG art (one passed through
undecoded, one WeasyPrint decodes) built cold in two folders of different paths gives identical PDFs."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from conftest import REPO, run_cli
from test_rawpng import _pack

pytestmark = pytest.mark.slow


def _build(pack: Path) -> dict[str, bytes]:
    out = pack.parent / "out"
    built = run_cli("--cards", str(REPO / "cards"), "build", str(pack), "--locale", "en", "--jobs", "1", "--no-docs",
                    "--set", "art-set", "--out", str(out))
    assert built.exit_code == 0, built.output
    return {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*.pdf")) if ".cache" not in p.parts}


def test_a_pack_built_in_two_folders_gives_the_same_pdfs(tmp_path: Path) -> None:
    pack = _pack(tmp_path / "a" / "the-designers-pack")  # its art is random noise: made once, then copied
    elsewhere = tmp_path / "somewhere" / "much-deeper" / "b" / "the-designers-pack"
    shutil.copytree(pack, elsewhere)
    first, second = _build(pack), _build(elsewhere)
    assert first and first.keys() == second.keys()
    assert [name for name in first if first[name] != second[name]] == []
