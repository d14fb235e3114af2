"""Card faces as a reader sees them: titles on at most two lines and never hyphenated, the rank shown once."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path
from xml.etree import ElementTree as ET

import pytest

from cardworks.loading import load_database
from cardworks.loading.records import Index
from cardworks.render.faces import TITLE_SIZES, title_size
from cardworks.render.marks import NOT_STATED
from cardworks.render.typography import curly
from conftest import REPO, run_cli

CARDS = REPO / "cards"


def test_title_size_shrinks_until_two_lines_and_reports_what_cannot_fit() -> None:
    assert title_size("conill", 38) == (TITLE_SIZES[0], True)
    size, fits = title_size("La Fallera Calavera 2: els ingredients de la discòrdia", 38)
    assert fits and size < TITLE_SIZES[0]
    assert title_size("Supercalifragilisticexpialidociousness-of-the-paella", 38)[1] is False


@pytest.mark.slow
def test_titles_take_two_lines_at_most_unhyphenated_and_the_rank_shows_once(tmp_path: Path) -> None:
    run = run_cli("--cards", str(CARDS), "build", "--game", "fallera", "--set", "base", "--locale", "ca",
                  "--no-docs", "--out", str(tmp_path))
    assert run.exit_code == 0, run.output
    shop = tmp_path / "fallera/ca/print-shop/cards-base.pdf"
    xml = subprocess.run(["pdftotext", "-bbox", str(shop), "-"], capture_output=True, text=True, check=True).stdout
    xml = re.sub(r"<!DOCTYPE[^>]*>", "", xml).replace('xmlns="http://www.w3.org/1999/xhtml"', "")
    pages = ET.fromstring(xml).find("body").find("doc").findall("page")
    db = load_database(CARDS / "fallera")
    index = Index(db)
    translations = json.loads((CARDS / "fallera/i18n/ca.json").read_text())["entries"]
    ranks = {r.id: r.model.stats.get("rank") for r in index.of_kind("card")}
    cards = [r for r in index.of_kind("card") if r.set_id == "base" and not r.model.optional]
    header_bottom = (3 + 2.6 + 1.4 + 7.6) * 72 / 25.4  # bleed, frame, header top, header height
    checked = 0
    for record, page in zip(cards, pages):
        name = translations.get(record.id, {}).get("name", {}).get("text", record.model.name)
        name = curly(name, "ca", " ")  # as the face prints it: d’Almansa (docs/typography.md)
        words = [(float(w.get("yMin")), float(w.get("xMin")), w.text) for w in page.findall("word")
                 if float(w.get("yMin")) < header_bottom]
        words = [(y, x, text.removesuffix(NOT_STATED)) for y, x, text in words]  # a name no rulebook states: marked
        title = [w for w in words if w[2] in name.split()]
        assert " ".join(w[2] for w in sorted(title, key=lambda w: (round(w[0]), w[1]))) == name, (record.id, words)
        assert len({round(y) for y, _, _ in title}) <= 2, record.id
        assert not any(re.search(r"[-\u2010\u00ad]$", w[2]) and w[2] not in name.split() for w in words)
        text = " ".join(w.text for w in page.findall("word"))
        if ranks.get(record.id):
            assert f"n{ranks[record.id]}" not in text.split(), record.id
            checked += 1
    assert checked >= 5
