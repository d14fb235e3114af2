"""A game's look: with no stylesheet of its own its cards print in the default look, and ``export`` finds a
stylesheet in the game's own folder as ``build`` does; a build with nothing to print fails instead of writing
a calibration sheet alone. On the small game ``mini`` of ``conftest``, which has no stylesheet."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PIL import Image
from pypdf import PdfReader

from conftest import GameDir, run_cli

PX_PER_MM = 300 / 25.4
MAGENTA = (255, 0, 255)


def test_a_build_with_nothing_to_print_fails(game: GameDir, tmp_path: Path) -> None:
    game.write()
    run = run_cli("--cards", str(game.cards_root), "build", "--game", "mini", "--locale", "en", "--no-cards",
                  "--no-docs", "--out", str(tmp_path / "out"))
    assert run.exit_code == 2 and "nothing to build" in run.output, run.output
    assert not (tmp_path / "out" / "manifest.json").exists()


@pytest.mark.slow
def test_a_game_without_a_stylesheet_prints_its_cards_in_the_default_look(game: GameDir, tmp_path: Path) -> None:
    game.write()
    assert not list(game.root.rglob("*.css"))
    out = tmp_path / "out"
    run = run_cli("--cards", str(game.cards_root), "build", "--game", "mini", "--locale", "en", "--no-docs",
                  "--jobs", "1", "--out", str(out))
    assert run.exit_code == 0, run.output
    cards = [r for r in json.loads((out / "manifest.json").read_text())["outputs"] if r["kind"] == "cards"]
    assert [r["path"] for r in cards] == ["mini/en/cards-all-a4.pdf"]
    text = "".join(page.extract_text() for page in PdfReader(out / cards[0]["path"]).pages)
    assert "capità" in text and "Steal one" in text


@pytest.mark.slow
def test_export_uses_the_stylesheet_in_the_game_folder(game: GameDir, tmp_path: Path) -> None:
    game.files["templates/mini/cards.css"] = ".face .inner { background: #ff00ff; }\n"
    game.write()
    out = tmp_path / "out"
    run = run_cli("--cards", str(game.cards_root), "export", "print-shop", "--game", "mini", "--profile",
                  "thegamecrafter", "--out", str(out))
    assert run.exit_code == 0, run.output
    [face] = (out / "png").rglob("capita.png")  # in the folder of its card size (one product per size)
    with Image.open(face) as image:
        assert image.convert("RGB").getpixel((round(6.8 * PX_PER_MM), round(60 * PX_PER_MM))) == MAGENTA
