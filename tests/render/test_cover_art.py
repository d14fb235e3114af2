"""Covers in a game's own look (render.docs.cover): what each game's cover draws, from what the game ships.
The PDFs are read back in test_documents.py (``test_covers_wear_the_games_own_look``)."""

from __future__ import annotations

import shutil
from pathlib import Path

from conftest import FIXTURE_CARDS, GameDir

from cardworks.engine.plugins import plugin_of
from cardworks.loading import load_database
from cardworks.render.docs.cover import cover_of

LOOK = "/* the Calavera fixture's own palette, for the test */\n:root { --back-colour: #203040; --back-accent: #e0a010; }\n"


def test_a_dice_game_draws_its_die_symbols_in_its_own_palette(tmp_path: Path) -> None:
    root = tmp_path / "calavera"
    shutil.copytree(FIXTURE_CARDS / "calavera", root)  # the fixture game, given a look of its own
    look = root / "templates" / "calavera" / "cards.css"
    look.parent.mkdir(parents=True)
    look.write_text(LOOK, encoding="utf-8")
    cover = cover_of(load_database(root), {})
    plugin = plugin_of("calavera")
    assert plugin is not None and cover.symbols == list(plugin.rendering.die_symbols.values()) == ["★", "☠"]
    assert cover.icons == []
    assert cover.look_css == look.resolve().as_uri()
    assert Path(cover.look_css.removeprefix("file://")).read_text(encoding="utf-8") == LOOK


def test_a_card_game_draws_its_card_type_icons_and_no_die() -> None:
    db = load_database(FIXTURE_CARDS / "fallera")  # the fixture keeps Fallera's card types and icons
    icons = {t.icon: (f"icon:{t.icon}", t.icon) for t in db.game_doc.card_types if t.icon}
    cover = cover_of(db, icons)
    assert len(cover.icons) == 3 and cover.symbols == []


def test_a_game_with_no_plugin_and_no_look_keeps_the_plain_palette(game: GameDir) -> None:
    game.write()
    cover = cover_of(load_database(game.root), {})
    assert cover.icons == [] and cover.symbols == [] and cover.look_css is None
