"""The translation catalog of one game and locale: every source string with its translation state.

Export formats (PO, XLIFF) and ``status`` are views of this catalog; import
turns a translator's file back into catalog entries.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Literal

from ..fileio import read_text_limited
from ..loading.database import Database
from ..loading.records import Index, Record
from ..markup import MarkupError, tokens
from .rules import source_blocks, split_blocks, translated_blocks
from .strings import source_hash, source_strings

State = Literal["translated", "stale", "missing"]

#: Where each field appears and the room it has, for translators' comments.
PLACES = {
    "name": "card title: at most two lines of about 38 mm, 9.5 pt bold condensed shrinking to 7 pt, never hyphenated",
    "rules": "card rules box, 57.8 × 27.5 mm; text shrinks from 8 pt down to 5.5 pt, then overflows",
    "flavour": "italic saying at the bottom of the card, one or two lines of 58 mm at 6.4 pt",
    "alt": "alternative text of an icon, read where the icon cannot be shown",
    "question": "FAQ index: the question of a ruling",
    "answer": "FAQ index: the answer of a ruling",
}


@dataclass(frozen=True)
class Room:
    """The box a card text is printed in, at the smallest size it may shrink to."""

    width_mm: float
    lines: int | None
    """Lines the text may take; None: as many as ``height_mm`` holds."""
    height_mm: float
    size_pt: float
    line_height: float
    advance_em: float
    """Average advance of a character of the face, measured with fontTools over every shipped card text
    (DejaVu Sans Condensed Bold 0.511, Sans 0.500, Serif Italic 0.496)."""

    @property
    def max_length(self) -> int:
        """Characters that fit, with a tenth kept for words wrapping before a line is full."""
        em = self.size_pt * 25.4 / 72
        per_line = self.width_mm / (em * self.advance_em)
        lines = self.lines or math.floor(self.height_mm / (em * self.line_height))
        return math.floor(per_line * lines * 0.9)


#: The room of each card field (templates/cards/cards.css): translators' tools turn it into ``max-length``.
ROOMS = {
    "name": Room(width_mm=38.0, lines=2, height_mm=7.6, size_pt=7.0, line_height=1.05, advance_em=0.511),
    "rules": Room(width_mm=54.2, lines=None, height_mm=27.5, size_pt=5.5, line_height=1.18, advance_em=0.500),
    "flavour": Room(width_mm=54.2, lines=2, height_mm=5.0, size_pt=6.4, line_height=1.15, advance_em=0.496),
}


@dataclass(frozen=True)
class Entry:
    """One translatable string of the catalog."""

    context: str
    """Stable address ``game/group/id/field``; ``group`` is the card's set or the record's kind."""
    record: str
    field: str
    source: str
    translation: str | None
    state: State
    previous_source: str | None
    """The source text the (stale) translation was made from, when known."""
    markup: bool
    comments: tuple[str, ...] = field(default_factory=tuple)
    set_id: str | None = None
    max_length: int | None = None
    """Characters the text has room for where it is printed (card fields), else None."""
    kind: str = "record"
    """``record`` for strings of the database, ``rules`` for rulebook blocks (Markdown)."""
    stamp: str | None = None
    """The source hash the stored translation carries (empty for rulebook blocks; None when untranslated):
    with ``translation`` it is the value an import's three-way merge compares (see ``merge.py``)."""

    @property
    def stored(self) -> list[str] | None:
        """The stored value as the merge sees it: [translation, stamp], or None when there is none."""
        return None if self.translation is None else [self.translation, self.stamp or ""]

    @property
    def tokens(self) -> list[str]:
        """The markup tokens of the source, in order (empty when it is not markup or does not parse)."""
        if not self.markup:
            return []
        try:
            return tokens(self.source)
        except MarkupError:
            return []


def _group(record: Record) -> str:
    return record.set_id if record.kind == "card" and record.set_id else record.kind


def _comments(record: Record, path: str, text: str, markup: bool) -> tuple[str, ...]:
    notes = []
    model = record.model
    if record.kind == "card":
        notes.append(f"{' + '.join(model.types)} card of the set {record.set_id}: {model.name}")
    elif record.kind == "ruling":
        notes.append(f"ruling about: {', '.join(model.cards)}")
    else:
        notes.append(f"{record.kind} {record.id}")
    place = {"card": ("name", "rules", "flavour"), "ruling": ("question", "answer"), "icon": ("alt",)}
    if path in place.get(record.kind, ()):
        notes.append(f"appears in: {PLACES[path]}")
    if record.kind == "card" and path == "name":
        notes.append("card names keep their Valencian original unless the game gives a translation")
    if markup:
        notes += _comments_tokens(text)
    return tuple(notes)


def build_catalog(db: Database, locale: str) -> list[Entry]:
    """Every source string of the game with its translation into ``locale``, in record order."""
    game = db.game_doc
    stored: dict[str, dict] = {}
    for _, doc in db.docs("translations"):
        if doc.locale == locale:
            for record_id, fields in doc.entries.items():
                stored.setdefault(record_id, {}).update(fields)
    entries = []
    for record in Index(db).records:
        if record.kind in {"pack", "assumption"} or (db.packs and not record.bundle.is_pack):
            continue  # a pack's catalog holds the pack's own strings only
        for string in source_strings(record.model):
            found = stored.get(record.id, {}).get(string.field)
            if found is None:
                state: State = "missing"
            elif found.source_hash == source_hash(string.text):
                state = "translated"
            else:
                state = "stale"
            entries.append(Entry(
                context=f"{game.id}/{_group(record)}/{record.id}/{string.field}",
                record=record.id, field=string.field, source=string.text,
                translation=found.text if found else None, state=state,
                previous_source=found.source if found and state == "stale" else None,
                markup=string.markup, comments=_comments(record, string.field, string.text, string.markup),
                set_id=record.set_id,
                max_length=ROOMS[string.field].max_length if record.kind == "card" and string.field in ROOMS else None,
                stamp=found.source_hash if found else None,
            ))
    return entries + ([] if db.packs else _rule_entries(db, locale))


def _rule_entries(db: Database, locale: str) -> list[Entry]:
    """Rulebook blocks, addressed ``game/rules/section/number``.

    Rulebook files keep no source hashes, so a rulebook block is translated or
    missing, never stale.
    """
    game = db.game_doc
    root = db.game.root / "rules"
    if not (root / game.source_locale).is_dir():
        return []
    entries = []
    blocks = source_blocks(root, game.source_locale)
    counts: dict[str, int] = {}
    for block in blocks:
        path = root / game.source_locale / f"{block.section}.md"
        counts.setdefault(block.section, len(split_blocks(read_text_limited(path))))
    cache: dict[str, list[str] | None] = {}
    for block in blocks:
        if block.section not in cache:
            cache[block.section] = translated_blocks(root, locale, block.section, counts[block.section])
        translated = cache[block.section]
        text = translated[block.number] if translated is not None else None
        notes = [f"rulebook section {block.section}, block {block.number}",
                 "Markdown: keep the heading marks (#), list marks (-, 1.), **bold** and *italic*"]
        notes += list(_comments_tokens(block.text))
        entries.append(Entry(context=f"{game.id}/rules/{block.section}/{block.number}", record=f"rules/{block.section}",
                             field=str(block.number), source=block.text, translation=text,
                             state="translated" if text is not None else "missing", previous_source=None,
                             markup=True, comments=tuple(notes), kind="rules",
                             stamp="" if text is not None else None))
    return entries


def _comments_tokens(text: str) -> list[str]:
    try:
        kept = sorted(set(tokens(text)))
    except MarkupError:
        return []
    return ["keep these tokens exactly: " + " ".join(f"{{{t}}}" for t in kept)] if kept else []


def parse_context(context: str) -> tuple[str, str, str, str]:
    """``game/group/id/field`` → its four parts (the field may itself contain ``/``)."""
    parts = context.split("/", 3)
    if len(parts) != 4 or not all(parts):
        raise ValueError(f"not a cardworks context: {context!r}")
    return parts[0], parts[1], parts[2], parts[3]
