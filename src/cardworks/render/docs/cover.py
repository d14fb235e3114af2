"""A document's cover in the game's own look: as title art, its card types' icons on their colours and the
symbols of its dice (its plugin's ``Rendering.die_symbols``) on die faces; behind the title, the colours of its
look (``--back-colour`` and ``--back-accent`` in ``templates/<game>/cards.css``). A game with neither art nor a
look gets the documents' plain palette; nothing is drawn that the game does not ship."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...loading.database import Database
from ..jinja import templates_dir


@dataclass(frozen=True)
class CoverIcon:
    url: str
    colour: str


@dataclass(frozen=True)
class Cover:
    icons: list[CoverIcon]
    """The card types' icons, each on its type's colour (the cover's title art)."""
    look_css: str | None
    """The game's stylesheet, whose ``--back-colour`` and ``--back-accent`` colour the cover."""
    symbols: list[str]
    """The symbols the game prints on its dice, each drawn on a die face (title art for a game of dice)."""


def cover_of(db: Database, icons: dict[str, tuple[str, Any]]) -> Cover:
    """The cover of ``db``'s documents; ``icons``: icon id → (url, alt), as ``texts.icon_urls`` gives them."""
    game = db.game_doc
    art = [CoverIcon(icons[t.icon][0], t.colour or "#fbf7ee") for t in game.card_types if t.icon and t.icon in icons]
    look = templates_dir() / game.id / "cards.css"
    own = db.game.root / "templates" / game.id / "cards.css"
    chosen = own if own.is_file() else look if look.is_file() else None
    return Cover(art, chosen.resolve().as_uri() if chosen is not None else None, _die_symbols(game.id))


def _die_symbols(game_id: str) -> list[str]:
    """The distinct symbols of the game's dice faces, in the order its plugin lists them; none without a plugin."""
    from ...engine.plugins import plugin_of

    plugin = plugin_of(game_id)
    symbols = plugin.rendering.die_symbols.values() if plugin is not None else ()
    return list(dict.fromkeys(s for s in symbols if s.strip()))
