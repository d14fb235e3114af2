"""The translator's round trip with real tools: polib/translate-toolkit files, msgfmt, import, status.

End to end on the shipped database: its exports pass ``msgfmt --check`` fully translated, and the pseudo-locale
builds its base deck (slow). Every other round trip runs on the fixture game ``mini``."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import polib
import pytest

from conftest import REPO, GameDir, partly_translated, run_cli, snapshot


def _entries(game: GameDir, locale: str = "es") -> dict:
    return json.loads((game.root / f"i18n/{locale}.json").read_text())["entries"]


def _export(game: GameDir, tmp_path: Path, fmt: str = "po", locale: str = "es") -> Path:
    out = tmp_path / f"{locale}.{'po' if fmt == 'po' else 'xlf'}"
    run = run_cli("--cards", str(game.cards_root), "i18n", "export", "--locale", locale, "--format", fmt,
                  "--out", str(out))
    assert run.exit_code == 0, run.output
    return out


def test_shipped_exports_pass_msgfmt_check(tmp_path: Path) -> None:
    """Each shipped translation of Fallera, exported, is a catalogue msgfmt accepts whole."""
    from cardworks.i18n.catalog import build_catalog
    from cardworks.loading import load_database

    db = load_database(REPO / "cards" / "fallera")
    for locale in ("ca", "es"):
        out = tmp_path / f"{locale}.po"
        assert run_cli("--cards", str(REPO / "cards"), "i18n", "export", "--game", "fallera", "--locale", locale,
                       "--out", str(out)).exit_code == 0
        done = subprocess.run(["msgfmt", "--check", "--statistics", "-o", str(tmp_path / "x.mo"), str(out)],
                              capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        total = len(build_catalog(db, locale))
        assert total > 0 and f"{total} translated messages" in done.stderr and "warning" not in done.stderr, locale


def test_po_entries_carry_context_comments_and_tokens(game: GameDir, tmp_path: Path) -> None:
    partly_translated(game.files)  # strings still to translate
    game.write()
    po = polib.pofile(str(_export(game, tmp_path)))
    rules = po.find("Steal one {treasure} from a rival.", msgctxt="mini/base/capita/rules")
    assert rules.msgstr == "Roba un {treasure} a un rival."
    assert "keep these tokens exactly: {treasure}" in rules.comment
    assert "battle card of the set base" in rules.comment and "rules box" in rules.comment
    assert po.metadata["Language"] == "es" and po.metadata["X-Cardworks-Game"] == "mini"
    missing = po.find("olla", msgctxt="mini/base/olla/name")
    assert missing.msgstr == ""


def test_round_trip_changes_exactly_the_edited_strings(game: GameDir, tmp_path: Path) -> None:
    partly_translated(game.files)  # strings still to translate
    game.write()
    before = _entries(game)
    path = _export(game, tmp_path)
    po = polib.pofile(str(path))
    po.find("capità", msgctxt="mini/base/capita/name").msgstr = "capitán"
    po.find("olla", msgctxt="mini/base/olla/name").msgstr = "olla"
    po.save()
    run = run_cli("--cards", str(game.cards_root), "i18n", "import", str(path))
    assert run.exit_code == 0, run.output
    assert "2 changed" in run.output
    after = _entries(game)
    changed = {(r, f) for r in after for f in after[r] if before.get(r, {}).get(f) != after[r][f]}
    assert changed == {("capita", "name"), ("olla", "name")}
    assert after["capita"]["name"]["text"] == "capitán"


def test_changed_source_becomes_stale_then_fuzzy_with_previous_source(game: GameDir, tmp_path: Path) -> None:
    game.data("sets/base.json")["cards"][1]["rules"] = "Steal two {treasure} from a rival."
    game.write()
    run = run_cli("--cards", str(game.cards_root), "i18n", "status", "--format", "json")
    base = next(row for row in json.loads(run.output) if row["group"] == "base")
    assert base["stale"] == 1
    po = polib.pofile(str(_export(game, tmp_path)))
    entry = po.find("Steal two {treasure} from a rival.", msgctxt="mini/base/capita/rules")
    assert "fuzzy" in entry.flags
    assert entry.previous_msgid == "Steal one {treasure} from a rival."
    # the translator updates it and clears the flag: it is current again
    entry.msgstr = "Roba dos {treasure} a un rival."
    entry.flags.remove("fuzzy")
    po.save()
    assert run_cli("--cards", str(game.cards_root), "i18n", "import", str(tmp_path / "es.po")).exit_code == 0
    run = run_cli("--cards", str(game.cards_root), "i18n", "status", "--format", "json")
    assert next(row for row in json.loads(run.output) if row["group"] == "base")["stale"] == 0


def test_import_with_broken_tokens_is_refused_whole(game: GameDir, tmp_path: Path) -> None:
    game.write()
    path = _export(game, tmp_path)
    po = polib.pofile(str(path))
    po.find("capità", msgctxt="mini/base/capita/name").msgstr = "capitán"  # a good edit …
    po.find("Steal one {treasure} from a rival.", msgctxt="mini/base/capita/rules").msgstr = "Roba algo."
    po.find("Yes, one {treasure}.", msgctxt="mini/ruling/ruling-steal/answer").msgstr = "Sí, un {tesoro}."
    po.save()
    before = snapshot(game.cards_root)
    run = run_cli("--cards", str(game.cards_root), "i18n", "import", str(path))
    assert run.exit_code == 1
    assert "[token-mismatch]" in run.output and "mini/base/capita/rules" in run.output
    assert "[unknown-token]" in run.output and "mini/ruling/ruling-steal/answer" in run.output
    assert snapshot(game.cards_root) == before  # … is not written either


@pytest.mark.parametrize("header, value, code", [
    ("X-Cardworks-Game", "chess", "wrong-game"),
    ("Language", "ca", "wrong-locale"),
])
def test_import_for_the_wrong_game_or_locale_is_refused(game: GameDir, tmp_path: Path, header, value, code) -> None:
    game.write()
    path = _export(game, tmp_path)
    po = polib.pofile(str(path))
    po.metadata[header] = value
    po.save()
    before = snapshot(game.cards_root)
    run = run_cli("--cards", str(game.cards_root), "i18n", "import", str(path), "--locale", "es")
    assert run.exit_code == 1 and f"[{code}]" in run.output
    assert snapshot(game.cards_root) == before


def test_import_of_a_string_that_no_longer_exists_is_refused(game: GameDir, tmp_path: Path) -> None:
    game.write()
    path = _export(game, tmp_path)
    po = polib.pofile(str(path))
    po.append(polib.POEntry(msgctxt="mini/base/ghost/name", msgid="ghost", msgstr="fantasma"))
    po.save()
    run = run_cli("--cards", str(game.cards_root), "i18n", "import", str(path))
    assert run.exit_code == 1 and "[dangling-ref]" in run.output


def test_unreadable_file_is_a_clear_error(game: GameDir, tmp_path: Path) -> None:
    game.write()
    bad = tmp_path / "bad.po"
    bad.write_text('msgid "a"\nmsgstr "b"\nfoo bar\n')
    run = run_cli("--cards", str(game.cards_root), "i18n", "import", str(bad))
    assert run.exit_code == 1 and "i18n-unreadable" in run.output


def test_xliff_round_trip(game: GameDir, tmp_path: Path) -> None:
    """Edited as a translator's tool edits it: a target typed into an untranslated unit and a translated unit's
    target text changed, nothing else (no approved="yes", no state written: tests/hostile/test_xliff.py has those)."""
    from lxml import etree

    partly_translated(game.files)  # strings still to translate
    game.write()
    path = _export(game, tmp_path, "xliff")
    tree = etree.parse(str(path))
    ns = {"x": tree.getroot().nsmap[None]}
    untranslated = tree.find(".//x:trans-unit[@id='mini/base/olla/name']", ns)
    assert untranslated.find("x:target", ns) is None and untranslated.get("approved") is None
    target = etree.Element(f"{{{ns['x']}}}target")
    target.text = "olla"
    untranslated.find("x:source", ns).addnext(target)
    translated = tree.find(".//x:trans-unit[@id='mini/base/capita/name']/x:target", ns)
    translated.text = "capitán"
    tree.write(str(path), xml_declaration=True, encoding="UTF-8")
    run = run_cli("--cards", str(game.cards_root), "i18n", "import", str(path))
    assert run.exit_code == 0, run.output
    assert "2 changed" in run.output
    assert _entries(game)["olla"]["name"]["text"] == "olla"
    assert _entries(game)["capita"]["name"]["text"] == "capitán"


def test_source_locale_cannot_be_exported(game: GameDir, tmp_path: Path) -> None:
    game.write()
    assert run_cli("--cards", str(game.cards_root), "i18n", "export", "--locale", "en").exit_code == 2


def test_status_reports_missing_and_overflow(game: GameDir, tmp_path: Path) -> None:
    partly_translated(game.files)  # strings still to translate
    game.write()
    build = tmp_path / "build"
    build.mkdir()
    (build / "manifest.json").write_text(json.dumps({"outputs": [{
        "game": "mini", "locale": "es", "kind": "cards", "path": "x.pdf", "pages": 1, "sha256": "0", "input_hash": "0",
        "overflow": ["capita"]}]}))
    run = run_cli("--cards", str(game.cards_root), "i18n", "status", "--build", str(build), "--format", "json")
    base = next(row for row in json.loads(run.output) if row["group"] == "base")
    assert base["missing"] >= 2 and base["overflow"] == ["capita"]
    text = run_cli("--cards", str(game.cards_root), "i18n", "status", "--build", str(build))
    assert "capita" in text.output


@pytest.mark.slow  # builds the base deck in the pseudo-locale
def test_pseudo_locale_lists_and_builds(tmp_path: Path) -> None:
    run = run_cli("--cards", str(REPO / "cards"), "cards", "--locale", "qps-ploc", "--format", "json")
    names = [row["name"] for row in json.loads(run.output)]
    assert names[0].startswith("[") and "ñ" in "".join(names) or "à" in "".join(names)
    out = tmp_path / "build"
    built = run_cli("--cards", str(REPO / "cards"), "build", "--out", str(out), "--set", "base", "--locale", "qps-ploc",
                    "--no-docs")
    assert built.exit_code == 0, built.output
    assert (out / "fallera/qps-ploc/cards-base-a4.pdf").is_file()
    from pypdf import PdfReader

    text = PdfReader(out / "fallera/qps-ploc/print-shop/cards-base.pdf").pages[0].extract_text()
    assert text.startswith("[") and "ñ" in text or "à" in text


RULES_EN = """# Cards

Every card is a treasure or a battle.

## Battle cards

A battle card {battle} attacks and defends.

::: generated card-index

A card is used once.
"""
RULES_ES = """# Cartas

Cada carta es un tesoro o una batalla.

## Cartas de batalla

Una carta de batalla {battle} ataca y defiende.

::: generated card-index

Una carta se usa una vez.
"""


def _with_rulebook(game: GameDir) -> Path:
    """The fixture game with a two-chapter rulebook in English and Spanish, a generated block among its prose."""
    game.files["rules/en/01-cards.md"] = RULES_EN
    game.files["rules/es/01-cards.md"] = RULES_ES
    game.files["rules/en/02-more.md"] = "# More\n\nAnother chapter.\n"  # a chapter the import must leave alone
    game.files["rules/es/02-more.md"] = "# Más\n\nOtro capítulo.\n"
    game.write()
    return game.cards_root


def test_rulebook_blocks_round_trip(game: GameDir, tmp_path: Path) -> None:
    cards = _with_rulebook(game)
    out = tmp_path / "es.po"
    assert run_cli("--cards", str(cards), "i18n", "export", "--game", "mini", "--locale", "es", "--out", str(out)).exit_code == 0
    po = polib.pofile(str(out))
    block = po.find("mini/rules/01-cards/2", by="msgctxt")
    assert block.msgid == "## Battle cards" and block.msgstr.startswith("## ")
    block.msgstr = "## Las cartas de batalla"
    po.save()
    before = {p: p.read_text() for p in (cards / "mini/rules/es").glob("*.md")}
    run = run_cli("--cards", str(cards), "i18n", "import", str(out), "--game", "mini")
    assert run.exit_code == 0 and "1 changed" in run.output, run.output
    after = {p: p.read_text() for p in (cards / "mini/rules/es").glob("*.md")}
    changed = [p.name for p in after if after[p] != before[p]]
    assert changed == ["01-cards.md"] and len(after) == 2
    assert "## Las cartas de batalla" in after[cards / "mini/rules/es/01-cards.md"]
    assert "::: generated card-index" in after[cards / "mini/rules/es/01-cards.md"]


def test_rulebook_block_with_broken_token_is_refused(game: GameDir, tmp_path: Path) -> None:
    cards = _with_rulebook(game)
    out = tmp_path / "es.po"
    run_cli("--cards", str(cards), "i18n", "export", "--game", "mini", "--locale", "es", "--out", str(out))
    po = polib.pofile(str(out))
    block = po.find("mini/rules/01-cards/3", by="msgctxt")
    assert "{battle}" in block.msgstr
    block.msgstr = block.msgstr.replace("{battle}", "")
    po.save()
    before = snapshot(cards)
    run = run_cli("--cards", str(cards), "i18n", "import", str(out), "--game", "mini")
    assert run.exit_code == 1 and "[token-mismatch]" in run.output and "mini/rules/01-cards/3" in run.output
    assert snapshot(cards) == before


def test_rulebook_only_import_leaves_the_locale_file_bytes_alone(game: GameDir, tmp_path: Path) -> None:
    """An import that changes only a rulebook block does not rewrite the locale file (a translator's hand-kept
    order survives); one that changes an entry does."""
    cards = _with_rulebook(game)
    locale_file = cards / "mini/i18n/es.json"
    document = json.loads(locale_file.read_text(encoding="utf-8"))
    document["entries"] = dict(reversed(list(document["entries"].items())))  # not the order an import writes
    hand_kept = json.dumps(document, indent=4, ensure_ascii=False)
    locale_file.write_text(hand_kept, encoding="utf-8")
    out = tmp_path / "es.po"
    assert run_cli("--cards", str(cards), "i18n", "export", "--game", "mini", "--locale", "es", "--out", str(out)).exit_code == 0
    po = polib.pofile(str(out))
    po.find("mini/rules/01-cards/2", by="msgctxt").msgstr = "## Las cartas de batalla"
    po.save()
    run = run_cli("--cards", str(cards), "i18n", "import", str(out), "--game", "mini")
    assert run.exit_code == 0 and "1 changed" in run.output, run.output
    assert locale_file.read_text(encoding="utf-8") == hand_kept
    entry = next(e for e in po if e.msgstr and "/rules/" not in e.msgctxt)
    entry.msgstr += " (bis)"
    po.save()
    run = run_cli("--cards", str(cards), "i18n", "import", str(out), "--game", "mini")
    assert run.exit_code == 0, run.output
    assert locale_file.read_text(encoding="utf-8") != hand_kept and " (bis)" in locale_file.read_text(encoding="utf-8")
