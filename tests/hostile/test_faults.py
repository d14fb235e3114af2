"""Builds under faults: kill -9 at several moments, a read-only output folder, a full disk.

A failed or killed build must leave the previous outputs and manifest exactly as they were; the next build
cleans what the dead one left (or finishes publishing it when it had committed), and its manifest matches
the files. The disk cases mount their own small tmpfs (the tests run as root in CI) and unmount it.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import signal
import time
from pathlib import Path

import pytest

from corpus import (BUILD, cardworks, diables_built, finish, fingerprint, judge, judge_files, lost,  # noqa: F401
                    start, tmpfs)

FAMILY = "faults"
pytestmark = pytest.mark.slow


@pytest.fixture
def baseline(diables_built) -> tuple[Path, Path]:
    """A Diables database and a good build of it (copied by each test)."""
    return diables_built


def _copy(baseline, where: Path) -> tuple[Path, Path]:
    cards, out = baseline
    shutil.copytree(cards, where / "cards")
    shutil.copytree(out, where / "out", symlinks=True)
    return where / "cards", where / "out"


def _change_a_card(cards: Path) -> None:
    """Rename a card, so the next build renders new faces and sheets."""
    set_file = sorted((cards / "diables" / "sets").glob("*.json"))[0]
    data = json.loads(set_file.read_text())
    data["cards"][0]["name"] += " Nou"
    set_file.write_text(json.dumps(data, indent=2, ensure_ascii=False))


def published(out: Path) -> dict[str, str]:
    """Fingerprint of the published outputs (staging folders left out: they are the dead build's)."""
    return {k: v for k, v in fingerprint(out).items() if not k.startswith(".staging-")}


def manifest_mismatch(out: Path) -> str | None:
    """A message when a manifest record does not match its file, or a staging folder remains."""
    records = json.loads((out / "manifest.json").read_text())["outputs"]
    for record in records:
        path = out / record["path"]
        if not path.is_file() or hashlib.sha256(path.read_bytes()).hexdigest() != record["sha256"]:
            return f"{record['path']} does not match the manifest"
    left = [p.name for p in out.iterdir() if p.name.startswith(".staging-")] + \
        [p.name for p in out.rglob("*.tmp")]
    return f"left behind: {left}" if left else None


def test_kill_9_at_three_moments_before_the_commit_leaves_the_previous_build(baseline, tmp_path: Path) -> None:
    """Killed while rendering (a real kill -9 from outside), after its first output, and just before the commit
    mark: each time the previous outputs and manifest stay byte for byte; the next build cleans up."""
    cards, out = _copy(baseline, tmp_path)
    before = published(out)
    _change_a_card(cards)
    process = start("--cards", str(cards), "build", "--out", str(out), *BUILD)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not any(p.name.startswith(".staging-") for p in out.iterdir()):
        time.sleep(0.02)
    os.killpg(process.pid, signal.SIGKILL)
    process.communicate()
    judge_files("kill -9 from outside while rendering: previous build intact", FAMILY, lost(before, published(out)))
    for moment in ("after-first-output", "before-commit"):
        killed = cardworks("--cards", str(cards), "build", "--out", str(out), *BUILD, timeout=120,
                           env={"CARDWORKS_KILL_AT": moment})
        assert killed.exit_code == -signal.SIGKILL, killed.stderr
        judge_files(f"kill -9 {moment}: previous build intact", FAMILY, lost(before, published(out)))
    stray = out / "diables" / "en" / ".cards-all-a4.pdf.k1ll3d.tmp"  # what a killed atomic write leaves
    stray.write_bytes(b"%PDF-1.7 half")
    result = cardworks("--cards", str(cards), "build", "--out", str(out), *BUILD, timeout=120)
    judge("after three kills, the next build cleans up and publishes", FAMILY, result, refuse=False,
          check=lambda: manifest_mismatch(out) or (None if published(out) != before else "nothing was published"))


def test_kill_during_publish_is_finished_by_the_next_build(baseline, tmp_path: Path) -> None:
    cards, out = _copy(baseline, tmp_path)
    before = published(out)
    _change_a_card(cards)
    killed = cardworks("--cards", str(cards), "build", "--out", str(out), *BUILD, timeout=120,
                       env={"CARDWORKS_KILL_AT": "publish-after-first"})
    assert killed.exit_code == -signal.SIGKILL, killed.stderr
    staged = {path.name for path in out.glob(".staging-*/**/*") if path.is_file()} - {"PUBLISH", "manifest.json"}
    result = cardworks("--cards", str(cards), "build", "--out", str(out), *BUILD, timeout=120)

    def finished() -> str | None:
        changed = {Path(name).name for name in lost(before, published(out))}
        missing = staged - changed
        return manifest_mismatch(out) or (f"staged outputs never published: {sorted(missing)}" if missing else None)

    judge("kill -9 during publish: rolled forward by the next build", FAMILY, result, refuse=False, check=finished)


def test_two_fresh_builds_are_byte_identical(baseline, tmp_path: Path) -> None:
    """Diables' tiles sheet used to keep a random half of its file ID: every build differed."""
    cards, out = baseline
    again = tmp_path / "again"
    result = cardworks("--cards", str(cards), "build", "--out", str(again), *BUILD, timeout=120)
    judge("two fresh builds give the same bytes", "determinism", result, refuse=False,
          check=lambda: None if published(again) == published(out) else
          f"outputs differ: {lost(published(out), published(again))}")


def _copy_onto(baseline, disk: Path) -> tuple[Path, Path]:
    cards, out = baseline
    shutil.copytree(cards, disk.parent / "cards")
    shutil.copytree(out, disk / "out")
    return disk.parent / "cards", disk / "out"


def test_read_only_output_folder(baseline, tmpfs) -> None:
    disk = tmpfs("ro", "2m")
    cards, out = _copy_onto(baseline, disk.where)
    before = published(out)
    disk.read_only()
    result = cardworks("--cards", str(baseline[0]), "build", "--out", str(out), *BUILD, timeout=120)
    judge("read-only output folder, nothing changed: no-op rebuild", FAMILY, result, refuse=False,
          check=lambda: (lost(before, published(out)) or None) and "outputs changed")
    _change_a_card(cards)
    result = cardworks("--cards", str(cards), "build", "--out", str(out), *BUILD, timeout=120)
    judge("read-only output folder, a card changed", FAMILY, result, refuse=True, names=str(out.name), code="read-only",
          changed=lost(before, published(out)))


def test_disk_full_during_a_build(baseline, tmpfs) -> None:
    disk = tmpfs("full", "1m")
    cards, out = _copy_onto(baseline, disk.where)
    before = published(out)
    _change_a_card(cards)
    filler = disk.fill(free=16 * 1024)
    result = cardworks("--cards", str(cards), "build", "--out", str(out), *BUILD, timeout=120)
    judge("disk full during a build", FAMILY, result, refuse=True, names=str(out.name), code="disk-full",
          changed=lost(before, published(out)))
    filler.unlink()
    result = cardworks("--cards", str(cards), "build", "--out", str(out), *BUILD, timeout=120)
    judge("disk full: the next build, with space again", FAMILY, result, refuse=False,
          check=lambda: manifest_mismatch(out))


def test_two_builds_into_one_folder_at_once(baseline, tmp_path: Path) -> None:
    cards, built = baseline
    out = tmp_path / "out"
    shutil.copytree(built / ".cache", out / ".cache")  # the faces are laid out already; each build writes the rest
    first = start("--cards", str(cards), "build", "--out", str(out), *BUILD, "--paper", "a4")
    second = start("--cards", str(cards), "build", "--out", str(out), *BUILD, "--paper", "letter")
    results = [finish(first, 180), finish(second, 180)]

    def both_listed() -> str | None:
        paths = {r["path"] for r in json.loads((out / "manifest.json").read_text())["outputs"]}
        wanted = {"calibration-a4.pdf", "calibration-letter.pdf", "diables/en/cards-all-a4.pdf",
                  "diables/en/cards-all-letter.pdf"}
        return manifest_mismatch(out) or (None if wanted <= paths else f"manifest lacks {sorted(wanted - paths)}")

    for name, result in zip(["a4", "letter"], results):
        judge(f"two builds into one folder at once ({name})", "concurrency", result, refuse=False, check=both_listed)
