"""The game's own checks see its data without prose, so their verdict outlives an edit of a card's text.

A game plugin's checks (its vocabulary in effects and bonuses, the references inside them, its scenarios'
expectations and steps; :func:`.runner.check_game_rules`) are most of the work of validating a game after an
edit, and importing the plugin (its engine and models) is most of that. None of them reads what a card says
in words. So they are always given a *view* of the database in which each card design's non-empty ``rules``
and ``flavour`` texts read :data:`PLACEHOLDER` (an empty one stays empty: whether a card has text matters to
them) and which holds no translation files. Their verdict is then a function of the view, the files outside
the data (rulebook sources, art) and the code, and :class:`RulesVerdicts` keeps it under a key made of exactly
those: editing a card's rules text or a translation keeps the key, anything else the checks could read
changes it. The text itself is checked by the generic checks, which always run (markup, glossary, language,
length, translations). A plugin reads its game's data from the index it is given, never from the files.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
from pathlib import Path

from ..fileio import read_text_limited, write_text_atomic
from ..loading.database import Bundle, Database, LoadedFile
from ..problems import Problem
from .cache import hash_tree, local, portable

PLACEHOLDER = "(text)"
"""What a non-empty prose field reads in the view."""
PROSE = ("rules", "flavour")
"""A card design's fields the game's own checks do not see."""
HIDDEN_KINDS = ("translations",)
"""Data files left out of the view."""
FORMAT = 1
"""Bump when the view or a stored verdict's form changes: older entries are then misses."""


def rules_view(db: Database) -> Database:
    """``db`` as the game's own checks see it (see the module docstring); ``db`` itself is not changed."""
    return Database(game=_bundle(db.game), packs=[_bundle(pack) for pack in db.packs])


def _bundle(bundle: Bundle) -> Bundle:
    return dataclasses.replace(bundle, files=[_file(f) for f in bundle.files if f.kind.name not in HIDDEN_KINDS])


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


def view_key(view: Database, code: str) -> str:
    """Hash of what the game's own checks can read: ``code`` (the program and libraries, see
    :func:`.cache.code_key`), each data file of ``view`` as parsed (kind, path, display name, data) and the bytes
    of every other file of its folders, translations and all (a plugin never reads the data files' bytes)."""
    digest = hashlib.sha256(f"cardworks-rules-view {FORMAT} {code}\0".encode())
    for bundle in view.bundles:
        digest.update(json.dumps([str(bundle.root), bundle.is_pack, [p.text() for p in bundle.problems]]).encode())
        for f in bundle.files:
            digest.update(json.dumps([f.kind.name, str(f.path), f.display, f.data], ensure_ascii=False,
                                     sort_keys=True, default=repr).encode() + b"\0")
        _hash_others(digest, bundle.root, {str(f.path) for f in bundle.files})
    return digest.hexdigest()


def _hash_others(digest: "hashlib._Hash", root: Path, data_files: set[str]) -> None:
    """Every file under ``root`` but the data files the view holds: its path and bytes (links: their text)."""
    hash_tree(digest, root, skip=lambda path: path in data_files or _is_hidden(path, root))


def _is_hidden(path: str, root: Path) -> bool:
    """A translation file: left out of the view, so not a thing the checks can read."""
    parts = Path(os.path.relpath(path, root)).parts
    return len(parts) == 2 and parts[0] == "i18n" and parts[1].endswith(".json")


class RulesVerdicts:
    """The game's own checks' problems on a view, kept in ``folder`` under :func:`view_key`; problems are kept
    with the folders in ``roots`` replaced by numbers (see :mod:`.cache`), so an entry names no folder of this
    machine. :meth:`known` answers a view seen before; :meth:`remember` notes a new verdict, which the caller
    writes with :meth:`keep` once its build succeeded."""

    def __init__(self, folder: Path, roots: list[str], code: str) -> None:
        self.folder, self.roots, self.code = folder, roots, code
        self.new: dict[Path, dict] = {}

    def _entry(self, view: Database) -> Path:
        asked = json.dumps([str(bundle.root.resolve()) for bundle in view.bundles])
        return self.folder / f"rules-{hashlib.sha256(asked.encode()).hexdigest()[:32]}.json"

    def known(self, view: Database, key: str) -> list[Problem] | None:
        try:
            stored = json.loads(read_text_limited(self._entry(view)))
            if stored.get("format") == FORMAT and stored.get("key") == key:
                return [Problem(**{k: local(v, self.roots) for k, v in raw.items()}) for raw in stored["problems"]]
        except (OSError, ValueError, KeyError, TypeError):  # none yet, damaged or unsafe: checked again
            pass
        return None

    def remember(self, view: Database, key: str, problems: list[Problem]) -> None:
        self.new[self._entry(view)] = {
            "format": FORMAT, "key": key,
            "problems": [{k: portable(v, self.roots) for k, v in dataclasses.asdict(p).items()} for p in problems]}

    def keep(self) -> None:
        """Write the verdicts remembered (where the folder cannot be written, they are not kept)."""
        for entry, stored in self.new.items():
            try:
                write_text_atomic(entry, json.dumps(stored, ensure_ascii=False))
            except OSError:
                pass
        self.new = {}
