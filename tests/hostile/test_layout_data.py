"""Sheet layouts as data at scale and in odd shapes.

A pack's own image-area layout that works out 4,356 cards for one sheet (30 mm cards on a 2 m area) is refused
by ``validate``, ``build`` and ``serve`` with the file and ``/rule`` (a sheet holds at most 1,000 cards), where
it ended in a pydantic traceback; ``serve`` shows it once the file is saved while it runs. A sheet listed slot by
slot whose slots carry no card numbers (each slot card 0) is refused at its slots, where it printed one design
in every slot and left the other cards out.
"""

from __future__ import annotations

import json
import shutil
import time
from pathlib import Path

from corpus import REPO, cardworks, judge

FAMILY = "layout"
CARDS = REPO / "cards"
HUGE = {"$schema": "../../schema/layout.schema.json", "description": "a 2 m print-then-cut area", "papers": ["a4"],
        "margin": 0.0, "rule": {"kind": "image-area", "width": 2000, "height": 2000, "spacing": 0, "corner_radius": 0}}


def _pack(tmp_path: Path) -> Path:
    """The example pack with 30 × 30 mm cards (66 × 66 = 4,356 of them on the huge layout)."""
    pack = tmp_path / "pack"
    shutil.copytree(REPO / "examples" / "fallera-pack", pack)
    data = json.loads((pack / "pack.json").read_text())
    data["card_size"] = {"width_mm": 30, "height_mm": 30}
    (pack / "pack.json").write_text(json.dumps(data))
    (pack / "layouts").mkdir()
    return pack


def test_a_layout_of_4356_slots_is_refused_at_its_rule(tmp_path: Path) -> None:
    pack = _pack(tmp_path)
    (pack / "layouts" / "huge.json").write_text(json.dumps(HUGE))
    checked = cardworks("--cards", str(CARDS), "validate", str(pack), timeout=120)
    judge("validate: a pack layout of 4,356 slots", FAMILY, checked, refuse=True, names="huge.json:/rule",
          code="layout-too-large")
    built = cardworks("--cards", str(CARDS), "build", str(pack), "--layout", "huge", "--paper", "a4", "--locale", "en",
                      "--no-docs", "--jobs", "1", "--out", str(tmp_path / "out"), timeout=180)
    judge("build --layout: a pack layout of 4,356 slots", FAMILY, built, refuse=True, names="huge.json:/rule",
          code="layout-too-large")


def test_a_listed_sheet_without_card_numbers_is_refused(tmp_path: Path) -> None:
    cards = tmp_path / "cards"
    shutil.copytree(CARDS / "diables", cards / "diables")
    (cards / "diables" / "layouts").mkdir()
    slots = [{"x": 10 + 65 * (i % 3), "y": 20 + 90 * (i // 3)} for i in range(4)]  # no "card": all card 0
    sprue = {"$schema": "../../../schema/layout.schema.json", "description": "four slots, no numbers", "papers": ["a4"],
             "margin": 5.0, "sheets": [{"paper": "a4", "card_width": 63, "card_height": 88, "slots": slots}]}
    (cards / "diables" / "layouts" / "sprue.json").write_text(json.dumps(sprue))
    checked = cardworks("--cards", str(cards), "validate", timeout=120)
    judge("validate: a listed sheet whose slots carry no card numbers", FAMILY, checked, refuse=True,
          names="sprue.json:/sheets/0/slots/1/card", code="layout-slot-card")
    built = cardworks("--cards", str(cards), "build", "--game", "diables", "--layout", "sprue", "--duplex", "none",
                      "--locale", "en", "--no-docs", "--jobs", "1", "--out", str(tmp_path / "out"), timeout=180)
    judge("build --layout: a listed sheet whose slots carry no card numbers", FAMILY, built, refuse=True,
          names="sprue.json", code="layout-slot-card")


def test_serve_shows_a_layout_saved_while_it_runs(tmp_path: Path) -> None:
    from test_serve import Server

    pack = _pack(tmp_path)
    server = Server(str(pack))
    listening = server.wait()
    first = server.get("/deck?problems=1", timeout=120)[1] if listening else ""
    page = ""
    if listening:
        (pack / "layouts" / "huge.json.tmp~").write_text(json.dumps(HUGE))
        (pack / "layouts" / "huge.json.tmp~").replace(pack / "layouts" / "huge.json")  # saved as an editor saves
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and "layout-too-large" not in page:
            time.sleep(1)
            page = server.get("/deck?problems=1", timeout=60)[1]
    result = server.stop(hung=not listening)

    def shown() -> str | None:
        if "layout-too-large" in first:
            return "the layout was shown before it was saved"
        if not any("huge.json" in line and "[layout-too-large]" in line for line in page.splitlines()):
            return f"the page never showed the saved layout's error: {page[-600:]}"
        return None

    judge("serve: a layout of 4,356 slots saved while it runs", "serve", result, refuse=False, check=shown)
