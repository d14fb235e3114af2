"""``--allow-fallback`` is never silent for documents either: each string or section taken from another locale is
warned about once and listed in the output's manifest record. (Card sheets, with their contents page, are
checked in ``test_pack_build``.)"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from cardworks.i18n import source_hash
from cardworks.loading.database import Database, load_game
from cardworks.render.docs.documents import rulebook_html
from cardworks.render.docs.texts import fallen_back
from cardworks.render.manifest import read_manifest
from conftest import FIXTURE_CARDS, run_cli


CHAPTERS = {
    "fr/01-but-du-jeu.md": "# But du jeu\n\nUn texte d'essai du jeu de test, pas celui du jeu.\n",
    "fr/07-conseils.md": "# Conseils\n\nUn autre texte d'essai.\n",
    "ca/01-but-du-jeu.md": "# Objectiu\n\nUn text de prova del joc de proves, no el del joc.\n",
    "es/01-but-du-jeu.md": "# Objetivo\n\nUn texto de prueba del juego de pruebas, no el del juego.\n",
    "es/07-conseils.md": "# Consejos\n\nOtro texto de prueba.\n",
}
"""A two-section rulebook of the Calavera fixture game in the fixture's own words (not the game's text): French,
its source, and Spanish whole; Catalan without its 'Conseils' section."""


@pytest.fixture
def calavera(tmp_path: Path) -> Path:
    """The Calavera fixture game (its rules data) given Catalan and Spanish, its name in both, and the rulebook
    ``CHAPTERS``."""
    cards = tmp_path / "cards"
    shutil.copytree(FIXTURE_CARDS / "calavera", cards / "calavera")
    game = json.loads((cards / "calavera/game.json").read_text(encoding="utf-8"))
    game["locales"] += ["ca", "es"]
    (cards / "calavera/game.json").write_text(json.dumps(game, ensure_ascii=False), encoding="utf-8")
    for relative, text in CHAPTERS.items():
        (cards / "calavera/rules" / relative).parent.mkdir(parents=True, exist_ok=True)
        (cards / "calavera/rules" / relative).write_text(text, encoding="utf-8")
    name = game["name"]
    for locale, text in (("ca", "Calavera (joc de proves)"), ("es", "Calavera (juego de pruebas)")):
        (cards / "calavera/i18n").mkdir(exist_ok=True)
        translations = {"$schema": "../../../schema/translations.schema.json", "game": "calavera", "locale": locale,
                        "entries": {"calavera": {"name": {"text": text, "source_hash": source_hash(name),
                                                          "source": name}}}}
        (cards / f"calavera/i18n/{locale}.json").write_text(json.dumps(translations, ensure_ascii=False),
                                                            encoding="utf-8")
    return cards


def test_a_rulebook_reports_the_section_it_took_from_another_locale(calavera: Path) -> None:
    db = Database(game=load_game(calavera / "calavera"))
    fell_back: list[str] = []
    rulebook_html(db, "ca", "all", allow_fallback=True, fell_back=fell_back)
    assert fallen_back(fell_back) == [{"string": "rules/07-conseils", "used": "fr"}]
    fell_back.clear()
    rulebook_html(db, "es", "all", allow_fallback=True, fell_back=fell_back)
    assert fell_back == []


def test_fallen_back_strings_are_listed_once_each() -> None:
    assert fallen_back(["a/name (es)", "label colon (en)", "a/name (es)"]) == [
        {"string": "a/name", "used": "es"}, {"string": "label colon", "used": "en"}]


@pytest.mark.parametrize("fallbacks, kept", [
    ([{"string": "conill/rules", "used": "es"}], True),
    ([{"string": "conill/rules"}], False),
    (["conill/rules (es)"], False),
    ([{"string": "conill/rules", "used": 3}], False),
])
def test_a_manifest_record_with_malformed_fallbacks_is_not_trusted(tmp_path: Path, fallbacks, kept: bool) -> None:
    record = {"game": "fallera", "locale": "ca", "kind": "cards", "path": "fallera/ca/cards-base-a4.pdf", "pages": 3,
              "sha256": "0" * 64, "input_hash": "1" * 64, "fallbacks": fallbacks}
    (tmp_path / "manifest.json").write_text(json.dumps({"outputs": [record]}), encoding="utf-8")
    assert len(read_manifest(tmp_path)) == (1 if kept else 0)


@pytest.mark.slow
def test_a_build_warns_and_records_each_fallen_back_section(calavera: Path, tmp_path: Path) -> None:
    args = ("--cards", str(calavera), "build", "--game", "calavera", "--locale", "ca", "--no-cards",
            "--out", str(tmp_path / "build"), "--jobs", "1")
    refused = run_cli(*args)
    assert refused.exit_code == 1 and "rules/ca/07-conseils.md" in refused.output, refused.output
    run = run_cli(*args, "--allow-fallback")
    assert run.exit_code == 0, run.output
    warnings = [line for line in run.output.splitlines() if line.startswith("warning: [fallback]")]
    assert warnings == ["warning: [fallback] calavera/ca/rulebook-all.pdf: rules/07-conseils has no ca text; the fr "
                        "text is printed (--allow-fallback)"], run.output
    records = {r.path: r for r in read_manifest(tmp_path / "build")}
    assert records["calavera/ca/rulebook-all.pdf"].fallbacks == [{"string": "rules/07-conseils", "used": "fr"}]
