"""Covers in a game's own look (render.docs.cover): what each game's cover draws, from what the game ships.
The PDFs are read back in test_documents.py (``test_covers_wear_the_games_own_look``)."""

from __future__ import annotations

from pathlib import Path

from conftest import FIXTURE_CARDS, REPO, GameDir

from cardworks.engine.plugins import plugin_of
from cardworks.loading import load_database
from cardworks.render.docs.cover import cover_of

CARDS = REPO / "cards"


def test_a_dice_game_draws_its_die_symbols_in_its_own_palette() -> None:
    cover = cover_of(load_database(CARDS / "calavera"), {})
    plugin = plugin_of("calavera")
    assert plugin is not None and cover.symbols == list(plugin.rendering.die_symbols.values()) == ["★", "☠"]
    assert cover.icons == []
    assert cover.look_css is not None and cover.look_css.endswith("cards/calavera/templates/calavera/cards.css")
    css = Path(cover.look_css.removeprefix("file://")).read_text(encoding="utf-8")
    assert "--back-colour" in css and "--back-accent" in css and "design choice" in css


def test_a_card_game_draws_its_card_type_icons_and_no_die() -> None:
    db = load_database(FIXTURE_CARDS / "fallera")  # the fixture keeps Fallera's card types and icons
    icons = {t.icon: (f"icon:{t.icon}", t.icon) for t in db.game_doc.card_types if t.icon}
    cover = cover_of(db, icons)
    assert len(cover.icons) == 3 and cover.symbols == []


def test_a_game_with_no_plugin_and_no_look_keeps_the_plain_palette(game: GameDir) -> None:
    game.write()
    cover = cover_of(load_database(game.root), {})
    assert cover.icons == [] and cover.symbols == [] and cover.look_css is None
