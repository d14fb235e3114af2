"""Ctrl-C mid-work, and kill -9 of an export or a build: one line, exit 130, and every earlier output and data
file as it was; a staging folder a killed export left, and the font folders of a killed build, are removed by the
next run.

The commands are paused at a named fault point (``CARDWORKS_PAUSE_AT``, see ``fileio.fault_point``) and
SIGINT is sent to their whole process group there, as a terminal's Ctrl-C would be: ``write`` is the
first file a command writes, ``export-publish`` an export whose staged folder is complete.
"""

from __future__ import annotations

import json
import shutil
import signal
from pathlib import Path

import pytest

from corpus import (BUILD, REPO, cardworks, diables_built, fingerprint, group, interrupt, judge, lost,  # noqa: F401
                    mini)

FAMILY = "interrupts"
CARDS = REPO / "cards"


@pytest.fixture
def pack(tmp_path: Path) -> Path:
    shutil.copytree(REPO / "examples" / "fallera-pack", tmp_path / "pack")
    return tmp_path / "pack"


def _stopped(run, *folders: Path) -> str | None:
    """What is wrong with an interrupted run: it never reached its point, or left a staging folder."""
    if not run.paused:
        return "the command never reached the point it was to be interrupted at"
    staged = [p.name for folder in folders for p in folder.parent.glob(f".{folder.name}.staging-*")]
    staged += [p.name for folder in folders if folder.is_dir() for p in folder.glob(".staging-*")]
    return f"staging folders left: {staged}" if staged else None


def _earlier_export(out: Path) -> None:
    """An earlier export's folder (its marker and one file), which an interrupted export must leave alone."""
    out.mkdir()
    (out / "export.json").write_text('{"earlier": true}\n')
    (out / "quantities.csv").write_text("card,copies\nearlier,1\n")


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["print-shop", "tts"])
def test_ctrl_c_during_an_export_leaves_the_earlier_export(kind: str, pack: Path, tmp_path: Path) -> None:
    out = tmp_path / "export"
    _earlier_export(out)
    before = fingerprint(tmp_path)
    options = ("--profile", "pdf") if kind == "print-shop" else ()
    run = interrupt("--cards", str(CARDS), "export", kind, str(pack), *options, "--out", str(out),
                    at="export-publish", tmp=tmp_path)
    judge(f"Ctrl-C during export {kind}", FAMILY, run.result, refuse=False, interrupted=True,
          changed=lost(before, fingerprint(tmp_path)), check=lambda: _stopped(run, out))


@pytest.mark.slow
def test_ctrl_c_during_a_build_on_two_processes_stops_them_all(tmp_path: Path) -> None:
    """Ctrl-C while a build's process pool lays faces out (Fallera: enough faces for a pool): the workers
    leave at once, the build says one line and exits 130 (not a broken-pool traceback), no process is
    left, and the output folder holds what it held."""
    out = tmp_path / "out"
    out.mkdir()
    (out / "notes.txt").write_text("kept\n")
    before = fingerprint(tmp_path)
    run = interrupt("--cards", str(CARDS), "build", "--game", "fallera", "--out", str(out), "--no-docs",
                    "--locale", "en", "--jobs", "2", at="", ready=lambda process: len(group(process.pid)) >= 3,
                    tmp=tmp_path)
    judge("Ctrl-C during a build with --jobs 2", FAMILY, run.result, refuse=False, interrupted=True,
          changed=lost(before, fingerprint(tmp_path)),
          check=lambda: _stopped(run, out) or (f"processes left: {run.left}" if run.left else None))


def _font_folders(temp: Path) -> list[str]:
    return sorted(p.name for p in temp.iterdir() if p.is_dir())


@pytest.mark.slow
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_an_interrupted_build_leaves_no_temporary_font_folder(signum: int, tmp_path: Path) -> None:
    """Each process that lays documents out has WeasyPrint copy the fonts into a temporary folder (about 4 MB);
    a worker told to stop leaves through ``os._exit``, which skipped the finalizer that removes it, so every
    interrupted build left one folder per worker. The signal is sent once both workers have their folder."""
    temp = tmp_path / "temp"
    temp.mkdir()
    out = tmp_path / "out"
    run = interrupt("--cards", str(CARDS), "build", "--game", "fallera", "--out", str(out), "--no-docs",
                    "--locale", "en", "--jobs", "2", at="", ready=lambda process: len(_font_folders(temp)) >= 2,
                    tmp=tmp_path, env={"TMPDIR": str(temp)}, signum=signum)
    assert run.paused, f"the build never had two font folders: {run.result.stderr[-2000:]}"
    assert run.result.exit_code == (130 if signum == signal.SIGINT else 143), run.result.stderr[-2000:]
    assert not run.left, f"processes left: {run.left}"
    assert _font_folders(temp) == [], "temporary folders left behind by the interrupted build"


@pytest.mark.slow
def test_the_font_folders_of_a_build_killed_outright_are_removed_by_the_next(tmp_path: Path) -> None:
    """kill -9 runs no finalizer, so the killed build's font folders stay (one a process that laid out); the next
    command that lays anything out removes them, since the processes named in them are gone."""
    temp = tmp_path / "temp"
    temp.mkdir()
    run = interrupt("--cards", str(CARDS), "build", "--game", "fallera", "--out", str(tmp_path / "out"), "--no-docs",
                    "--locale", "en", "--jobs", "2", at="", ready=lambda process: len(_font_folders(temp)) >= 2,
                    tmp=tmp_path, env={"TMPDIR": str(temp)}, signum=signal.SIGKILL)
    assert run.paused, f"the build never had two font folders: {run.result.stderr[-2000:]}"
    left = _font_folders(temp)
    assert len(left) >= 2, f"kill -9 should have left the folders it could not remove: {left}"
    again = cardworks("--cards", str(CARDS), "build", "--game", "calavera", "--locale", "en", "--no-docs",
                      "--jobs", "1", "--out", str(tmp_path / "again"), env={"TMPDIR": str(temp)}, timeout=300)
    assert again.exit_code == 0, again.stderr[-2000:]
    assert _font_folders(temp) == [], f"left after the next build: {_font_folders(temp)} (before it: {left})"


@pytest.mark.slow
def test_ctrl_c_during_a_build_leaves_the_earlier_build(diables_built, tmp_path: Path) -> None:
    cards, built = diables_built
    shutil.copytree(cards, tmp_path / "cards")
    shutil.copytree(built, tmp_path / "out", symlinks=True)
    set_file = sorted((tmp_path / "cards" / "diables" / "sets").glob("*.json"))[0]
    data = json.loads(set_file.read_text())
    data["cards"][0]["name"] += " Nou"  # so the build has new faces to write
    set_file.write_text(json.dumps(data, indent=2, ensure_ascii=False))
    before = fingerprint(tmp_path)
    run = interrupt("--cards", str(tmp_path / "cards"), "build", "--out", str(tmp_path / "out"), *BUILD,
                    at="write", tmp=tmp_path)
    judge("Ctrl-C during a build", FAMILY, run.result, refuse=False, interrupted=True,
          changed=lost(before, fingerprint(tmp_path)), check=lambda: _stopped(run, tmp_path / "out"))


@pytest.mark.slow
def test_ctrl_c_during_a_sheet_import_changes_no_card(pack: Path, tmp_path: Path) -> None:
    sheet = tmp_path / "cards.csv"
    exported = cardworks("--cards", str(CARDS), "sheet", "export", str(pack), "--out", str(sheet), timeout=120)
    assert exported.exit_code == 0, exported.stderr
    text = sheet.read_text(encoding="utf-8")
    name = json.loads((pack / "sets" / "example.json").read_text())["cards"][0]["name"]
    assert name in text
    sheet.write_text(text.replace(name, name + " renamed", 1), encoding="utf-8")
    before = fingerprint(pack)
    run = interrupt("--cards", str(CARDS), "sheet", "import", str(sheet), str(pack), at="write", tmp=tmp_path)
    judge("Ctrl-C during sheet import", FAMILY, run.result, refuse=False, interrupted=True,
          changed=lost(before, fingerprint(pack)), check=lambda: _stopped(run))


def test_ctrl_c_during_an_i18n_import_changes_no_translation(mini, tmp_path: Path) -> None:
    import polib

    po_path = tmp_path / "es.po"
    exported = cardworks("--cards", str(mini.cards_root), "i18n", "export", "--locale", "es", "--out", str(po_path))
    assert exported.exit_code == 0, exported.stderr
    po = polib.pofile(str(po_path), wrapwidth=0)
    entry = next(e for e in po if e.msgid)
    entry.msgstr = "traducció nova"
    po.save(str(po_path))
    before = fingerprint(mini.cards_root)
    run = interrupt("--cards", str(mini.cards_root), "i18n", "import", str(po_path), at="write", tmp=tmp_path)
    judge("Ctrl-C during i18n import", FAMILY, run.result, refuse=False, interrupted=True,
          changed=lost(before, fingerprint(mini.cards_root)), check=lambda: _stopped(run))


@pytest.mark.slow
def test_a_staging_folder_left_by_a_killed_export_is_removed_by_the_next(pack: Path, tmp_path: Path) -> None:
    out = tmp_path / "export"
    killed = cardworks("--cards", str(CARDS), "export", "tts", str(pack), "--out", str(out), timeout=180,
                       env={"CARDWORKS_KILL_AT": "export-publish"})
    left = sorted(p.name for p in tmp_path.glob(".export.staging-*"))
    assert killed.exit_code == -9 and left, (killed.exit_code, left)  # the fault really left one
    again = cardworks("--cards", str(CARDS), "export", "tts", str(pack), "--out", str(out), timeout=180)

    def cleaned() -> str | None:
        remaining = sorted(p.name for p in tmp_path.glob(".export.*"))
        return f"left beside --out after a successful run: {remaining}" if remaining else None

    judge("a staging folder left by a killed export", FAMILY, again, refuse=False, check=cleaned)
