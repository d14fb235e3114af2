"""A game's declared card fields: what a game without rules says its cards carry, so that it needs no Python.

A designer's own game (docs/your-own-game.md) lists its fields in ``game.json``; each field is one column of
its spreadsheet and one variable of its face template. The list of kinds is small and each kind is stored in
one place of a card design (:data:`FIELD_SLOTS`), so everything cardworks does with cards (validation, faces,
sheets, translations, exports) works on such a game unchanged.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from .base import TRANSLATABLE, Id, Model

FieldKind = Literal["title", "type", "text", "flavour", "number", "choice", "icons", "image", "quantity", "credit"]

FIELD_SLOTS: dict[str, str] = {
    "title": "name",
    "type": "types",
    "text": "rules",
    "flavour": "flavour",
    "number": "stats",
    "choice": "attributes",
    "icons": "icons",
    "image": "art",
    "quantity": "quantity",
    "credit": "artist",
}
"""Where a card design keeps a field of each kind: ``number`` and ``choice`` fields under their own id in
``stats`` and ``attributes``, every other kind in one field of its own (so at most one field of each)."""

TRANSLATABLE_KINDS = frozenset({"title", "text", "flavour"})
"""Kinds whose text is translated (``cardworks i18n``): the name, the text box and the flavour line."""

MANY_KINDS = frozenset({"number", "choice"})
"""Kinds a game may declare several fields of."""

Corner = Literal["top-left", "top-right", "bottom-left", "bottom-right"]


class CardField(Model):
    """One field the game's cards carry: a column of its spreadsheet, a variable of its face template."""

    id: Id
    """The field's name: the header of its spreadsheet column and its template variable. A ``number`` or
    ``choice`` field's id is also the id of the stat or attribute that types it (its range, its values)."""
    kind: FieldKind
    """``title`` (the card's name), ``type`` (one of the game's card types), ``text`` (card text with
    ``{icon}`` markup), ``flavour`` (an italic line), ``number`` (an integer in the range its stat declares),
    ``choice`` (one of the values its attribute declares), ``icons`` (a list of icon tokens), ``image`` (the
    art file, inside the game folder), ``quantity`` (copies in the deck, 1 to 99), ``credit`` (who drew the
    art). Title, text and flavour are translatable; the others are not."""
    required: bool = False
    """Every card must give this field (the title and the type always are)."""
    corner: Corner | None = None
    """For a ``number``: the face's corner it is printed in; without one it is printed on the stats line."""
    label: str | None = Field(default=None, max_length=40, json_schema_extra=TRANSLATABLE)
    """What the face prints before a ``number`` or ``choice`` value (``Cost``); none: the value alone."""
