"""Facts from the owner's own copy: the sheet of unknowns, its import into an overlay, and what the overlay
changes downstream (validate, check, build) without touching the shipped database."""

from __future__ import annotations

import csv
import hashlib
import io
import json
import re
import subprocess
from pathlib import Path

import pytest

from cardworks.loading.database import Database, load_game
from cardworks.loading.overlay import use_owner_facts
from cardworks.loading.records import Index
from cardworks.engine.unknowns import area_certainty
from cardworks.models.base import Source
from cardworks.models.certainty import printed_plain
from cardworks.render.marks import marked
from cardworks.validate.cache import verdict_key
from conftest import REPO, run_cli
from synthetic import fill

CARDS = REPO / "cards"
GAMES = ("fallera", "calavera", "diables")


def tree_hash(folder: Path) -> str:
    """One digest of every file's path and bytes under ``folder``."""
    digest = hashlib.sha256()
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        digest.update(path.relative_to(folder).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def card_types(game: str) -> dict[str, list[str]]:
    use_owner_facts(None)
    index = Index(Database(game=load_game(CARDS / game)))
    return {r.id: list(r.model.types) for r in index.of_kind("card")}


def export(game: str, out: Path) -> list[dict[str, str]]:
    run = run_cli("--cards", str(CARDS), "facts", "export", "--game", game, "--out", str(out))
    assert run.exit_code == 0, run.output
    return list(csv.DictReader(io.StringIO(out.read_text(encoding="utf-8"))))


def filled_overlay(game: str, tmp_path: Path) -> Path:
    """The synthetic values of every unknown of ``game``, imported into ``tmp_path/overlay``."""
    sheet, filled, overlay = tmp_path / f"{game}.csv", tmp_path / f"{game}-filled.csv", tmp_path / "overlay"
    export(game, sheet)
    fill(sheet, filled, card_types(game))
    run = run_cli("--cards", str(CARDS), "facts", "import", str(filled), "--out", str(overlay))
    assert run.exit_code == 0, run.output
    return overlay


def test_the_sheet_lists_every_kind_of_unknown_of_each_game(tmp_path: Path) -> None:
    fields = {game: {row["field"].split("/")[0] if not row["field"].startswith("stats/") else row["field"]
                     for row in export(game, tmp_path / f"{game}.csv")} for game in GAMES}
    assert {"quantity", "types", "set", "stats/attack", "stats/defence", "stats/sell", "rules", "effects",
            "sides"} <= fields["fallera"]
    assert fields["calavera"] == {"rows", "faces"}  # the score sheet's values and the dice faces
    assert fields["diables"] == {"quantity", "name", "rules", "attributes", "areas"}  # the unlisted cards, the boards
    slots = {row["id"] for row in export("diables", tmp_path / "d.csv") if row["id"].startswith("owner-")}
    assert len(slots) == 108  # 124 cards declared, 16 beasts listed
    rows = export("fallera", tmp_path / "f.csv")
    assert list(rows[0]) == ["game", "id", "name", "field", "type as", "known", "stand-in", "value"]
    sangonera = {r["field"]: r for r in rows if r["id"] == "el-tio-sangonera"}
    assert sangonera["stats/attack"]["stand-in"] == "2" and sangonera["stats/attack"]["value"] == ""
    accesses = next(r for r in rows if r["field"] == "sides/expert/edges")
    assert "muntanyes-centrals + sud (inferred)" in accesses["known"]
    assert not any(r["id"] == "el-capita-moro" and r["field"] == "stats/attack" for r in rows)  # stated: not asked


def test_the_diables_sheet_asks_what_its_boards_show_and_only_what_no_source_gives(tmp_path: Path) -> None:
    rows = [r for r in export("diables", tmp_path / "d.csv") if r["field"].startswith("areas/")]
    boards = {(r["id"], r["field"]): r for r in rows}
    assert {r["id"] for r in rows} == {"main-board", "personal-player-board"}
    assert {r["name"] for r in rows} == {"Main board", "Personal player board"}  # the board's name, as in the box
    track = boards["main-board", "areas/follower-tracks/spaces"]
    assert (track["type as"], track["known"], track["stand-in"], track["value"]) == (
        "a whole number from 0 to 999", "Follower tracks: not given by the sources", "", "")
    assert boards["main-board", "areas/tabalada/columns"]["type as"] == "a whole number from 1 to 99"
    printed = boards["personal-player-board", "areas/colla-follower-actions/printed"]
    assert printed["type as"].startswith("card text") and "what is printed in it is not given" in printed["known"]
    assert boards["main-board", "areas/audience-areas/count"]["known"] == \
        "Audience areas: 4 (inferred; confirm or correct it)"  # the rulebook's arithmetic, to confirm
    stated = [("main-board", "areas/show-tile-spaces/spaces"), ("main-board", "areas/lluiment-tile-spaces/spaces"),
              ("main-board", "areas/follower-tracks/count"), ("personal-player-board", "areas/street/columns"),
              ("personal-player-board", "areas/street/rows"), ("personal-player-board", "areas/key/printed"),
              ("personal-player-board", "areas/tabaler-leader-spaces/spaces")]
    assert not [key for key in stated if key in boards]  # what the rulebook states is not asked
    assert ("personal-player-board", "areas/key/spaces") not in boards  # nor a value an area does not record
    assert len(rows) == 29


def test_the_xlsx_sheet_has_the_same_rows(tmp_path: Path) -> None:
    from openpyxl import load_workbook

    run = run_cli("--cards", str(CARDS), "facts", "export", "--game", "calavera", "--out", str(tmp_path / "c.xlsx"))
    assert run.exit_code == 0, run.output
    sheet = load_workbook(tmp_path / "c.xlsx").active
    assert sheet.title == "facts" and sheet.max_row == 1 + len(export("calavera", tmp_path / "c.csv"))


def test_every_unknown_filled_the_engine_leaves_out_only_cards_waiting_on_a_feature(tmp_path: Path) -> None:
    before = tree_hash(CARDS)
    shipped = run_cli("--cards", str(CARDS), "check", "--game", "fallera", "--playouts", "0", "--format", "json")
    overlay = filled_overlay("fallera", tmp_path)
    assert json.loads((overlay / "fallera.json").read_text())["$schema"] == "owner-facts.schema.json"
    assert (overlay / "owner-facts.schema.json").is_file()
    run = run_cli("--cards", str(CARDS), "--facts", str(overlay), "check", "--game", "fallera", "--playouts", "0",
                  "--format", "json")
    report = json.loads(run.output)
    assert all(s["passed"] for s in report["scenarios"]), [s for s in report["scenarios"] if not s["passed"]]
    left_out = report["left_out"]
    assert len(left_out) < len(json.loads(shipped.output)["left_out"])
    assert "el-tio-sangonera" not in left_out and "aeroport-fantasma" not in left_out
    others = {card: why for card, why in left_out.items()
              if ": needs " not in why and why != "optional card played only by agreement"}
    assert others == {}
    validated = run_cli("--cards", str(CARDS), "--facts", str(overlay), "validate", "--locale", "en", "--format", "json")  # owner texts are English: ca/es kits need --allow-fallback
    assert validated.exit_code == 0, validated.output
    assert tree_hash(CARDS) == before  # the shipped database never receives the values


@pytest.mark.parametrize("game", ["calavera", "diables"])
def test_the_other_games_take_their_filled_sheets(tmp_path: Path, game: str) -> None:
    before = tree_hash(CARDS)
    overlay = filled_overlay(game, tmp_path)
    run = run_cli("--cards", str(CARDS), "--facts", str(overlay), "validate", "--locale", "en")
    assert run.exit_code == 0, run.output
    use_owner_facts(overlay)
    try:
        index = Index(Database(game=load_game(CARDS / game)))
    finally:
        use_owner_facts(None)
    owner = [r.id for r in index.records if any(s.certainty == "owner" for s in getattr(r.model, "sources", []) or [])]
    assert owner  # the values arrive, cited as the owner's copy
    if game == "diables":
        cards = [r.model for r in index.of_kind("card")]
        assert len(cards) == 124 and sum(c.quantity for c in cards) == 124
        pavement = [c for c in cards if "pavement-spectator" in c.types]
        assert sorted(c.attributes["pavement-row"] for c in pavement) == ["lower"] * 24 + ["upper"] * 24
    assert tree_hash(CARDS) == before


def _edited(tmp_path: Path, edit, game: str = "fallera") -> tuple[Path, int]:
    """The exported sheet of ``game`` with one row edited by ``edit(rows)`` (which returns the row number)."""
    rows = export(game, tmp_path / "f.csv")
    number = edit(rows)
    out = tmp_path / "bad.csv"
    with out.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]), lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
    return out, number


def _row(rows: list[dict[str, str]], card: str, field: str) -> int:
    return next(i for i, r in enumerate(rows) if r["id"] == card and r["field"] == field)


def _set(card: str, field: str, value: str, **more: str):
    def edit(rows: list[dict[str, str]]) -> int:
        i = _row(rows, card, field)
        rows[i].update(value=value, **more)
        return i + 2  # the header is row 1
    return edit


def _moved_set(rows: list[dict[str, str]]) -> int:
    i = next(i for i, r in enumerate(rows) if r["field"] == "set")
    held = rows[i]["known"].split(" (")[0]
    rows[i]["value"] = next(s for s in ("base", "discordia", "mes-enlla") if s != held)
    return i + 2


def _known_field(rows: list[dict[str, str]]) -> int:
    rows.append({**rows[0], "id": "el-capita-moro", "name": "el capità moro", "field": "stats/attack", "value": "5"})
    return len(rows) + 1


def _nameless(rows: list[dict[str, str]]) -> int:
    i = _row(rows, "owner-street-spectator-01", "rules")
    rows[i]["value"] = "Cheers for the diables."
    return i + 2


def _too_many(rows: list[dict[str, str]]) -> int:
    for row in rows:
        if row["field"] == "quantity" and row["id"] in {"conill", "el-tio-sangonera"}:
            row["value"] = "60"
    return _row(rows, "el-tio-sangonera", "quantity") + 2


BAD = {
    "wrong type": (_set("el-tio-sangonera", "stats/attack", "strong"), "H", "bad-value", "a whole number is wanted"),
    "out of range": (_set("el-tio-sangonera", "stats/attack", "11"), "H", "bad-value", "11 is outside 0..10"),
    "unknown id": (_set("el-tio-sangonera", "stats/attack", "2", id="el-tio-nobody"), "B", "dangling-ref",
                   "unknown id 'el-tio-nobody'"),
    "bad token": (_set("el-tio-sangonera", "rules", "Steals a {nonesuch} card."), "H", "unknown-token", "nonesuch"),
    "known field": (_known_field, "H", "owner-over-fact", "only fills unknowns"),
    "a choice the game lacks": (_set("conill", "attributes/ingredient-category", "spicy"), "H", "bad-value",
                                "unknown id 'spicy'"),
    "a set it is not in": (_moved_set, "H", "bad-value", "confirm its set, not move it"),
    "more cards than the set declares": (_too_many, "H", "set-total-exceeded", "the set declares 102"),
    "a new card without its name": (_nameless, "H", "missing-field", "give its name too"),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_a_bad_sheet_fails_at_its_cell_and_writes_nothing(tmp_path: Path, case: str) -> None:
    edit, column, code, message = BAD[case]
    sheet, number = _edited(tmp_path, edit, "diables" if edit is _nameless else "fallera")
    run = run_cli("--cards", str(CARDS), "facts", "import", str(sheet), "--out", str(tmp_path / "overlay"))
    assert run.exit_code == 1, run.output
    lines = [line for line in run.output.splitlines() if f"[{code}]" in line]
    assert lines, run.output
    assert lines[0].startswith(f"{sheet}:bad.csv!{column}{number}: [{code}]"), lines
    assert message in lines[0]
    assert "nothing written" in run.output and not (tmp_path / "overlay").exists()


def _board_cell(field: str, value: str):
    return _set("main-board" if not field.startswith("personal:") else "personal-player-board",
                field.removeprefix("personal:"), value)


BAD_BOARD = {
    "too many spaces": (_board_cell("areas/follower-tracks/spaces", "1000"), "bad-value", "1000 is outside 0..999"),
    "no columns": (_board_cell("areas/tabalada/columns", "0"), "bad-value", "0 is outside 1..99"),
    "words for a count": (_board_cell("personal:areas/pavement-spaces/spaces", "six"), "bad-value",
                          "a whole number is wanted"),
    "a bad token in what is printed": (_board_cell("areas/sound-track/printed", "A {nonesuch} every 4 spaces."),
                                       "bad-value", "nonesuch"),
}


@pytest.mark.parametrize("case", sorted(BAD_BOARD))
def test_a_bad_board_value_fails_at_its_cell_and_writes_nothing(tmp_path: Path, case: str) -> None:
    edit, code, message = BAD_BOARD[case]
    sheet, number = _edited(tmp_path, edit, "diables")
    run = run_cli("--cards", str(CARDS), "facts", "import", str(sheet), "--out", str(tmp_path / "overlay"))
    assert run.exit_code == 1, run.output
    lines = [line for line in run.output.splitlines() if f"[{code}]" in line or "[unknown-token]" in line]
    assert lines and lines[0].startswith(f"{sheet}:bad.csv!H{number}: "), run.output
    assert message in lines[0]
    assert "nothing written" in run.output and not (tmp_path / "overlay").exists()


@pytest.mark.parametrize("value, where, code", [
    ({"target": "personal-player-board", "field": "areas/key/spaces", "value": 3}, "/values/0/field", "dangling-ref"),
    ({"target": "main-board", "field": "areas/sound-track/spaces", "value": -1}, "/values/0/value", "out-of-range"),
    ({"target": "main-board", "field": "areas/show-tile-spaces/spaces", "value": 5}, "/values/0/value",
     "owner-over-fact"),
    ({"target": "main-board", "field": "areas/nowhere/spaces", "value": 5}, "/values/0/field", "dangling-ref"),
])
def test_a_hand_written_board_value_is_checked_at_its_place(tmp_path: Path, value: dict, where: str, code: str) -> None:
    folder = tmp_path / "facts"
    folder.mkdir()
    (folder / "diables.json").write_text(json.dumps({"$schema": "owner-facts.schema.json", "game": "diables",
                                                      "values": [value]}), encoding="utf-8")
    run = run_cli("--cards", str(CARDS), "--facts", str(folder), "validate", "--locale", "en")
    assert run.exit_code == 1
    assert f"diables.json:{where}: [" in run.output and code in run.output, run.output


def _overlay(tmp_path: Path, values: list[dict], game: str = "fallera") -> Path:
    folder = tmp_path / "facts"
    folder.mkdir()
    (folder / "fallera.json").write_text(json.dumps({"$schema": "owner-facts.schema.json", "game": game,
                                                      "values": values}), encoding="utf-8")
    return folder


@pytest.mark.parametrize("values, game, where, code", [
    ([{"target": "el-capita-moro", "field": "stats/attack", "value": 5}], "fallera", "/values/0/value", "owner-over-fact"),
    ([{"target": "nobody", "field": "quantity", "value": 2}], "fallera", "/values/0/target", "dangling-ref"),
    ([{"target": "conill", "field": "quantity", "value": "two"}], "fallera", "/values/0/value", "wrong-type"),
    ([{"target": "conill", "field": "quantity", "value": 2}], "calavera", "/game", "wrong-game"),
])
def test_a_hand_written_overlay_is_checked_at_its_place(tmp_path: Path, values: list, game: str, where: str,
                                                         code: str) -> None:
    folder = _overlay(tmp_path, values, game)
    run = run_cli("--cards", str(CARDS), "--facts", str(folder), "validate", "--locale", "en")
    assert run.exit_code == 1
    assert f"fallera.json:{where}: [{code}]" in run.output, run.output


def test_an_owner_value_prints_with_no_mark_and_is_not_stated() -> None:
    owner = [Source(doc="owners-copy", certainty="owner", facts=["stats/attack"])]
    inferred = [Source(doc="d", certainty="inferred", facts=["stats/attack"])]
    assert printed_plain(owner, "stats/attack") and marked(3, owner, "stats/attack") == "3"
    assert not printed_plain(inferred, "stats/attack") and marked(3, inferred, "stats/attack") == "3†"


def test_the_overlay_is_part_of_the_validation_verdict(tmp_path: Path) -> None:
    folder = _overlay(tmp_path, [{"target": "conill", "field": "quantity", "value": 2}])
    plain = verdict_key(CARDS, None, "fallera")
    use_owner_facts(folder)
    try:
        first = verdict_key(CARDS, None, "fallera")
        (folder / "fallera.json").write_text((folder / "fallera.json").read_text().replace(": 2", ": 3"))
        second = verdict_key(CARDS, None, "fallera")
    finally:
        use_owner_facts(None)
    assert len({plain, first, second}) == 3


def test_the_overlay_lasts_one_command(tmp_path: Path) -> None:
    folder = _overlay(tmp_path, [{"target": "conill", "field": "quantity", "value": 2}])
    run_cli("--cards", str(CARDS), "--facts", str(folder), "validate")
    from cardworks.loading.overlay import owner_facts_folder

    assert owner_facts_folder() is None


def _pages(pdf: Path) -> list[str]:
    return subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True,
                          check=True).stdout.split("\f")


@pytest.mark.slow
def test_a_kit_built_with_every_unknown_filled_prints_no_unknown_and_no_stand_in_mark(tmp_path: Path) -> None:
    overlay = filled_overlay("fallera", tmp_path)
    before = tree_hash(CARDS)
    out = tmp_path / "build"
    run = run_cli("--cards", str(CARDS), "--facts", str(overlay), "build", "--game", "fallera", "--locale", "en",
                  "--no-docs", "--out", str(out))
    assert run.exit_code == 0, run.output
    use_owner_facts(overlay)
    try:
        index = Index(Database(game=load_game(CARDS / "fallera")))
    finally:
        use_owner_facts(None)
    cards = [r.model for r in index.of_kind("card") if not r.model.optional]
    assert all(card.rules for card in cards)  # no blank rules box is left to print
    other = {card.name for card in cards if card.attributes.get("treasure-kind") == "other"}
    shop = _pages(out / "fallera/en/print-shop/cards-expert.pdf")
    text = "\n".join(shop)
    assert "†" not in text and "□" not in text  # no stand-in mark, no unknown mark
    for page in shop:  # a "?" only as the game's own icon of a treasure with its own effect
        if "?" in page:
            assert page.count("?") == 1 and any(name.replace("'", "’") in page or name in page for name in other), page
    for card in cards:
        first = " ".join(card.rules.split()[:2]).replace("'", "’")
        assert first in text or " ".join(card.rules.split()[:2]) in text, card.id
    sheets = "\n".join(_pages(out / "fallera/en/cards-expert-a4.pdf"))
    assert "Values from your own copy" in sheets and "el Tio Sangonera" in sheets
    board = "\n".join(_pages(out / "fallera/en/board-a3.pdf"))
    # the map itself (accesses, counts, bonuses) is all the owner's; what stays marked is how the rulebook is read
    # (the start on the expert side, that side's map cards), which no copy of the game prints, and the legends
    readings = ("Starting space†", "Map cards:", "On this side the rulebook says only", "not stated in the rulebooks",
                "Drawn plainly")
    drawn = [line for line in board.splitlines() if not any(r in line for r in readings)]
    assert not [line for line in drawn if "†" in line or "□" in line]
    assert tree_hash(CARDS) == before


@pytest.mark.slow
def test_the_calavera_score_sheet_prints_the_owners_point_values(tmp_path: Path) -> None:
    overlay = filled_overlay("calavera", tmp_path)
    out = tmp_path / "build"
    plain = run_cli("--cards", str(CARDS), "build", "--game", "calavera", "--locale", "fr", "--no-docs", "--out",
                    str(tmp_path / "plain"))
    run = run_cli("--cards", str(CARDS), "--facts", str(overlay), "build", "--game", "calavera", "--locale", "fr",
                  "--no-docs", "--out", str(out))
    assert plain.exit_code == 0 and run.exit_code == 0, run.output
    sheet = "\n".join(_pages(next((out / "calavera/fr").glob("score-sheet-*.pdf"))))
    shipped = "\n".join(_pages(next((tmp_path / "plain/calavera/fr").glob("score-sheet-*.pdf"))))
    assert "20" in sheet and "20" not in shipped  # row 1's top value, blank while only assumed
    assert "†" not in sheet


def test_a_cluster_build_with_an_overlay_is_refused_before_any_work(tmp_path: Path) -> None:
    folder = _overlay(tmp_path, [{"target": "conill", "field": "quantity", "value": 2}])
    run = run_cli("--cards", str(CARDS), "--facts", str(folder), "build", "--game", "fallera", "--scheduler",
                  "tcp://127.0.0.1:9", "--out", str(tmp_path / "out"))
    assert run.exit_code == 2 and "--facts cannot be used with --scheduler" in run.output, run.output
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("with_overlay", [False, True])
def test_a_database_file_citing_the_owners_copy_is_refused(tmp_path: Path, with_overlay: bool) -> None:
    import shutil

    cards = tmp_path / "cards"
    shutil.copytree(CARDS / "calavera", cards / "calavera")
    components = cards / "calavera" / "components.json"
    data = json.loads(components.read_text(encoding="utf-8"))
    data["components"][0]["sources"][0]["certainty"] = "owner"
    components.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    facts = tmp_path / "facts"
    facts.mkdir()
    (facts / "calavera.json").write_text(json.dumps({"$schema": "owner-facts.schema.json", "game": "calavera",
                                                     "values": []}), encoding="utf-8")
    run = run_cli("--cards", str(cards), *(["--facts", str(facts)] if with_overlay else []), "validate")
    assert run.exit_code == 1
    assert "components.json:/components/0/sources/0/certainty: [owner-in-database]" in run.output, run.output


@pytest.mark.parametrize("command", [["sheet", "export", "--game", "fallera", "--out", "x.csv"],
                                     ["i18n", "status", "--game", "fallera"], ["freeze", "--game", "fallera"]])
def test_commands_that_write_the_database_refuse_an_overlay(tmp_path: Path, command: list[str]) -> None:
    folder = _overlay(tmp_path, [{"target": "conill", "field": "quantity", "value": 2}])
    before = tree_hash(CARDS)
    run = run_cli("--cards", str(CARDS), "--facts", str(folder), *command)
    assert run.exit_code == 2 and "does not take --facts" in run.output, run.output
    assert tree_hash(CARDS) == before


def test_an_xlsx_sheet_imports_and_names_its_cells(tmp_path: Path) -> None:
    from openpyxl import load_workbook

    sheet = tmp_path / "c.xlsx"
    run_cli("--cards", str(CARDS), "facts", "export", "--game", "calavera", "--out", str(sheet))
    book = load_workbook(sheet)
    rows = list(book.active.iter_rows(min_row=2))
    dice = next(r for r in rows if r[3].value == "faces/joker/count")
    dice[7].value = 2
    book.save(sheet)
    run = run_cli("--cards", str(CARDS), "facts", "import", str(sheet), "--out", str(tmp_path / "overlay"))
    assert run.exit_code == 0, run.output
    overlay = json.loads((tmp_path / "overlay" / "calavera.json").read_text(encoding="utf-8"))
    assert overlay["values"] == [{"target": "dice", "field": "faces/joker/count", "value": 2,
                                  "cell": f"c.xlsx:facts!H{dice[7].row}"}]
    dice[7].value = 2.5
    book.save(sheet)
    run = run_cli("--cards", str(CARDS), "facts", "import", str(sheet), "--out", str(tmp_path / "again"))
    assert run.exit_code == 1 and f"{sheet}:facts!H{dice[7].row}: [bad-value]" in run.output, run.output


@pytest.mark.slow
def test_the_diables_kit_prints_every_card_once_the_owner_gives_the_unlisted_ones(tmp_path: Path) -> None:
    overlay = filled_overlay("diables", tmp_path)
    out = tmp_path / "build"
    run = run_cli("--cards", str(CARDS), "--facts", str(overlay), "build", "--game", "diables", "--locale", "en",
                  "--no-docs", "--out", str(out))
    assert run.exit_code == 0, run.output
    shop = _pages(out / "diables/en/print-shop/cards-all.pdf")
    text = "\n".join(shop)
    assert "Synthetic Street spectator card 1" in " ".join(text.split()) and "†" not in text
    contents = _pages(out / "diables/en/cards-all-a4.pdf")[0]
    assert re.search(r"Cards of Diables\s+124\s+124 ", contents), contents


def test_the_card_listing_reads_the_overlay_and_only_with_facts(tmp_path: Path) -> None:
    folder = _overlay(tmp_path, [{"target": "el-tio-sangonera", "field": "quantity", "value": 7}])
    args = ["cards", "el-tio-sangonera", "--game", "fallera", "--format", "json"]
    given = json.loads(run_cli("--cards", str(CARDS), "--facts", str(folder), *args).output)
    shipped = json.loads(run_cli("--cards", str(CARDS), *args).output)
    assert given[0]["quantity"] == 7 and shipped[0]["quantity"] is None


def _raw(pdf: Path) -> str:
    """A PDF's text in reading order (each box of a board sheet whole), its white space collapsed."""
    return " ".join(subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True).stdout.split())


@pytest.mark.slow
def test_the_diables_boards_print_what_is_known_and_complete_once_the_owner_fills_them(tmp_path: Path) -> None:
    before = tree_hash(CARDS)
    overlay = filled_overlay("diables", tmp_path)
    plain, filled = tmp_path / "plain", tmp_path / "filled"
    for out, facts in ((plain, []), (filled, ["--facts", str(overlay)])):
        run = run_cli("--cards", str(CARDS), *facts, "build", "--game", "diables", "--locale", "en", "--no-docs",
                      "--out", str(out))
        assert run.exit_code == 0, run.output
    text = _raw(plain / "diables/en/board-sheets-a4.pdf")
    assert "Diables: Main board" in text and "Diables: Personal player board" in text
    assert "Spaces: □" in text and "Printed: □" in text and "□ unknown" in text  # no source gives these
    assert "Audience areas × 4†" in text  # the rulebook's arithmetic, marked
    assert all(f in text for f in ("Columns: 5", "Rows: 3", "Spaces: 4", "Spaces: 3", "Spaces: 2"))  # as stated
    assert "diable 1, character 2, small beast 3, large beast 4" in text  # the key, as stated
    use_owner_facts(None)
    boards = [r.model for r in Index(Database(game=load_game(CARDS / "diables"))).of_kind("component") if r.model.areas]
    pages = _pages(plain / "diables/en/board-sheets-a4.pdf")
    for board, page in zip(boards, pages):  # the marks each page must print, counted from the data
        values = [(area, value) for area in board.areas for value in area.applies()]
        unknown = sum(getattr(area, value) is None for area, value in values)
        unsure = sum(getattr(area, value) is not None and area_certainty(board, area, value) != "stated"
                     for area, value in values)
        assert (page.count("□"), page.count("†")) == (unknown + 1, unsure + (unsure > 0)), board.id  # + legend
    sentence = " ".join(_pages(plain / "diables/en/cards-all-a4.pdf")[0].split())
    assert "what the Main board shows (19 values)" in sentence and "Personal player board shows (9 values)" in sentence
    board = _raw(filled / "diables/en/board-sheets-a4.pdf")
    assert "□" not in board and "†" not in board  # every value is the owner's: no unknown, no stand-in mark
    assert "Synthetic print of follower-tracks: gain 1 FP." in board and "Audience areas × 4 " in board
    contents = " ".join("\n".join(_pages(filled / "diables/en/cards-all-a4.pdf")).split())
    assert "cannot be played" not in contents  # the cards and the boards are complete
    assert "Follower tracks (spaces)" in contents  # listed among the values from the owner's copy
    assert tree_hash(CARDS) == before
