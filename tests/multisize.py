"""A pack of three card sizes and three kinds of back, shared by the TTS and preview tests (issue 44).

It is the example pack (the game's poker 63 × 88 mm cards) with the Euro-mini and tarot sets of
``tests/export/test_sizes.py``'s ``sized_pack`` swapped for a mini set (44 × 68 mm) and a square set
(70 × 70 mm). Backs: battle cards have the pack's navy back by type; the mini set has a set back of its own
(teal, before any type back); every other card has the game's common back, drawn at its own size.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from PIL import Image

REPO = Path(__file__).resolve().parents[1]
SIZES = {"example-set": (63, 88), "mini-set": (44, 68), "square-set": (70, 70)}
NAVY, TEAL = (16, 32, 96), (0, 128, 128)


def sized_card(card_id: str, kind: str) -> dict:
    """A card of a test pack: a battle card or an other-treasure, two copies, with a designer's source."""
    card = {"id": card_id, "quantity": 2, "types": [kind], "name": card_id.replace("-", " "),
            "rules": "Win a battle against a rival and take one {treasure}.",
            "sources": [{"doc": "designer-notes", "certainty": "stated"}]}
    if kind == "battle":
        card["stats"] = {"attack": 3, "defence": 1}
    else:
        card["attributes"] = {"treasure-kind": "other"}
    return card


def multisize_pack(folder: Path) -> Path:
    """Write the pack into ``folder`` and return it."""
    shutil.copytree(REPO / "examples" / "fallera-pack", folder)
    (folder / "art").mkdir()
    Image.new("RGB", (830, 1130), NAVY).save(folder / "art" / "navy.png")
    Image.new("RGB", (600, 880), TEAL).save(folder / "art" / "teal.png")
    manifest = json.loads((folder / "pack.json").read_text(encoding="utf-8"))
    manifest["documents"] = [{"id": "designer-notes", "title": "The designer's own notes"}]
    manifest["backs"] = {"battle": {"art": "art/navy.png"}}
    (folder / "pack.json").write_text(json.dumps(manifest), encoding="utf-8")
    for order, set_id in enumerate(("mini-set", "square-set"), start=12):
        width, height = SIZES[set_id]
        prefix = set_id.removesuffix("-set")
        document = {"$schema": "../../../schema/set.schema.json", "id": set_id, "name": set_id, "order": order,
                    "card_size": {"width_mm": width, "height_mm": height},
                    "cards": [sized_card(f"{prefix}-a", "battle"), sized_card(f"{prefix}-b", "treasure")]}
        if set_id == "mini-set":
            document["back"] = {"art": "art/teal.png"}
        (folder / "sets" / f"{set_id}.json").write_text(json.dumps(document), encoding="utf-8")
    return folder


def expected_back(card_id: str, kind: str) -> str:
    """The back id ``render.faces.build_job`` gives this pack's card: set back, else type back, else common."""
    set_id = next((s for s in SIZES if card_id.startswith(s.removesuffix("-set"))), "example-set")
    suffix = "" if set_id == "example-set" else "-{}x{}".format(*SIZES[set_id])
    if set_id == "mini-set":
        return "back-set-mini-set" + suffix
    return ("back-type-battle" if kind == "battle" else "back") + suffix


def size_of(card_id: str) -> tuple[int, int]:
    return SIZES[next((s for s in SIZES if card_id.startswith(s.removesuffix("-set"))), "example-set")]
