"""The glossary and the Valencian forms are enforced in every prose a document prints: rulebook and FAQ sources,
rulings and card texts of every game, and the shared document labels. Each check is shown failing on a planted
bad variant, at its file and line or JSON pointer, with its code."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from cardworks.i18n import source_hash
from cardworks.i18n.glossary import variant_pattern
from cardworks.i18n.standards import VALENCIAN
from cardworks.loading.database import Database, load_game
from cardworks.loading.records import Index
from cardworks.problems import ProblemList
from cardworks.validate.check_glossary import check_glossary
from conftest import FIXTURE_CARDS, REPO, GameDir, run_cli

GLOSSARY = {"$schema": "../../../../schema/glossary.schema.json", "game": "mini", "locale": "es",
            "terms": [{"term": "deck", "translation": "mazo", "forbidden": ["la baraja"]}]}


def _valencian_hit(text: str) -> str | None:
    for term in VALENCIAN:
        for variant in term.forbidden:
            match = variant_pattern(variant).search(text)
            if match:
                return match.group(0)
    return None


@pytest.mark.parametrize("text, found", [
    ("marca les seves caselles", "seves"), ("tria aquest color", "aquest"), ("S'afegeix als daus", "afegeix"),
    ("el nombre escrit sota la casella", "sota"), ("les zones segueixen una suposició", "segueixen"),
    ("si comparteixes la majoria", "comparteixes"), ("s'inverteixen", "inverteixen"),
    ("les dos bèsties", "les dos"), ("dos vegades", "dos vegades"), ("la meitat menor", "meitat"),
    ("tant si siguin com no", "siguin"), ("la cinquè ronda", "cinquè"),
    # Valencian forms and words that only look like Central ones pass
    ("marca les seues caselles", None), ("tria este color i eixe altre", None), ("el mateix peix", None),
    ("apareixen, coneixes, deixes, baixa, creixen", None), ("les dues bèsties, dos efectes", None),
    ("la mitat, davall de la casella", None), ("compartixes i invertixen", None), ("quan siga", None),
])
def test_valencian_forms_flag_central_forms_only(text: str, found: str | None) -> None:
    assert _valencian_hit(text) == found


def test_a_forbidden_variant_in_a_rulebook_source_fails_strict_validation(game: GameDir) -> None:
    game.files["i18n/glossary/es.json"] = GLOSSARY
    game.files["rules/en/01-setup.md"] = "# Setup\n\nShuffle the deck.\n"
    game.files["rules/es/01-setup.md"] = "# Preparación\n\nBaraja la baraja.\n"
    game.write()
    run = run_cli("--cards", str(game.cards_root), "validate", "--format", "json")
    hits = [p for p in run.problems if p["code"] == "glossary"]
    assert [(p["file"].replace("\\", "/").endswith("rules/es/01-setup.md"), p["pointer"]) for p in hits] == [(True, "3")]
    assert "'la baraja'" in hits[0]["message"] and "'mazo'" in hits[0]["message"]  # the verb barajar passes
    assert run_cli("--cards", str(game.cards_root), "validate", "--strict").exit_code == 1


OWN_LINE = "Este capítol és un text de prova, no el del joc."
"""Catalan prose of the fixture's own, in the Valencian forms (not a text of any game)."""


def _catalan(cards: Path, game_id: str, deck: str = "pila", files: dict[str, str] | None = None) -> Path:
    """A copy of a fixture game (``tests/fixtures/cards``) under ``cards`` given a Catalan locale that follows the
    Valencian standard, a glossary naming the deck ``deck`` (``la baralla`` forbidden), and ``files`` (path in
    the game → text): the fixture's own, so a change to the shipped prose does not move these tests."""
    root = cards / game_id
    shutil.copytree(FIXTURE_CARDS / game_id, root)
    game = json.loads((root / "game.json").read_text(encoding="utf-8"))
    game["locales"].append("ca")
    glossary = {"$schema": "../../../../schema/glossary.schema.json", "game": game_id, "locale": "ca",
                "standard": "valencian", "terms": [{"term": "deck", "translation": deck, "forbidden": ["la baralla"]}]}
    for relative, content in {"game.json": game, "i18n/glossary/ca.json": glossary, **(files or {})}.items():
        (root / relative).parent.mkdir(parents=True, exist_ok=True)
        text = content if isinstance(content, str) else json.dumps(content, ensure_ascii=False, indent=2)
        (root / relative).write_text(text, encoding="utf-8")
    return root


def _valencian_forms(cards: Path) -> list[tuple[str, str]]:
    run = run_cli("--cards", str(cards), "validate", "--strict", "--format", "json")
    assert run.problems or run.exit_code == 0, run.output
    return [(p["file"].replace("\\", "/"), p["pointer"]) for p in run.problems if p["code"] == "valencian-form"]


@pytest.mark.parametrize("game_id, relative, bad", [
    ("calavera", "rules/ca/01-but-du-jeu.md", "Cadascú marca les seves caselles."),
    ("diables", "rules/ca/05-the-round.md", "Si comparteixes la majoria, guanyes."),
])
def test_valencian_forms_are_checked_in_calavera_and_diables(tmp_path: Path, game_id: str, relative: str,
                                                            bad: str) -> None:
    cards = tmp_path / "cards"
    path = _catalan(cards, game_id, files={relative: f"# Capítol\n\n{OWN_LINE}\n"}) / relative
    assert _valencian_forms(cards) == []
    lines = path.read_text(encoding="utf-8").splitlines()
    path.write_text("\n".join([*lines, "", bad]) + "\n", encoding="utf-8")
    run = run_cli("--cards", str(cards), "validate", "--strict", "--format", "json")
    hits = [p for p in run.problems if p["code"] == "valencian-form"]
    assert run.exit_code == 1 and len(hits) == 1, run.output
    assert hits[0]["file"].replace("\\", "/").endswith(relative) and hits[0]["pointer"] == str(len(lines) + 2)


def test_valencian_forms_are_checked_in_card_texts(tmp_path: Path) -> None:
    cards = tmp_path / "cards"
    components = json.loads((FIXTURE_CARDS / "calavera" / "components.json").read_text(encoding="utf-8"))
    dice = next(c for c in components["components"] if c["id"] == "dice")
    source = next(face["text"] for face in dice["faces"] if face["id"] == "joker")
    own = f"{OWN_LINE} Servix per a comprovar les formes valencianes d'una traducció, i prou."
    entry = {"text": own, "source_hash": source_hash(source), "source": source}
    translations = {"$schema": "../../../schema/translations.schema.json", "game": "calavera", "locale": "ca",
                    "entries": {"dice": {"faces/joker/text": entry}}}
    root = _catalan(cards, "calavera", files={"i18n/ca.json": translations})
    run = run_cli("--cards", str(cards), "validate", "--format", "json")
    # the only problems: the Catalan strings a Catalan build would want (the fixture translates one face)
    assert {p["code"] for p in run.problems} == {"translation-missing"}, run.output
    entry["text"] = f"S'afegeix als daus del color triat. {own}"
    (root / "i18n" / "ca.json").write_text(json.dumps(translations, ensure_ascii=False, indent=2), encoding="utf-8")
    run = run_cli("--cards", str(cards), "validate", "--strict", "--format", "json")
    hits = [(p["pointer"], p["code"]) for p in run.problems if p["code"] == "valencian-form"]
    assert run.exit_code == 1 and hits == [("/entries/dice/faces/joker/text", "valencian-form")], run.output


def test_document_labels_are_checked_once_per_text(tmp_path: Path) -> None:
    labels = tmp_path / "labels"
    labels.mkdir()
    (labels / "ca.json").write_text(json.dumps({"deck": "la baralla", "fine": "el mall"}), encoding="utf-8")
    out = ProblemList()
    for game_id, deck in (("fallera", "mall"), ("diables", "pila")):  # both forbid baralla, Valencian standard
        game = load_game(_catalan(tmp_path / "cards", game_id, deck))
        check_glossary(Index(Database(game=game)), out, labels)
    found = [(p.file.replace("\\", "/").endswith("labels/ca.json"), p.location, p.code) for p in out.items]
    assert (True, "/deck", "glossary") in found and all(location == "/deck" for _, location, _ in found)
    assert len(found) == 2  # two games name different terms (mall, pila): each says so once; none for "el mall"
    out = ProblemList()
    (labels / "ca.json").write_text(json.dumps({"deck": "el mall", "under": "el nombre de sota"}), encoding="utf-8")
    check_glossary(Index(Database(game=load_game(_catalan(tmp_path / "cards", "calavera", "mall")))), out, labels)
    assert [(p.location, p.code) for p in out.items] == [("/under", "valencian-form")]


def test_an_unknown_standard_is_a_schema_error(game: GameDir) -> None:
    game.files["i18n/glossary/es.json"] = {**GLOSSARY, "standard": "balear"}
    game.write()
    run = run_cli("--cards", str(game.cards_root), "validate", "--format", "json")
    assert run.exit_code == 1 and any(p["pointer"] == "/standard" for p in run.problems), run.output


def test_every_games_catalan_follows_the_valencian_standard() -> None:
    """(That shipped prose passes both checks: tests/i18n/test_glossary.py.)"""
    for game_id in ("fallera", "diables", "calavera"):
        glossary = json.loads((REPO / "cards" / game_id / "i18n" / "glossary" / "ca.json").read_text(encoding="utf-8"))
        assert glossary["standard"] == "valencian"
