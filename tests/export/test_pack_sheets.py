"""Packs in every command (issue 33): sheet export/import round-trips a pack's cards and translations, a missing
back template is an error at its pack.json pointer, and backs that give a hidden card away are a warning.

The logic runs on a small pack of the fixture game ``mini``; only the print-shop export of a merged deck (slow)
runs end to end on the shipped game and its example pack."""

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
from cardworks.i18n import source_hash
from conftest import REPO, GameDir, run_cli, snapshot

CARDS = REPO / "cards"


def _mini_pack(folder: Path) -> Path:
    """A pack of the fixture game ``mini``: a treasure and a battle card, and its own Spanish translation."""
    rules = "Worth one {treasure} at the end."
    es = "Vale un {treasure} al final."
    files = {
        "pack.json": {"$schema": "../../schema/pack.schema.json", "id": "seafood", "extends": "mini",
                      "name": "Seafood"},
        "sets/seafood.json": {
            "$schema": "../../../schema/set.schema.json", "id": "seafood-set", "name": "Seafood",
            "totals": {"designs": 2, "cards": 3, "by_type": {"treasure": 1, "battle": 2}},
            "cards": [
                {"id": "gamba", "quantity": 1, "types": ["treasure"], "attributes": {"treasure-kind": "ingredient"},
                 "name": "gamba", "rules": rules, "sources": [{"doc": "rules", "section": "Cards", "lines": "1"}]},
                {"id": "cavaller", "quantity": 2, "types": ["battle"], "stats": {"attack": 3, "defence": 2},
                 "name": "cavaller", "sources": [{"doc": "rules", "section": "Cards", "lines": "1"}]},
            ],
        },
        "i18n/es.json": {
            "$schema": "../../../schema/translations.schema.json", "game": "mini", "locale": "es",
            "entries": {"gamba": {"rules": {"text": es, "source_hash": source_hash(rules), "source": rules},
                                  "name": {"text": "gamba", "source_hash": source_hash("gamba"), "source": "gamba"}},
                        "cavaller": {"name": {"text": "cavaller", "source_hash": source_hash("cavaller"), "source": "cavaller"}},
                        "seafood-set": {"name": {"text": "Marisco", "source_hash": source_hash("Seafood"),
                                                 "source": "Seafood"}}},
        },
    }
    for relative, content in files.items():
        (folder / relative).parent.mkdir(parents=True, exist_ok=True)
        (folder / relative).write_text(json.dumps(content, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return folder


@pytest.fixture
def cards(game: GameDir) -> Path:
    """The fixture game the logic tests' pack extends."""
    game.write()
    return game.cards_root


@pytest.fixture
def pack(cards: Path, tmp_path: Path) -> Path:
    return _mini_pack(tmp_path / "pack")


@pytest.fixture
def example_pack(tmp_path: Path) -> Path:
    """The shipped example pack, for the end-to-end export of a merged Fallera deck."""
    shutil.copytree(REPO / "examples" / "fallera-pack", tmp_path / "example-pack")
    return tmp_path / "example-pack"


def _rows(path: Path) -> list[list[str]]:
    return list(csv.reader(path.open(encoding="utf-8")))


def test_a_pack_given_as_the_cards_folder_is_a_usage_error(pack: Path, tmp_path: Path) -> None:
    run = run_cli("--cards", str(pack), "sheet", "export", "--out", str(tmp_path / "x.csv"))
    assert run.exit_code == 2 and "is a pack, not a cards folder" in run.output, run.output
    assert "Traceback" not in run.output and not (tmp_path / "x.csv").exists()


@pytest.mark.parametrize("suffix", ["csv", "xlsx"])
def test_pack_sheet_round_trip_changes_no_byte(cards: Path, pack: Path, tmp_path: Path, suffix: str) -> None:
    before = snapshot(pack)
    sheet = tmp_path / f"pack.{suffix}"
    run = run_cli("--cards", str(cards), "sheet", "export", str(pack), "--locale", "es", "--out", str(sheet))
    assert run.exit_code == 0, run.output
    if suffix == "csv":
        rows = _rows(sheet)
        ids = {row[1] for row in rows[1:]}
        pack_ids = {c["id"] for c in json.loads((pack / "sets/seafood.json").read_text(encoding="utf-8"))["cards"]}
        assert ids == pack_ids  # the pack's own cards, no card of the game
        header = rows[0]
        gamba = next(row for row in rows if row[1] == "gamba")
        assert gamba[header.index("rules@es")].startswith("Vale un")  # the pack's own translation
    run = run_cli("--cards", str(cards), "sheet", "import", str(sheet), str(pack))
    assert run.exit_code == 0 and "0 file(s) written" in run.output, run.output
    assert snapshot(pack) == before


def test_pack_sheet_edits_reach_the_packs_own_files(cards: Path, pack: Path, tmp_path: Path) -> None:
    game_before = snapshot(cards)
    sheet = tmp_path / "pack.csv"
    run = run_cli("--cards", str(cards), "sheet", "export", str(pack), "--locale", "es", "--out", str(sheet))
    assert run.exit_code == 0, run.output
    rows = _rows(sheet)
    header = rows[0]
    for row in rows[1:]:
        if row[1] == "cavaller":
            row[header.index("rules")] = "Attacks with one more point against a {battle}."
        if row[1] == "gamba":
            row[header.index("name@es")] = "gamba de muestra"
    with sheet.open("w", encoding="utf-8", newline="") as handle:
        csv.writer(handle, lineterminator="\n").writerows(rows)
    run = run_cli("--cards", str(cards), "sheet", "import", str(sheet), str(pack))
    assert run.exit_code == 0, run.output
    assert "1 card(s) and 1 translation(s) changed; 2 file(s) written" in run.output
    cavaller = next(c for c in json.loads((pack / "sets/seafood.json").read_text(encoding="utf-8"))["cards"]
                    if c["id"] == "cavaller")
    assert cavaller["rules"] == "Attacks with one more point against a {battle}."
    entries = json.loads((pack / "i18n/es.json").read_text(encoding="utf-8"))["entries"]
    assert entries["gamba"]["name"]["text"] == "gamba de muestra"
    assert snapshot(cards) == game_before  # nothing of the game was touched
    run = run_cli("--cards", str(cards), "validate", str(pack), "--locale", "en")  # the new rules have no es text yet
    assert run.exit_code == 0, run.output


def test_a_bad_pack_sheet_edit_is_refused_naming_the_pack_file(cards: Path, pack: Path, tmp_path: Path) -> None:
    before = snapshot(pack)
    sheet = tmp_path / "pack.csv"
    assert run_cli("--cards", str(cards), "sheet", "export", str(pack), "--out", str(sheet)).exit_code == 0
    rows = _rows(sheet)
    header = rows[0]
    next(row for row in rows if row[1] == "cavaller")[header.index("quantity")] = "5"  # over the set's totals
    with sheet.open("w", encoding="utf-8", newline="") as handle:
        csv.writer(handle, lineterminator="\n").writerows(rows)
    run = run_cli("--cards", str(cards), "sheet", "import", str(sheet), str(pack))
    assert run.exit_code == 1 and f"{pack}/sets/seafood.json:/totals/cards" in run.output, run.output
    assert "cardworks-sheet-" not in run.output and snapshot(pack) == before


def _with_back(pack: Path, back: dict) -> Path:
    manifest = json.loads((pack / "pack.json").read_text(encoding="utf-8"))
    manifest["backs"] = {"battle": back}
    (pack / "pack.json").write_text(json.dumps(manifest), encoding="utf-8")
    return pack


def test_a_missing_back_template_is_an_error_at_its_pack_json_pointer(cards: Path, pack: Path) -> None:
    _with_back(pack, {"template": "cards/back-night.html.j2"})
    run = run_cli("--cards", str(cards), "validate", str(pack))
    assert run.exit_code == 1, run.output
    assert "pack.json:/backs/battle/template: [missing-template] back template 'cards/back-night.html.j2'" in run.output
    (pack / "templates" / "cards").mkdir(parents=True)
    (pack / "templates" / "cards" / "back-night.html.j2").write_text('<div class="back">night</div>\n')
    run = run_cli("--cards", str(cards), "validate", str(pack))
    assert run.exit_code == 0 and "missing-template" not in run.output, run.output


def test_a_back_template_escaping_its_folder_is_refused(cards: Path, pack: Path) -> None:
    _with_back(pack, {"template": "../../secret.html"})
    run = run_cli("--cards", str(cards), "validate", str(pack))
    assert run.exit_code == 1 and "pack.json:/backs/battle/template: [path-escape]" in run.output, run.output


def _navy(pack: Path) -> Path:
    (pack / "art").mkdir()
    Image.new("RGB", (830, 1130), (16, 32, 96)).save(pack / "art" / "navy.png")
    return _with_back(pack, {"art": "art/navy.png"})


def test_backs_that_tell_pack_cards_apart_in_a_merged_deck_are_found(game: GameDir, pack: Path) -> None:
    _navy(pack)
    db = load_database(game.root, [pack])
    merged = build_job(db, build_deck(db, "base+seafood-set"), "en")
    assert telltale_backs(merged) == {"battle": ["back", "back-type-battle"]}
    alone = build_job(db, build_deck(db, "seafood-set"), "en")  # the pack's own deck: one back per type
    assert telltale_backs(alone) == {}


def test_cards_of_another_size_are_not_said_to_tell_apart(game: GameDir, pack: Path) -> None:
    """Issue 44: the warning fired on every build of a pack with a second card size (each size has backs of its
    own). Battle cards at two sizes: no warning, with or without a back of the pack's; two backs among the
    battle cards of one size: the warning, naming the type with that size."""
    sets = pack / "sets" / "seafood.json"
    data = json.loads(sets.read_text(encoding="utf-8"))
    data["card_size"] = {"width_mm": 70, "height_mm": 70}
    sets.write_text(json.dumps(data), encoding="utf-8")
    for navy in (False, True):
        if navy:
            _navy(pack)
        db = load_database(game.root, [pack])
        merged = build_job(db, build_deck(db, "base+seafood-set"), "en")
        battles = {(face.trim_w, face.back) for face in merged.faces if not face.is_back and face.type == "battle"}
        assert {width for width, _ in battles} == {63, 70} and len(battles) == 2, battles
        assert telltale_backs(merged) == {}, navy
    extra = {**data, "id": "extra-set", "name": "Extra", "cards": [{**data["cards"][1], "id": "remer", "name": "remer"}]}
    del extra["card_size"], extra["totals"]  # the game's size, the pack's navy battle back
    (pack / "sets" / "extra.json").write_text(json.dumps(extra), encoding="utf-8")
    db = load_database(game.root, [pack])
    merged = build_job(db, build_deck(db, "base+seafood-set+extra-set"), "en")
    assert telltale_backs(merged) == {"battle 63 × 88 mm": ["back", "back-type-battle"]}


@pytest.mark.slow
def test_a_merged_deck_export_warns_naming_the_types(example_pack: Path, tmp_path: Path) -> None:
    """End to end on the shipped game and example pack: the warning reaches a real print-shop export."""
    pack = _navy(example_pack)
    run = run_cli("--cards", str(CARDS), "export", "print-shop", str(pack), "--set", "discordia+example-set",
                  "--profile", "pdf", "--locale", "en", "--out", str(tmp_path / "shop"))
    assert run.exit_code == 0, run.output
    assert "warning: [back-tells-apart]" in run.output and "battle cards carry 2 backs (back, back-type-battle)" \
        in run.output
    run = run_cli("--cards", str(CARDS), "export", "print-shop", str(pack), "--profile", "pdf", "--locale", "en",
                  "--out", str(tmp_path / "alone"))
    assert run.exit_code == 0 and "back-tells-apart" not in run.output, run.output
