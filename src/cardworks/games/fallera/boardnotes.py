"""What the Kingdom map prints beside each side: how many cards the map takes, and each terreta's bonus.

The number of map cards is the game's ``map-cards`` parameter (the rulebook's
setup and refill, fallera-3 lines 74 and 106), laid on the terretes in
``MAP_ORDER``. The rulebook gives it for the side of the La Fallera Calavera +
3 mode; for a side with a terreta outside that order (the expert side's
Benidorm), it says only that expert mode works like the other one, so the
count is printed marked and the terreta it leaves unnamed is named. The
playtest edition adds the engine's own reading (one card on every terreta,
:func:`.deal.Deal.new_game`), marked as a stand-in.

The bonuses are written from the spaces' effects, the ones the engine plays,
with one label per verb; a verb with no words here is an error, never left
out.
"""

from __future__ import annotations

from typing import Any

from ...errors import DataError
from ...i18n.plurals import counted
from ...loading.records import Index
from ...models.certainty import PLAIN, field_certainty
from .game import MAP_ORDER, board_accesses

NOT_STATED = "†"
"""The mark of a value the rulebooks do not state (the renderer's ``marks.NOT_STATED``)."""


def _cite(texts: Any, sources: Any) -> str:
    places = []
    for source in sources:
        place = source.doc + (f" {counted(texts.label, 'line', source.lines)}" if source.lines else "")
        if place not in places:
            places.append(place)
    return "; ".join(places)


def _names(db: Any, texts: Any, ids: Any) -> str:
    index = Index(db)
    names = [str(texts.text(i, "name", index.by_id[i].model.name)) if i in index.by_id else i for i in ids]
    return ", ".join(names)


def map_card_notes(db: Any, texts: Any, board: Any, side: Any, edition: str) -> list[str]:
    """How many cards the map takes on ``side``: what the rulebook says (marked where it only follows from
    the wording), and in the playtest edition what the engine lays."""
    parameter = next((p for p in db.game_doc.parameters if p.id == "map-cards"), None)
    if parameter is None or parameter.value is None:
        return []
    spaces = {s.id: s for s in side.spaces if not s.start}
    name = {s: str(texts.text(board.id, f"sides/{side.id}/spaces/{s}/name", spaces[s].name)) for s in spaces}
    ordered = [s for s in MAP_ORDER if s in spaces]
    extra = [s for s in spaces if s not in MAP_ORDER]
    count = parameter.value
    stated = field_certainty(parameter.sources, "value") in (None, *PLAIN)
    shown = f"{count}" if stated and not extra else f"{count}{NOT_STATED}"
    notes = [str(texts.label("map_cards_rulebook")).format(count=shown, order=", ".join(name[s] for s in ordered),
                                                          cites=_cite(texts, parameter.sources))]
    if extra:
        notes.append(str(texts.label("map_cards_unsaid")).format(count=shown, spaces=", ".join(name[s] for s in extra)))
    if edition == "playtest":
        laid = len(board_accesses(db, side.id))
        if laid != count or extra:
            notes.append(str(texts.label("map_cards_engine")).format(count=f"{laid}{NOT_STATED}"))
    return notes


def bonus_text(db: Any, texts: Any, space: Any) -> str | None:
    """What ``space`` does while the Queen is there, in words, from the effects the engine plays; None when
    it does nothing. A bonus whose source does not state it carries the mark."""
    if not space.bonuses:
        return None
    parts = []
    for bonus in space.bonuses:
        when = (bonus.get("when") or {}).get("event", "always")
        for verb in bonus.get("do", []):
            kind = verb.get("verb")
            if kind == "draw" and when == "card-used":
                parts.append(str(texts.label("bonus_draw_after")).format(
                    cards=_names(db, texts, bonus["when"].get("cards", [])), count=verb.get("count", 1)))
            elif kind == "modify-stat":
                parts.append(str(texts.label("bonus_stats")).format(
                    cards=_names(db, texts, verb.get("cards", [])), attack=verb.get("attack", 0),
                    defence=verb.get("defence", 0)))
            elif kind == "coin" and when == "move-ends-turn" and \
                    [v.get("verb") for v in verb.get("heads", [])] == ["extra-action"] and not verb.get("tails"):
                parts.append(str(texts.label("bonus_coin_action")))
            elif kind == "valid-ingredient":
                cards = verb.get("cards", [])
                if len(cards) != 1:  # the label names one card ("the card {cards}"), so that no locale needs an article
                    raise DataError(f"the board prints the valid-ingredient bonus of {space.id} for one card, "
                                    f"not {len(cards)}; give the label a form for several in games/fallera/boardnotes.py")
                parts.append(str(texts.label("bonus_valid_ingredient")).format(cards=_names(db, texts, cards)))
            else:
                raise DataError(f"the board prints no words for the bonus {kind!r} (on {when!r}) of {space.id}; "
                                "add them in games/fallera/boardnotes.py")
    text = "; ".join(parts)
    return text if field_certainty(space.sources, "bonuses") in (None, *PLAIN) else f"{text}{NOT_STATED}"


def start_note(texts: Any, board: Any, side: Any) -> list[str]:
    """How the Queen leaves the starting space, which no access joins on the map (fallera-3 line 102; marked
    on a side for which the rulebook does not state it)."""
    start = next((s for s in side.spaces if s.start), None)
    if start is None:
        return []
    sure = field_certainty(board.sources, f"sides/{side.id}/spaces/{start.id}/start") in (None, *PLAIN)
    name = str(texts.text(board.id, f"sides/{side.id}/spaces/{start.id}/name", start.name))
    return [str(texts.label("board_start")).format(start=name[:1].upper() + name[1:] + ("" if sure else NOT_STATED))]


def board_notes(db: Any, texts: Any, board: Any, side: Any, edition: str) -> tuple[list[str], dict[str, str]]:
    """The lines under a side's map and each terreta's bonus (``Rendering.board_notes``)."""
    bonuses = {s.id: text for s in side.spaces if (text := bonus_text(db, texts, s))}
    return [*start_note(texts, board, side), *map_card_notes(db, texts, board, side, edition)], bonuses
