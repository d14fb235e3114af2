"""Rulebooks and FAQ indexes are written in the project's own words: no run of 12 or more words copied from a source.

Every document whose locale has a source in ``shared/rulebooks`` (Fallera and
Diables in English, Calavera in French) is checked, from its HTML (fast) and, for
one rulebook, from the text of the real PDF. How words are compared and which
runs count as lists of names: see :mod:`own_words`.
"""

from __future__ import annotations

import io
import json
import shutil
from pathlib import Path

import pytest
from pypdf import PdfReader

import own_words
from cardworks.loading.database import Database, load_game
from cardworks.render.deck import build_deck
from cardworks.render.docs.documents import faq_html, render_pdf, rulebook_html
from conftest import FALLERA, FIXTURE_CARDS, REPO

PLANTED = ("Slide the street spectator cards one space to the right, and the pavement spectator cards one space "
           "to the left.")
"""A sentence of the Diables source (Phase 3), as an unwary writer would copy it."""


def _documents(root: Path, locale: str) -> dict[str, str]:
    db = Database(game=load_game(root))
    selections = [s.id for s in db.game_doc.selections] or [build_deck(db).selection]
    found = {f"rulebook-{s}": rulebook_html(db, locale, s) for s in selections}
    if any(doc.rulings for _, doc in db.docs("rulings")):
        found["faq"] = faq_html(db, locale)
    return found


def _copied(root: Path, game: str, locale: str) -> list[str]:
    """``document: run`` for every copied run in the game's documents of ``locale``."""
    db = Database(game=load_game(root))
    runs = own_words.source_runs(own_words.DOCUMENTS[(game, locale)])
    names = own_words.name_words(db, locale)
    return [f"{name}: {run}" for name, html in _documents(root, locale).items()
            for block in own_words.html_blocks(html) for run in own_words.copied_runs(block, runs, names)]


def test_no_document_copies_twelve_words_of_its_source() -> None:
    """Every shipped game's documents against its source (a test about the shipped texts)."""
    copied = {(game, locale): _copied(REPO / "cards" / game, game, locale) for game, locale in sorted(own_words.DOCUMENTS)}
    assert len(copied) >= 3 and not any(copied.values()), copied


CHAPTER = "# End of a round\n\nThe spectators shift along their rows before the next round begins.\n"
"""A rulebook chapter of the Diables fixture game, in the fixture's own words (not the game's text)."""


@pytest.fixture
def diables(tmp_path: Path) -> Path:
    """The Diables fixture game (its rules data) with one English rulebook chapter of its own."""
    root = tmp_path / "diables"
    shutil.copytree(FIXTURE_CARDS / "diables", root)
    (root / "rules/en").mkdir(parents=True)
    (root / "rules/en/09-end-of-the-round.md").write_text(CHAPTER, encoding="utf-8")
    return root


def test_a_planted_copied_sentence_fails_the_check(diables: Path) -> None:
    assert _copied(diables, "diables", "en") == []  # the fixture's own chapter copies nothing
    section = diables / "rules/en/09-end-of-the-round.md"
    section.write_text(section.read_text(encoding="utf-8") + f"\n{PLANTED}\n", encoding="utf-8")
    found = _copied(diables, "diables", "en")
    assert found == ["rulebook-all: slide the street spectator cards one space to the right and the pavement "
                     "spectator cards one space to the left"]


def test_a_shared_list_of_names_is_not_a_copy() -> None:
    """A run of the source made only of names (here the board's spaces' and cards' names of a Fallera source
    line, the names those of the Fallera fixture's cards and board) passes; the same run with a verb fails."""
    fallera = Database(game=load_game(FALLERA))
    names = own_words.name_words(fallera, "en")
    runs = own_words.source_runs(own_words.DOCUMENTS[("fallera", "en")])
    listed = "La Dama d'Elx, la xicona de Xixona, la Bellea del Moc and el capità moro"
    assert len(own_words.words(listed)) >= own_words.RUN
    assert own_words.copied_runs(f"Sud: {listed}.", runs, names) == []
    assert own_words.copied_runs(f"Sud: {listed} have +2 in A and D.", runs, names) != []


def test_the_fingerprints_are_those_of_the_sources() -> None:
    if not own_words.SOURCES.is_dir():
        pytest.skip("the rulebooks (../shared/rulebooks) are not beside this checkout; the committed fingerprints are used")
    stored = json.loads(own_words.SHINGLES.read_text(encoding="utf-8"))
    assert stored == own_words.fingerprints(), (
        "tests/render/source_shingles.json is stale: write json.dumps(own_words.fingerprints(), indent=1) to it")


@pytest.mark.slow
def test_the_diables_rulebook_pdf_text_copies_no_run() -> None:
    db = Database(game=load_game(REPO / "cards/diables"))
    pdf = PdfReader(io.BytesIO(render_pdf(rulebook_html(db, "en", "all"), db.game.root)))
    runs = own_words.source_runs(own_words.DOCUMENTS[("diables", "en")])
    names = own_words.name_words(db, "en")
    text = [" ".join((page.extract_text() or "").split()) for page in pdf.pages]
    assert sum(len(own_words.words(page)) for page in text) > 5000  # the text was read back
    assert [run for page in text for run in own_words.copied_runs(page, runs, names)] == []
