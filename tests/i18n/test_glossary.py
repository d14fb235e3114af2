"""Terminology: validate warns at a forbidden variant; the glossary exports as TBX and CSV that tools read."""

from __future__ import annotations

import csv
import io
import json
import shutil
from pathlib import Path

import pytest

from cardworks.i18n.glossary import variant_pattern
from conftest import FIXTURE_GAMES, REPO, GameDir, run_cli

GLOSSARY = {
    "$schema": "../../../../schema/glossary.schema.json", "game": "mini", "locale": "es",
    "terms": [{"term": "steal", "translation": "robar", "forbidden": ["birla*", "quita* … a un rival"],
               "note": "Taking from a rival is always robar."}],
}


@pytest.mark.parametrize("variant, text, found", [
    ("vendible*", "un tresor vendibles", "vendibles"),
    ("agafa* … de la baralla", "Agafa 2 cartes de la baralla.", "Agafa 2 cartes de la baralla"),
    ("agafa* … de la baralla", "agafa la carta del mapa i roba de la baralla", None),  # more than four words between
    ("la baraja", "barajan la baraja", "la baraja"),
    ("vendible*", "invendible", None),  # whole words only
])
def test_variant_patterns(variant: str, text: str, found: str | None) -> None:
    match = variant_pattern(variant).search(text)
    assert (match.group(0) if match else None) == found


def test_validate_warns_on_a_forbidden_variant(game: GameDir) -> None:
    game.files["i18n/glossary/es.json"] = GLOSSARY
    game.data("i18n/es.json")["entries"]["capita"]["rules"]["text"] = "Quita un {treasure} a un rival."
    game.write()
    run = run_cli("--cards", str(game.cards_root), "validate", "--format", "json")
    hits = [p for p in run.problems if p["code"] == "glossary"]
    assert run.exit_code == 0 and len(hits) == 1, run.output
    assert hits[0]["pointer"] == "/entries/capita/rules" and "'robar'" in hits[0]["message"]
    assert run_cli("--cards", str(game.cards_root), "validate", "--strict").exit_code == 1


def test_glossary_for_an_unknown_locale_is_an_error(game: GameDir) -> None:
    game.files["i18n/glossary/fr.json"] = {**GLOSSARY, "locale": "fr"}
    game.write()
    run = run_cli("--cards", str(game.cards_root), "validate", "--format", "json")
    assert run.exit_code == 1 and any(p["code"] == "dangling-ref" and "fr" in p["message"] for p in run.problems)


def test_shipped_catalan_uses_one_word_per_term() -> None:
    """End to end on the shipped database: its translations keep to their glossaries and standards."""
    run = run_cli("--cards", str(REPO / "cards"), "validate", "--format", "json")
    assert not [p for p in run.problems if p["code"] in ("glossary", "valencian-form")], run.output


def _glossary(game: str, locale: str, terms: list[dict], standard: str | None = None) -> dict:
    return {"$schema": "../../../../schema/glossary.schema.json", "game": game, "locale": locale, "terms": terms,
            **({"standard": standard} if standard else {})}


def _two_games_with_catalan(game: GameDir) -> Path:
    """The fixture game ``mini`` with Catalan (Valencian standard) and Spanish glossaries, beside a copy of
    Minitrick that has a Catalan glossary too (so ``--locale ca`` alone names no single game)."""
    game.files["game.json"]["locales"].append("ca")
    game.files["i18n/glossary/ca.json"] = _glossary("mini", "ca", [
        {"term": "steal (from a rival)", "translation": "robar", "forbidden": ["pispa*"],
         "note": "Taking from a rival is always robar."},
        {"term": "sellable (treasure)", "translation": "venable", "forbidden": ["vendible*"]}], "valencian")
    game.files["i18n/glossary/es.json"] = _glossary("mini", "es", [
        {"term": "deck", "translation": "mazo", "forbidden": ["baraja"]}])
    game.write()
    trick = game.cards_root / "minitrick"
    shutil.copytree(FIXTURE_GAMES / "minitrick" / "cards" / "minitrick", trick)
    manifest = json.loads((trick / "game.json").read_text(encoding="utf-8"))
    manifest["locales"].append("ca")
    (trick / "game.json").write_text(json.dumps(manifest), encoding="utf-8")
    (trick / "i18n" / "glossary").mkdir(parents=True)
    (trick / "i18n" / "glossary" / "ca.json").write_text(json.dumps(_glossary("minitrick", "ca", [
        {"term": "trick", "translation": "basa"}])), encoding="utf-8")
    return game.cards_root


def test_tbx_and_csv_exports_are_read_by_translate_toolkit(game: GameDir, tmp_path: Path) -> None:
    from translate.storage import tbx

    cards = _two_games_with_catalan(game)
    # English builds: the Catalan strings not translated yet are warnings (a Catalan build would stop on them)
    assert run_cli("--cards", str(cards), "validate", "--locale", "en").exit_code == 0
    out = tmp_path / "ca.tbx"
    run = run_cli("--cards", str(cards), "i18n", "glossary", "--locale", "ca", "--game", "mini", "--out", str(out))
    assert run.exit_code == 0, run.output
    units = {u.source: u.target for u in tbx.tbxfile.parsefile(str(out)).units}
    assert units["steal (from a rival)"] == "robar" and units["sellable (treasure)"] == "venable"
    assert units["half"] == "mitat"  # the Valencian forms travel with the glossary
    assert "deprecatedTerm-admn-sts" in out.read_text(encoding="utf-8")
    run = run_cli("--cards", str(cards), "i18n", "glossary", "--locale", "es", "--game", "mini", "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(run.output)))
    assert {"source", "target", "forbidden"} <= set(rows[0]) and any(r["target"] == "mazo" for r in rows)
    assert run_cli("--cards", str(cards), "i18n", "glossary", "--locale", "fr").exit_code == 2
    assert run_cli("--cards", str(cards), "i18n", "glossary", "--locale", "ca").exit_code == 2  # 2 games


def test_the_one_search_for_any_variant_finds_what_each_variant_finds() -> None:
    """``Terminology`` first asks one pattern whether a text holds any variant, and searches each only then; that
    pattern puts the word edges outside the alternatives, so it must find a text exactly when some variant's own
    pattern does (at a word's edge, within one, across ``…`` and ``*``, in any case)."""
    import re
    from types import SimpleNamespace

    from cardworks.i18n.glossary import Terminology, variant_pattern
    from cardworks.i18n.standards import VALENCIAN

    glossary = SimpleNamespace(locale="ca", standard="valencian", terms=[
        SimpleNamespace(term="deck", translation="mall", forbidden=["agaf* … de la baralla", "la baralla", "cara*"])])
    terms = Terminology(SimpleNamespace(docs=lambda kind: [(None, glossary)]), "ca")
    variants = [v for term in [*glossary.terms, *VALENCIAN] for v in term.forbidden]
    texts = ["", "res a dir", "agafa dues cartes de la baralla", "agafa de la baralla", "AGAFEU una carta de LA BARALLA",
             "la barallada", "xla baralla", "caràcter", "la\nbaralla", "les seves", "lesseves", "seves."]
    texts += [f"{left}{variant.replace('*', 'ix').replace('…', 'un dos')}{right}" for variant in variants
              for left, right in (("", ""), ("a ", " b"), ("a", ""), ("", "b"), ("«", "»"))]
    for text in texts:
        expected = any(variant_pattern(v).search(text) for v in variants)
        assert (terms._any.search(text) is not None) == expected, text
        assert bool(list(terms.hits(text))) == expected, text
    assert any(terms._any.search(t) for t in texts) and not all(terms._any.search(t) for t in texts)
    assert isinstance(terms._any, re.Pattern)
