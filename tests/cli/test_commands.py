"""The command line: exit codes, formats, listings, schema and freeze commands."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from cardworks.i18n import source_hash
from conftest import REPO, GameDir, partly_translated, run_cli


def test_stale_translation_warns_and_fails_under_strict(game: GameDir) -> None:
    game.data("sets/base.json")["cards"][1]["rules"] = "Steal two {treasure} from a rival."
    game.write()
    run = run_cli("--cards", str(game.cards_root), "validate", "--locale", "en", "--format", "json")
    assert run.exit_code == 0
    assert [(p["code"], p["pointer"], p["severity"]) for p in run.problems] == [
        ("stale-translation", "/entries/capita/rules/source_hash", "warning"),
        ("translation-missing", "/entries/capita/rules", "warning")]  # a Spanish build does not print a stale text
    assert run_cli("--cards", str(game.cards_root), "validate", "--locale", "en", "--strict").exit_code == 1
    spanish = run_cli("--cards", str(game.cards_root), "validate", "--format", "json")  # a build makes es too
    assert spanish.exit_code == 1 and ("translation-missing", "error") in {(p["code"], p["severity"]) for p in spanish.problems}


def test_text_output_names_file_location_and_code(game: GameDir) -> None:
    game.data("sets/base.json")["cards"][0]["quantity"] = "1"
    game.write()
    run = run_cli("--cards", str(game.cards_root), "validate")
    assert run.exit_code == 1
    assert f"{game.root / 'sets/base.json'}:/cards/0/quantity: [wrong-type] " in run.output
    assert "FAILED: 1 error(s)" in run.output


def test_completeness_table_in_text_output(game: GameDir) -> None:
    game.data("sets/base.json")["totals"]["designs"] = 4
    game.write()
    run = run_cli("--cards", str(game.cards_root), "validate")
    assert run.exit_code == 0
    assert "set 'base' is incomplete: designs 3 of 4" in run.output
    assert "completeness" in run.output  # the table is drawn; its figures are read from the report, not the drawing
    from cardworks.validate.runner import validate

    (row,) = validate(game.cards_root).completeness["mini"]
    assert (row.set_id, row.designs, row.designs_declared, row.cards, row.cards_declared) == ("base", 3, 4, 5, 5)


def test_cards_lists_names_in_a_locale(game: GameDir) -> None:
    partly_translated(game.files)  # olla's name untranslated
    game.write()
    run = run_cli("--cards", str(game.cards_root), "cards", "--game", "mini", "--locale", "es", "--format", "json")
    assert run.exit_code == 0
    rows = {row["id"]: row for row in json.loads(run.output)}
    assert list(rows) == ["conill", "capita", "olla"]
    assert rows["capita"]["name"] == "capità" and rows["capita"]["name_status"] == "translated"
    assert rows["conill"]["alt_names"] == ["conejo"]
    assert rows["olla"]["name_status"] == "missing"
    assert rows["capita"]["types"] == ["battle"] and rows["capita"]["quantity"] == 3


def test_cards_text_table(game: GameDir) -> None:
    game.write()
    run = run_cli("--cards", str(game.cards_root), "cards")
    assert run.exit_code == 0 and "capità" in run.output and "3 card design(s)" in run.output


def test_unknown_game_or_locale_is_a_usage_error(game: GameDir) -> None:
    game.write()
    assert run_cli("--cards", str(game.cards_root), "cards", "--game", "chess").exit_code == 2
    assert run_cli("--cards", str(game.cards_root), "cards", "--locale", "fr").exit_code == 2
    assert run_cli("--cards", str(game.cards_root), "validate", "--format", "xml").exit_code == 2


def test_cards_refuses_a_broken_database(game: GameDir) -> None:
    game.files["sets/base.json"] = "{"
    game.write()
    run = run_cli("--cards", str(game.cards_root), "cards")
    assert run.exit_code == 1


def test_freeze_adds_new_ids_and_keeps_old_ones(game: GameDir) -> None:
    game.files["ids.lock.json"] = {"$schema": "../../schema/ids.schema.json", "game": "mini",
                                   "ids": {"conill": "card"}, "retired": ["old-card"]}
    game.write()
    warned = run_cli("--cards", str(game.cards_root), "validate", "--format", "json")
    assert {p["code"] for p in warned.problems} == {"id-not-frozen"}
    run = run_cli("--cards", str(game.cards_root), "freeze")
    assert run.exit_code == 0
    lock = json.loads((game.root / "ids.lock.json").read_text())
    assert lock["ids"]["conill"] == "card" and lock["ids"]["capita"] == "card" and lock["ids"]["map"] == "board"
    assert lock["retired"] == ["old-card"]
    assert run_cli("--cards", str(game.cards_root), "validate", "--strict").exit_code == 0


def test_schema_check_passes_on_the_repository() -> None:
    assert run_cli("schema", "--check", "--out", str(REPO / "schema")).exit_code == 0


def test_schema_command_writes_schemas(tmp_path: Path) -> None:
    run = run_cli("schema", "--out", str(tmp_path))
    assert run.exit_code == 0
    assert json.loads((tmp_path / "set.schema.json").read_text())["$id"] == "set.schema.json"
    assert run_cli("schema", "--check", "--out", str(tmp_path)).exit_code == 0


def test_validate_in_a_real_process_never_imports_the_renderer(game: GameDir) -> None:
    """validate lays nothing out: it loads neither WeasyPrint nor pikepdf; rich (about 30 ms) draws its
    completeness table. Jinja and fontTools it does load: the checks of what a build would refuse make the
    documents' HTML and set the card titles (``render.buildable``)."""
    game.write()
    code = ("import sys; from cardworks.cli.main import cli\n"
            "try:\n    cli.main(['--cards', sys.argv[1], 'validate'], standalone_mode=True)\n"
            "except SystemExit as exit:\n"
            "    heavy = sorted(m for m in sys.modules if m.split('.')[0] in {'weasyprint', 'pikepdf', 'matplotlib'})\n"
            "    print('HEAVY', heavy); raise\n")
    done = subprocess.run([sys.executable, "-c", code, str(game.cards_root)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "HEAVY []" in done.stdout
    assert "Traceback" not in done.stderr


def test_console_script_exit_codes(game: GameDir, tmp_path: Path) -> None:
    game.files["sets/base.json"] = '{"id": '
    game.write()
    done = subprocess.run([sys.executable, "-m", "cardworks", "--cards", str(game.cards_root), "validate"],
                          capture_output=True, text=True)
    assert done.returncode == 1
    assert "[json-syntax]" in done.stdout and "Traceback" not in done.stderr
    usage = subprocess.run([sys.executable, "-m", "cardworks", "--cards", str(tmp_path / "none"), "validate"],
                           capture_output=True, text=True)
    assert usage.returncode == 2 and "does not exist" in usage.stderr


def test_translation_hashes_follow_the_source_text() -> None:
    assert source_hash("capità") != source_hash("capita") and len(source_hash("x")) == 16


def test_cards_query_finds_alternative_names_in_any_locale(game: GameDir) -> None:
    game.write()
    for query in ("rabbit", "CONEJO", "conill", "capita"):
        run = run_cli("--cards", str(game.cards_root), "cards", query, "--format", "json")
        ids = [row["id"] for row in json.loads(run.output)]
        assert ids == (["capita"] if query == "capita" else ["conill"]), query
    assert json.loads(run_cli("--cards", str(game.cards_root), "cards", "nothing", "--format", "json").output) == []


def test_check_reports_how_each_behaviour_ruling_is_checked() -> None:
    run = run_cli("--cards", str(REPO / "cards"), "check", "--game", "fallera", "--playouts", "0", "--format", "json")
    assert run.exit_code == 0, run.output
    rulings = json.loads(run.output)["rulings"]
    assert rulings and all(r["checked"] == (r["reason"] is None) for r in rulings.values())
    assert all(r["scenarios"] for r in rulings.values() if r["checked"])
    waiting = [r["reason"] for r in rulings.values() if not r["checked"]]
    assert waiting and all("is left out" in reason or "needs " in reason for reason in waiting)


def test_a_scenario_that_does_not_name_its_ruling_back_is_a_one_way_link(game: GameDir) -> None:
    game.data("scenarios/base.json")["scenarios"][0]["rulings"] = []
    game.write()
    run = run_cli("--cards", str(game.cards_root), "validate", "--format", "json")
    assert run.exit_code == 0
    assert [(p["code"], p["pointer"]) for p in run.problems if p["code"] == "one-way-link"] == \
        [("one-way-link", "/rulings/0/scenarios/0")]
