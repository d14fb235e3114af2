"""docs/adding-a-game.md walks the fixture game Minitrick: every file of it is quoted whole, each quote equals
its file, and the commands the page gives pass on it, so the page cannot drift from a game that works."""

from __future__ import annotations

import re

from conftest import FIXTURE_GAMES, REPO, run_cli

DOC = REPO / "docs" / "adding-a-game.md"
_QUOTE = re.compile(r"<!-- fixture: (?P<path>\S+) -->\n````\w*\n(?P<body>.*?)````\n", re.S)


def quoted(text: str) -> dict[str, str]:
    """Path → the block quoting it, for every ``<!-- fixture: PATH -->`` marker of the page."""
    found = {m["path"]: m["body"] for m in _QUOTE.finditer(text)}
    assert text.count("<!-- fixture: ") == len(found), "a fixture marker without a fenced block right after it"
    return found


def stale(text: str) -> list[str]:
    """The quoted paths whose block differs from the file (or names no file)."""
    return [path for path, body in quoted(text).items()
            if not (REPO / path).is_file() or (REPO / path).read_text(encoding="utf-8") != body]


def test_every_file_of_the_fixture_game_is_quoted_as_it_is() -> None:
    text = DOC.read_text(encoding="utf-8")
    files = {str(p.relative_to(REPO)) for p in FIXTURE_GAMES.rglob("*")
             if p.is_file() and "__pycache__" not in p.parts and p.name != "METADATA"}
    assert len(files) >= 10 and set(quoted(text)) == files
    assert stale(text) == []


def test_a_quote_that_differs_from_its_file_is_found() -> None:
    text = DOC.read_text(encoding="utf-8")
    changed = text.replace('"quantity": 2, "types": ["number"], "stats": {"rank": 3}',
                           '"quantity": 3, "types": ["number"], "stats": {"rank": 3}', 1)
    assert changed != text and stale(changed) == ["tests/fixtures/games/minitrick/cards/minitrick/sets/base.json"]
    dropped = text.replace("<!-- fixture: tests/fixtures/games/minitrick/rules.py -->\n````python\n",
                           "<!-- fixture: tests/fixtures/games/minitrick/rules.py -->\n", 1)
    try:
        quoted(dropped)
    except AssertionError as refused:
        assert "without a fenced block" in str(refused)
    else:
        raise AssertionError("a marker without its block was not found")


def test_the_commands_the_page_gives_pass_on_the_fixture_game() -> None:
    text = DOC.read_text(encoding="utf-8")
    cards = FIXTURE_GAMES / "minitrick" / "cards"
    assert f"--cards {cards.relative_to(REPO)} check --game minitrick" in text
    validated = run_cli("--cards", str(cards), "validate", "--strict")
    assert validated.exit_code == 0, validated.output
    checked = run_cli("--cards", str(cards), "check", "--game", "minitrick", "--playouts", "20")
    assert checked.exit_code == 0, checked.output
    assert "scenarios: 2 passed, 0 failed" in checked.output
