"""Rulebooks and FAQ indexes read back from the PDFs: contents, bookmarks, rulings, collation, generated tables."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from pypdf import PdfReader

from cardworks.i18n.collation import collation_key, sort_names
from cardworks.loading import load_database
from cardworks.loading.records import Index
from conftest import REPO, run_cli

CARDS = REPO / "cards"


def _text(page) -> str:
    return " ".join(page.extract_text().split())


@pytest.fixture(scope="module")
def docs(tmp_path_factory) -> dict[str, Path]:
    out = tmp_path_factory.mktemp("docs")
    run = run_cli("--cards", str(CARDS), "build", "--out", str(out), "--locale", "ca", "--locale", "es",
                  "--jobs", "2", "--no-cards")
    assert run.exit_code == 0, run.output
    records = json.loads((out / "manifest.json").read_text())["outputs"]
    return {f"{r['kind']}:{r['locale']}": out / r["path"] for r in records if r["kind"] in {"rulebook", "faq"}}


def _outline(reader: PdfReader) -> list[tuple[int, str, int]]:
    """(depth, title, page number) of every bookmark."""
    found = []

    def walk(items, depth):
        for item in items:
            if isinstance(item, list):
                walk(item, depth + 1)
            else:
                found.append((depth, item.title, reader.get_destination_page_number(item) + 1))

    walk(reader.outline, 0)
    return found


def test_contents_page_numbers_are_where_sections_start(docs) -> None:
    reader = PdfReader(docs["rulebook:ca"])
    contents = reader.pages[1].extract_text().splitlines()
    entries = [re.match(r"^(.*?)\s*\.{3,}\s*(\d+)$", line) for line in contents]
    entries = [(m.group(1).strip(), int(m.group(2))) for m in entries if m]
    assert len(entries) >= 25
    for title, page in entries:
        start = " ".join(reader.pages[page - 1].extract_text().split())
        assert title in start[: len(title) + 80], (title, page, start[:80])


def test_bookmarks_match_the_sections(docs) -> None:
    reader = PdfReader(docs["rulebook:ca"])
    chapters = [(title, page) for depth, title, page in _outline(reader) if depth == 0]
    sections = sorted(p.stem for p in (CARDS / "fallera/rules/ca").glob("*.md"))
    titles = [next(line[2:].strip() for line in (CARDS / f"fallera/rules/ca/{name}.md").read_text().splitlines()
                   if line.startswith("# ")) for name in sections]
    assert [title for title, _ in chapters] == titles
    contents = reader.pages[1].extract_text()
    for title, page in chapters:
        assert re.search(re.escape(title) + r"\s*\.{3,}\s*" + str(page) + r"\b", contents), title


def test_rank_table_equals_the_card_data(docs) -> None:
    reader = PdfReader(docs["rulebook:ca"])
    page = next(_text(p) for p in reader.pages if "Nit de la cremà n8" in _text(p))
    index = Index(load_database(CARDS / "fallera"))
    ranked = sorted(((r.model.stats["rank"], r.model.name) for r in index.of_kind("card")
                     if (r.model.stats.get("rank") or 1) > 1), reverse=True)
    expected = " ".join(f"{name} n{rank}" for rank, name in ranked)
    assert expected in page


def test_battle_table_and_map_are_generated(docs) -> None:
    text = " ".join(_text(p) for p in PdfReader(docs["rulebook:es"]).pages)
    assert "I 4 no se defiende el atacante se lleva el tesoro" in text
    assert "II 4 5 el defensor conserva el tesoro" in text
    assert "III 3 3 el defensor conserva el tesoro" in text
    assert "IV 3 2 el atacante se lleva el tesoro" in text
    assert "accesos cuyo destino no da ningún reglamento" in text


def test_every_ruling_appears_once_under_each_of_its_cards(docs) -> None:
    reader = PdfReader(docs["faq:ca"])
    text = " ".join(_text(p) for p in reader.pages)
    index = Index(load_database(CARDS / "fallera"))
    for ruling in index.of_kind("ruling"):
        concerned = [c for c in ruling.model.cards if c in index.by_id]
        assert len(re.findall(f"· {re.escape(ruling.id)}(?![\\w-])", text)) == len(concerned), ruling.id


def test_faq_cards_follow_catalan_collation(docs) -> None:
    reader = PdfReader(docs["faq:ca"])
    bookmarks = [title for depth, title, _ in _outline(reader) if depth == 0]
    headings = bookmarks[1:-1]  # between the rulings heading and the name index
    assert bookmarks[-1] == "Índex de noms de cartes" and len(headings) > 50
    assert headings == sort_names(headings, "ca")


def test_name_index_lists_alternative_names_with_pages(docs) -> None:
    reader = PdfReader(docs["faq:es"])
    last = " ".join(_text(p) for p in reader.pages[-3:])
    assert "conejo" in last and "conill" in last
    assert re.search(r"conejo[ .]+\d+", last)


def test_see_also_and_index_page_numbers_are_right(docs) -> None:
    reader = PdfReader(docs["faq:es"])
    starts = {title: page for depth, title, page in _outline(reader) if depth == 0}
    text = " ".join(_text(p) for p in reader.pages)
    references = re.findall(r"Véase también: ([^·]+?) \((\d+)\)", text)
    assert references
    for name, page in references:
        assert starts[name.strip()] == int(page), name
    index_lines = [line for p in reader.pages[-4:] for line in p.extract_text().splitlines()]
    checked = 0
    for line in index_lines:
        match = re.match(r"^(.*?)[ .]+ (\d+)$", line)
        if match and match.group(1).strip() in starts:
            assert starts[match.group(1).strip()] == int(match.group(2)), line
            checked += 1
    assert checked > 50


@pytest.mark.parametrize("locale, names, expected", [
    ("es", ["oca", "ñandú", "nube", "Nácar"], ["Nácar", "nube", "ñandú", "oca"]),
    ("ca", ["collita", "col·lecció", "colla", "cabeça", "cabana", "àvia", "avi"],
     ["avi", "àvia", "cabana", "cabeça", "colla", "col·lecció", "collita"]),
])
def test_collation(locale: str, names: list[str], expected: list[str]) -> None:
    assert sort_names(names, locale) == expected
    assert collation_key("Àvia", locale) > collation_key("àvia", locale)


def test_missing_translation_fails_unless_fallback_is_allowed(tmp_path: Path) -> None:
    cards = tmp_path / "cards"
    shutil.copytree(CARDS, cards)
    (cards / "fallera/rules/es/14-tirisiti.md").unlink()
    out = tmp_path / "out"
    args = ["--cards", str(cards), "build", "--out", str(out), "--locale", "es", "--set", "base-2", "--no-cards"]
    failed = run_cli(*args)
    assert failed.exit_code == 1 and "missing-translation" in failed.output and "14-tirisiti" in failed.output
    assert not (out / "fallera/es/rulebook-base-2.pdf").exists()
    proof = run_cli(*args, "--proof")
    assert proof.exit_code == 0, proof.output
    text = " ".join(_text(p) for p in PdfReader(out / "fallera/es/rulebook-base-2-proof.pdf").pages)
    assert "Tirisiti" in text and "Prueba:" in text


def test_faq_shows_the_scenarios_that_check_a_ruling_and_whether_they_pass(docs) -> None:
    text = " ".join(_text(p) for p in PdfReader(docs["faq:es"]).pages)
    assert "scenario-base-situation-iv (pasa)" in text
    assert "todavía sin escenario ejecutable" in text  # rulings no scenario checks yet say so


def test_an_unknown_generated_section_is_a_clear_error(tmp_path: Path) -> None:
    cards = tmp_path / "cards"
    shutil.copytree(CARDS, cards)
    page = cards / "fallera/rules/en/01-objective.md"
    page.write_text(page.read_text() + "\n::: generated dragons\n")
    run = run_cli("--cards", str(cards), "build", "--out", str(tmp_path / "out"), "--locale", "en", "--no-cards")
    assert run.exit_code == 1
    assert "[rules-directive]" in run.output and "dragons" in run.output and "01-objective.md" in run.output
