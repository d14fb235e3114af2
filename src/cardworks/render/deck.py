"""Which cards a build prints, and how many copies of each.

A deck is a game's selection of sets, less the cards whose player-count
markers remove them at the chosen number of players. Copies follow each
design's quantity; where no source gives it, the ``fact`` edition prints one
copy (a count it does not know is not made up). The ``playtest`` edition
prints the deck the game's engine plays for the selection (``check``'s deck):
the same designs in the same numbers, stand-ins for what no source gives, and
every design the engine leaves out left out too, with the engine's reason.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from ..errors import UsageError
from ..loading.database import Database
from ..loading.records import Index

QuantitySource = Literal["stated", "assumed", "default"]


@dataclass(frozen=True)
class DeckCard:
    """A design in a deck, with the number of copies to print and where that number comes from."""

    card: Any
    set_id: str
    copies: int
    quantity_source: QuantitySource


@dataclass(frozen=True)
class Deck:
    """The designs of one build, in set order."""

    game: Any
    selection: str
    players: int | None
    cards: tuple[DeckCard, ...]
    removed: tuple[str, ...]
    """Ids of designs left out for the player count."""
    optional: tuple[str, ...] = ()
    """Ids of optional designs printed at the user's request (``--with-optional``)."""
    edition: str = "fact"
    """``fact`` or ``playtest`` (stand-in values printed, marked): see :mod:`.marks`."""
    left_out: tuple[tuple[str, str], ...] = ()
    """Playtest edition: (design id, the engine's reason) of each design of the selection that the game's engine
    leaves out of play, and so the deck too (player-count removals are in ``removed``)."""
    engine: str | None = None
    """Playtest edition: the engine configuration whose deck this is (``expert/3p``)."""

    @property
    def physical_cards(self) -> int:
        return sum(c.copies for c in self.cards)

    @property
    def label(self) -> str:
        return (self.selection + (f"-{self.players}p" if self.players else "") + ("-with-optional" if self.optional else "")
                + ("" if self.edition == "fact" else f"-{self.edition}"))


def _selection(game: Any, wanted: str | None, set_ids: list[str],
               selections: list[Any] | None = None) -> tuple[str, list[str], tuple[int, int]]:
    selections = game.selections if selections is None else selections
    if wanted is None and selections:
        chosen = selections[0]
        return chosen.id, list(chosen.sets), (chosen.players.min, chosen.players.max)
    for selection in selections:
        if selection.id == wanted:
            return selection.id, list(selection.sets), (selection.players.min, selection.players.max)
    if wanted is None:
        return "all", set_ids, (game.players.min, game.players.max)
    parts = [p for p in wanted.replace(",", "+").split("+") if p]
    unknown = [p for p in parts if p not in set_ids]
    if unknown:
        choices = [s.id for s in selections] + set_ids
        raise UsageError(f"unknown set or selection {wanted!r} for {game.id}; choose from {', '.join(choices)}")
    return "+".join(parts), parts, (game.players.min, game.players.max)


def _optional_ids(index: Index, set_ids: list[str], wanted: tuple[str, ...]) -> set[str]:
    """The optional designs asked for: ``all`` is every optional card of the deck's sets; a named card must
    be an optional card of one of them (UsageError naming it otherwise)."""
    if not wanted:
        return set()
    optional = {r.id: r.set_id for r in index.of_kind("card") if r.model.optional}
    if "all" in wanted:
        return {card for card, set_id in optional.items() if set_id in set_ids}
    for card in wanted:
        if card not in optional:
            known = ", ".join(sorted(optional)) or "none"
            raise UsageError(f"{card!r} is not an optional card of {index.game.id} (optional cards: {known})")
        if optional[card] not in set_ids:
            raise UsageError(f"the optional card {card!r} belongs to the set {optional[card]!r}, which this deck leaves out")
    return set(wanted)


def build_deck(db: Database, selection: str | None = None, players: int | None = None,
               optional: tuple[str, ...] = (), with_game: bool = False, edition: str = "fact") -> Deck:
    """The deck for a selection (a selection id or set ids joined by ``+``) and player count; ``optional``
    adds optional designs (``all``, or ids), which are otherwise never printed; ``edition`` names the
    edition its faces are printed in (the label and file names say it).

    For a database with a pack: the pack's sets alone, or the sets ``selection`` names (the pack's and the
    game's), or with ``with_game`` the game's selection with every set of the pack shuffled in.
    """
    index = Index(db)
    game = db.game_doc
    sets = sorted(index.of_kind("set"), key=lambda r: (r.model.order, r.id))
    if db.packs:
        pack_sets = [r.id for r in sets if r.bundle.is_pack]
        if with_game:
            name, set_ids, (low, high) = _selection(game, selection, [r.id for r in sets if not r.bundle.is_pack])
            name, set_ids = f"{name}+{db.output_id}", set_ids + pack_sets
        elif selection is None:
            name, set_ids, (low, high) = _selection(game, "+".join(pack_sets), pack_sets, selections=[])
            name = db.output_id
        else:  # sets named explicitly: the pack's and the game's (``base+my-set``)
            name, set_ids, (low, high) = _selection(game, selection, [r.id for r in sets], selections=[])
    else:
        name, set_ids, (low, high) = _selection(game, selection, [r.id for r in sets])
    if players is not None and not low <= players <= high:
        raise UsageError(f"{name} is played by {low} to {high} players, not {players}")
    removing = {m.id for m in game.markers if players is not None and players in m.removed_at_players}
    assumed = {target: value for (target, field), value in index.assumed().items() if field == "quantity"}
    order = {set_id: i for i, set_id in enumerate(set_ids)}
    wanted = _optional_ids(index, set_ids, optional)
    cards, removed = [], []
    for record in sorted(index.of_kind("card"), key=lambda r: order.get(r.set_id, len(order))):
        if record.set_id not in order or (record.model.optional and record.id not in wanted):
            continue
        card = record.model
        if removing & set(card.markers):
            removed.append(card.id)
            continue
        if card.quantity is not None:
            cards.append(DeckCard(card, record.set_id, card.quantity, "stated"))
        elif edition == "playtest" and isinstance(assumed.get(card.id), int):
            cards.append(DeckCard(card, record.set_id, assumed[card.id], "assumed"))
        else:
            cards.append(DeckCard(card, record.set_id, 1, "default"))
    if edition != "playtest" or not cards:  # a game without cards prints the same pieces in both editions
        return Deck(game, name, players, tuple(cards), tuple(removed), tuple(sorted(wanted)), edition)
    packs = {r.id for r in sets if r.bundle.is_pack}  # the engine deals a pack's cards into every selection
    played, left_out, config = engine_deck(db, game, name, [s for s in set_ids if s not in packs], players)
    kept = []
    for entry in cards:
        if entry.card.id not in played:
            continue
        copies = played[entry.card.id]
        source: QuantitySource = "stated" if entry.card.quantity is not None else "assumed"
        kept.append(DeckCard(entry.card, entry.set_id, copies, source))
    extra = sorted(set(played) - {e.card.id for e in cards})
    if extra:  # the engine plays a design the selection does not print: the two decks would differ
        raise UsageError(f"{name}: the engine plays {', '.join(extra)}, which the {name} deck does not hold")
    dropped = tuple((card_id, left_out[card_id]) for card_id in (e.card.id for e in cards) if card_id in left_out)
    return Deck(game, name, players, tuple(kept), tuple(removed), tuple(sorted(wanted)), edition, dropped, config)


def engine_deck(db: Database, game: Any, name: str, set_ids: list[str],
                players: int | None) -> tuple[dict[str, int], dict[str, str], str]:
    """The deck the game's engine plays for the selection of ``set_ids`` (design → copies), the designs it leaves
    out with its reason, and the configuration's label. Without ``players``, the deck of a player count no
    marker removes a card at (every such count plays the same deck). A selection the engine does not play is
    a usage error: the playtest edition prints only what the engine plays."""
    from ..engine.plugins import plugin_of

    plugin = plugin_of(game.id)
    configs, later = plugin.configurations(db) if plugin is not None else ([], [])
    wanted = {s.id for s in game.selections if sorted(s.sets) == sorted(set_ids)} | {name}
    mine = [c for c in configs if c.selection in wanted]
    if not mine:
        why = f" ({'; '.join(later)})" if later else ""
        raise UsageError(f"{game.id} {name}: the playtest edition prints the deck the engine plays, and the engine "
                         f"plays no game of this selection{why}; build the fact edition (--edition fact)")
    if players is None:
        removing = {n for m in game.markers for n in m.removed_at_players}
        mine = [c for c in mine if c.players not in removing] or mine
    else:
        mine = [c for c in mine if c.players == players]
        if not mine:
            raise UsageError(f"{game.id} {name}: the engine plays no game of this selection with {players} players")
    config = mine[0]
    _, catalogue = plugin.rules_for(db, config)  # type: ignore[union-attr]
    played = {}
    for card_id, definition in catalogue.cards.items():
        copies = getattr(definition, "copies", None)
        if not isinstance(copies, int) or copies < 1:
            raise UsageError(f"{game.id} {config.label}: the engine gives no number of copies for {card_id!r}")
        played[card_id] = copies
    return played, dict(catalogue.left_out), config.label
