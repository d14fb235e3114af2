"""What ``cardworks new`` says of the game it made: a card left without a picture (at its row, naming the files
looked for), and the warnings validation gives (low-resolution art), never only at a later command."""

from __future__ import annotations

from pathlib import Path

from PIL import Image

from conftest import run_cli
from own_sheets import HEADER, ROWS, art_folder, write_csv


def test_a_card_without_a_picture_matched_by_name_is_said_at_new_and_validate(tmp_path: Path) -> None:
    sheet = write_csv(tmp_path / "cards.csv", ["name", "text"], [["Fire Drake", "Hot."], ["Ghost", "Boo."]])
    art = art_folder(tmp_path / "art", ("fire-drake",))
    run = run_cli("new", str(tmp_path / "pics"), "--from", str(sheet), "--art", str(art))
    assert run.exit_code == 0, run.output
    warned = [line for line in run.output.splitlines() if "[art-no-picture]" in line]
    assert len(warned) == 1, run.output
    assert "cards.csv!A3: [art-no-picture] warning: row 3: card 'Ghost' has no picture (no file ghost.png, ghost.jpg, " \
        "ghost.jpeg, ghost.webp, ghost.svg in the art folder" in warned[0]
    run = run_cli("--cards", str(tmp_path / "pics"), "validate", "--format", "json")
    assert run.exit_code == 0
    assert [(p["file"].replace("\\", "/").rsplit("pics/", 1)[-1], p["pointer"], p["code"], p["severity"])
            for p in run.problems] == [("sets/cards.json", "/cards/1", "art-no-picture", "warning")]
    assert "card 'ghost' has no picture" in run.problems[0]["message"]


def test_an_empty_art_cell_is_said_at_new_validate_and_build(tmp_path: Path) -> None:
    rows = [list(row) for row in ROWS]
    rows[1][5] = ""  # Ice Wall's art cell
    sheet = write_csv(tmp_path / "cards.csv", HEADER, rows)
    art = art_folder(tmp_path / "art", ("drake", "spark"))
    run = run_cli("new", str(tmp_path / "empty"), "--from", str(sheet), "--art", str(art))
    assert run.exit_code == 0, run.output
    assert "cards.csv!F3: [art-no-picture] warning: row 3: card 'Ice Wall' has no picture (its 'art' cell is empty)" \
        in run.output
    run = run_cli("--cards", str(tmp_path / "empty"), "build", "--out", str(tmp_path / "out"), "--no-docs")
    assert run.exit_code == 0, run.output
    assert "sets/cards.json:/cards/1: [art-no-picture] warning: card 'ice-wall' has no picture" in run.output


def test_a_game_without_pictures_is_not_warned_of_each_card(tmp_path: Path) -> None:
    sheet = write_csv(tmp_path / "cards.csv", ["name", "text"], [["Fire Drake", "Hot."], ["Ghost", "Boo."]])
    run = run_cli("new", str(tmp_path / "plain"), "--from", str(sheet))
    assert run.exit_code == 0 and "warning" not in run.output, run.output


def test_new_prints_the_warnings_validation_gives(tmp_path: Path) -> None:
    sheet = write_csv(tmp_path / "cards.csv", ["name", "text"], [["Fire Drake", "Hot."]])
    art = tmp_path / "art"
    art.mkdir()
    Image.new("RGB", (420, 240), (200, 60, 30)).save(art / "fire-drake.png")  # about 200 dpi in a poker art box
    run = run_cli("new", str(tmp_path / "soft"), "--from", str(sheet), "--art", str(art))
    assert run.exit_code == 0, run.output
    said = [line for line in run.output.splitlines() if "[art-low-resolution]" in line]
    assert len(said) == 1 and "sets/cards.json:/cards/0/art: [art-low-resolution] warning: 'art/fire-drake.png' is " \
        "420×240 px: 199.8 dpi" in said[0], run.output
    assert ".soft-new-" not in run.output  # named as the folder it is now, not the staging folder it was checked in
    validated = run_cli("--cards", str(tmp_path / "soft"), "validate")
    assert said[0] in validated.output


def test_the_guide_gives_the_picture_sizes_the_checks_use() -> None:
    """docs/your-own-game.md's minimum picture sizes are those of the default face's poker art box at the
    thresholds validation uses (a picture covers its box, so each side must reach the figure)."""
    import math

    from conftest import REPO

    from cardworks.models.face import art_box_mm, effective_dpi
    from cardworks.validate.check_art import MIN_DPI, PRINT_DPI

    guide = (REPO / "docs" / "your-own-game.md").read_text(encoding="utf-8")
    box = art_box_mm(63, 88, None)
    assert f"is {box[0]:g} × {box[1]:g} mm" in guide
    sizes = []
    for dpi in (PRINT_DPI, MIN_DPI):
        pixels = tuple(math.ceil(side / 25.4 * dpi) for side in box)
        assert round(effective_dpi(pixels, box), 1) >= dpi > round(effective_dpi((pixels[0] - 1, pixels[1]), box), 1)
        sizes.append(f"| {dpi} dpi, no {'warning' if dpi == PRINT_DPI else 'error'} | {pixels[0]} × {pixels[1]} |")
    assert len(sizes) == 2 and all(row in guide for row in sizes), sizes
    assert f"one under {MIN_DPI} dpi where it is printed" in guide


def test_the_install_page_gives_the_command_it_speaks_of() -> None:
    from conftest import REPO

    page = (REPO / "docs" / "install.md").read_text(encoding="utf-8")
    assert "command above" not in page.split("```", 1)[0]  # nothing is above the page's first paragraph
    assert "python3 -m pip install -e ." in page.split("Python 3.11+", 1)[0]
