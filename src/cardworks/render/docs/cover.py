"""A document's cover in the game's own look: its card types' icons on their colours, and the colours of its
card backs (``templates/<game>/cards.css``) behind the title. A game without icons or a look of its own gets
the documents' plain palette; nothing is drawn that the game does not ship."""

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
    """The game's card stylesheet, whose ``--back-colour`` and ``--back-accent`` colour the cover."""


def cover_of(db: Database, icons: dict[str, tuple[str, Any]]) -> Cover:
    """The cover of ``db``'s documents; ``icons``: icon id → (url, alt), as ``texts.icon_urls`` gives them."""
    game = db.game_doc
    art = [CoverIcon(icons[t.icon][0], t.colour or "#fbf7ee") for t in game.card_types if t.icon and t.icon in icons]
    look = templates_dir() / game.id / "cards.css"
    own = db.game.root / "templates" / game.id / "cards.css"
    chosen = own if own.is_file() else look if look.is_file() else None
    return Cover(art, chosen.resolve().as_uri() if chosen is not None else None)
