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
    """End to end on the shipped database: the example pack it ships stays valid."""
    from conftest import REPO

    run = run_cli("--cards", str(REPO / "cards"), "validate", str(REPO / "examples/fallera-pack"), "--format", "json")
    assert run.exit_code == 0, run.output
    assert [p for p in run.problems if "examples" in p["file"]] == []


def _complete_pack(extends: str = "mini") -> dict:
    files = _pack_files(extends)
    files["sets/seafood.json"]["totals"] = {"designs": 1}
    return files


def test_strict_judges_the_packs_own_warnings(game: GameDir, tmp_path: Path) -> None:
    game.data("sets/base.json")["totals"]["designs"] = 4  # the game's own set is incomplete: a warning of the game
    game.write()
    pack = _write_pack(tmp_path / "pack", _complete_pack())
    run = run_cli("--cards", str(game.cards_root), "validate", str(pack), "--strict", "--format", "json")
    assert run.exit_code == 0, run.output
    assert [p["code"] for p in run.problems] == ["set-incomplete"]  # shown, but not the pack's
    assert run.problems[0]["file"].endswith("base.json")
    text = run_cli("--cards", str(game.cards_root), "validate", str(pack), "--strict")
    assert text.exit_code == 0 and "the packs' 0 warning(s) count as errors" in text.output
    own = _write_pack(tmp_path / "own", _pack_files())  # short of its own declared designs
    assert run_cli("--cards", str(game.cards_root), "validate", str(own), "--strict").exit_code == 1


def test_pack_cites_its_own_documents(game: GameDir, tmp_path: Path) -> None:
    game.write()
    files = _complete_pack()
    files["sets/seafood.json"]["cards"][0]["sources"] = [{"doc": "my-notes"}]
    unknown = run_cli("--cards", str(game.cards_root), "validate", str(_write_pack(tmp_path / "a", files)), "--format", "json")
    assert ("dangling-ref", "/cards/0/sources/0/doc") in [(p["code"], p["pointer"]) for p in unknown.problems]
    files["pack.json"]["documents"] = [{"id": "my-notes", "title": "My design notes"}]
    run = run_cli("--cards", str(game.cards_root), "validate", str(_write_pack(tmp_path / "b", files)), "--format", "json")
    assert run.exit_code == 0 and run.problems == [], run.output


def test_cards_lists_a_packs_own_cards(game: GameDir, tmp_path: Path) -> None:
    game.write()
    pack = _write_pack(tmp_path / "pack", _complete_pack())
    run = run_cli("--cards", str(game.cards_root), "cards", str(pack), "--format", "json")
    assert run.exit_code == 0, run.output
    assert [row["id"] for row in json.loads(run.output)] == ["gamba"]
    found = run_cli("--cards", str(game.cards_root), "cards", "gamb", str(pack), "--format", "json")
    assert [row["id"] for row in json.loads(found.output)] == ["gamba"]
    none = run_cli("--cards", str(game.cards_root), "cards", "conill", str(pack), "--format", "json")
    assert json.loads(none.output) == []  # the game's cards are not the pack's


def test_i18n_round_trip_of_a_pack_writes_into_the_pack(game: GameDir, tmp_path: Path) -> None:
    import polib

    game.write()
    pack = _write_pack(tmp_path / "pack", _complete_pack())
    po = tmp_path / "pack-es.po"
    run = run_cli("--cards", str(game.cards_root), "i18n", "export", str(pack), "--locale", "es", "--out", str(po))
    assert run.exit_code == 0, run.output
    catalog = polib.pofile(str(po))
    assert {entry.msgctxt.split("/")[2] for entry in catalog} == {"gamba", "seafood-set"}  # the pack's strings only
    for entry in catalog:
        entry.msgstr = {"Worth one {treasure}.": "Vale un {treasure}."}.get(entry.msgid, entry.msgid + " (es)")
    catalog.save()
    before = snapshot(game.root)
    imported = run_cli("--cards", str(game.cards_root), "i18n", "import", str(po), str(pack))
    assert imported.exit_code == 0, imported.output
    written = json.loads((pack / "i18n/es.json").read_text(encoding="utf-8"))
    assert written["entries"]["gamba"]["rules"]["text"] == "Vale un {treasure}."
    assert snapshot(game.root) == before  # the game's own translations are untouched
    status = run_cli("--cards", str(game.cards_root), "i18n", "status", str(pack), "--format", "json")
    rows = {row["group"]: row for row in json.loads(status.output) if row["locale"] == "es"}
    assert rows["seafood-set"]["missing"] == 0 and "base" not in rows


def test_check_runs_a_packs_rulings_with_its_game(tmp_path: Path) -> None:
    """A pack of the fixture game Minitrick: its ruling is judged with Minitrick's engine."""
    import shutil

    from conftest import FIXTURE_GAMES, MINITRICK_SOURCE, minitrick_four_pack

    cards = tmp_path / "cards"
    shutil.copytree(FIXTURE_GAMES / "minitrick" / "cards" / "minitrick", cards / "minitrick")
    pack = _write_pack(tmp_path / "pack", minitrick_four_pack(**{
        "rulings/mine.json": {"$schema": "../../../schema/rulings.schema.json", "rulings": [
            {"id": "my-unchecked-ruling", "cards": ["four"], "question": "Does it tie?", "answer": "Never.",
             "source": {**MINITRICK_SOURCE, "certainty": "inferred"}, "states_behaviour": True}]},
    }))
    assert run_cli("--cards", str(cards), "validate", str(pack)).exit_code == 0
    run = run_cli("--cards", str(cards), "check", str(pack), "--playouts", "0")
    assert "scenarios: 2 passed, 0 failed" in run.output, run.output
    assert "UNCHECKED my-unchecked-ruling" in run.output  # the pack's ruling is judged with the game's engine
    assert run.exit_code == 1


def _partly_spanish(tmp_path: Path) -> Path:
    """A pack that translates its set's name into Spanish but not its card: a build in Spanish refuses it."""
    from cardworks.i18n.strings import source_hash

    files = _pack_files()
    files["i18n/es.json"] = {"$schema": "../schema/translations.schema.json", "game": "mini", "locale": "es",
                             "entries": {"seafood-set": {"name": {"text": "Marisco", "source_hash": source_hash("Seafood"),
                                                                  "source": "Seafood"}}}}
    return _write_pack(tmp_path / "pack", files)


def test_validate_reports_what_the_build_refuses(game: GameDir, tmp_path: Path) -> None:
    """Issue 44: ``validate`` said OK of a pack whose build stopped on missing translations. Without ``--locale``
    the locales a build makes are checked as errors, at the same places the build names; ``--locale en`` makes
    the Spanish ones warnings (only a Spanish build stops on them)."""
    game.write()
    pack = _partly_spanish(tmp_path)
    run = run_cli("--cards", str(game.cards_root), "validate", str(pack), "--format", "json")
    missing = {(p["file"], p["pointer"], p["severity"]) for p in run.problems if p["code"] == "translation-missing"}
    es = str(pack / "i18n" / "es.json")
    assert run.exit_code == 1, run.output
    assert missing == {(es, "/entries/gamba/name", "error"), (es, "/entries/gamba/rules", "error")}, run.problems
    built = run_cli("--cards", str(game.cards_root), "build", str(pack), "--out", str(tmp_path / "out"), "--no-docs",
                    "--jobs", "1")
    assert built.exit_code == 1 and not (tmp_path / "out" / "manifest.json").exists()
    for _, pointer, _ in missing:
        assert f"{es}:{pointer}: [translation-missing]" in built.output, built.output
    english = run_cli("--cards", str(game.cards_root), "validate", str(pack), "--locale", "en", "--format", "json")
    assert english.exit_code == 0, english.output
    assert {(p["pointer"], p["severity"]) for p in english.problems if p["code"] == "translation-missing"} == \
        {("/entries/gamba/name", "warning"), ("/entries/gamba/rules", "warning")}
    spanish = run_cli("--cards", str(game.cards_root), "validate", str(pack), "--locale", "es")
    assert spanish.exit_code == 1 and "[translation-missing]" in spanish.output
