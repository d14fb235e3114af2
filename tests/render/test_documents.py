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
    run = run_cli("--cards", str(CARDS), "build", "--out", str(out), "--locale", "en", "--locale", "ca",
                  "--locale", "es", "--locale", "fr", "--locale", "nl", "--jobs", "2", "--no-cards")
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


@pytest.mark.slow  # renders rulebook or FAQ PDFs
def test_contents_page_numbers_are_where_sections_start(docs) -> None:
    reader = PdfReader(docs["rulebook:ca"])
    contents = reader.pages[1].extract_text().splitlines()
    entries = [re.match(r"^(.*?)\s*\.{3,}\s*(\d+)$", line) for line in contents]
    entries = [(m.group(1).strip(), int(m.group(2))) for m in entries if m]
    assert len(entries) >= 25
    for title, page in entries:  # sections follow on from one another: a title is on its page, not always first
        assert title in _text(reader.pages[page - 1]), (title, page)


@pytest.mark.slow  # renders rulebook or FAQ PDFs
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


@pytest.mark.slow  # renders rulebook or FAQ PDFs
def test_rank_table_equals_the_card_data(docs) -> None:
    reader = PdfReader(docs["rulebook:ca"])
    page = next(_text(p) for p in reader.pages if "Nit de la cremà n8" in _text(p))
    index = Index(load_database(CARDS / "fallera"))
    ranked = sorted(((r.model.stats["rank"], r.model.name) for r in index.of_kind("card")
                     if (r.model.stats.get("rank") or 1) > 1), reverse=True)
    expected = " ".join(f"{name} n{rank}" for rank, name in ranked)
    assert expected in page


@pytest.mark.slow  # renders rulebook or FAQ PDFs
def test_battle_table_and_map_are_generated(docs) -> None:
    text = " ".join(_text(p) for p in PdfReader(docs["rulebook:es"]).pages)
    assert "I 4 no se defiende el atacante se lleva el tesoro" in text
    assert "II 4 5 el defensor conserva el tesoro" in text
    assert "III 3 3 el defensor conserva el tesoro" in text
    assert "IV 3 2 el atacante se lleva el tesoro" in text
    assert "accesos cuyo destino no da ningún reglamento" in text


@pytest.mark.slow  # renders rulebook or FAQ PDFs
def test_every_ruling_appears_once_under_each_of_its_cards(docs) -> None:
    reader = PdfReader(docs["faq:ca"])
    placed = set(reader.named_destinations)
    index = Index(load_database(CARDS / "fallera"))
    assert index.of_kind("ruling")
    for ruling in index.of_kind("ruling"):
        concerned = {c for c in ruling.model.cards if c in index.by_id}
        assert {d.split("--")[0].removeprefix("ruling-") for d in placed if d.endswith(f"--{ruling.id}")} == concerned


@pytest.mark.slow  # renders rulebook or FAQ PDFs
def test_faq_cards_follow_catalan_collation(docs) -> None:
    reader = PdfReader(docs["faq:ca"])
    bookmarks = [title for depth, title, _ in _outline(reader) if depth == 0]
    headings = bookmarks[1:-1]  # between the rulings heading and the name index
    assert bookmarks[-1] == "Índex de noms de cartes" and len(headings) > 50
    assert headings == sort_names(headings, "ca")


@pytest.mark.slow  # renders rulebook or FAQ PDFs
def test_name_index_lists_alternative_names_with_pages(docs) -> None:
    reader = PdfReader(docs["faq:es"])
    last = " ".join(_text(p) for p in reader.pages[-3:])
    assert "conejo" in last and "conill" in last
    assert re.search(r"conejo[ .]+\d+", last)


@pytest.mark.slow  # renders rulebook or FAQ PDFs
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


@pytest.mark.slow  # renders rulebook or FAQ PDFs
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


@pytest.mark.slow  # renders rulebook or FAQ PDFs
def test_faq_shows_scenarios_and_their_verdicts_only_in_proof(docs, tmp_path: Path) -> None:
    from cardworks.render.docs.documents import faq_pdf

    printed = " ".join(_text(p) for p in PdfReader(docs["faq:es"]).pages)
    assert "scenario-" not in printed and "escenario ejecutable" not in printed and "(pasa)" not in printed
    (tmp_path / "proof.pdf").write_bytes(faq_pdf(load_database(CARDS / "fallera"), "es", proof=True))
    text = " ".join(_text(p) for p in PdfReader(tmp_path / "proof.pdf").pages)
    assert "scenario-base-situation-iv (pasa)" in text
    assert "todavía sin escenario ejecutable" in text  # rulings no scenario checks yet say so
    assert "mes-enlla-llenya-already-double" in text


@pytest.mark.slow  # renders rulebook or FAQ PDFs
def test_an_unknown_generated_section_is_a_clear_error(tmp_path: Path) -> None:
    cards = tmp_path / "cards"
    shutil.copytree(CARDS, cards)
    page = cards / "fallera/rules/en/01-objective.md"
    page.write_text(page.read_text() + "\n::: generated dragons\n")
    run = run_cli("--cards", str(cards), "build", "--out", str(tmp_path / "out"), "--locale", "en", "--no-cards")
    assert run.exit_code == 1
    assert "[rules-directive]" in run.output and "dragons" in run.output and "01-objective.md" in run.output


def _fill(path: Path) -> list[float]:
    """How far down its text area (inside the 20 mm margins) each page's content reaches, 0 to 1."""
    import pypdfium2

    fills = []
    for page in pypdfium2.PdfDocument(path):
        image = page.render(scale=30 / 72).to_pil().convert("L")
        width, height = image.size
        per_mm = height / (page.get_size()[1] / 72 * 25.4)
        top, bottom = int(20 * per_mm), int(height - 20 * per_mm)
        pixels = image.load()
        inked = [y for y in range(top, bottom) if any(pixels[x, y] < 200 for x in range(width))]
        fills.append((max(inked) - top) / (bottom - top) if inked else 0.0)
    return fills


@pytest.mark.slow
def test_rulebook_sections_flow_on_and_pages_are_filled(docs) -> None:
    """Fewer than 28 pages in English (the book holds its credits and setup as sections of their own); after the cover and contents, no page is under a third full unless the
    next page begins a part of the book (``new_page`` in sections.json) or it is the last page."""
    sections = json.loads((CARDS / "fallera/rules/sections.json").read_text())["new_page"]
    for locale in ("en", "ca", "es"):
        reader = PdfReader(docs[f"rulebook:{locale}"])
        if locale == "en":
            assert len(reader.pages) < 28
        titles = {name: next(line[2:].strip() for line in (CARDS / f"fallera/rules/{locale}/{name}.md").read_text()
                             .splitlines() if line.startswith("# ")) for name in sections}
        part_starts = {page for depth, title, page in _outline(reader) if depth == 0 and title in titles.values()}
        fills = _fill(docs[f"rulebook:{locale}"])
        thin = [number for number, fill in enumerate(fills, start=1)
                if number > 2 and fill < 1 / 3 and number + 1 not in part_starts and number != len(fills)]
        assert not thin, (locale, thin, [round(f, 2) for f in fills])
        assert len(part_starts) == len(sections)


ENGLISH = ["rulebook", "English translation", "Resolved doubts", "stated", "inferred", "Checked by", "scenario",
           "See also", "Source", "passes", "Battle Cards", "Special Cards", "line", "Contents", "Rulings"]


@pytest.mark.slow
def test_localized_documents_show_no_ids_and_no_english_source_words(docs) -> None:
    index = Index(load_database(CARDS / "fallera"))
    ids = {r.id for r in index.of_kind("ruling")} | {r.id for r in index.of_kind("scenario")} | \
          {r.id for r in index.of_kind("set")}
    ids = {i for i in ids if "-" in i} | {"all"}  # "base" and "discordia" are also words of the text
    for key in ("rulebook:ca", "faq:ca", "rulebook:es", "faq:es", "rulebook:fr", "rulebook:nl"):
        text = " ".join(_text(p) for p in PdfReader(docs[key]).pages)
        words = set(re.findall(r"[\w'-]+", text))
        assert not ids & words, (key, sorted(ids & words)[:10])
        found = [w for w in ENGLISH if re.search(rf"\b{re.escape(w)}\b", text)]
        assert key.endswith((":fr", ":nl")) or not found, (key, found)  # "Source", "scenario" are French, Dutch
        assert "scenario-" not in text


@pytest.mark.slow
def test_names_headings_and_labels_are_never_hyphenated(docs) -> None:
    """No line of the contents, the card index or the FAQ's name index ends in a hyphen, and every heading
    (a card name in the FAQ) stands whole on its page."""
    for key in ("rulebook:en", "rulebook:ca", "faq:ca", "faq:es"):
        reader = PdfReader(docs[key])
        outline = [(title, page) for depth, title, page in _outline(reader) if depth == 0]
        assert outline, key
        index_from = outline[-1][1]  # the card index / the name index is the last chapter
        contents = [2] if key.startswith("rulebook") else []
        for number in [*contents, *range(index_from, len(reader.pages) + 1)]:
            for line in reader.pages[number - 1].extract_text().splitlines():
                assert not re.search(r"[-\u2010\u00ad]$", line.strip()), (key, number, line)
        for title, page in outline:  # whole on its page, and never the last thing on it (keep-with-next)
            text = _text(reader.pages[page - 1])
            assert title in text, (key, title)
            assert len(text.split(title, 1)[1].strip()) > 20, (key, title, page)


@pytest.mark.slow  # renders rulebook or FAQ PDFs
def test_rulebook_cover_names_the_deck_from_labels(docs) -> None:
    french = PdfReader(docs["rulebook:fr"])
    assert _text(french.pages[0]) == "Calavera Règles du jeu"
    assert french.metadata.title == "Calavera\u202f: Règles du jeu"  # French: narrow no-break space before ":"
    assert _text(PdfReader(docs["rulebook:es"]).pages[0]) == \
        "La Fallera Calavera Reglamento Los tres juegos juntos (modo experto)"
