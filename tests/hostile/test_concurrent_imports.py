"""Imports at the same time and imports killed half-way: nothing another import wrote is lost.

Two ``i18n import``s of different strings both land; two of the same string: one lands, the other is an
``import-conflict``; a ``sheet import`` beside an ``i18n import`` keeps the translation; an import killed with
kill -9 between its renames is finished (rolled forward), and one killed before them rolled back, by the next
command that reads the database, which says which; no journal or temporary is left in the data folders.
"""

from __future__ import annotations

import csv
import fcntl
import json
import os
import signal
import time
from collections.abc import Callable
from pathlib import Path

import polib

from conftest import run_cli
from corpus import cardworks, finish, fingerprint, judge, judge_files, lost, mini, start  # noqa: F401  (fixtures)

FAMILY = "concurrency"
MAP, COIN = "mini/board/map/name", "mini/component/coin/name"


def _po(game, where: Path) -> polib.POFile:
    path = where / "exported.po"  # set-up runs in-process (quicker); the runs judged are real processes
    result = run_cli("--cards", str(game.cards_root), "i18n", "export", "--locale", "es", "--out", str(path))
    assert result.exit_code == 0, result.output
    return polib.pofile(str(path), wrapwidth=0)


def _save(po: polib.POFile, where: Path, name: str, edits: dict[str, str]) -> str:
    copy = polib.pofile(po.__unicode__(), wrapwidth=0)
    for entry in copy:
        if entry.msgctxt in edits:
            entry.msgstr = edits.pop(entry.msgctxt)
    assert not edits, f"no such contexts: {edits}"
    copy.save(str(where / name))
    return str(where / name)


def _sheet(game, where: Path) -> Path:
    path = where / "cards.csv"
    result = run_cli("--cards", str(game.cards_root), "sheet", "export", "--locale", "es", "--out", str(path))
    assert result.exit_code == 0, result.output
    return path


def _edit_sheet(path: Path, name: str, card: str, column: str, value: str) -> str:
    rows = list(csv.reader(path.open(encoding="utf-8")))
    for row in rows[1:]:
        if row[1] == card:
            row[rows[0].index(column)] = value
    target = path.with_name(name)
    with target.open("w", encoding="utf-8", newline="") as handle:
        csv.writer(handle, lineterminator="\n").writerows(rows)
    return str(target)


def _text(game, record: str, field: str) -> str | None:
    entries = json.loads((game.root / "i18n/es.json").read_text())["entries"]
    return entries.get(record, {}).get(field, {}).get("text")


def _card(game, card: str) -> dict:
    return next(c for c in json.loads((game.root / "sets/base.json").read_text())["cards"] if c["id"] == card)


def _blocked(pids: list[int], timeout: float = 20) -> bool:
    """True once every process in ``pids`` waits for a lock (``/proc/locks`` lists it behind ``->``)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        waiting = {int(line.split()[5]) for line in Path("/proc/locks").read_text().splitlines() if "->" in line}
        if set(pids) <= waiting:
            return True
        time.sleep(0.1)
    return False


def _at_once(game, *commands: tuple[str, ...]) -> list:
    """Start every command while the game folder is locked (as a running import holds it), then let them go."""
    holder = os.open(game.root, os.O_RDONLY | os.O_DIRECTORY)
    fcntl.flock(holder, fcntl.LOCK_EX)
    try:
        runs = [start("--cards", str(game.cards_root), *command) for command in commands]
        assert _blocked([run.pid for run in runs]), "an import went ahead while the game folder was locked"
    finally:
        os.close(holder)
    return [finish(run, 60) for run in runs]


def test_two_imports_of_different_strings_both_land(mini, tmp_path: Path) -> None:
    po = _po(mini, tmp_path)  # both translators start from the same export
    a = _save(po, tmp_path, "a.po", {MAP: "Plano"})
    b = _save(po, tmp_path, "b.po", {COIN: "ficha"})
    results = _at_once(mini, ("i18n", "import", a), ("i18n", "import", b))

    def both() -> str | None:
        got = (_text(mini, "map", "name"), _text(mini, "coin", "name"))
        return None if got == ("Plano", "ficha") else f"one import reverted the other: {got}"

    for name, result in zip("ab", results):
        judge(f"two i18n imports of different strings at once ({name})", FAMILY, result, refuse=False, check=both)


def test_two_imports_of_the_same_string_one_lands_one_conflicts(mini, tmp_path: Path) -> None:
    po = _po(mini, tmp_path)
    a = _save(po, tmp_path, "a.po", {MAP: "Plano"})
    b = _save(po, tmp_path, "b.po", {MAP: "Tablero"})
    results = _at_once(mini, ("i18n", "import", a), ("i18n", "import", b))
    landed = [r for r in results if r.exit_code == 0]
    refused = [(name, r) for name, r in zip(("a.po", "b.po"), results) if r.exit_code != 0]
    assert len(landed) == 1 and len(refused) == 1, [(r.exit_code, r.stderr[-500:]) for r in results]
    name, result = refused[0]
    winner = "Tablero" if name == "a.po" else "Plano"
    judge("two i18n imports of the same string at once (the later one)", FAMILY, result, refuse=True, names=name,
          code="import-conflict")
    assert f"database now has {winner!r}" in result.stderr and "file has" in result.stderr, result.stderr
    judge("two i18n imports of the same string at once (the earlier one)", FAMILY, landed[0], refuse=False,
          check=lambda: None if _text(mini, "map", "name") == winner else f"map/name is {_text(mini, 'map', 'name')!r}")


def test_sheet_import_beside_an_i18n_import_keeps_the_translation(mini, tmp_path: Path) -> None:
    sheet = _sheet(mini, tmp_path)  # exported with the Spanish columns, before the translation changes
    po = _po(mini, tmp_path)
    translation = _save(po, tmp_path, "es.po", {"mini/base/capita/rules": "Quita un {treasure} a un rival."})
    edited = _edit_sheet(sheet, "edited.csv", "olla", "flavour", "Bubbling, always.")
    results = _at_once(mini, ("sheet", "import", edited), ("i18n", "import", translation))

    def both() -> str | None:
        got = (_text(mini, "capita", "rules"), _card(mini, "olla").get("flavour"))
        return None if got == ("Quita un {treasure} a un rival.", "Bubbling, always.") else f"an edit was lost: {got}"

    for name, result in zip(("sheet import", "i18n import"), results):
        judge(f"sheet import beside an i18n import ({name})", FAMILY, result, refuse=False, check=both)


def test_two_sheet_imports_of_different_cells_both_land(mini, tmp_path: Path) -> None:
    sheet = _sheet(mini, tmp_path)
    a = _edit_sheet(sheet, "a.csv", "olla", "flavour", "Bubbling, always.")
    b = _edit_sheet(sheet, "b.csv", "capita", "name@es", "capitán")
    results = _at_once(mini, ("sheet", "import", a), ("sheet", "import", b))

    def both() -> str | None:
        got = (_card(mini, "olla").get("flavour"), _text(mini, "capita", "name"))
        return None if got == ("Bubbling, always.", "capitán") else f"one sheet import reverted the other: {got}"

    for name, result in zip("ab", results):
        judge(f"two sheet imports of different cells at once ({name})", FAMILY, result, refuse=False, check=both)


def test_sheet_cell_changed_in_the_database_since_the_export_is_a_conflict(mini, tmp_path: Path) -> None:
    sheet = _sheet(mini, tmp_path)
    po = _po(mini, tmp_path)
    assert run_cli("--cards", str(mini.cards_root), "i18n", "import",
                     _save(po, tmp_path, "es.po", {"mini/base/capita/name": "capitán"})).exit_code == 0
    edited = _edit_sheet(sheet, "edited.csv", "capita", "name@es", "jefe")
    before = fingerprint(mini.root)
    result = cardworks("--cards", str(mini.cards_root), "sheet", "import", edited)
    judge("sheet cell changed in the database and, differently, in the sheet", FAMILY, result, refuse=True,
          names="edited.csv", code="import-conflict", changed=lost(before, fingerprint(mini.root)))
    assert "database now has 'capitán', file has 'jefe'" in result.stderr, result.stderr


def _recovered(game, result, said: str, values: Callable[[], bool]) -> str | None:
    left = [p.name for p in game.root.rglob("*") if p.name == ".cardworks-import.journal" or p.suffix == ".tmp"]
    if left:
        return f"left in the data folder: {left}"
    if said not in result.stderr:
        return f"did not say it {said}: {result.stderr[-600:]}"
    return None if values() else "the data is not as the import would leave it whole (or as before it)"


def test_sheet_import_killed_between_its_renames_is_finished_by_the_next_command(mini, tmp_path: Path) -> None:
    sheet = _sheet(mini, tmp_path)
    edited = Path(_edit_sheet(sheet, "edited.csv", "olla", "flavour", "Bubbling, always."))
    _edit_sheet(edited, "edited.csv", "capita", "name@es", "capitán")  # two files: the card's set and es.json
    killed = cardworks("--cards", str(mini.cards_root), "sheet", "import", str(edited),
                       env={"CARDWORKS_KILL_AT": "import-between-renames"})
    assert killed.exit_code == -signal.SIGKILL, killed.stderr
    halves = (_card(mini, "olla").get("flavour"), _text(mini, "capita", "name"))
    assert halves.count(None) + halves.count("capità") == 1, f"not killed half-way: {halves}"
    report = cardworks("--cards", str(mini.cards_root), "validate", "--locale", "en")  # the new flavour has no es text yet
    judge("validate after a sheet import killed between its renames finishes it", "faults", report, refuse=False,
          check=lambda: _recovered(mini, report, "rolled forward", lambda: (_card(mini, "olla").get("flavour"),
                                   _text(mini, "capita", "name")) == ("Bubbling, always.", "capitán")))
    again = cardworks("--cards", str(mini.cards_root), "sheet", "import", str(edited))
    assert again.exit_code == 0 and "interrupted" not in again.stderr, again.stderr


def test_sheet_import_killed_before_its_commit_is_rolled_back_by_the_next_command(mini, tmp_path: Path) -> None:
    sheet = _sheet(mini, tmp_path)
    edited = _edit_sheet(sheet, "edited.csv", "capita", "name@es", "capitán")
    before = fingerprint(mini.root)
    killed = cardworks("--cards", str(mini.cards_root), "sheet", "import", edited,
                       env={"CARDWORKS_KILL_AT": "import-before-commit"})
    assert killed.exit_code == -signal.SIGKILL, killed.stderr
    changed = lost(before, fingerprint(mini.root))
    judge_files("sheet import killed before its commit: data as it was", "faults", changed)
    assert list(mini.root.rglob("*.tmp")), "the kill left no temporary to recover"
    listed = cardworks("--cards", str(mini.cards_root), "cards")
    judge("'cards' after a sheet import killed before its commit rolls it back", "faults", listed, refuse=False,
          check=lambda: _recovered(mini, listed, "rolled back", lambda: not lost(before, fingerprint(mini.root))))
    again = cardworks("--cards", str(mini.cards_root), "sheet", "import", edited)
    assert again.exit_code == 0 and _text(mini, "capita", "name") == "capitán", again.stderr


def test_i18n_import_killed_before_its_commit_leaves_no_journal_in_i18n(mini, tmp_path: Path) -> None:
    po = _po(mini, tmp_path)
    edited = _save(po, tmp_path, "es.po", {MAP: "Plano"})
    before = fingerprint(mini.root)
    killed = cardworks("--cards", str(mini.cards_root), "i18n", "import", edited,
                       env={"CARDWORKS_KILL_AT": "import-before-commit"})
    assert killed.exit_code == -signal.SIGKILL, killed.stderr
    assert list((mini.root / "i18n").glob(".es.json.import-*.tmp")), "the kill left no temporary in i18n/"
    status = cardworks("--cards", str(mini.cards_root), "validate")
    judge("validate after an i18n import killed before its commit rolls it back", "faults", status, refuse=False,
          check=lambda: _recovered(mini, status, "rolled back", lambda: not lost(before, fingerprint(mini.root))))


def test_i18n_import_killed_between_its_renames_is_finished_by_the_next_command(mini, tmp_path: Path) -> None:
    rules = mini.root / "rules" / "en"
    rules.mkdir(parents=True)
    (rules / "01-intro.md").write_text("# Intro\n\nSteal one {treasure} from a rival.\n")
    po = _po(mini, tmp_path)
    edited = _save(po, tmp_path, "es.po", {MAP: "Plano", "mini/rules/01-intro/1": "Roba un {treasure} a un rival."})
    killed = cardworks("--cards", str(mini.cards_root), "i18n", "import", edited,
                       env={"CARDWORKS_KILL_AT": "import-between-renames"})
    assert killed.exit_code == -signal.SIGKILL, killed.stderr
    assert (_text(mini, "map", "name") == "Plano") != (mini.root / "rules/es/01-intro.md").is_file(), "not half-way"
    report = cardworks("--cards", str(mini.cards_root), "validate", "--locale", "en")  # the new flavour has no es text yet
    judge("validate after an i18n import killed between its renames finishes it", "faults", report, refuse=False,
          check=lambda: _recovered(mini, report, "rolled forward", lambda: _text(mini, "map", "name") == "Plano"
                                   and "Roba un" in (mini.root / "rules/es/01-intro.md").read_text()))
