"""``iter_pngs`` gives a deck's PNGs one at a time (``build --png`` writes each as it is made), reopening pdfium
every ``REOPEN_EVERY`` pages: the images are those of one opening."""

from __future__ import annotations

import types
from pathlib import Path

import pikepdf
import pytest

from cardworks.render import facepdf


def _deck(tmp_path: Path, pages: int) -> Path:
    pdf = pikepdf.new()
    for number in range(pages):
        pdf.add_blank_page(page_size=(72, 90))
        grey = number / pages
        pdf.pages[-1].obj.Contents = pdf.make_stream(f"{grey:.3f} g 0 0 {10 + number} 50 re f".encode())
    path = tmp_path / "deck.pdf"
    pdf.save(path)
    return path


def test_pngs_come_one_at_a_time_and_reopening_changes_no_byte(tmp_path: Path, monkeypatch) -> None:
    path = _deck(tmp_path, 7)
    names = [f"card-{n}" for n in range(7)]
    monkeypatch.setattr(facepdf, "REOPEN_EVERY", 3)
    made = facepdf.iter_pngs(path, names, Path("png"), dpi=36)
    assert isinstance(made, types.GeneratorType)
    first = next(made)
    assert first[0] == str(Path("png") / "card-0.png") and first[1].startswith(b"\x89PNG")
    reopened = dict([first, *made])
    monkeypatch.setattr(facepdf, "REOPEN_EVERY", 1000)
    once = facepdf.render_pngs(path.read_bytes(), names, Path("png"), dpi=36)
    assert reopened == once and len(set(once.values())) == 7


def test_a_page_past_the_end_fails_loudly(tmp_path: Path) -> None:
    with pytest.raises(Exception, match="page"):  # pdfium: "Failed to load page."
        list(facepdf.iter_pngs(_deck(tmp_path, 2), ["a", "b", "c"], Path("png"), dpi=36))
