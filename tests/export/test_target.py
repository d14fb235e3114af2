"""The exporter skeleton (``export/target.py``) with a target of the test's own: one PNG per face, the kind of
export a new target adds. What the skeleton promises every target: the deck's faces laid out once, the target's
files and ``export.json`` published together, and on a refusal before rendering or a failed verification
nothing published and no staging folder left."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from cardworks.errors import DataError, UsageError
from cardworks.export.target import DeckChoice, run_target
from conftest import REPO

pytestmark = pytest.mark.slow

CARDS = REPO / "cards"
PACK = REPO / "examples" / "fallera-pack"


@dataclass
class Images:
    """One PNG per face (designs, then backs)."""

    refuse: bool = False
    fail: bool = False
    kind: str = "images"
    prefix: str = "images"
    calls: list[str] = field(default_factory=list)

    def check(self, job) -> None:
        self.calls.append("check")
        if self.refuse:
            raise UsageError("refused before rendering")

    def write(self, faces, staging: Path, out: Path, label: str) -> dict:
        from cardworks.render.facepdf import render_pngs

        self.calls.append("write")
        buffer = __import__("io").BytesIO()
        faces.pdf.save(buffer)
        images = render_pngs(buffer.getvalue(), faces.order, Path("png"), dpi=30)
        for name, data in images.items():
            (staging / name).parent.mkdir(parents=True, exist_ok=True)
            (staging / name).write_bytes(data)
        return {"files": sorted(images)}

    def verify(self, staging: Path, out: Path) -> int:
        self.calls.append("verify")
        if self.fail:
            raise DataError("verification failed", [])
        return len(list((staging / "png").iterdir()))


def _leftovers(out: Path) -> list[Path]:
    return [p for p in out.parent.iterdir() if p.name.startswith(f".{out.name}.")]


def test_a_new_target_fills_in_the_skeleton(tmp_path: Path) -> None:
    target, out = Images(), tmp_path / "images"
    done = run_target(CARDS, target, DeckChoice(packs=[PACK], locale="en"), out)
    assert target.calls == ["check", "write", "verify"] and done.folder == out
    record = json.loads((out / "export.json").read_text(encoding="utf-8"))
    assert record["export"] == "images" and record["locale"] == "en" and record["designs"] == len(done.faces.deck.cards)
    assert done.verified == len(done.faces.order) == len(record["files"]) >= 2
    assert all((out / name).is_file() for name in record["files"]) and not _leftovers(out)


def test_a_refusal_or_a_failed_verification_publishes_nothing(tmp_path: Path) -> None:
    out = tmp_path / "images"
    refusing = Images(refuse=True)
    with pytest.raises(UsageError, match="refused before rendering"):
        run_target(CARDS, refusing, DeckChoice(packs=[PACK]), out)
    assert refusing.calls == ["check"] and not out.exists() and not _leftovers(out)
    failing = Images(fail=True)
    with pytest.raises(DataError, match="verification failed"):
        run_target(CARDS, failing, DeckChoice(packs=[PACK]), out)
    assert failing.calls == ["check", "write", "verify"] and not out.exists() and not _leftovers(out)
