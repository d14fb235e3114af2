"""Issue 45, item 2: what a machine can check of a translation's prose, ``validate`` checks (warnings at the
file and pointer or line, failures under ``--strict``). Each check is shown failing on a planted bad case."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cardworks.i18n.glossary import Terminology
from cardworks.i18n.prose import english_left, kept_pattern, quote_warnings, unit_warnings
from cardworks.loading import load_database
from cardworks.problems import ProblemList
from cardworks.validate.check_labels import check_labels
from conftest import REPO, GameDir, run_cli

NBSP, NNBSP = "\u00a0", "\u202f"


@pytest.mark.parametrize("text, locale, flagged", [
    ("gana 3 PF.", "es", True), (f"gana 3{NBSP}PF.", "es", False), ("score 4 FP", "en", True),
    ("al 100 %.", "es", True), (f"al 100{NBSP}%.", "es", False), (f"à 100 %.", "fr", True),
    (f"à 100{NBSP}%.", "fr", True), (f"à 100{NNBSP}%.", "fr", False), ("at 100%", "en", False),
    ("at 100 %", "en", True), ("op 100 %", "nl", True), ("op 100%", "nl", False),
    ("3 PFX", "es", False), ("los 3 perros", "es", False),
])
def test_number_and_unit_spacing_per_locale(text: str, locale: str, flagged: bool) -> None:
    assert bool(unit_warnings(text, locale)) == flagged


@pytest.mark.parametrize("text, locale, flagged", [
    ("dice: «et declare batalla.»", "ca", True), ("dice: «et declare batalla».", "ca", False),
    ('dice: "te declaro la batalla." Luego', "es", True), ('dice: "te declaro la batalla". Luego', "es", False),
    ("says “I declare battle.”", "en", False),
])
def test_full_stop_after_the_closing_quote_in_catalan_and_spanish(text: str, locale: str, flagged: bool) -> None:
    assert bool(quote_warnings(text, locale)) == flagged


def test_english_left_in_a_translation_names_and_code_aside() -> None:
    assert english_left("Roba una card del mazo y the rest.", "es") == ["card", "the"]
    assert english_left("Roba una carta del mazo.", "es") == []
    assert english_left("Pon el Firebot junto al tablero.", "es") == []  # no English word of the list
    assert english_left("Escribe `cardworks check --with-optional` y {the}.", "es") == []
    kept = kept_pattern({"The Tabalers"})
    assert english_left("Los The Tabalers tocan.", "es", kept) == []
    assert english_left("Draw the card.", "en") == []


def _mini_es(game: GameDir, rules: str) -> None:
    game.files["rules/en/01-setup.md"] = "# Setup\n\nShuffle the deck.\n"
    game.files["rules/es/01-setup.md"] = rules
    game.write()


@pytest.mark.parametrize("line, code", [
    ("Gana 3 PF al final.", "unit-spacing"),
    ("Di: «Te declaro la batalla.»", "quote-punctuation"),
    ("Baraja the deck.", "english-left"),
])
def test_each_prose_check_warns_at_its_line_and_fails_strict(game: GameDir, line: str, code: str) -> None:
    _mini_es(game, f"# Preparación\n\n{line}\n")
    run = run_cli("--cards", str(game.cards_root), "validate", "--format", "json")
    hits = [p for p in run.problems if p["code"] == code]
    assert [(p["file"].replace("\\", "/").endswith("rules/es/01-setup.md"), p["pointer"]) for p in hits] == [(True, "3")]
    assert run_cli("--cards", str(game.cards_root), "validate", "--strict").exit_code == 1


def test_a_good_line_passes_strict(game: GameDir) -> None:
    _mini_es(game, f"# Preparación\n\nGana 3{NBSP}PF al final. Di: «Te declaro la batalla».\n")
    run = run_cli("--cards", str(game.cards_root), "validate", "--format", "json")
    assert not [p for p in run.problems if p["code"] in {"unit-spacing", "quote-punctuation", "english-left"}]


def test_english_left_in_a_translation_entry_is_located_at_its_pointer(game: GameDir) -> None:
    game.write()
    run = run_cli("--cards", str(game.cards_root), "validate", "--format", "json")
    translations = sorted(game.root.glob("i18n/*.json"))
    assert translations, "the mini game has a translation"
    path = translations[0]
    data = json.loads(path.read_text(encoding="utf-8"))
    record, fields = next((r, f) for r, f in data["entries"].items()
                          if any(not k.endswith("name") for k in f))
    field = next(k for k in fields if not k.endswith("name"))
    fields[field]["text"] = fields[field]["text"] + " Draw the card."
    path.write_text(json.dumps(data, ensure_ascii=False, indent=2), encoding="utf-8")
    run = run_cli("--cards", str(game.cards_root), "validate", "--format", "json")
    hits = [p for p in run.problems if p["code"] == "english-left"]
    assert [p["pointer"] for p in hits] == [f"/entries/{record}/{field}/text"], hits
    assert "the" in hits[0]["message"] and "card" in hits[0]["message"]


def test_a_label_printed_before_a_range_needs_its_plural(tmp_path: Path) -> None:
    (tmp_path / "en.json").write_text(json.dumps({"line": "line", "lines": "lines"}), encoding="utf-8")
    (tmp_path / "ca.json").write_text(json.dumps({"line": "línia"}), encoding="utf-8")
    (tmp_path / "es.json").write_text(json.dumps({"line": "línea", "lines": "línea"}), encoding="utf-8")
    out = ProblemList()
    check_labels(out, tmp_path)
    hits = sorted((Path(p.file).name, p.location) for p in out.items if p.code == "label-plural")
    assert hits == [("ca.json", "/lines"), ("es.json", "/lines")]


@pytest.mark.parametrize("game_id, locale, text, found", [
    ("fallera", "es", "Anula el efecto de un {special}.", "un {special}"),
    ("fallera", "es", "Las cartas especiales añadidas a esas cartas", "añadidas a esas"),
    ("fallera", "es", "¿A quién le robo?", "le robo"),
    ("fallera", "ca", "En quin orde agafe les cartes?", "orde"),
    ("fallera", "ca", "quan la pila de robar es queda buida", "pila de robar"),
    ("fallera", "es", "cuando el mazo de robo se queda vacío", "mazo de robo"),
    ("fallera", "ca", "tira la moneda a l'inici del torn", "tira la moneda"),
    ("fallera", "ca", "el marisc necessita els seus llançaments de moneda", "llançaments"),
    ("diables", "es", "Separad las fichas de fuego.", "fichas de fuego"),
    ("calavera", "es", "las celdas de puntos", "celdas"),
    ("calavera", "ca", "les cel·les de punts", "cel·les"),
])
def test_the_grown_glossaries_catch_the_terms_that_changed_between_documents(game_id, locale, text, found) -> None:
    hits = [h.found for h in Terminology(load_database(REPO / "cards" / game_id), locale).hits(text)]
    assert hits == [found]


@pytest.mark.parametrize("line, flagged", [
    ("Take the Conill from a rival.", True),   # the database (and so the rulebooks) write conill in lower case
    ("Take the conill from a rival.", False),
    ("Conill is an ingredient.", False),       # a sentence's start takes its capital
    ("You win. Conill counts twice.", False),
])
def test_a_card_name_mid_sentence_in_another_case_than_the_database_is_a_warning(game: GameDir, line: str,
                                                                                   flagged: bool) -> None:
    game.files["rules/en/01-setup.md"] = f"# Setup\n\n{line}\n"
    game.write()
    run = run_cli("--cards", str(game.cards_root), "validate", "--format", "json")
    hits = [(p["file"].replace("\\", "/").endswith("rules/en/01-setup.md"), p["pointer"])
            for p in run.problems if p["code"] == "name-case"]
    assert hits == ([(True, "3")] if flagged else [])


def test_a_translated_name_that_is_the_source_but_for_its_case_is_a_warning(game: GameDir) -> None:
    game.write()
    path = game.root / "i18n" / "es.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    entry = data["entries"].setdefault("conill", {}).setdefault("name", {"source_hash": "", "text": ""})
    from cardworks.i18n import source_hash

    entry.update(text="Conill", source_hash=source_hash("conill"))
    path.write_text(json.dumps(data, ensure_ascii=False, indent=2), encoding="utf-8")
    run = run_cli("--cards", str(game.cards_root), "validate", "--format", "json")
    assert [p["pointer"] for p in run.problems if p["code"] == "name-case"] == ["/entries/conill/name/text"]


def test_a_one_word_name_with_a_capital_in_lower_case_may_be_the_ordinary_word() -> None:
    from cardworks.validate.check_name_case import _plain_word, comparable

    assert _plain_word("three", "Three") and not _plain_word("Conill", "conill")
    assert not _plain_word("la riuà", "La Riuà") and not _plain_word("paella protectora", "Paella protectora")
    assert comparable("La Riuà") == "la Riuà" and comparable("Bufanúvols") == "Bufanúvols"
