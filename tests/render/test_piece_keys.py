"""Pieces are drawn from their game without the cards' rules and flavour texts, and keyed by that: editing
those texts (and their translations) keeps every piece's key; anything a piece can print changes it."""

from __future__ import annotations

import pytest

from cardworks.loading.database import Database, load_game
from cardworks.render.docs.build import task_hash
from cardworks.render.impose import SheetLayout
from cardworks.render.pieces import piece_tasks
from cardworks.validate.rules_view import PLACEHOLDER, pieces_view


def _keys(game) -> dict[str, str]:  # noqa: ANN001
    game.write()
    db = Database(game=load_game(game.root))
    tasks = piece_tasks(db, ["en", "es"], SheetLayout(), False, False, None)
    assert tasks, "the mini game has pieces (its board and its coin's stickers)"
    seen: dict = {}
    return {task.path: task_hash(task, seen, db) for task in tasks}


def test_the_view_hides_card_texts_and_their_translations_only(game) -> None:
    game.write()
    db = Database(game=load_game(game.root))
    view = pieces_view(db)
    card = {c.id: c for _, s in view.docs("set") for c in s.cards}["capita"]
    assert card.rules == PLACEHOLDER and card.name == "capità"
    [(_, es)] = view.docs("translations")
    assert "rules" not in es.entries["capita"] and "name" in es.entries["capita"]
    assert es.entries["map"] == dict(db.docs("translations")[0][1].entries["map"])  # a piece's own texts stay
    assert db.docs("translations")[0][1].entries["capita"]["rules"]  # the game itself is untouched


@pytest.mark.parametrize("change, same", [
    ("card rules", True), ("card flavour", True), ("translated rules", True),
    ("card name", False), ("translated board name", False), ("coin face", False), ("quantity", False),
])
def test_a_piece_key_keeps_only_through_card_text_edits(game, change: str, same: bool) -> None:
    game.files["sets/base.json"]["cards"][1]["flavour"] = "A captain."
    before = _keys(game)
    cards = game.files["sets/base.json"]["cards"]
    es = game.files["i18n/es.json"]["entries"]
    if change == "card rules":
        cards[1]["rules"] = "Steal two {treasure} from a rival."
    elif change == "card flavour":
        cards[1]["flavour"] = "A captain of the guard."
    elif change == "translated rules":
        es["capita"]["rules"]["text"] = "Roba dos {treasure} a un rival."
    elif change == "card name":
        cards[0]["name"] = "conill gran"
    elif change == "translated board name":
        es["map"]["name"]["text"] = "Plano"
    elif change == "coin face":
        game.files["components.json"]["components"][0]["faces"][0]["name"] = "crown"
    else:
        cards[0]["quantity"] = 2
    after = _keys(game)
    assert after.keys() == before.keys()
    if same:
        assert after == before
    else:
        assert after != before


@pytest.mark.slow
@pytest.mark.parametrize("game_id", ["fallera", "calavera", "diables"])
def test_no_shipped_piece_prints_the_placeholder(game_id: str) -> None:
    """A piece drawn from the view that printed a card's rules or flavour would show the placeholder, and its
    key would hide a real edit. Every piece of each shipped game is drawn (its first locale) and read back."""
    import io

    import pypdfium2

    import json

    from conftest import REPO

    folder = REPO / "cards" / game_id
    db = Database(game=load_game(folder))
    locale = json.loads((folder / "game.json").read_text(encoding="utf-8"))["locales"][0]
    tasks = piece_tasks(db, [locale], SheetLayout(), True, False, None)
    assert tasks, f"{game_id} has pieces"
    for task in tasks:
        data, pages, _ = task.render(db)
        document = pypdfium2.PdfDocument(io.BytesIO(data))
        text = "".join(page.get_textpage().get_text_range() for page in document)
        assert pages and text.strip(), task.path  # the piece printed something to read
        assert PLACEHOLDER not in text, f"{task.path} prints {PLACEHOLDER!r}: it shows a card's rules or flavour"
