"""What ``cardworks new`` names itself when the sheet does not: one copy of each card without a quantity column
(the documented rule, so the kit's contents say how many the sheet gives), and the default set "Cards" and type
"Card" in every language the sheet is translated into, from the documents' own labels."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import run_cli
from own_sheets import write_csv

HEADER = ["name", "text", "name@es", "text@es", "cost:number"]
ROWS = [["Fire Drake", "Burn a card.", "Draco de fuego", "Quema una carta.", "3"],
        ["Ice Wall", "Block one attack.", "Muro de hielo", "Bloquea un ataque.", "2"]]


def made(tmp_path: Path, *options: str) -> tuple[Path, str]:
    sheet = write_csv(tmp_path / "cards.csv", HEADER, ROWS)
    run = run_cli("new", str(tmp_path / "mygame"), "--from", str(sheet), *options)
    assert run.exit_code == 0, run.output
    return tmp_path / "mygame", run.output


def test_no_quantity_column_is_one_copy_each_and_the_totals_say_so(tmp_path: Path) -> None:
    game, _ = made(tmp_path)
    cards = json.loads((game / "sets" / "cards.json").read_text(encoding="utf-8"))
    assert [card["quantity"] for card in cards["cards"]] == [1, 1]
    assert cards["totals"] == {"designs": 2, "cards": 2, "by_type": {"card": 2}}
    assert "quantity" in cards["cards"][0]["sources"][0]["facts"]


def test_the_names_new_made_are_translated_and_the_missing_game_name_is_said(tmp_path: Path) -> None:
    game, output = made(tmp_path)
    assert "[sheet-translation]" in output and "--name 'es=NAME'" in output
    entries = json.loads((game / "i18n" / "es.json").read_text(encoding="utf-8"))["entries"]
    assert entries["cards"]["name"]["text"] == "Cartas" and entries["cards"]["name"]["source"] == "Cards"
    assert entries["mygame"]["card_types/card/name"]["text"] == "Carta"
    assert "name" not in entries["mygame"]  # the game's name is the designer's to give: never made up


def test_a_translated_sheet_without_set_or_type_columns_validates_in_its_language(tmp_path: Path) -> None:
    game, output = made(tmp_path, "--name", "es=Mi juego")
    assert "[sheet-translation]" not in output
    run = run_cli("--cards", str(game), "validate", "--locale", "es")
    assert run.exit_code == 0, run.output


def test_a_locale_cardworks_has_no_words_for_is_a_warning(tmp_path: Path) -> None:
    sheet = write_csv(tmp_path / "cards.csv", ["name", "name@de"], [["Fire Drake", "Feuerdrache"]])
    run = run_cli("new", str(tmp_path / "mygame"), "--from", str(sheet), "--name", "de=Mein Spiel")
    assert run.exit_code == 0, run.output
    assert "cardworks has no de word for the 'Cards'" in run.output
    assert "cardworks has no de word for the 'Card'" in run.output


def test_two_runs_at_once_one_game_stands_and_the_other_says_so(tmp_path: Path, monkeypatch) -> None:
    from cardworks.errors import UsageError
    from cardworks.export import own_game

    validated = own_game._validated

    def other_run_finishes_first(made: Path, folder: Path):  # the other run renames its game into place meanwhile
        (folder / "sets").mkdir(parents=True)
        (folder / "sets" / "theirs.json").write_text("{}", encoding="utf-8")
        return validated(made, folder)

    monkeypatch.setattr(own_game, "_validated", other_run_finishes_first)
    sheet = write_csv(tmp_path / "cards.csv", HEADER, ROWS)
    try:
        own_game.make_game(tmp_path / "mygame", sheet, None, [], [], "en", None, None)
    except UsageError as exc:
        assert "was made by another run" in str(exc) and "nothing written by this run" in str(exc)
    else:
        raise AssertionError("the second run replaced the first one's game")
    assert [p.name for p in (tmp_path / "mygame").rglob("*")] == ["sets", "theirs.json"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cards.csv", "mygame"]  # no staging folder left behind
