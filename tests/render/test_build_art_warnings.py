"""Art under 300 dpi: ``validate`` and ``build`` say the same, to one decimal (issue 44)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from conftest import REPO, run_cli

CARDS = REPO / "cards"


def _pack(folder: Path) -> Path:
    """The example pack with one card whose art is 630 × 361 px: 299.7 dpi over its 53.4 × 30.5 mm box."""
    shutil.copytree(REPO / "examples" / "fallera-pack", folder)
    manifest = json.loads((folder / "pack.json").read_text(encoding="utf-8"))
    manifest["documents"] = [{"id": "designer-notes", "title": "The designer's own notes"}]
    (folder / "pack.json").write_text(json.dumps(manifest), encoding="utf-8")
    (folder / "art").mkdir()
    pixels = np.random.default_rng(5).integers(0, 255, (361, 630, 3), dtype=np.uint8)
    Image.fromarray(pixels, "RGB").save(folder / "art" / "almost.png", dpi=(300, 300))
    card = {"id": "almost", "quantity": 1, "types": ["battle"], "stats": {"attack": 2, "defence": 2},
            "name": "almost", "rules": "Win a battle.", "art": "art/almost.png",
            "sources": [{"doc": "designer-notes", "certainty": "stated"}]}
    document = {"$schema": "../../../schema/set.schema.json", "id": "art-set", "name": "Art set", "order": 11,
                "cards": [card]}
    (folder / "sets" / "art.json").write_text(json.dumps(document), encoding="utf-8")
    return folder


WARNING = "'art/almost.png' is 630×361 px: 299.7 dpi over its 53.4×30.5 mm at print size"


def test_validate_prints_299_7_dpi_and_counts_it_under_300(tmp_path: Path) -> None:
    run = run_cli("--cards", str(CARDS), "validate", str(_pack(tmp_path / "pack")))
    assert "[art-low-resolution]" in run.output and WARNING in run.output, run.output


@pytest.mark.slow
def test_build_repeats_the_art_warning_validate_gives(tmp_path: Path) -> None:
    pack = _pack(tmp_path / "pack")
    run = run_cli("--cards", str(CARDS), "build", str(pack), "--out", str(tmp_path / "build"), "--locale", "en",
                  "--jobs", "1")
    assert run.exit_code == 0, run.output
    lines = [line for line in run.output.splitlines() if "[art-low-resolution]" in line]
    assert lines and WARNING in lines[0] and "art.json:/cards/0/art" in lines[0], run.output
