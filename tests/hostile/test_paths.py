"""Hostile paths: symbolic links leaving the game, FIFOs, huge files, and a database under a folder named
``scenarios``. Every file the project reads must be a regular file inside the game or pack."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from corpus import BUILD, cardworks, diables, diables_built, fingerprint, judge, lost, mini  # noqa: F401  (fixtures)

FAMILY = "paths"
SECRET = "root:x:0:0:secret-marker:/root:/bin/bash\n"


@pytest.fixture
def secret(tmp_path: Path) -> Path:
    path = tmp_path / "outside" / "passwd"
    path.parent.mkdir()
    path.write_text(SECRET)
    return path


def _with_rules(mini) -> Path:
    rules = mini.root / "rules" / "en"
    rules.mkdir(parents=True)
    (rules / "01-intro.md").write_text("# Intro\n\nSteal one {treasure}.\n")
    return rules


def test_symlinked_rulebook_section_is_not_read(mini, secret: Path) -> None:
    rules = _with_rules(mini)
    os.symlink(secret, rules / "02-leak.md")
    result = cardworks("--cards", str(mini.cards_root), "validate")
    judge("rules .md symlinked outside (validate)", FAMILY, result, refuse=True, names="02-leak.md", code="path-escape")
    result = cardworks("--cards", str(mini.cards_root), "i18n", "export", "--locale", "es")
    judge("rules .md symlinked outside (i18n export)", FAMILY, result, refuse=True, names="02-leak.md",
          code="path-escape")
    assert "secret-marker" not in result.stdout


def test_symlinked_pack_file_is_not_read(mini, secret: Path, tmp_path: Path) -> None:
    pack = tmp_path / "pack"
    (pack / "sets").mkdir(parents=True)
    (pack / "pack.json").write_text(json.dumps({"$schema": "../schema/pack.schema.json", "id": "extra",
                                                "extends": "mini", "name": "Extra"}))
    os.symlink(secret, pack / "sets" / "notes.txt")
    result = cardworks("--cards", str(mini.cards_root), "validate", str(pack))
    judge("pack file symlinked outside", FAMILY, result, refuse=True, names="notes.txt", code="path-escape")


@pytest.mark.parametrize("relative", ["rulings/x.json", "rules/en/99.md", "icons/fifo.svg"])
def test_fifo_is_refused_not_waited_on(mini, relative: str) -> None:
    _with_rules(mini)
    (mini.root / relative).parent.mkdir(parents=True, exist_ok=True)
    os.mkfifo(mini.root / relative)
    result = cardworks("--cards", str(mini.cards_root), "validate", timeout=20)
    judge(f"FIFO {relative} (validate)", FAMILY, result, refuse=True, names=Path(relative).name,
          code="not-a-regular-file")
    result = cardworks("--cards", str(mini.cards_root), "i18n", "export", "--locale", "es", timeout=20)
    judge(f"FIFO {relative} (i18n export)", FAMILY, result, refuse=True, names=Path(relative).name,
          code="not-a-regular-file")


def test_fifo_in_a_pack_is_refused(mini, tmp_path: Path) -> None:
    pack = tmp_path / "pack"
    (pack / "rulings").mkdir(parents=True)
    (pack / "pack.json").write_text(json.dumps({"$schema": "../schema/pack.schema.json", "id": "extra",
                                                "extends": "mini", "name": "Extra"}))
    os.mkfifo(pack / "rulings" / "x.json")
    result = cardworks("--cards", str(mini.cards_root), "validate", str(pack), timeout=20)
    judge("FIFO in a pack", FAMILY, result, refuse=True, names="x.json", code="not-a-regular-file")


def test_symlink_to_a_huge_file_is_not_hashed(mini, tmp_path: Path) -> None:
    huge = tmp_path / "outside" / "huge.bin"
    huge.parent.mkdir()
    with open(huge, "wb") as handle:  # sparse: 3 GB that take no disk
        handle.truncate(3 * 1024**3)
    os.symlink(huge, mini.root / "icons" / "huge.png")
    result = cardworks("--cards", str(mini.cards_root), "build", "--out", str(tmp_path / "out"), timeout=30)
    judge("symlink to a 3 GB file (build)", FAMILY, result, refuse=True, names="huge.png", code="path-escape")


def test_huge_file_inside_is_refused(mini, tmp_path: Path) -> None:
    with open(mini.root / "icons" / "huge.png", "wb") as handle:
        handle.truncate(3 * 1024**3)
    result = cardworks("--cards", str(mini.cards_root), "build", "--out", str(tmp_path / "out"), timeout=30)
    judge("3 GB file inside the game (build)", FAMILY, result, refuse=True, names="huge.png", code="file-too-large")


@pytest.mark.slow
def test_database_under_a_folder_named_scenarios_rebuilds(diables_built, tmp_path: Path) -> None:
    """The built database is moved under a folder named ``scenarios``: the build there is a no-op (inputs are
    hashed relative to the game), and a renamed card must rebuild its sheet (it used to be skipped)."""
    cards = tmp_path / "scenarios" / "cards"
    shutil.copytree(diables_built[0], cards)
    out = tmp_path / "out"
    shutil.copytree(diables_built[1], out)
    first = cardworks("--cards", str(cards), "build", "--out", str(out), *BUILD, timeout=90)
    assert first.exit_code == 0, first.stderr
    assert (out / "manifest.json").read_bytes() == (diables_built[1] / "manifest.json").read_bytes(), first.stdout
    sheet = next(r for r in json.loads((out / "manifest.json").read_text())["outputs"]
                 if r["kind"] == "cards" and r["locale"] == "en")  # the source locale shows the renamed card
    before = (out / sheet["path"]).read_bytes()
    set_file = next((cards / "diables" / "sets").glob("*.json"))
    data = json.loads(set_file.read_text())
    card = data["cards"][0]
    card["name"] = card["name"] + " Renamed"
    set_file.write_text(json.dumps(data, indent=2, ensure_ascii=False))
    result = cardworks("--cards", str(cards), "build", "--out", str(out), *BUILD, timeout=90)

    def rebuilt() -> str | None:
        after = (out / sheet["path"]).read_bytes()
        return None if after != before else "the card sheet was not rebuilt after a card changed (stale PDF)"

    judge("database under a folder named 'scenarios'", FAMILY, result, refuse=False, check=rebuilt)
