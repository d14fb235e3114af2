"""Diables' rulebook read back from the PDFs: contents, bookmarks and the tables generated from its data."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from pypdf import PdfReader

from cardworks.i18n import Localizer
from cardworks.i18n.qa import proper_names, translation_warnings, wrong_language
from cardworks.i18n.rules import is_text, split_blocks
from cardworks.i18n.strings import source_index
from cardworks.i18n.workflow import translation_status
from cardworks.loading import load_database
from cardworks.loading.records import Index
from conftest import REPO, run_cli
from test_documents import _outline  # (depth, title, page) of every bookmark

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


def _typeset(text: str, locale: str = "en") -> str:
    """``text`` as the documents print it: curly quotes and apostrophes (docs/typography.md)."""
    from cardworks.render.typography import curly

    return " ".join(curly(text, locale, " ").split())  # a no-break space reads back as a space, as _pages collapses


def _pages(path: Path) -> list[str]:
    """Each page's text, hyphenated line ends joined (a compound's own hyphen kept) and whitespace collapsed."""
    return [" ".join(re.sub("-\n", "-", re.sub("\u2010\n", "", page.extract_text())).split())
            for page in PdfReader(path).pages]


def _titles(locale: str) -> list[str]:
    return [next(line[2:].strip() for line in path.read_text(encoding="utf-8").splitlines() if line.startswith("# "))
            for path in sorted((RULES / locale).glob("*.md"))]


def _fp(scoring: dict) -> str:
    """A tile's FP figures written out from its JSON, field by field (independent of the renderer's walk)."""
    figures = []
    for key, value in scoring.items():
        if key in {"op", "show"} or isinstance(value, (bool, str)):
            continue
        figures += list(value.values()) if isinstance(value, dict) else value if isinstance(value, list) else [value]
    return " / ".join(str(n) for n in figures if isinstance(n, int))


@pytest.mark.parametrize("locale", ["en", "ca", "es"])
def test_rulebook_contents_and_bookmarks_follow_the_sections(built, locale) -> None:
    out, records = built
    path = out / f"diables/{locale}/rulebook-all.pdf"
    assert records[f"diables/{locale}/rulebook-all.pdf"]["kind"] == "rulebook"
    reader = PdfReader(path)
    chapters = [(title, page) for depth, title, page in _outline(reader) if depth == 0]
    assert [title for title, _ in chapters] == _titles(locale)
    assert len(chapters) == len(_titles("en"))
    pages = _pages(path)
    contents = reader.pages[1].extract_text()
    for title, page in chapters:
        assert re.search(re.escape(title) + r"\s*\.{3,}\s*" + str(page) + r"\b", contents), title
        assert title in pages[page - 1], (title, page)  # sections follow on: a title is on its page, not always first
    assert records[f"diables/{locale}/rulebook-all.pdf"]["pages"] == len(pages)
    cover = {"en": "Rulebook Base game", "ca": "Reglament Joc base", "es": "Reglamento Juego base"}[locale]
    assert cover in pages[0], "the cover names the deck in the locale"


LABELS = {"en": ("Tile Condition FP", "Difficulty Round 1 Round 2 Round 3"),
          "ca": ("Rajola Condició PF", "Dificultat Ronda 1 Ronda 2 Ronda 3"),
          "es": ("Loseta Condición PF", "Dificultad Ronda 1 Ronda 2 Ronda 3")}


@pytest.mark.parametrize("locale", ["en", "ca", "es"])
def test_scoring_tiles_table_matches_the_scoring_data_in_every_locale(built, index, locale) -> None:
    out, _ = built
    text = " ".join(_pages(out / f"diables/{locale}/rulebook-all.pdf"))
    for label in LABELS[locale]:
        assert label in text, label
    words = Localizer(index.db, locale)
    raw = {c["id"]: c for c in json.loads((CARDS / "diables/components.json").read_text())["components"]}
    tiles = [r.model for r in index.of_kind("component") if r.model.scoring is not None]
    assert len(tiles) == 22
    for tile in tiles:
        name, name_state = words.text(tile.id, "name", tile.name)
        condition, text_state = words.text(tile.id, "text", tile.text)
        assert {name_state, text_state} <= {"source", "translated"}, tile.id
        row = f"{_typeset(name, locale)} {_typeset(condition, locale)} "
        start = text.find(row)
        assert start >= 0, tile.id
        assert text[start + len(row):].startswith(_fp(raw[tile.id]["scoring"])), tile.id


def test_components_beasts_phases_and_firebot_tables_come_from_the_data(built, index) -> None:
    out, _ = built
    text = " ".join(_pages(out / "diables/en/rulebook-all.pdf"))
    game = index.game
    beasts = [r.model for r in index.of_kind("card")]
    for size, label in (("small", "Small beast"), ("large", "Large beast")):
        count = sum(c.quantity for c in beasts if c.attributes["beast-size"] == size)
        assert f"– {label} {count}" in text
    for component in (r.model for r in index.of_kind("component") if r.model.scoring is None):
        assert f"{_typeset(component.name)} {component.quantity or 'unknown'}" in text, component.id
    assert "Lluïment tiles 6" in text and "Show scoring tiles 16" in text
    for card in beasts:
        assert _typeset(f"{card.name} {card.rules}") in text, card.id
    starts = [text.find(_typeset(f"{phase.name}. {phase.text}")) for phase in game.phases]
    assert -1 not in starts and starts == sorted(starts)
    params = {p.id: p.value for p in game.parameters}
    rows = text.split("Difficulty Round 1 Round 2 Round 3 ", 1)[1]  # the table may end a page: read its rows only
    expected = " ".join(f"{name} {' '.join(map(str, params[f'firebot-turns-{level}']))}"
                        for name, level in (("Easy", "easy"), ("Average", "average"), ("Hard", "hard"),
                                            ("Very hard", "very-hard"), ("Devilish", "devilish")))
    assert rows.startswith(expected) and not rows[len(expected):].lstrip()[:1].isdigit()


@pytest.mark.parametrize("locale", ["en", "ca", "es"])
def test_faq_lists_every_ruling_once_with_passing_scenarios(built, index, locale, tmp_path) -> None:
    """Each ruling once, numbered, under its topic, as the Fallera FAQ; at most half of the 7 pages (en, ca
    and es alike) it took when each ruling was printed under every piece it names (main at 609ce99)."""
    from faq_pages import entry_numbers, pdf_lines, stranded_headings

    out, records = built
    assert records[f"diables/{locale}/faq.pdf"]["kind"] == "faq"
    text = " ".join(_pages(out / f"diables/{locale}/faq.pdf"))
    lines = pdf_lines(out / f"diables/{locale}/faq.pdf")
    assert entry_numbers(lines) == list(range(1, len(index.of_kind("ruling")) + 1))
    assert stranded_headings(lines) == []
    assert len(lines) * 2 <= 7, len(lines)
    words = Localizer(index.db, locale)
    rulings = [r.model for r in index.of_kind("ruling")]
    assert len(rulings) >= 20
    passes = {"en": "passes", "ca": "passa", "es": "pasa"}[locale]
    for ruling in rulings:
        question, state = words.text(ruling.id, "question", ruling.question)
        assert state in {"source", "translated"}
        assert text.count(_typeset(question, locale)) == 1, ruling.id
        # a reader's FAQ cites the rulebook and section; the source's line numbers only in the proof
        assert ruling.source.lines and ("-" not in ruling.source.lines or ruling.source.lines not in text)
        for scenario in ruling.scenarios:  # a reader's FAQ shows no scenario ids (only --proof does)
            assert f"{scenario} ({passes})" not in text and scenario not in text, scenario
        for card in ruling.cards:
            name, _ = words.text(card, "name", index.by_id[card].model.name)
            assert _typeset(name, locale) in text, card
    from cardworks.render.docs.documents import faq_pdf

    proof = tmp_path / "proof.pdf"  # the proof shows each ruling's scenarios and that they pass
    proof.write_bytes(faq_pdf(index.db, locale, proof=True))
    checked = " ".join(_pages(proof))
    for ruling in rulings:
        for scenario in ruling.scenarios:
            assert f"{scenario} ({passes})" in checked, scenario


def test_every_string_is_translated_and_the_translation_qa_is_clean() -> None:
    """``i18n status`` has nothing missing or stale; validation and the same QA over rulebook blocks say nothing."""
    db = load_database(CARDS / "diables")
    rows = translation_status(db)
    assert {row.locale for row in rows} == {"ca", "es"}
    assert all(row.missing == 0 and row.stale == 0 for row in rows), [(r.locale, r.group) for r in rows if r.missing]
    assert {row.group for row in rows} >= {"rules", "ruling", "component", "game", "base"}
    run = run_cli("--cards", str(CARDS), "validate", "--format", "json")
    found = [p for p in json.loads(run.output) if p["file"].startswith("cards/diables/")
             and p["code"] in {"wrong-language", "same-as-source", "truncated", "too-short", "typography"}]
    assert found == []
    names = proper_names(db, source_index(Index(db)))
    for locale in ("ca", "es"):
        for source in sorted((RULES / "en").glob("*.md")):
            pairs = zip(split_blocks(source.read_text(encoding="utf-8")),
                        split_blocks((RULES / locale / source.name).read_text(encoding="utf-8")))
            for original, translated in pairs:
                if not is_text(original) or original.startswith("# "):
                    continue  # chapter titles may equal the source ("Components", a name)
                assert translation_warnings(original, translated, locale, "block") == [], translated[:60]
                assert wrong_language(translated, locale, ("en", "ca", "es"), names) is None, translated[:60]


CALAVERA_RULES = CARDS / "calavera" / "rules"


@pytest.fixture(scope="module")
def calavera(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("calavera-docs")
    run = run_cli("--cards", str(CARDS), "build", "--out", str(out), "--game", "calavera", "--no-cards",
                  "--locale", "en", "--locale", "ca", "--locale", "es", "--jobs", "2")
    assert run.exit_code == 0, run.output
    return out


@pytest.mark.parametrize("locale", ["en", "ca", "es"])
def test_calavera_rulebook_is_translated_from_the_french_with_the_dutch_paragraphs_in_place(calavera, locale) -> None:
    """Each section of the French rulebook (which already carries the source's Dutch paragraphs, translated, in
    their own sections) comes out in the locale, block for block, with the components table from the data."""
    path = calavera / f"calavera/{locale}/rulebook-all.pdf"
    reader = PdfReader(path)
    titles = [title for depth, title, _ in _outline(reader) if depth == 0]
    french = sorted(p.name for p in (CALAVERA_RULES / "fr").glob("*.md"))
    assert sorted(p.name for p in (CALAVERA_RULES / locale).glob("*.md")) == french
    assert titles == [_typeset(next(line[2:] for line in (CALAVERA_RULES / locale / name).read_text(encoding="utf-8")
                                    .splitlines() if line.startswith("# ")), locale) for name in french]
    text = " ".join(_pages(path))
    for name in french:
        source = split_blocks((CALAVERA_RULES / "fr" / name).read_text(encoding="utf-8"))
        blocks = split_blocks((CALAVERA_RULES / locale / name).read_text(encoding="utf-8"))
        assert len(blocks) == len(source) and [is_text(b) for b in blocks] == [is_text(b) for b in source]
    mistakes = split_blocks((CALAVERA_RULES / locale / "06-erreurs-frequentes.md").read_text(encoding="utf-8"))[-1]
    assert mistakes.count("\n- ") == 3, "the four common mistakes of the Dutch list are all there"
    for label in re.findall(r"\*\*(.+?)\*\*", mistakes):
        assert _typeset(label, locale) in text
    words = Localizer(load_database(CARDS / "calavera"), locale)
    index = Index(load_database(CARDS / "calavera"))
    for component in (r.model for r in index.of_kind("component")):
        name, state = words.text(component.id, "name", component.name)
        assert state == "translated" and f"{_typeset(name, locale)} {component.quantity}" in text, component.id
    assert "dobbelstenen" not in text and "Règles" not in text


def _readme_rows() -> dict[str, tuple[set[str], str]]:
    """The README's build summary: game name → (locales, outputs cell)."""
    rows = {}
    for line in (REPO / "README.md").read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) in (3, 4) and "outputs in" not in cells[2] and cells[1] and set(cells[1]) <= set("abcdefghijklmnopqrstuvwxyz, "):
            rows[cells[0]] = ({c.strip() for c in cells[1].split(",")}, cells[2])
    return rows


def test_readme_build_summary_lists_every_output_and_locale(built, calavera) -> None:
    rows = _readme_rows()
    for game in ("fallera", "calavera", "diables"):
        doc = load_database(CARDS / game).game_doc
        assert rows[doc.name][0] == set(doc.locales), game
    for out, game in ((built[0], "Diables"), (calavera, "Calavera")):
        for record in json.loads((out / "manifest.json").read_text())["outputs"]:
            if not record["path"].startswith(f"{game.lower()}/"):
                continue  # build-wide files (calibration sheets) are described elsewhere
            name = record["path"].split("/", 2)[2]
            if record.get("paper"):
                name = name.replace(f"-{record['paper']}.pdf", "-<paper>.pdf")
            assert f"`{name}`" in rows[game][1], (game, name)
            assert record["locale"] in rows[game][0]
