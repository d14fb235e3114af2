"""The game's own checks see its data without prose, so their verdict outlives an edit of a card's text.

A game plugin's checks (its vocabulary in effects and bonuses, the references inside them, its scenarios'
expectations and steps; :func:`.runner.check_game_rules`) are most of the work of validating a game after an
edit, and importing the plugin (its engine and models) is most of that. None of them reads what a card says
in words. So they are always given a *view* of the database in which each card design's non-empty ``rules``
and ``flavour`` texts read :data:`PLACEHOLDER` (an empty one stays empty: whether a card has text matters to
them) and which holds no translation files. Their verdict is then a function of the view, the files outside
the data (rulebook sources, art) and the code, and :class:`.cache.RulesVerdicts` keeps it under a key made of
exactly those: editing a card's rules text or a translation keeps the key, anything else the checks could read
changes it. The text itself is checked by the generic checks, which always run (markup, glossary, language,
length, translations). A plugin reads its game's data from the index it is given, never from the files.
"""

from __future__ import annotations

import dataclasses

from ..loading.database import Bundle, Database, LoadedFile

PLACEHOLDER = "(text)"
"""What a non-empty prose field reads in the view."""
PROSE = ("rules", "flavour")
"""A card design's fields the game's own checks do not see."""
HIDDEN_KINDS = ("translations",)
"""Data files left out of the view."""


def rules_view(db: Database) -> Database:
    """``db`` as the game's own checks see it (see the module docstring); ``db`` itself is not changed."""
    return Database(game=_bundle(db.game, None), packs=[_bundle(pack, None) for pack in db.packs])


def pieces_view(db: Database) -> Database:
    """``db`` as printed pieces (boards, standees, stickers, tiles…) are drawn from: card designs' rules and
    flavour texts a placeholder as in :func:`rules_view`, and translations without those texts' entries (the
    pieces print names and the pieces' own texts, never a card's rules), so an edit of them keeps the pieces'
    key (``render.docs.build.task_hash``)."""
    cards = {card.id for _, card_set in db.docs("set") for card in card_set.cards}
    return Database(game=_bundle(db.game, cards), packs=[_bundle(pack, cards) for pack in db.packs])


def _bundle(bundle: Bundle, cards: set[str] | None) -> Bundle:
    """``cards`` None: translations left out; else kept without the prose entries of those card designs."""
    if cards is None:
        return dataclasses.replace(bundle, files=[_file(f) for f in bundle.files if f.kind.name not in HIDDEN_KINDS])
    return dataclasses.replace(bundle, files=[_translation(f, cards) if f.kind.name in HIDDEN_KINDS else _file(f)
                                              for f in bundle.files])


def _translation(loaded: LoadedFile, cards: set[str]) -> LoadedFile:
    if loaded.doc is None or not isinstance(loaded.data, dict) or not isinstance(loaded.data.get("entries"), dict):
        return loaded

    def kept(record: str, fields: object) -> object:
        if record not in cards or not isinstance(fields, dict):
            return fields
        return {field: value for field, value in fields.items() if field not in PROSE}

    data = {**loaded.data, "entries": {r: kept(r, f) for r, f in loaded.data["entries"].items()}}
    doc = loaded.doc.model_copy(update={"entries": {r: kept(r, f) for r, f in loaded.doc.entries.items()}})
    return dataclasses.replace(loaded, data=data, doc=doc)


def _file(loaded: LoadedFile) -> LoadedFile:
    if loaded.kind.name != "set" or loaded.doc is None or not isinstance(loaded.data, dict):
        return loaded
    raw = loaded.data.get("cards")
    data = {**loaded.data, "cards": [_without_prose(card) for card in raw]} if isinstance(raw, list) else loaded.data
    doc = loaded.doc.model_copy(update={"cards": [card.model_copy(update={name: PLACEHOLDER for name in PROSE
                                                                          if getattr(card, name)})
                                                  for card in loaded.doc.cards]})
    return dataclasses.replace(loaded, data=data, doc=doc)


def _without_prose(card: object) -> object:
    if not isinstance(card, dict):
        return card
    return {key: PLACEHOLDER if key in PROSE and isinstance(value, str) and value else value
            for key, value in card.items()}
