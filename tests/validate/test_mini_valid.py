"""The mini game fixture is valid: the baseline every bad-input case breaks once."""

from conftest import run_cli


def test_mini_game_validates_clean(game):
    game.write()
    run = run_cli("--cards", str(game.cards_root), "validate", "--format", "json")
    assert run.problems == []
    assert run.exit_code == 0
