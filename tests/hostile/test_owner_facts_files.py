"""The owner's facts (issue 41): the sheet ``facts import`` reads and the overlay ``--facts DIR`` adds are files
from other people, so they get the corpus's treatment: a FIFO, a huge sheet, an overlay nested too deep, an
overlay that is not JSON. Each is refused with its file named and a non-zero exit; nothing is written."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from corpus import REPO, cardworks, judge


def _calavera(tmp_path: Path) -> Path:
    cards = tmp_path / "cards"
    shutil.copytree(REPO / "cards" / "calavera", cards / "calavera")
    return cards


def test_facts_import_of_a_fifo_is_refused_not_waited_on(tmp_path: Path) -> None:
    cards, fifo, out = _calavera(tmp_path), tmp_path / "facts.csv", tmp_path / "overlay"
    os.mkfifo(fifo)
    result = cardworks("--cards", str(cards), "facts", "import", str(fifo), "--out", str(out), timeout=30)
    judge("facts import of a FIFO", "sheets", result, refuse=True, names="facts.csv")
    assert not out.exists()


def test_facts_import_of_a_huge_sheet_is_refused(tmp_path: Path) -> None:
    cards, sheet, out = _calavera(tmp_path), tmp_path / "facts.csv", tmp_path / "overlay"
    row = "calavera,x,x,faces,n,n,,1\n"
    sheet.write_text("game,id,name,field,type as,known,stand-in,value\n" + row * 200_000, encoding="utf-8")
    result = cardworks("--cards", str(cards), "facts", "import", str(sheet), "--out", str(out), timeout=60)
    judge("facts import of 200,000 rows", "sheets", result, refuse=True, names="facts.csv")
    assert not out.exists()


def test_an_overlay_nested_too_deep_or_not_json_is_refused_at_its_file(tmp_path: Path) -> None:
    cards, facts = _calavera(tmp_path), tmp_path / "facts"
    facts.mkdir()
    for name, text in (("nested", "[" * 200_000 + "]" * 200_000), ("broken", '{"game": "calavera", "values": [')):
        (facts / "calavera.json").write_text(text, encoding="utf-8")
        result = cardworks("--cards", str(cards), "--facts", str(facts), "validate", timeout=60)
        judge(f"--facts overlay {name}", "data", result, refuse=True, names="calavera.json")
