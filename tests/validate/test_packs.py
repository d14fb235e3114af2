"""Packs: a folder with new cards validated together with the game it extends."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import GameDir, run_cli, snapshot


def _write_pack(folder: Path, files: dict) -> Path:
    for relative, content in files.items():
        path = folder / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(content, indent=2), encoding="utf-8")
    return folder


def _pack_files(extends: str = "mini", card_id: str = "gamba") -> dict:
    return {
        "pack.json": {"$schema": "schema/pack.schema.json", "id": "seafood", "extends": extends, "name": "Seafood"},
        "sets/seafood.json": {
            "$schema": "../schema/set.schema.json", "id": "seafood-set", "name": "Seafood", "totals": {"designs": 2},
            "cards": [{"id": card_id, "types": ["treasure"], "name": "gamba", "rules": "Worth one {treasure}.",
                       "sources": [{"doc": "rules"}]}],
        },
    }


def test_valid_pack_is_checked_with_its_game(game: GameDir, tmp_path: Path) -> None:
    game.write()
    pack = _write_pack(tmp_path / "pack", _pack_files())
    run = run_cli("--cards", str(game.cards_root), "validate", str(pack), "--format", "json")
    assert run.exit_code == 0, run.output
    # the pack's set is short of its declared designs: a completeness warning, not an error
    assert [(p["code"], p["severity"]) for p in run.problems] == [("set-incomplete", "warning")]
    strict = run_cli("--cards", str(game.cards_root), "validate", str(pack), "--strict")
    assert strict.exit_code == 1


def test_pack_card_clashing_with_game_card(game: GameDir, tmp_path: Path) -> None:
    game.write()
    pack = _write_pack(tmp_path / "pack", _pack_files(card_id="conill"))
    before = snapshot(tmp_path)
    run = run_cli("--cards", str(game.cards_root), "validate", str(pack), "--format", "json")
    assert run.exit_code == 1
    clash = [p for p in run.problems if p["code"] == "duplicate-id"]
    assert clash and clash[0]["file"] == str(pack / "sets/seafood.json") and clash[0]["pointer"] == "/cards/0/id"
    assert snapshot(tmp_path) == before


def test_pack_extending_unknown_game(game: GameDir, tmp_path: Path) -> None:
    game.write()
    pack = _write_pack(tmp_path / "pack", _pack_files(extends="chess"))
    run = run_cli("--cards", str(game.cards_root), "validate", str(pack), "--format", "json")
    assert run.exit_code == 1
    assert ("pack-unknown-game", str(pack / "pack.json"), "/extends") in [(p["code"], p["file"], p["pointer"]) for p in run.problems]


def test_empty_pack(game: GameDir, tmp_path: Path) -> None:
    game.write()
    pack = _write_pack(tmp_path / "pack", {"pack.json": _pack_files()["pack.json"]})
    run = run_cli("--cards", str(game.cards_root), "validate", str(pack), "--format", "json")
    assert run.exit_code == 1
    assert ("pack-empty", str(pack), "") in [(p["code"], p["file"], p["pointer"]) for p in run.problems]


def test_pack_without_manifest(game: GameDir, tmp_path: Path) -> None:
    game.write()
    pack = _write_pack(tmp_path / "pack", {"sets/seafood.json": _pack_files()["sets/seafood.json"]})
    run = run_cli("--cards", str(game.cards_root), "validate", str(pack), "--format", "json")
    assert run.exit_code == 1
    assert ("pack-missing-manifest", str(pack / "pack.json"), "") in [(p["code"], p["file"], p["pointer"]) for p in run.problems]


def test_pack_path_climbing_out(game: GameDir, tmp_path: Path) -> None:
    game.write()
    files = _pack_files()
    files["sets/seafood.json"]["cards"][0]["art"] = "../../cards/mini/icons/treasure.svg"
    pack = _write_pack(tmp_path / "pack", files)
    run = run_cli("--cards", str(game.cards_root), "validate", str(pack), "--format", "json")
    assert run.exit_code == 1
    assert ("path-escape", str(pack / "sets/seafood.json"), "/cards/0/art") in [
        (p["code"], p["file"], p["pointer"]) for p in run.problems]


def test_missing_pack_folder_is_a_usage_error(game: GameDir, tmp_path: Path) -> None:
    game.write()
    run = run_cli("--cards", str(game.cards_root), "validate", str(tmp_path / "nowhere"))
    assert run.exit_code == 2


def test_the_example_pack_validates_with_the_shipped_game() -> None:
    from conftest import REPO

    run = run_cli("--cards", str(REPO / "cards"), "validate", str(REPO / "examples/fallera-pack"), "--format", "json")
    assert run.exit_code == 0, run.output
    assert [p for p in run.problems if "examples" in p["file"]] == []
