"""Diables' rulebook read back from the PDFs: contents, bookmarks and the tables generated from its data."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from pypdf import PdfReader

from cardworks.loading import load_database
from cardworks.loading.records import Index
from conftest import REPO, run_cli

CARDS = REPO / "cards"
RULES = CARDS / "diables" / "rules"

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> tuple[Path, dict[str, dict]]:
    out = tmp_path_factory.mktemp("diables-docs")
    run = run_cli("--cards", str(CARDS), "build", "--out", str(out), "--game", "diables", "--no-cards", "--jobs", "2")
    assert run.exit_code == 0, run.output
    return out, {r["path"]: r for r in json.loads((out / "manifest.json").read_text())["outputs"]}


@pytest.fixture(scope="module")
def index() -> Index:
    return Index(load_database(CARDS / "diables"))


def _pages(path: Path) -> list[str]:
    """Each page's text, hyphenated line ends joined and whitespace collapsed."""
    return [" ".join(re.sub("\u2010\n", "", page.extract_text()).split()) for page in PdfReader(path).pages]


def _titles(locale: str) -> list[str]:
    return [next(line[2:].strip() for line in path.read_text(encoding="utf-8").splitlines() if line.startswith("# "))
            for path in sorted((RULES / locale).glob("*.md"))]


def _outline(reader: PdfReader) -> list[tuple[int, str, int]]:
    found = []

    def walk(items, depth):
        for item in items:
            if isinstance(item, list):
                walk(item, depth + 1)
            else:
                found.append((depth, item.title, reader.get_destination_page_number(item) + 1))

    walk(reader.outline, 0)
    return found


def _fp(scoring: dict) -> str:
    """A tile's FP figures written out from its JSON, field by field (independent of the renderer's walk)."""
    figures = []
    for key, value in scoring.items():
        if key in {"op", "show"} or isinstance(value, (bool, str)):
            continue
        figures += list(value.values()) if isinstance(value, dict) else value if isinstance(value, list) else [value]
    return " / ".join(str(n) for n in figures if isinstance(n, int))


def test_rulebook_contents_and_bookmarks_follow_the_sections(built) -> None:
    out, records = built
    path = out / "diables/en/rulebook-all.pdf"
    assert records["diables/en/rulebook-all.pdf"]["kind"] == "rulebook"
    reader = PdfReader(path)
    chapters = [(title, page) for depth, title, page in _outline(reader) if depth == 0]
    assert [title for title, _ in chapters] == _titles("en")
    pages = _pages(path)
    contents = reader.pages[1].extract_text()
    for title, page in chapters:
        assert re.search(re.escape(title) + r"\s*\.{3,}\s*" + str(page) + r"\b", contents), title
        assert pages[page - 1].find(title) < 80, (title, page)
    assert records["diables/en/rulebook-all.pdf"]["pages"] == len(pages)


def test_scoring_tiles_table_matches_the_scoring_data(built, index) -> None:
    out, _ = built
    text = " ".join(_pages(out / "diables/en/rulebook-all.pdf"))
    raw = {c["id"]: c for c in json.loads((CARDS / "diables/components.json").read_text())["components"]}
    tiles = [r.model for r in index.of_kind("component") if r.model.scoring is not None]
    assert len(tiles) == 22
    for tile in tiles:
        row = f"{tile.name} {tile.text} "
        start = text.find(row)
        assert start >= 0, tile.id
        after = text[start + len(row):]
        assert after.startswith(_fp(raw[tile.id]["scoring"])), (tile.id, after[:30])


def test_components_beasts_phases_and_firebot_tables_come_from_the_data(built, index) -> None:
    out, _ = built
    text = " ".join(_pages(out / "diables/en/rulebook-all.pdf"))
    game = index.game
    beasts = [r.model for r in index.of_kind("card")]
    for size, label in (("small", "Small beast"), ("large", "Large beast")):
        count = sum(c.quantity for c in beasts if c.attributes["beast-size"] == size)
        assert f"– {label} {count}" in text
    for component in (r.model for r in index.of_kind("component") if r.model.scoring is None):
        assert f"{component.name} {component.quantity or 'unknown'}" in text, component.id
    assert "Lluïment tiles 6" in text and "Show scoring tiles 16" in text
    for card in beasts:
        assert f"{card.name} {card.rules}" in text, card.id
    starts = [text.find(f"{phase.name}. {phase.text}") for phase in game.phases]
    assert -1 not in starts and starts == sorted(starts)
    params = {p.id: p.value for p in game.parameters}
    rows = re.search(r"Difficulty Round 1 Round 2 Round 3 (.*?) Show actions", text).group(1)
    expected = " ".join(f"{name} {' '.join(map(str, params[f'firebot-turns-{level}']))}"
                        for name, level in (("Easy", "easy"), ("Average", "average"), ("Hard", "hard"),
                                            ("Very hard", "very-hard"), ("Devilish", "devilish")))
    assert rows == expected


def test_faq_lists_every_ruling_under_its_pieces_with_passing_scenarios(built, index) -> None:
    out, records = built
    assert records["diables/en/faq.pdf"]["kind"] == "faq"
    text = " ".join(_pages(out / "diables/en/faq.pdf"))
    rulings = [r.model for r in index.of_kind("ruling")]
    assert len(rulings) >= 20
    names = {r.id: r.model.name for r in index.of_kind("component", "card")}
    for ruling in rulings:
        assert text.count(ruling.question) == len(ruling.cards), ruling.id
        assert ruling.source.lines and f"line {ruling.source.lines}" in text
        for scenario in ruling.scenarios:
            assert f"{scenario} (passes)" in text, scenario
        for card in ruling.cards:
            assert names[card] in text
