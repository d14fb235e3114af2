"""Which file of a game folder or pack holds which kind of document.

The layout is fixed so that a designer never has to register a file: a set goes
in ``sets/``, a translation in ``i18n/<locale>.json``. Each kind names the
schema file its documents must point at with ``$schema``.
"""

from __future__ import annotations

from dataclasses import dataclass
from fnmatch import fnmatchcase
from pathlib import Path

from .assumptions import AssumptionList
from .base import Document
from .boards import Board
from .cards import CardSet
from .components import ComponentList
from .game import Game, RuleSections
from .icons import IconRegistry
from .ids import FrozenIds
from .layout import LayoutFile
from .pack import Pack
from .rulings import RulingList
from .scenarios import ScenarioFile
from .translations import Glossary, Translations


@dataclass(frozen=True)
class FileKind:
    """A kind of data file: its model, its schema file and where it lives."""

    name: str
    model: type[Document]
    pattern: str
    """Path relative to the game folder or pack, as a glob without ``**``."""

    @property
    def schema_file(self) -> str:
        return f"{self.name}.schema.json"


FILE_KINDS: tuple[FileKind, ...] = (
    FileKind("game", Game, "game.json"),
    FileKind("pack", Pack, "pack.json"),
    FileKind("icons", IconRegistry, "icons.json"),
    FileKind("components", ComponentList, "components.json"),
    FileKind("assumptions", AssumptionList, "assumptions/*.json"),
    FileKind("ids", FrozenIds, "ids.lock.json"),
    FileKind("set", CardSet, "sets/*.json"),
    FileKind("board", Board, "boards/*.json"),
    FileKind("rulings", RulingList, "rulings/*.json"),
    FileKind("translations", Translations, "i18n/*.json"),
    FileKind("glossary", Glossary, "i18n/glossary/*.json"),
    FileKind("scenarios", ScenarioFile, "scenarios/*.json"),
    FileKind("rule-sections", RuleSections, "rules/sections.json"),
    FileKind("layout", LayoutFile, "layouts/*.json"),
)

#: Fields of a document that hold whole records of their own (walked as records, not as parts).
RECORD_FIELDS = frozenset({"cards", "icons", "components", "rulings", "scenarios", "assumptions"})

KINDS_BY_NAME = {kind.name: kind for kind in FILE_KINDS}


def classify(relative_path: str) -> FileKind | None:
    """Return the kind of the file at ``relative_path`` (``/``-separated), or None."""
    for kind in FILE_KINDS:
        if fnmatchcase(relative_path, kind.pattern) and relative_path.count("/") == kind.pattern.count("/"):
            return kind
    return None


def has_set_files(folder: Path) -> bool:
    """Whether the game folder ``folder`` holds set files, the documents that list cards (the build prints its
    cards, the preview shows them)."""
    return any(kind is not None and kind.name == "set"
               for kind in (classify(path.relative_to(folder).as_posix()) for path in folder.rglob("*.json")))
