"""Card listings: the designs of a game with their names in a locale."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .errors import DataError, UsageError
from .i18n import Localizer
from .i18n.locales import resolve_locale
from .ids import slugify
from .i18n.lookup import Status
from .loading.database import Database, load_game
from .loading.records import Index
from .validate.runner import game_folders


@dataclass(frozen=True)
class CardRow:
    """One line of a card listing."""

    game: str
    id: str
    set: str
    types: tuple[str, ...]
    quantity: int | None
    name: str
    name_status: Status
    alt_names: tuple[str, ...]

    def as_dict(self) -> dict:
        return {**self.__dict__, "types": list(self.types), "alt_names": list(self.alt_names)}


def load_games(cards_root: Path, game: str | None) -> list[Database]:
    """The selected game (or all games), loaded; raises DataError when a file is unusable."""
    folders = {f.name: f for f in game_folders(cards_root)}
    if game is not None and game not in folders:
        raise UsageError(f"unknown game {game!r}; games here: {', '.join(sorted(folders)) or 'none'}")
    databases = []
    for name in [game] if game else sorted(folders):
        db = Database(game=load_game(folders[name]))
        broken = [p for p in db.game.problems if p.severity == "error"]
        if broken or db.game_doc is None:
            raise DataError(f"game {name!r} has unusable files; run 'cardworks validate'", broken)
        databases.append(db)
    return databases


def _folded(text: str) -> str:
    """Lowercase, accents and punctuation dropped: 'Cabeça d'alls' matches 'cabeca dalls'."""
    return "".join(ch for ch in slugify(text) if ch.isalnum())


def _matches(query: str, card, localizers: list[Localizer]) -> bool:
    wanted = _folded(query)
    names = [card.id, card.name, *card.alt_names]
    for localizer in localizers:
        names.append(localizer.text(card.id, "name", card.name)[0])
        names += [localizer.text(card.id, f"alt_names/{i}", alt)[0] for i, alt in enumerate(card.alt_names)]
    return any(wanted in _folded(name) for name in names)


def list_cards(cards_root: Path, game: str | None = None, locale: str | None = None,
               query: str | None = None, packs: list[Path] | None = None) -> list[CardRow]:
    """Every card design of the selected games, in set order, named in ``locale``.

    ``query`` keeps the cards whose id, name or alternative name in any locale
    contains it, ignoring case, accents and punctuation (``garlic`` finds cabeça d'alls).
    With ``packs``, the packs' own cards (named with their games' translations and theirs).
    """
    rows = []
    if packs:
        from .loading.packs import open_packs

        databases = open_packs(cards_root, packs)
    else:
        databases = load_games(cards_root, game)
    for db in databases:
        game_doc = db.game_doc
        wanted = resolve_locale(game_doc, locale) if locale else game_doc.source_locale
        localizer = Localizer(db, wanted)
        index = Index(db)
        order = {r.id: (r.model.order, r.id) for r in index.of_kind("set")}
        everywhere = [Localizer(db, other) for other in game_doc.locales] if query else []
        for record in sorted(index.of_kind("card"), key=lambda r: order.get(r.set_id or "", (0, ""))):
            card = record.model
            if db.packs and not record.bundle.is_pack:
                continue
            if query and not _matches(query, card, everywhere):
                continue
            name, status = localizer.text(card.id, "name", card.name)
            alt = tuple(localizer.text(card.id, f"alt_names/{i}", text)[0] for i, text in enumerate(card.alt_names))
            rows.append(CardRow(game_doc.id, card.id, record.set_id or "", tuple(card.types), card.quantity, name, status, alt))
    return rows
