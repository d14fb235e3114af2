"""A game without rules (declared card fields): made from a sheet, validated against its generated schema,
refused plainly by check and simulate, and updated from its sheet with new and dropped rows."""

from __future__ import annotations

import csv
import json
from pathlib import Path

from conftest import GameDir, run_cli, snapshot
from own_sheets import HEADER, ROWS, designer, write_csv


def made(tmp_path: Path) -> Path:
    """The game ``emberfall`` made by ``cardworks new`` from the small designer's sheet."""
    sheet, art = designer(tmp_path)
    run = run_cli("new", str(tmp_path / "emberfall"), "--from", str(sheet), "--art", str(art))
    assert run.exit_code == 0, run.output
    assert "warning" not in run.output  # every picture is used (the art column names them)
    return tmp_path / "emberfall"


def test_new_declares_the_fields_and_mints_ids_from_names(tmp_path: Path) -> None:
    game = made(tmp_path)
    declared = json.loads((game / "game.json").read_text(encoding="utf-8"))
    assert [(f["id"], f["kind"]) for f in declared["card_fields"]] == [
        ("name", "title"), ("type", "type"), ("cost", "number"), ("power", "number"), ("text", "text"),
        ("art", "image"), ("quantity", "quantity"), ("element", "choice"), ("flavour", "flavour"), ("artist", "credit")]
    assert [(s["id"], s["min"], s["max"]) for s in declared["stats"]] == [("cost", 1, 3), ("power", 0, 9)]
    assert [f.get("corner") for f in declared["card_fields"] if f["kind"] == "number"] == ["top-left", "top-right"]
    cards = json.loads((game / "sets" / "cards.json").read_text(encoding="utf-8"))
    assert [c["id"] for c in cards["cards"]] == ["fire-drake", "ice-wall", "spark"]
    assert cards["cards"][0]["types"] == ["creature"] and cards["cards"][0]["attributes"] == {"element": "fire"}
    assert cards["cards"][0]["art"] == "art/fire-drake.png" and (game / "art" / "fire-drake.png").is_file()
    assert cards["totals"] == {"designs": 3, "cards": 6, "by_type": {"creature": 2, "spell": 4}}
    assert cards["$schema"] == "../schema/set.schema.json"
    schema = json.loads((game / "schema" / "set.schema.json").read_text(encoding="utf-8"))
    card = schema["$defs"]["CardDesign"]
    assert card["properties"]["stats"]["properties"]["power"] == {
        "type": "integer", "minimum": 0, "maximum": 9, "description": "power (number)", "x-field": "power"}
    assert card["additionalProperties"] is False and "effects" not in card["properties"]
    variables = (game / "schema" / "template-variables.md").read_text(encoding="utf-8")
    assert "| `face.values.cost` | number | the number as printed (text), or none; printed in the top-left corner |" \
        in variables
    run = run_cli("--cards", str(game), "validate")
    assert run.exit_code == 0 and "OK: 0 error(s), 0 warning(s)" in run.output, run.output


def test_validate_checks_cards_against_the_declared_schema(tmp_path: Path) -> None:
    game = made(tmp_path)
    path = game / "sets" / "cards.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    data["cards"][0]["stats"]["power"] = 12
    data["cards"][1]["effects"] = [{"do": "draw"}]  # the generic set schema takes effects; a declared game has none
    data["cards"][2]["attributes"]["element"] = "air"
    path.write_text(json.dumps(data, indent=2), encoding="utf-8")
    run = run_cli("--cards", str(game), "validate", "--format", "json")
    assert run.exit_code == 1
    found = {(p["pointer"], p["code"]) for p in run.problems}
    assert {("/cards/0/stats/power", "card-field"), ("/cards/1", "card-field"),
            ("/cards/2/attributes/element", "card-field")} <= found, found
    undeclared = [p["message"] for p in run.problems if p["pointer"] == "/cards/1"]
    assert undeclared == ["Additional properties are not allowed ('effects' was unexpected); the game declares no "
                          "such field (game.json card_fields)"]


def test_a_stale_or_missing_schema_names_the_command_that_writes_it(tmp_path: Path) -> None:
    game = made(tmp_path)
    declared = json.loads((game / "game.json").read_text(encoding="utf-8"))
    declared["stats"][1]["max"] = 10
    (game / "game.json").write_text(json.dumps(declared, indent=2), encoding="utf-8")
    run = run_cli("--cards", str(game), "validate", "--format", "json")
    assert run.exit_code == 1
    assert [p["code"] for p in run.problems if p["file"].endswith("set.schema.json")] == ["schema-stale"]
    assert "schema --game-folder" in run.problems[0]["message"]
    assert run_cli("--cards", str(game), "schema", "--game-folder").exit_code == 0
    assert run_cli("--cards", str(game), "validate").exit_code == 0


def test_a_declaration_without_its_stat_or_title_is_refused(tmp_path: Path) -> None:
    game = made(tmp_path)
    declared = json.loads((game / "game.json").read_text(encoding="utf-8"))
    declared["card_fields"] = [f for f in declared["card_fields"] if f["kind"] != "title"]
    declared["card_fields"].append({"id": "speed", "kind": "number", "corner": "top-left"})
    declared["card_fields"].append({"id": "mood", "kind": "text"})
    (game / "game.json").write_text(json.dumps(declared, indent=2), encoding="utf-8")
    run = run_cli("--cards", str(game), "validate", "--format", "json")
    codes = sorted(p["code"] for p in run.problems)
    assert run.exit_code == 1
    assert codes == ["field-corner", "field-missing", "field-repeated", "field-unknown-stat"], run.problems


def test_check_says_there_are_no_rules_and_simulate_refuses(tmp_path: Path) -> None:
    game = made(tmp_path)
    run = run_cli("--cards", str(game), "check")
    assert run.exit_code == 0
    assert "game 'emberfall' has no rules to play" in run.output
    run = run_cli("--cards", str(game), "simulate", "--games", "1")
    assert run.exit_code == 1
    assert "game 'emberfall' has no rules to play" in run.output and "'simulate' has nothing to run" in run.output
    assert run_cli("--cards", str(tmp_path), "check", "--game", "emberfall").exit_code == 0  # a folder of games too


def test_sheet_round_trip_adds_a_row_as_a_card_and_removes_only_when_told(tmp_path: Path) -> None:
    game = made(tmp_path)
    exported = tmp_path / "export.csv"
    assert run_cli("--cards", str(game), "sheet", "export", "--out", str(exported)).exit_code == 0
    rows = list(csv.reader(exported.open(encoding="utf-8", newline="")))
    head = rows[0]
    assert head[:6] == ["set", "id", "name", "type", "cost", "power"]  # the declared fields' own names
    rows[1][head.index("cost")] = "2"
    added = [""] * len(head)
    for column, value in {"set": "cards", "name": "Stone Golem", "type": "Creature", "cost": "3", "element": "Water",
                          "quantity": "1", "text": "Blocks all."}.items():
        added[head.index(column)] = value
    dropped = [row for row in rows if row[1] != "ice-wall"] + [added]
    edited = tmp_path / "edited.csv"
    write_csv(edited, dropped[0], dropped[1:])
    run = run_cli("--cards", str(game), "sheet", "import", str(edited))
    assert run.exit_code == 0, run.output
    assert "1 added (stone-golem)" in run.output and "card 'ice-wall' (set 'cards') is in no row" in run.output
    cards = json.loads((game / "sets" / "cards.json").read_text(encoding="utf-8"))
    ids = [c["id"] for c in cards["cards"]]
    assert ids == ["fire-drake", "ice-wall", "spark", "stone-golem"]
    golem = cards["cards"][3]
    assert golem["types"] == ["creature"] and golem["attributes"] == {"element": "water"} and golem["stats"] == {"cost": 3}
    assert golem["sources"] == [{"doc": "sheet", "facts": ["quantity", "types", "name", "attributes", "stats", "rules"]}]
    assert cards["cards"][0]["stats"]["cost"] == 2
    assert cards["totals"] == {"designs": 4, "cards": 7, "by_type": {"creature": 3, "spell": 4}}
    again = tmp_path / "again.csv"
    assert run_cli("--cards", str(game), "sheet", "export", "--out", str(again)).exit_code == 0
    kept = [row for row in csv.reader(again.open(encoding="utf-8", newline="")) if row[1] != "ice-wall"]
    write_csv(again, kept[0], kept[1:])
    run = run_cli("--cards", str(game), "sheet", "import", str(again), "--remove-missing")
    assert run.exit_code == 0 and "1 removed (ice-wall)" in run.output, run.output
    cards = json.loads((game / "sets" / "cards.json").read_text(encoding="utf-8"))
    assert [c["id"] for c in cards["cards"]] == ["fire-drake", "spark", "stone-golem"]
    assert run_cli("--cards", str(game), "validate").exit_code == 0


def test_reimporting_the_original_sheet_finds_cards_by_the_ids_their_names_mint(tmp_path: Path) -> None:
    game = made(tmp_path)
    before = snapshot(game)
    run = run_cli("--cards", str(game), "sheet", "import", str(tmp_path / "cards.csv"))
    assert run.exit_code == 1  # its art column names files of the art folder, not of the game folder
    assert "art" in run.output and snapshot(game) == before
    rows = [row[:5] + row[6:] for row in ROWS]
    rows[1][4] = "Stops two attacks."
    sheet = write_csv(tmp_path / "plain.csv", HEADER[:5] + HEADER[6:], rows)
    run = run_cli("--cards", str(game), "sheet", "import", str(sheet))
    assert run.exit_code == 0, run.output
    assert "1 card(s)" in run.output and "added" not in run.output
    cards = json.loads((game / "sets" / "cards.json").read_text(encoding="utf-8"))
    assert cards["cards"][1]["rules"] == "Stops two attacks."


def test_remove_missing_is_refused_for_a_game_with_rules(game: GameDir, tmp_path: Path) -> None:
    game.write()
    sheet = tmp_path / "s.csv"
    assert run_cli("--cards", str(game.cards_root), "sheet", "export", "--out", str(sheet)).exit_code == 0
    run = run_cli("--cards", str(game.cards_root), "sheet", "import", str(sheet), "--remove-missing")
    assert run.exit_code == 2 and "--remove-missing is for a game without rules" in run.output


def test_a_reimported_cell_that_does_not_fit_its_declared_field_is_an_error_at_its_cell(tmp_path: Path) -> None:
    game = made(tmp_path)
    exported = tmp_path / "export.csv"
    assert run_cli("--cards", str(game), "sheet", "export", "--out", str(exported)).exit_code == 0
    rows = list(csv.reader(exported.open(encoding="utf-8", newline="")))
    head = rows[0]
    rows[1][head.index("power")] = "10"
    rows[2][head.index("element")] = "Air"
    added = [""] * len(head)
    for column, value in {"name": "Trap Door", "type": "Trap", "set": "cards"}.items():
        added[head.index(column)] = value
    write_csv(exported, head, [*rows[1:], added])
    before = snapshot(game)
    run = run_cli("--cards", str(game), "sheet", "import", str(exported))
    assert run.exit_code == 1
    column = {name: chr(ord("A") + index) for index, name in enumerate(head)}
    assert f"export.csv!{column['power']}2: [sheet-type] row 2, column 'power': 10 is outside 0-9" in run.output
    assert f"export.csv!{column['element']}3: [sheet-type] row 3, column 'element': 'Air' is not one of Fire, Water" \
        in run.output
    assert f"export.csv!{column['type']}5: [sheet-type] row 5, column 'type': no type 'Trap': the game's types are " \
        "Creature, Spell" in run.output
    assert snapshot(game) == before


def test_commands_run_inside_the_game_folder_take_it_as_the_game(tmp_path: Path, monkeypatch) -> None:
    game = made(tmp_path)
    monkeypatch.chdir(game)
    run = run_cli("validate", "--format", "json")
    assert run.exit_code == 0 and run.problems == []
    run = run_cli("cards")
    assert run.exit_code == 0 and "fire-drake" in run.output and "Fire Drake" in run.output
    assert "has no rules to play" in run_cli("check").output


def test_a_pack_extends_a_game_without_rules_and_its_cards_meet_the_same_schema(tmp_path: Path) -> None:
    game = made(tmp_path)
    pack = tmp_path / "pack"
    (pack / "sets").mkdir(parents=True)
    (pack / "pack.json").write_text(json.dumps({"$schema": "../emberfall/schema/pack.schema.json", "id": "more",
                                                "extends": "emberfall", "name": "More"}), encoding="utf-8")
    card = {"id": "moth", "quantity": 1, "types": ["spell"], "name": "Moth", "stats": {"power": 12},
            "rules": "Flutters.", "sources": [{"doc": "sheet", "facts": ["name"]}]}
    (pack / "sets" / "more.json").write_text(json.dumps({"$schema": "../../emberfall/schema/set.schema.json",
                                                         "id": "more-set", "name": "More", "cards": [card]}), encoding="utf-8")
    run = run_cli("--cards", str(game), "validate", str(pack), "--format", "json")
    assert run.exit_code == 1
    assert ("/cards/0/stats/power", "card-field") in {(p["pointer"], p["code"]) for p in run.problems
                                                      if p["file"].endswith("more.json")}
    card["stats"]["power"] = 2
    (pack / "sets" / "more.json").write_text(json.dumps({"$schema": "../../emberfall/schema/set.schema.json",
                                                         "id": "more-set", "name": "More", "cards": [card]}), encoding="utf-8")
    assert run_cli("--cards", str(game), "validate", str(pack)).exit_code == 0
    run = run_cli("--cards", str(game), "check", "--pack", str(pack))
    assert run.exit_code == 0 and "has no rules to play" in run.output


def test_a_back_column_gives_each_card_type_its_back(tmp_path: Path) -> None:
    from PIL import Image

    sheet, art = designer(tmp_path, [*HEADER, "back"], [[*row, "spell-back.png" if row[1] == "Spell" else "creature-back.png"]
                                                      for row in ROWS])
    for name, colour in (("spell-back", (20, 40, 160)), ("creature-back", (160, 40, 20))):
        Image.new("RGB", (830, 1120), colour).save(art / f"{name}.png")  # trim and bleed at 300 dpi
    run = run_cli("new", str(tmp_path / "backs"), "--from", str(sheet), "--art", str(art))
    assert run.exit_code == 0, run.output
    declared = json.loads((tmp_path / "backs" / "game.json").read_text(encoding="utf-8"))
    assert declared["backs"] == {"creature": {"art": "art/back-creature.png"}, "spell": {"art": "art/back-spell.png"}}
    assert "back" not in [f["id"] for f in declared["card_fields"]]
    run = run_cli("--cards", str(tmp_path / "backs"), "validate", "--format", "json")
    assert run.exit_code == 0 and run.problems == [], run.problems


def test_a_sheet_of_one_set_removes_nothing_of_the_others(tmp_path: Path) -> None:
    rows = [[*row, "big" if number else "small"] for number, row in enumerate(ROWS)]
    sheet, art = designer(tmp_path, [*HEADER, "set"], rows)
    assert run_cli("new", str(tmp_path / "two"), "--from", str(sheet), "--art", str(art)).exit_code == 0
    game = tmp_path / "two"
    small = tmp_path / "small.csv"
    assert run_cli("--cards", str(game), "sheet", "export", "--set", "small", "--out", str(small)).exit_code == 0
    run = run_cli("--cards", str(game), "sheet", "import", str(small), "--remove-missing")
    assert run.exit_code == 0 and "removed" not in run.output and "is in no row" not in run.output, run.output
    assert [c["id"] for c in json.loads((game / "sets" / "big.json").read_text(encoding="utf-8"))["cards"]] == \
        ["ice-wall", "spark"]


def test_a_removed_card_takes_its_translations_with_it(tmp_path: Path) -> None:
    rows = [[*row, name] for row, name in zip(ROWS, ("Drac de foc", "Mur de gel", "Espurna"))]
    sheet, art = designer(tmp_path, [*HEADER, "name@ca"], rows)
    assert run_cli("new", str(tmp_path / "tr"), "--from", str(sheet), "--art", str(art)).exit_code == 0
    game = tmp_path / "tr"
    exported = tmp_path / "e.csv"
    assert run_cli("--cards", str(game), "sheet", "export", "--out", str(exported)).exit_code == 0
    kept = [row for row in csv.reader(exported.open(encoding="utf-8", newline="")) if row[1] != "spark"]
    write_csv(exported, kept[0], kept[1:])
    run = run_cli("--cards", str(game), "sheet", "import", str(exported), "--remove-missing")
    assert run.exit_code == 0 and "1 removed (spark)" in run.output, run.output
    entries = json.loads((game / "i18n" / "ca.json").read_text(encoding="utf-8"))["entries"]
    assert "spark" not in entries and entries["ice-wall"]["name"]["text"] == "Mur de gel"
    assert run_cli("--cards", str(game), "validate", "--locale", "en").exit_code == 0  # ca names only: a ca build needs the rest


def test_a_picture_no_card_uses_is_said(tmp_path: Path) -> None:
    sheet, art = designer(tmp_path)
    (art / "stray.png").write_bytes((art / "drake.png").read_bytes())
    run = run_cli("new", str(tmp_path / "said"), "--from", str(sheet), "--art", str(art))
    assert run.exit_code == 0
    assert [line for line in run.output.splitlines() if line.startswith("warning:")] == [
        f"warning: {art / 'stray.png'}: no card uses this picture (name it as a card's id, or give an art column)"]
