"""Base hashes in PO/XLIFF exports and the three-way merge of an import; the import journal."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import polib
import pytest

from cardworks.i18n.merge import BASE_LABEL, decide, value_hash
from cardworks.journal import JOURNAL, pending, recover, write_journaled
from cardworks.loading import load_database
from cardworks.problems import ProblemList
from cardworks.validate.check_imports import check_imports
from conftest import GameDir, run_cli, snapshot

MAP = "mini/board/map/name"


def _entries(game: GameDir) -> dict:
    return json.loads((game.root / "i18n/es.json").read_text())["entries"]


def _export(game: GameDir, tmp_path: Path, fmt: str = "po") -> Path:
    out = tmp_path / ("es.po" if fmt == "po" else "es.xlf")
    run = run_cli("--cards", str(game.cards_root), "i18n", "export", "--locale", "es", "--format", fmt, "--out", str(out))
    assert run.exit_code == 0, run.output
    return out


def _import(game: GameDir, path: Path):
    return run_cli("--cards", str(game.cards_root), "i18n", "import", str(path))


def _edit(path: Path, edits: dict[str, str], name: str) -> Path:
    po = polib.pofile(str(path), wrapwidth=0)
    for entry in po:
        if entry.msgctxt in edits:
            entry.msgstr = edits[entry.msgctxt]
    po.save(str(path.with_name(name)))
    return path.with_name(name)


def test_decide_keeps_applies_and_finds_conflicts() -> None:
    base = value_hash("old")
    assert decide(base, "old", "newer in the database") == "keep"
    assert decide(base, "mine", "old") == "apply"
    assert decide(base, "mine", "mine") == "same"
    assert decide(base, "mine", "theirs") == "conflict"


def test_every_po_entry_carries_its_base_and_msgcat_keeps_it(game: GameDir, tmp_path: Path) -> None:
    game.write()
    path = _export(game, tmp_path)
    po = polib.pofile(str(path))
    entry = po.find("Map", msgctxt=MAP)
    assert f"{BASE_LABEL}: {value_hash(['Mapa', entry_stamp(game, 'map', 'name')])}" in entry.comment.splitlines()
    assert all(BASE_LABEL in e.comment for e in po)
    # gettext's own tools (and Poedit, which writes like them) rewrite the file: the #. lines stay
    again = tmp_path / "msgcat.po"
    done = subprocess.run(["msgcat", "--no-wrap", "-o", str(again), str(_edit(path, {MAP: "Plano"}, "edited.po"))],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert _import(game, again).exit_code == 0
    assert _entries(game)["map"]["name"]["text"] == "Plano"


def entry_stamp(game: GameDir, record: str, field: str) -> str:
    return _entries(game)[record][field]["source_hash"]


def test_a_file_exported_before_another_import_does_not_revert_it(game: GameDir, tmp_path: Path) -> None:
    game.write()
    exported = _export(game, tmp_path)
    first = _edit(exported, {"mini/component/coin/name": "ficha"}, "first.po")
    second = _edit(exported, {MAP: "Plano"}, "second.po")
    assert _import(game, first).exit_code == 0
    run = _import(game, second)
    assert run.exit_code == 0 and "warning" not in run.output, run.output
    entries = _entries(game)
    assert (entries["coin"]["name"]["text"], entries["map"]["name"]["text"]) == ("ficha", "Plano")


def test_a_file_without_base_hashes_works_as_before_with_one_warning(game: GameDir, tmp_path: Path) -> None:
    game.write()
    exported = _export(game, tmp_path)
    second = _edit(exported, {MAP: "Plano"}, "second.po")
    legacy = polib.pofile(str(second), wrapwidth=0)
    for entry in legacy:
        entry.comment = "\n".join(line for line in entry.comment.splitlines() if BASE_LABEL not in line)
    legacy.save(str(second))
    assert _import(game, _edit(exported, {"mini/component/coin/name": "ficha"}, "first.po")).exit_code == 0
    run = _import(game, second)
    assert run.exit_code == 0 and run.output.count("cannot be merged safely") == 1, run.output
    # as before base hashes: the whole file is written back, so the earlier import's string is reverted
    assert (_entries(game)["coin"]["name"]["text"], _entries(game)["map"]["name"]["text"]) == ("moneda", "Plano")


def test_a_conflict_shows_both_values_and_writes_nothing(game: GameDir, tmp_path: Path) -> None:
    game.write()
    exported = _export(game, tmp_path)
    assert _import(game, _edit(exported, {MAP: "Tablero"}, "first.po")).exit_code == 0
    before = snapshot(game.root)
    run = _import(game, _edit(exported, {MAP: "Plano", "mini/component/coin/name": "ficha"}, "second.po"))
    assert run.exit_code == 1 and "[import-conflict]" in run.output, run.output
    assert "database now has 'Tablero', file has 'Plano', exported the value with base hash" in run.output
    assert "second.po:line " in run.output and snapshot(game.root) == before


@pytest.mark.parametrize("base", [None, "not-a-hash"])
def test_an_entry_without_a_usable_base_among_based_ones_is_refused(game: GameDir, tmp_path: Path, base) -> None:
    game.write()
    path = _edit(_export(game, tmp_path), {MAP: "Plano"}, "edited.po")
    po = polib.pofile(str(path), wrapwidth=0)
    entry = next(e for e in po if e.msgctxt == MAP)
    lines = [line for line in entry.comment.splitlines() if BASE_LABEL not in line]
    entry.comment = "\n".join(lines + ([f"{BASE_LABEL}: {base}"] if base else []))
    po.save(str(path))
    before = snapshot(game.root)
    run = _import(game, path)
    assert run.exit_code == 1 and "[import-base]" in run.output and MAP in run.output, run.output
    assert snapshot(game.root) == before


def test_confirming_a_stale_translation_is_applied(game: GameDir, tmp_path: Path) -> None:
    game.files["sets/base.json"]["cards"][1]["name"] = "capità moro"  # the source changed: capita/name is stale
    game.write()
    po = polib.pofile(str(_export(game, tmp_path)), wrapwidth=0)
    entry = next(e for e in po if e.msgctxt == "mini/base/capita/name")
    assert entry.fuzzy
    entry.flags.remove("fuzzy")  # the translator says the old translation still fits (text unchanged)
    po.save(str(tmp_path / "confirmed.po"))
    assert _import(game, tmp_path / "confirmed.po").exit_code == 0
    stored = _entries(game)["capita"]["name"]
    assert stored["text"] == "capità" and stored["source"] == "capità moro"


def test_xliff_base_notes_survive_translate_toolkit_and_merge(game: GameDir, tmp_path: Path) -> None:
    from translate.storage import xliff

    game.write()
    path = _export(game, tmp_path, "xliff")
    store = xliff.xlifffile.parsestring(path.read_bytes())  # what Pootle, Virtaal and Weblate read and write
    for unit in store.units:
        assert unit.getnotes(origin=BASE_LABEL), unit.getid()
        if unit.getid().endswith(MAP):
            unit.target = "Plano"
            unit.markfuzzy(False)
            unit.xmlelement.set("approved", "yes")
    saved = tmp_path / "saved.xlf"
    saved.write_bytes(bytes(store))
    assert run_cli("--cards", str(game.cards_root), "i18n", "import", str(_edit(_export(game, tmp_path), {
        "mini/component/coin/name": "ficha"}, "other.po"))).exit_code == 0
    run = _import(game, saved)
    assert run.exit_code == 0, run.output
    assert (_entries(game)["map"]["name"]["text"], _entries(game)["coin"]["name"]["text"]) == ("Plano", "ficha")


def test_journal_rolls_forward_after_a_kill_between_renames(tmp_path: Path) -> None:
    (tmp_path / "a.json").write_text("old a")
    (tmp_path / "b.json").write_text("old b")
    write_journaled(tmp_path, {tmp_path / "a.json": b"new a", tmp_path / "b.json": b"new b"})
    assert (tmp_path / "a.json").read_text() == "new a" and not (tmp_path / JOURNAL).exists()
    # the state a kill between the renames leaves: the journal, one file renamed, one temporary left
    temp = tmp_path / ".b.json.import-0123abcd.x1_y.tmp"
    temp.write_text("newer b")
    (tmp_path / JOURNAL).write_text(json.dumps({"files": [["a.json", ".a.json.import-0123abcd.gone.tmp"],
                                                          ["b.json", temp.name]]}))
    assert pending(tmp_path) == (1, 2)
    assert recover([tmp_path]) and (tmp_path / "b.json").read_text() == "newer b"
    assert pending(tmp_path) is None and not temp.exists()


def test_a_planted_journal_moves_nothing(tmp_path: Path) -> None:
    (tmp_path / "victim.json").write_text("kept")
    (tmp_path / "evil.txt").write_text("planted")
    (tmp_path / JOURNAL).write_text(json.dumps({"files": [["victim.json", "evil.txt"]]}))
    with pytest.raises(ValueError, match="no import writes"):
        recover([tmp_path])
    assert (tmp_path / "victim.json").read_text() == "kept" and pending(tmp_path) == (0, 0)
    (tmp_path / JOURNAL).unlink()
    (tmp_path / JOURNAL).symlink_to("/etc/passwd")
    with pytest.raises(ValueError, match="symbolic link"):
        recover([tmp_path])


def test_reading_finishes_an_interrupted_import_and_validate_reports_one_it_cannot(game: GameDir) -> None:
    game.write()
    out = ProblemList()
    check_imports(load_database(game.root), out)
    assert not out.items
    temp = game.root / "i18n" / ".es.json.import-0123abcd.x1_y.tmp"
    temp.write_text("{}")
    (game.root / JOURNAL).write_text(json.dumps({"files": [["i18n/es.json", os.path.relpath(temp, game.root)]]}))
    check_imports(load_database(game.root), out)  # reading the folder finishes it (rolled forward)
    assert not out.items and not temp.exists() and not (game.root / JOURNAL).exists()
    assert (game.root / "i18n" / "es.json").read_text() == "{}"
    (game.root / JOURNAL).write_text(json.dumps({"files": [["i18n/es.json", "planted.txt"]]}))  # none an import wrote
    check_imports(load_database(game.root), out)
    assert [p.code for p in out.errors] == ["import-half-applied"] and "no import writes" in out.errors[0].message
    run = run_cli("--cards", str(game.cards_root), "validate")
    assert run.exit_code == 1 and "[import-half-applied]" in run.output
