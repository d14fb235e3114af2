"""bench/build.py: it finds the other checkout, counts what a build wrote, and stops on a failed build."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pikepdf
import pytest

from conftest import REPO

_SPEC = importlib.util.spec_from_file_location("build_bench", REPO / "bench" / "build.py")
bench = importlib.util.module_from_spec(_SPEC)
sys.modules["build_bench"] = bench
_SPEC.loader.exec_module(bench)


def test_a_git_revision_is_exported_and_a_folder_is_used_as_it_is(tmp_path: Path) -> None:
    exported = bench.checkout("HEAD", tmp_path)
    assert exported != REPO and (exported / "src" / "cardworks" / "__main__.py").is_file()
    assert bench.checkout(str(REPO), tmp_path) == REPO.resolve()


def test_each_other_revision_is_exported_to_its_own_folder(tmp_path: Path) -> None:
    """``--also``: an old revision and main compared in one run, each built from its own export."""
    first, second = bench.checkout("HEAD", tmp_path, "other"), bench.checkout("HEAD~1", tmp_path, "also-1")
    assert first != second and all((tree / "src" / "cardworks").is_dir() for tree in (first, second))


def test_outputs_count_files_and_pdf_pages_but_not_the_cache(tmp_path: Path) -> None:
    pdf = pikepdf.new()
    for _ in range(3):
        pdf.add_blank_page()
    (tmp_path / "game" / "en").mkdir(parents=True)
    pdf.save(tmp_path / "game" / "en" / "sheet.pdf")
    (tmp_path / "manifest.json").write_text("{}", encoding="utf-8")
    (tmp_path / ".cache" / "faces").mkdir(parents=True)
    pdf.save(tmp_path / ".cache" / "faces" / "face.pdf")
    assert bench.outputs(tmp_path) == (2, 3)


def test_a_failed_build_stops_the_comparison(tmp_path: Path) -> None:
    tree = tmp_path / "broken"
    (tree / "src" / "cardworks").mkdir(parents=True)
    (tree / "src" / "cardworks" / "__init__.py").write_text("", encoding="utf-8")
    (tree / "src" / "cardworks" / "__main__.py").write_text("raise SystemExit(3)\n", encoding="utf-8")
    with pytest.raises(SystemExit, match=r"build in broken failed \(3\)"):
        bench.run(tree, tmp_path / "out", [])


def test_each_build_gets_a_fresh_user_cache(tmp_path: Path) -> None:
    """A cold build: the user cache (``CARDWORKS_CACHE``) is a new folder per run, not the developer's own."""
    tree = tmp_path / "tree"
    (tree / "src" / "cardworks").mkdir(parents=True)
    (tree / "src" / "cardworks" / "__init__.py").write_text("", encoding="utf-8")
    (tree / "src" / "cardworks" / "__main__.py").write_text(
        "import os, sys\nout = sys.argv[sys.argv.index('--out') + 1]\nos.makedirs(out)\n"
        "open(os.path.join(out, 'cache.txt'), 'w').write(os.environ.get('CARDWORKS_CACHE', ''))\n", encoding="utf-8")
    bench.run(tree, tmp_path / "out-a", [])
    bench.run(tree, tmp_path / "out-b", [])
    caches = [(tmp_path / name / "cache.txt").read_text(encoding="utf-8") for name in ("out-a", "out-b")]
    assert caches[0] != caches[1] and all(Path(c).parent == tmp_path and not Path(c).exists() for c in caches)


def test_the_seconds_of_each_output_are_summed_by_kind() -> None:
    stderr = ("rebuilt fallera en expert: faces conill\n   4.5 s  fallera/en/cards-expert-a4.pdf\n"
              "   1.5 s  fallera/en/rulebook-base.pdf\n   2.0 s  fallera/ca/rulebook-base-2.pdf\n"
              "   0.5 s  fallera/en/print-shop/cards-expert.pdf\n   6.1 s  diables/ca/standees-a4.pdf\n")
    assert bench.seconds_by_kind(stderr) == {"cards": 4.5, "rulebook": 3.5, "print-shop": 0.5, "standees": 6.1}


def test_outputs_that_differ_or_only_one_build_wrote_are_named(tmp_path: Path) -> None:
    one, two = tmp_path / "one", tmp_path / "two"
    for out in (one, two):
        (out / "game" / "en").mkdir(parents=True)
        (out / ".cache").mkdir()
        (out / "game" / "en" / "same.pdf").write_bytes(b"%PDF same")
    (one / "game" / "en" / "changed.pdf").write_bytes(b"%PDF one")
    (two / "game" / "en" / "changed.pdf").write_bytes(b"%PDF two")
    (two / "game" / "en" / "extra.pdf").write_bytes(b"%PDF")
    (one / ".cache" / "layout.pdf").write_bytes(b"cache only here")
    assert bench.differing(one, two) == ["game/en/changed.pdf", "game/en/extra.pdf"]
    assert bench.differing(one, one) == []


def test_pdfs_that_draw_other_pixels_are_told_from_those_that_only_differ_in_bytes(tmp_path: Path) -> None:
    def sheet(path: Path, boxes: list[tuple[int, int]], note: str = "") -> Path:
        pdf = pikepdf.new()
        for x, y in boxes:
            pdf.add_blank_page(page_size=(200, 200))
            pdf.pages[-1].Contents = pdf.make_stream(f"0 0 1 rg {x} {y} 40 40 re f".encode())
        if note:
            pdf.docinfo["/Title"] = note
        pdf.save(path)
        return path

    original = sheet(tmp_path / "a.pdf", [(10, 10), (50, 50)])
    same = sheet(tmp_path / "b.pdf", [(10, 10), (50, 50)], note="other bytes")
    moved = sheet(tmp_path / "c.pdf", [(10, 10), (52, 50)])
    shorter = sheet(tmp_path / "d.pdf", [(10, 10)])
    assert original.read_bytes() != same.read_bytes()
    assert bench.pages_differing(original, same) == []
    assert bench.pages_differing(original, moved) == [2]
    assert bench.pages_differing(original, shorter) is None
