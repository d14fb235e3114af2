"""Refusals name the file that asked: a rulebook section's image outside the game is reported at the section's
file and line, and an export's refused fetch names the refused file with its code, as a build's does."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from PIL import Image

from corpus import REPO, cardworks, diables, fingerprint, judge, lost  # noqa: F401 (diables: a fixture)

FAMILY = "paths"


@pytest.mark.slow
def test_rulebook_image_outside_the_game_names_the_section_and_line(diables: Path, tmp_path: Path) -> None:
    section = sorted((diables / "diables/rules/en").glob("*.md"))[1]
    lines = section.read_text(encoding="utf-8").rstrip("\n").split("\n")
    lines += ["", "The square, drawn:", "", "![the square](/etc/passwd) and", "![the map](../../../../../../../../etc/hostname)"]
    section.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = tmp_path / "out"
    run = cardworks("--cards", str(diables), "build", "--game", "diables", "--locale", "en", "--no-cards",
                    "--out", str(out), timeout=120)
    where = f"rules/en/{section.name}"
    judge("rulebook image at an absolute path outside the game", FAMILY, run, refuse=True,
          names=f"{where}:{len(lines) - 1}: [path-escape] asks for /etc/passwd", code="path-escape")
    judge("rulebook image climbing out of the game", FAMILY, run, refuse=True,
          names=f"{where}:{len(lines)}: [path-escape] asks for /etc/hostname", code="path-escape")
    assert "the diables en rulebook" in run.stderr and not (out / "diables").exists()


@pytest.mark.slow
def test_export_refusal_names_the_refused_file(tmp_path: Path) -> None:
    outside = tmp_path / "outside.png"
    Image.new("RGB", (10, 10), (0, 200, 0)).save(outside)
    pack = tmp_path / "pack"
    shutil.copytree(REPO / "examples" / "fallera-pack", pack)
    (pack / "templates/cards").mkdir(parents=True)
    css = (REPO / "templates/cards/cards.css").read_text(encoding="utf-8")
    (pack / "templates/cards/cards.css").write_text(css + f'\n.inner {{ background-image: url("{outside.as_uri()}"); }}\n',
                                                    encoding="utf-8")
    out = tmp_path / "export"
    out.mkdir()
    before = fingerprint(tmp_path)
    run = cardworks("--cards", str(REPO / "cards"), "export", "print-shop", str(pack), "--profile", "pdf",
                    "--out", str(out), timeout=120)
    judge("export of a pack whose stylesheet reads a file outside it", FAMILY, run, refuse=True,
          names=f"{outside}: [path-escape]", code="path-escape", changed=lost(before, fingerprint(tmp_path)))
    # the problem line starts with the file (the old message carried the URL inside one long sentence)
    assert any(line.startswith(f"{outside}: [path-escape]") for line in run.stderr.splitlines()), run.stderr
    assert "the example-pack en export" in run.stderr
