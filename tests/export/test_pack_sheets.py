"""Packs in every command (issue 33): sheet export/import round-trips a pack's cards and translations, a missing
back template is an error at its pack.json pointer, and backs that give a hidden card away are a warning."""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path

import pytest
from PIL import Image

from cardworks.loading import load_database
from cardworks.render.deck import build_deck
from cardworks.render.faces import build_job
from cardworks.render.telltale import telltale_backs
from conftest import REPO, run_cli, snapshot

CARDS = REPO / "cards"


@pytest.fixture
def pack(tmp_path: Path) -> Path:
    shutil.copytree(REPO / "examples" / "fallera-pack", tmp_path / "pack")
    return tmp_path / "pack"


def _rows(path: Path) -> list[list[str]]:
    return list(csv.reader(path.open(encoding="utf-8")))


def test_a_pack_given_as_the_cards_folder_is_a_usage_error(pack: Path, tmp_path: Path) -> None:
    run = run_cli("--cards", str(pack), "sheet", "export", "--out", str(tmp_path / "x.csv"))
    assert run.exit_code == 2 and "is a pack, not a cards folder" in run.output, run.output
    assert "Traceback" not in run.output and not (tmp_path / "x.csv").exists()


@pytest.mark.parametrize("suffix", ["csv", "xlsx"])
def test_pack_sheet_round_trip_changes_no_byte(pack: Path, tmp_path: Path, suffix: str) -> None:
    before = snapshot(pack)
    sheet = tmp_path / f"pack.{suffix}"
    run = run_cli("--cards", str(CARDS), "sheet", "export", str(pack), "--locale", "es", "--out", str(sheet))
    assert run.exit_code == 0, run.output
    if suffix == "csv":
        rows = _rows(sheet)
        ids = {row[1] for row in rows[1:]}
        pack_ids = {c["id"] for c in json.loads((pack / "sets/example.json").read_text(encoding="utf-8"))["cards"]}
        assert ids == pack_ids  # the pack's own cards, no card of the game
        header = rows[0]
        orxata = next(row for row in rows if row[1] == "example-orxata")
        assert orxata[header.index("rules@es")].startswith("Un ingrediente")  # the pack's own translation
    run = run_cli("--cards", str(CARDS), "sheet", "import", str(sheet), str(pack))
    assert run.exit_code == 0 and "0 file(s) written" in run.output, run.output
    assert snapshot(pack) == before


def test_pack_sheet_edits_reach_the_packs_own_files(pack: Path, tmp_path: Path) -> None:
    cards = tmp_path / "cards"
    shutil.copytree(CARDS, cards)
    game_before = snapshot(cards)
    sheet = tmp_path / "pack.csv"
    run = run_cli("--cards", str(cards), "sheet", "export", str(pack), "--locale", "es", "--out", str(sheet))
    assert run.exit_code == 0, run.output
    rows = _rows(sheet)
    header = rows[0]
    for row in rows[1:]:
        if row[1] == "example-cavaller":
            row[header.index("rules")] = "Attacks with one more {attack} against a queen."
        if row[1] == "example-orxata":
            row[header.index("name@es")] = "horchata de muestra"
    with sheet.open("w", encoding="utf-8", newline="") as handle:
        csv.writer(handle, lineterminator="\n").writerows(rows)
    run = run_cli("--cards", str(cards), "sheet", "import", str(sheet), str(pack))
    assert run.exit_code == 0, run.output
    assert "1 card(s) and 1 translation(s) changed; 2 file(s) written" in run.output
    cavaller = next(c for c in json.loads((pack / "sets/example.json").read_text(encoding="utf-8"))["cards"]
                    if c["id"] == "example-cavaller")
    assert cavaller["rules"] == "Attacks with one more {attack} against a queen."
    entries = json.loads((pack / "i18n/es.json").read_text(encoding="utf-8"))["entries"]
    assert entries["example-orxata"]["name"]["text"] == "horchata de muestra"
    assert snapshot(cards) == game_before  # nothing of the game was touched
    run = run_cli("--cards", str(cards), "validate", str(pack))
    assert run.exit_code == 0, run.output


def test_a_bad_pack_sheet_edit_is_refused_naming_the_pack_file(pack: Path, tmp_path: Path) -> None:
    before = snapshot(pack)
    sheet = tmp_path / "pack.csv"
    assert run_cli("--cards", str(CARDS), "sheet", "export", str(pack), "--out", str(sheet)).exit_code == 0
    rows = _rows(sheet)
    header = rows[0]
    next(row for row in rows if row[1] == "example-cavaller")[header.index("quantity")] = "5"  # over the set's totals
    with sheet.open("w", encoding="utf-8", newline="") as handle:
        csv.writer(handle, lineterminator="\n").writerows(rows)
    run = run_cli("--cards", str(CARDS), "sheet", "import", str(sheet), str(pack))
    assert run.exit_code == 1 and f"{pack}/sets/example.json:/totals/cards" in run.output, run.output
    assert "cardworks-sheet-" not in run.output and snapshot(pack) == before


def _with_back(pack: Path, back: dict) -> Path:
    manifest = json.loads((pack / "pack.json").read_text(encoding="utf-8"))
    manifest["backs"] = {"battle": back}
    (pack / "pack.json").write_text(json.dumps(manifest), encoding="utf-8")
    return pack


def test_a_missing_back_template_is_an_error_at_its_pack_json_pointer(pack: Path) -> None:
    _with_back(pack, {"template": "cards/back-night.html.j2"})
    run = run_cli("--cards", str(CARDS), "validate", str(pack))
    assert run.exit_code == 1, run.output
    assert "pack.json:/backs/battle/template: [missing-template] back template 'cards/back-night.html.j2'" in run.output
    (pack / "templates" / "cards").mkdir(parents=True)
    (pack / "templates" / "cards" / "back-night.html.j2").write_text('<div class="back">night</div>\n')
    run = run_cli("--cards", str(CARDS), "validate", str(pack))
    assert run.exit_code == 0 and "missing-template" not in run.output, run.output


def test_a_back_template_escaping_its_folder_is_refused(pack: Path) -> None:
    _with_back(pack, {"template": "../../secret.html"})
    run = run_cli("--cards", str(CARDS), "validate", str(pack))
    assert run.exit_code == 1 and "pack.json:/backs/battle/template: [path-escape]" in run.output, run.output


def _navy(pack: Path) -> Path:
    (pack / "art").mkdir()
    Image.new("RGB", (830, 1130), (16, 32, 96)).save(pack / "art" / "navy.png")
    return _with_back(pack, {"art": "art/navy.png"})


def test_backs_that_tell_pack_cards_apart_in_a_merged_deck_are_found(pack: Path) -> None:
    _navy(pack)
    db = load_database(CARDS / "fallera", [pack])
    merged = build_job(db, build_deck(db, "discordia+example-set"), "en")
    assert telltale_backs(merged) == {"battle": ["back", "back-type-battle"]}
    alone = build_job(db, build_deck(db, "example-set"), "en")  # the pack's own deck: one back per type
    assert telltale_backs(alone) == {}


@pytest.mark.slow
def test_a_merged_deck_export_warns_naming_the_types(pack: Path, tmp_path: Path) -> None:
    _navy(pack)
    run = run_cli("--cards", str(CARDS), "export", "print-shop", str(pack), "--set", "discordia+example-set",
                  "--profile", "pdf", "--locale", "en", "--out", str(tmp_path / "shop"))
    assert run.exit_code == 0, run.output
    assert "warning: [back-tells-apart]" in run.output and "battle cards carry 2 backs (back, back-type-battle)" \
        in run.output
    run = run_cli("--cards", str(CARDS), "export", "print-shop", str(pack), "--profile", "pdf", "--locale", "en",
                  "--out", str(tmp_path / "alone"))
    assert run.exit_code == 0 and "back-tells-apart" not in run.output, run.output
