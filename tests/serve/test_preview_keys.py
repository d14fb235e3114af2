"""The preview's face keys cover the game's own look: editing the stylesheet in the game folder's
``templates/`` draws every face again (the mini game of ``conftest``, no rendering)."""

from __future__ import annotations

from cardworks.loading import load_database
from cardworks.render.deck import build_deck
from cardworks.serve.adapter import face_set
from conftest import GameDir


def _keys(game: GameDir) -> dict[str, str]:
    db = load_database(game.root)
    return face_set(db, build_deck(db, None), "en").keys


def test_editing_the_game_folders_stylesheet_changes_every_face_key(game: GameDir) -> None:
    game.files["templates/mini/cards.css"] = ".face .inner { background: #ff00ff; }\n"
    game.write()
    before = _keys(game)
    assert before == _keys(game)  # the same look keeps its keys
    (game.root / "templates/mini/cards.css").write_text(".face .inner { background: #00ff00; }\n", encoding="utf-8")
    after = _keys(game)
    assert before.keys() == after.keys() and all(before[face] != after[face] for face in before)
