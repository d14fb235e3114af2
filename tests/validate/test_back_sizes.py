"""A back image is measured at the size of the cards it is printed behind, as ``resolve_card_size`` gives it:
a set without a size of its own in a pack that has one prints its back at the pack's size (validate measured
it at the game's, so a back too small for the pack's large cards passed)."""

from __future__ import annotations

import copy
import json
from pathlib import Path

from PIL import Image

from conftest import GameDir, mini_files, run_cli

BACK_PX = (830, 1130)
"""Just over 300 dpi on a poker back with its bleed (69 × 94 mm): sharp at the game's size, not at 120 × 170 mm."""


def _pack(tmp_path: Path, pack_size: dict | None) -> Path:
    """The fixture game ``mini`` and a pack of it whose one set has a back image and no size of its own."""
    GameDir(tmp_path / "cards", copy.deepcopy(mini_files())).write()
    folder = tmp_path / "pack"
    manifest = {"$schema": "../../schema/pack.schema.json", "id": "big-pack", "extends": "mini", "name": "Big pack",
                "documents": [{"id": "designer-notes", "title": "The designer's own notes"}]}
    if pack_size is not None:
        manifest["card_size"] = pack_size
    card = {"id": "big-card", "quantity": 1, "types": ["battle"], "stats": {"attack": 2, "defence": 2},
            "name": "big card", "sources": [{"doc": "designer-notes", "certainty": "stated"}]}
    document = {"$schema": "../../../schema/set.schema.json", "id": "big-set", "name": "Big set",
                "back": {"art": "art/back.png"}, "cards": [card]}
    for relative, content in (("pack.json", manifest), ("sets/big.json", document)):
        (folder / relative).parent.mkdir(parents=True, exist_ok=True)
        (folder / relative).write_text(json.dumps(content), encoding="utf-8")
    (folder / "art").mkdir()
    Image.new("RGB", BACK_PX, (0, 128, 128)).save(folder / "art" / "back.png")
    return folder


def _back_warnings(tmp_path: Path, pack_size: dict | None) -> list[dict]:
    pack = _pack(tmp_path, pack_size)
    run = run_cli("--cards", str(tmp_path / "cards"), "validate", str(pack), "--format", "json")
    assert run.output.lstrip().startswith("["), run.output
    return [p for p in run.problems if p["code"] == "art-low-resolution" and "art/back.png" in p["message"]]


def test_a_set_back_in_a_sized_pack_is_measured_at_the_pack_s_size(tmp_path: Path) -> None:
    found = _back_warnings(tmp_path, {"width_mm": 120, "height_mm": 170})
    assert len(found) == 1, found
    assert found[0]["pointer"] == "/back/art" and found[0]["file"].endswith("big.json")
    assert "over its 126×176 mm" in found[0]["message"], found[0]["message"]


def test_the_same_back_is_sharp_enough_at_the_game_s_size(tmp_path: Path) -> None:
    assert _back_warnings(tmp_path, None) == []
