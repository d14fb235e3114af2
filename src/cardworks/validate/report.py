"""The outcome of a validation run, apart from the checks that make it: a kept verdict (:mod:`.cache`) is read
back without importing them."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from ..problems import ProblemList

if TYPE_CHECKING:
    from .check_totals import SetCompleteness


@dataclass
class Report(ProblemList):
    """The outcome of a validation run: the problems (``items``), and completeness per game."""

    completeness: dict[str, list[SetCompleteness]] = field(default_factory=dict)
    """Per game id: completeness of each set."""
    assumed: dict[str, int] = field(default_factory=dict)
    """Per game id: number of assumed values."""
    files: int = 0

    pack_roots: list[Path] = field(default_factory=list)
    """The packs asked about: under ``strict`` only their own warnings fail (the game's are shown)."""

    @property
    def judged_warnings(self) -> list:
        """Warnings that ``strict`` turns into errors: a pack's own, or every warning without packs."""
        if not self.pack_roots:
            return self.warnings
        return [p for p in self.warnings if any(root == Path(p.file).resolve() or root in Path(p.file).resolve().parents
                                                for root in self.pack_roots)]

    def failed(self, strict: bool = False) -> bool:
        """True when there are errors, or (under ``strict``) warnings about what was asked for."""
        return bool(self.errors or (strict and self.judged_warnings))
