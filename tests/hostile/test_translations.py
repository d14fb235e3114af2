"""Hostile translation files: forged sources, blank and oversized strings, duplicate contexts, a full disk,
and two imports into one locale at once. A refused import writes nothing; an accepted one loses nothing."""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import time
from pathlib import Path

import polib
import pytest

from corpus import cardworks, finish, fingerprint, judge, lost, mini, start, tmpfs  # noqa: F401  (fixtures)

FAMILY = "translations"


def _with_rules(game) -> None:
    rules = game.root / "rules" / "en"
    rules.mkdir(parents=True)
    (rules / "01-intro.md").write_text("# Intro\n\nSteal one {treasure} from a rival.\n\nThen pass.\n")


def _export(game, where: Path) -> polib.POFile:
    path = where / "es.po"
    result = cardworks("--cards", str(game.cards_root), "i18n", "export", "--locale", "es", "--out", str(path))
    assert result.exit_code == 0, result.stderr
    return polib.pofile(str(path), wrapwidth=0)


def _import(game, po: polib.POFile, where: Path, name: str = "edited.po"):
    path = where / name
    po.save(str(path))
    return cardworks("--cards", str(game.cards_root), "i18n", "import", str(path), timeout=30)


def _entry(po: polib.POFile, context: str) -> polib.POEntry:
    return next(e for e in po if e.msgctxt == context)


def _refused_whole(game, tmp_path: Path, case: str, edit, code: str, names: str = "edited.po") -> None:
    po = _export(game, tmp_path)
    edit(po)
    before = fingerprint(game.root)
    result = _import(game, po, tmp_path)
    judge(case, FAMILY, result, refuse=True, names=names, code=code, changed=lost(before, fingerprint(game.root)))


def test_forged_source_is_checked_against_the_database(mini, tmp_path: Path) -> None:
    def edit(po):
        entry = _entry(po, "mini/base/capita/rules")
        entry.msgid = "Steal one {battle} from a rival."  # a stale or forged source
        entry.msgstr = "Roba un {battle} a un rival."
    _refused_whole(mini, tmp_path, "forged msgid with other tokens", edit, "token-mismatch")


def test_whitespace_only_translation_is_refused(mini, tmp_path: Path) -> None:
    _refused_whole(mini, tmp_path, "whitespace-only msgstr",
                   lambda po: setattr(_entry(po, "mini/base/olla/name"), "msgstr", " \t "), "empty-translation")


def test_rulebook_block_with_a_blank_line_is_refused(mini, tmp_path: Path) -> None:
    _with_rules(mini)
    _refused_whole(mini, tmp_path, "rulebook block with a blank line",
                   lambda po: setattr(_entry(po, "mini/rules/01-intro/1"), "msgstr", "Roba un {treasure}.\n\nY pasa."),
                   "rules-block-split")


def test_oversized_card_name_translation_is_refused(mini, tmp_path: Path) -> None:
    _refused_whole(mini, tmp_path, "100 KB card name translation",
                   lambda po: setattr(_entry(po, "mini/base/olla/name"), "msgstr", "x" * 100_000), "text-too-long")


def test_translator_file_over_the_size_limit_is_refused(mini, tmp_path: Path) -> None:
    _refused_whole(mini, tmp_path, "17.5 MB msgstr",
                   lambda po: setattr(_entry(po, "mini/ruling/ruling-steal/answer"), "msgstr", "y" * 17_500_000),
                   "file-too-large")


def test_duplicate_context_with_different_translations_names_both_lines(mini, tmp_path: Path) -> None:
    def edit(po):
        entry = _entry(po, "mini/base/olla/name")
        entry.msgstr = "olla"
        po.append(polib.POEntry(msgctxt=entry.msgctxt, msgid=entry.msgid, msgstr="cazuela"))
    _refused_whole(mini, tmp_path, "duplicate msgctxt, different translations", edit, "duplicate-context")


def test_fifo_as_translator_file_is_refused(mini, tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe.po")
    result = cardworks("--cards", str(mini.cards_root), "i18n", "import", str(tmp_path / "pipe.po"), timeout=20)
    judge("FIFO as the PO file", FAMILY, result, refuse=True, names="pipe.po", code="not-a-regular-file")


def test_two_imports_into_one_locale_keep_both(mini, tmp_path: Path) -> None:
    po = _export(mini, tmp_path)
    _entry(po, "mini/base/olla/name").msgstr = "olla de barro"
    po.save(str(tmp_path / "a.po"))
    po = _export(mini, tmp_path)
    _entry(po, "mini/ruling/ruling-steal/answer").msgstr = "Sí, un {treasure}."
    po.save(str(tmp_path / "b.po"))
    # Another process holds the game folder's lock (as a running import does): both imports must wait for it,
    # then run one after the other, so neither overwrites the other's strings (without the lock 5 of 5 lost one).
    holder = os.open(mini.root, os.O_RDONLY | os.O_DIRECTORY)
    fcntl.flock(holder, fcntl.LOCK_EX)
    try:
        runs = [start("--cards", str(mini.cards_root), "i18n", "import", str(tmp_path / name)) for name in ("a.po", "b.po")]
        time.sleep(3)
        waited = [run.poll() is None for run in runs]
    finally:
        os.close(holder)
    results = [finish(run, 60) for run in runs]
    assert all(waited), "an import went ahead while the game folder was locked"

    def both_kept() -> str | None:
        entries = json.loads((mini.root / "i18n/es.json").read_text())["entries"]
        got = (entries.get("olla", {}).get("name", {}).get("text"), entries.get("ruling-steal", {}).get("answer", {}).get("text"))
        return None if got == ("olla de barro", "Sí, un {treasure}.") else f"one import was lost: {got}"

    for name, result in zip("ab", results):
        judge(f"two imports into one locale at once ({name})", "concurrency", result, refuse=False, check=both_kept)


@pytest.mark.slow
def test_disk_full_on_the_second_file_of_an_import(mini, tmp_path: Path, tmpfs) -> None:
    disk = tmpfs("disk", "1m")
    _with_rules(mini)
    cards = disk.where / "cards"
    shutil.copytree(mini.cards_root, cards)
    game_root = cards / "mini"
    po = _export(type(mini)(cards, mini.files), tmp_path)
    _entry(po, "mini/base/olla/name").msgstr = "olla de barro"
    _entry(po, "mini/rules/01-intro/2").msgstr = "Luego pasa. " + "Texto largo. " * 900  # ~12 KB: the second file
    po.save(str(tmp_path / "big.po"))
    before = fingerprint(game_root)
    filler = disk.fill(free=6 * 1024)
    result = cardworks("--cards", str(cards), "i18n", "import", str(tmp_path / "big.po"), timeout=30)
    judge("disk full on the second file of an import", FAMILY, result, refuse=True, code="disk-full",
          changed=lost(before, fingerprint(game_root)))
    leftovers = [p.name for p in game_root.rglob("*.tmp")] + [p.name for p in game_root.rglob("*.old")]
    assert not leftovers, leftovers
    filler.unlink()
    result = cardworks("--cards", str(cards), "i18n", "import", str(tmp_path / "big.po"), timeout=30)
    judge("import after the disk has room again", FAMILY, result, refuse=False,
          check=lambda: None if (game_root / "rules/es/01-intro.md").is_file() else "the rulebook section was not written")
