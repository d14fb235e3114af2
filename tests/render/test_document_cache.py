"""Rulebooks and FAQ indexes are rebuilt exactly when what they print changes: an edited rule section, ruling
or translation rebuilds its documents; an edit to a card they do not print rebuilds none."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from cardworks.render.build import BuildOptions, build
from cardworks.i18n import source_hash
from conftest import GameDir, mini_files

pytestmark = pytest.mark.slow


def _rendered(game: GameDir, out: Path) -> set[str]:
    """The documents this build laid out (the others were reused from the last build)."""
    options = BuildOptions(out=out, game="mini", locales=["en", "es"], cards=False, jobs=1,
                           allow_fallback=True)  # the mini game translates only some strings
    report = build(game.cards_root, options)
    assert {record.path for _, record, _ in report.documents} == \
        {"mini/en/rulebook-all.pdf", "mini/en/faq.pdf", "mini/es/rulebook-all.pdf", "mini/es/faq.pdf"}
    return {record.path for _, record, rendered in report.documents if rendered}


def _text(path: Path) -> str:
    from pypdf import PdfReader

    return " ".join(page.extract_text() for page in PdfReader(path).pages)


@pytest.fixture
def game(tmp_path: Path) -> GameDir:
    game = GameDir(tmp_path / "cards", copy.deepcopy(mini_files()))
    for locale, text in {"en": "# Intro\n\nSteal one {treasure} from a rival.\n",
                         "es": "# Intro\n\nRoba un {treasure} a un rival.\n"}.items():
        game.files[f"rules/{locale}/01-intro.md"] = text
    game.write()
    return game


def _rewrite(game: GameDir, relative: str, change) -> None:
    data = json.loads((game.root / relative).read_text(encoding="utf-8"))
    change(data)
    (game.root / relative).write_text(json.dumps(data, indent=2, ensure_ascii=False), encoding="utf-8")


def test_documents_follow_what_they_print(game: GameDir, tmp_path: Path) -> None:
    out = tmp_path / "out"
    assert len(_rendered(game, out)) == 4
    assert _rendered(game, out) == set(), "an unchanged database must reuse every document"

    def new_rules(data):  # a card no document prints: its rules text, and the Spanish translation's source
        card = next(c for c in data["cards"] if c["id"] == "capita")
        card["rules"] = "Steal two {treasure} from a rival."
    _rewrite(game, "sets/base.json", new_rules)

    def follow(data):
        entry = data["entries"]["capita"]["rules"]
        entry.update(source="Steal two {treasure} from a rival.", source_hash=source_hash("Steal two {treasure} from a rival."),
                     text="Roba dos {treasure} a un rival.")
    _rewrite(game, "i18n/es.json", follow)
    assert _rendered(game, out) == set(), "a card's rules text is on no document: nothing to lay out again"

    (game.root / "rules" / "en" / "01-intro.md").write_text("# Intro\n\nSteal three {treasure} from a rival.\n")
    assert _rendered(game, out) == {"mini/en/rulebook-all.pdf"}
    assert "Steal three" in _text(out / "mini/en/rulebook-all.pdf")

    def new_answer(data):
        data["rulings"][0]["answer"] = "Only one {treasure}, never two."
    _rewrite(game, "rulings/base.json", new_answer)
    assert _rendered(game, out) == {"mini/en/faq.pdf", "mini/es/faq.pdf"}  # Spanish falls back to it
    assert "never two" in _text(out / "mini/en/faq.pdf") and "never two" in _text(out / "mini/es/faq.pdf")

    def translate(data):
        data["entries"]["ruling-steal"] = {"answer": {
            "text": "Solo un {treasure}, nunca dos.", "source": "Only one {treasure}, never two.",
            "source_hash": source_hash("Only one {treasure}, never two.")}}
    _rewrite(game, "i18n/es.json", translate)
    assert _rendered(game, out) == {"mini/es/faq.pdf"}
    assert "nunca dos" in _text(out / "mini/es/faq.pdf")

    def retranslate(data):
        data["entries"]["ruling-steal"]["answer"]["text"] = "Un solo {treasure}, jamás dos."
    _rewrite(game, "i18n/es.json", retranslate)
    assert _rendered(game, out) == {"mini/es/faq.pdf"}
    assert "jamás dos" in _text(out / "mini/es/faq.pdf")

    svg = game.root / "icons" / "treasure.svg"  # named by every document's HTML: its bytes are in their keys
    svg.write_text(svg.read_text().replace("<svg", "<svg data-edited='1'", 1))
    assert _rendered(game, out) == {"mini/en/rulebook-all.pdf", "mini/es/rulebook-all.pdf",
                                    "mini/en/faq.pdf", "mini/es/faq.pdf"}


def test_an_unchanged_build_does_not_make_the_documents_html_again(game: GameDir, tmp_path: Path, monkeypatch) -> None:
    """Documents are keyed by their inputs first: with nothing changed, no rulebook or FAQ HTML is generated only
    to be keyed (issue 47 item 1); an edited rule section changes the inputs, and its HTML is made and keyed by
    what it prints; a damaged key file only costs the HTML again."""
    from cardworks.render.docs import build as documents

    out = tmp_path / "out"
    assert len(_rendered(game, out)) == 4
    made: list[str] = []
    real = documents.DocTask.html
    monkeypatch.setattr(documents.DocTask, "html", lambda task, db: made.append(task.path) or real(task, db))
    assert _rendered(game, out) == set() and made == []
    (game.root / "rules" / "es" / "01-intro.md").write_text("# Intro\n\nRoba dos {treasure} a un rival.\n", "utf-8")
    assert _rendered(game, out) == {"mini/es/rulebook-all.pdf"}
    assert sorted(made) == sorted(["mini/en/rulebook-all.pdf", "mini/en/faq.pdf", "mini/es/rulebook-all.pdf",
                                   "mini/es/faq.pdf"])  # the game changed: every document is keyed by what it prints
    assert "dos" in _text(out / "mini/es/rulebook-all.pdf")
    made.clear()
    (out / documents.DOCUMENT_INPUTS).write_text("{not json", "utf-8")
    assert _rendered(game, out) == set() and len(made) == 4
    made.clear()
    assert _rendered(game, out) == set() and made == []  # the key file was written again whole
