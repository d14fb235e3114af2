"""Rulebooks and FAQ indexes read back from the PDFs: contents, bookmarks, rulings, collation, generated tables."""

from __future__ import annotations

import json
import re
import shutil
from functools import lru_cache
from pathlib import Path

import pytest
from conftest import REPO, run_cli
from pypdf import PdfReader
from typeset_checks import name_case_errors, split_names, straight_quotes

from cardworks.i18n.collation import collation_key, sort_names
from cardworks.loading import load_database
from cardworks.loading.records import Index
from cardworks.render.typography import curly

CARDS = REPO / "cards"


def _text(page) -> str:
    return " ".join(page.extract_text().split())


@lru_cache(maxsize=None)
def _page_texts(path: Path) -> tuple[str, ...]:
    """Each page's text, lines as laid out, read once for the several tests that read every document. PDFium
    reads the same lines and line-end hyphens as pypdf (only the contents' leaders are spaced otherwise) in a
    sixteenth of the time, which counts at 342 pages."""
    import pypdfium2

    document = pypdfium2.PdfDocument(path)
    try:
        return tuple(document[i].get_textpage().get_text_range().replace("\r\n", "\n") for i in range(len(document)))
    finally:
        document.close()


@pytest.fixture(scope="module")
def docs(tmp_path_factory) -> dict[str, Path]:
    out = tmp_path_factory.mktemp("docs")
    run = run_cli("--cards", str(CARDS), "build", "--out", str(out), "--locale", "en", "--locale", "ca",
                  "--locale", "es", "--locale", "fr", "--locale", "nl", "--jobs", "2", "--no-cards")
    assert run.exit_code == 0, run.output
    records = json.loads((out / "manifest.json").read_text())["outputs"]
    documents = [r for r in records if r["kind"] in {"rulebook", "faq"}]
    # "rulebook:<locale>" and "faq:<locale>" name Fallera's expert rulebook (every set) and its FAQ, and for French
    # and Dutch Calavera's: said here rather than left to whichever record the manifest lists last
    meant = [r for r in documents if r["game"] == ("calavera" if r["locale"] in {"fr", "nl"} else "fallera")
             and (r["kind"] == "faq" or r["selection"] in {"expert", "all"})]
    found = {f"{r['kind']}:{r['locale']}": out / r["path"] for r in meant}
    assert len(found) == len(meant), sorted(r["path"] for r in meant)  # one document per key
    return found | {r["path"]: out / r["path"] for r in documents}  # and every game's by its path


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
    titles = [curly(next(line[2:].strip() for line in (CARDS / f"fallera/rules/ca/{name}.md").read_text().splitlines()
                         if line.startswith("# ")), "ca") for name in sections]  # typeset: l’humor
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
    # a table cell begins a block: its name takes a capital (docs/typography.md), "la riuà" prints "La riuà"
    expected = " ".join(f"{curly(name[:1].upper() + name[1:], 'ca', ' ')} n{rank}" for rank, name in ranked)
    assert expected in page


@pytest.mark.slow  # renders rulebook or FAQ PDFs
def test_battle_table_and_map_are_generated(docs) -> None:
    text = " ".join(_text(p) for p in PdfReader(docs["rulebook:es"]).pages)
    assert "I 4 no se defiende el atacante se lleva el tesoro" in text
    assert "II 4 5 el defensor conserva el tesoro" in text
    assert "III 3 3 el defensor conserva el tesoro" in text
    assert "IV 3 2 el atacante se lleva el tesoro" in text
    assert "accesos cuyo destino no da ningún reglamento" in text


#: Pages of the Fallera FAQ when it printed each ruling under every card it names (330 entries), measured on
#: main at 609ce99 (2026-12-02, WeasyPrint 70, A4). The FAQ as a reference must take at most half.
OLD_FAQ_PAGES = {"en": 56, "ca": 59, "es": 60}


@pytest.mark.slow
@pytest.mark.parametrize("locale", ["en", "ca", "es"])
def test_faq_is_a_reference_of_numbered_rulings(docs, locale: str) -> None:
    """Each ruling once, numbered 1 to N; the topic and card indexes give each entry once, with the numbers of
    the rulings about it; no heading is the last line of a column; at most half of the old page count."""
    from faq_pages import entry_numbers, expand, index_entries, pdf_lines, stranded_headings

    from cardworks.i18n import Localizer

    db = load_database(CARDS / "fallera")
    index = Index(db)
    path = docs[f"faq:{locale}"]
    pages = pdf_lines(path)
    rulings = index.of_kind("ruling")
    assert entry_numbers(pages) == list(range(1, len(rulings) + 1))
    labels = json.loads((REPO / "templates/docs/labels" / f"{locale}.json").read_text(encoding="utf-8"))
    topics = index_entries(pages, labels["topic_index"], labels["index"])
    cards = index_entries(pages, labels["index"], labels["faq"])
    for entries in (topics, cards):
        keys = [" ".join(name.casefold().split()) for name, _ in entries]
        assert len(keys) == len(set(keys)), [k for k in keys if keys.count(k) > 1]
    assert len(topics) == len(db.game_doc.faq_topics)
    numbers = dict(cards)
    words = Localizer(db, locale)
    order = [r.id for t in db.game_doc.faq_topics for r in rulings if r.model.topic == t.id]
    for number, ruling_id in enumerate(order, start=1):
        for card in index.by_id[ruling_id].model.cards:
            name, _ = words.text(card, "name", index.by_id[card].model.name)
            printed = curly(name, locale, " ")  # as printed: ’, and a capital to begin the entry
            assert number in expand(numbers[printed[:1].upper() + printed[1:]]), (locale, card, number)
    assert [name for name, _ in cards] == sort_names([name for name, _ in cards], locale)
    assert stranded_headings(pages) == []
    assert len(pages) * 2 <= OLD_FAQ_PAGES[locale], (locale, len(pages))


@pytest.mark.slow
def test_faq_index_lists_alternative_names_with_their_rulings(docs) -> None:
    from faq_pages import index_entries, pdf_lines

    labels = json.loads((REPO / "templates/docs/labels/es.json").read_text(encoding="utf-8"))
    entries = dict(index_entries(pdf_lines(docs["faq:es"]), labels["index"], labels["faq"]))
    assert entries["Conejo"] == entries["Conill"]


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
        titles = {name: curly(next(line[2:].strip() for line in (CARDS / f"fallera/rules/{locale}/{name}.md").read_text()
                                   .splitlines() if line.startswith("# ")), locale) for name in sections}
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
        text = " ".join(" ".join(page.split()) for page in _page_texts(docs[key]))
        words = set(re.findall(r"[\w'-]+", text))
        assert not ids & words, (key, sorted(ids & words)[:10])
        found = [w for w in ENGLISH if re.search(rf"\b{re.escape(w)}\b", text)]
        assert key.endswith((":fr", ":nl")) or not found, (key, found)  # "Source", "scenario" are French, Dutch
        assert "scenario-" not in text


@pytest.mark.slow
def test_names_headings_and_labels_are_never_hyphenated(docs) -> None:
    """No line of the contents, the card index or the FAQ's indexes ends in a hyphen, and every chapter
    heading stands whole on its page."""
    for key in ("rulebook:en", "rulebook:ca", "faq:ca", "faq:es"):
        reader = PdfReader(docs[key])
        outline = [(title, page) for depth, title, page in _outline(reader) if depth == 0]
        if key.startswith("rulebook"):
            index_from = outline[-1][1]  # the card index is the last chapter
            lines = [line for number in [2, *range(index_from, len(reader.pages) + 1)]
                     for line in reader.pages[number - 1].extract_text().splitlines()
                     # the first section follows the contents on their page: its running text hyphenates
                     if number != 2 or ". . ." in line or "...." in line]
        else:  # the FAQ's indexes come first, up to the rulings' heading
            from faq_pages import heading_at, pdf_lines

            texts = [line.text for page in pdf_lines(docs[key]) for line in page]
            start = heading_at(texts, outline[0][0])[0]  # the cover names the FAQ too: its rulings' heading after
            lines = texts[start:heading_at(texts, outline[-1][0], start)[0]]
        assert lines, key
        for line in lines:
            assert not re.search(r"[-\u2010\u00ad]$", line.strip()), (key, line)
        for title, page in outline:  # whole on its page, and never the last thing on it (keep-with-next)
            text = _text(reader.pages[page - 1])
            assert title in text, (key, title)
            assert len(text.split(title, 1)[1].strip()) > 20, (key, title, page)


@pytest.mark.slow  # renders rulebook or FAQ PDFs
def test_rulebook_cover_names_the_deck_from_labels(docs) -> None:
    french = PdfReader(docs["rulebook:fr"])
    assert _text(french.pages[0]) == "Calavera Règles du jeu ★ ☠"  # and its die symbols, drawn as title art
    assert french.metadata.title == "Calavera\u202f: Règles du jeu"  # French: narrow no-break space before ":"
    assert _text(PdfReader(docs["rulebook:es"]).pages[0]) == \
        "La Fallera Calavera Reglamento Los tres juegos juntos (modo experto)"


TYPESET = {"fallera": ("en", "ca", "es"), "diables": ("en", "ca", "es"), "calavera": ("fr", "nl", "en", "ca", "es")}
"""The documents whose typography is read back (docs/typography.md): every locale each game is built in."""


def _typeset_documents(docs) -> dict[str, list[Path]]:
    chosen: dict[str, list[Path]] = {}
    for path, file in docs.items():
        game, locale, name = (path.split("/") + ["", ""])[:3]
        if locale in TYPESET.get(game, ()) and name.startswith(("rulebook", "faq")):
            chosen.setdefault(game, []).append(file)
    assert sorted(chosen) == sorted(TYPESET)
    return chosen


@pytest.mark.slow
def test_no_name_of_the_database_is_cut_by_a_hyphen_and_no_quote_is_straight(docs) -> None:
    """Every card and component name, in every locale, stays whole at line ends (render.typography keeps them
    in never-hyphenated spans), and no straight quote or apostrophe remains in the prose."""
    from cardworks.render.typography import database_names

    documents = _typeset_documents(docs)
    assert set(documents) == set(TYPESET) and all(documents.values())
    for game, files in documents.items():
        names = database_names(load_database(CARDS / game)).every
        for file in files:
            text = "\n".join(_page_texts(file))
            assert not split_names(text, names), (file.name, split_names(text, names)[:5])
            assert not straight_quotes(text), (file.name, straight_quotes(text)[:5])


@pytest.mark.slow
def test_short_rulebooks_leave_no_page_under_a_third_full(docs) -> None:
    """Diables and Calavera: after the cover, every page but the last is at least a third full; Calavera's
    two and a half pages of rules take four pages with the cover and the contents."""
    for path in ("diables/en/rulebook-all.pdf", "calavera/fr/rulebook-all.pdf"):
        fills = _fill(docs[path])
        thin = [number for number, fill in enumerate(fills[:-1], start=1) if number > 1 and fill < 1 / 3]
        assert not thin, (path, thin, [round(f, 2) for f in fills])
    assert len(PdfReader(docs["calavera/fr/rulebook-all.pdf"]).pages) == 4


@pytest.mark.slow
def test_card_names_in_running_text_follow_one_capitalisation(docs) -> None:
    """Every rulebook and FAQ built, in every locale, against every card and component name of its game in
    that locale (docs/typography.md): a card's name as the database writes it, a leading article in lower case
    mid-sentence, a capital allowed only where a line or a sentence begins; a component's as the database writes
    it but for its first letter. Each FAQ index entry begins with a capital. A planted "El Butoni" after a comma
    is found."""
    from faq_pages import index_entries, pdf_lines

    from cardworks.render.typography import ARTICLES, database_names

    checked, games = {}, {}
    for path, file in docs.items():
        if path.count("/") != 2:
            continue
        game, locale, _ = path.split("/")
        if game not in games:
            games[game] = load_database(CARDS / game)
        names = database_names(games[game], locale)
        others = [name for name in names.every if name not in names.forms.values()]
        text = "\n".join(_page_texts(file))
        wrong = name_case_errors(text, names.forms, others, ARTICLES[locale], title_case=locale == "en")
        assert not wrong, (path, wrong[:5])
        checked[path] = text
        if path.endswith("/faq.pdf") and game == "fallera":
            labels = json.loads((REPO / "templates/docs/labels" / f"{locale}.json").read_text(encoding="utf-8"))
            entries = [name for name, _ in index_entries(pdf_lines(file), labels["index"], labels["faq"])]
            assert entries and all(e[:1] == e[:1].upper() for e in entries), (path, [e for e in entries if e[:1].islower()])
    built = {(path.split("/")[0], path.split("/")[1]) for path in checked}
    assert built == {(g, locale) for g in ("fallera", "diables") for locale in ("en", "ca", "es")} | \
        {("calavera", locale) for locale in ("en", "ca", "es", "fr", "nl")}
    text = checked["fallera/ca/rulebook-expert.pdf"]
    planted, count = re.subn(r",( +)el(\s+)Butoni\b", r",\1El\2Butoni", text, count=1)  # after a comma on its line
    assert count == 1
    names = database_names(games["fallera"], "ca")
    assert [seen for seen, _, _ in name_case_errors(planted, names.forms, [], ARTICLES["ca"])] == ["El Butoni"]


def _fills(page) -> list[tuple[float, ...]]:
    import pikepdf

    return [tuple(round(float(v), 3) for v in op.operands) for op in pikepdf.parse_content_stream(page)
            if str(op.operator) == "rg"]


@pytest.mark.slow
def test_covers_wear_the_games_own_look(docs) -> None:
    """Fallera's cover: its back colour behind the title and its three card types' icons on their colours;
    Diables: its back colours, no icons (it ships none); Calavera, which ships neither icons nor colours: the
    palette of its game folder and its die symbols drawn on die faces in that palette."""
    import pikepdf

    opened = []  # a page lives as long as its document

    def cover(path: str):
        opened.append(pikepdf.open(docs[path]))
        return opened[-1].pages[0]

    fallera = cover("fallera/en/rulebook-expert.pdf")
    fills = _fills(fallera)
    assert fills[0] == (0.176, 0.141, 0.125)  # --back-colour #2d2420 of templates/fallera/cards.css
    for colour in ((0.91, 0.725, 0.137), (0.753, 0.224, 0.169), (0.957, 0.945, 0.918)):  # treasure, battle, special
        assert colour in fills, colour
    assert len(fallera.Resources.XObject) >= 3
    assert _fills(cover("diables/en/rulebook-all.pdf"))[0] == (0.114, 0.141, 0.251)  # #1d2440
    calavera = cover("calavera/fr/rulebook-all.pdf")
    fills = _fills(calavera)
    assert fills[0] == (0.169, 0.118, 0.247)  # --back-colour #2b1e3f of cards/calavera/templates/calavera/cards.css
    assert fills.count((0.949, 0.647, 0.086)) >= 3  # --back-accent #f2a516: the frame's, two die faces', the title's
    symbols = PdfReader(docs["calavera/fr/rulebook-all.pdf"]).pages[0].extract_text()
    assert "★" in symbols and "☠" in symbols  # the Calavera plugin's die symbols (Rendering.die_symbols)
