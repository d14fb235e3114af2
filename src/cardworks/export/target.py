"""The one skeleton every export runs: choose the deck, check it, lay its faces out once, let the target write
its files into a staging folder, record ``export.json``, verify, and publish the folder whole.

A target (print shop, Tabletop Simulator, or a new one) fills in only what is its own: the checks before
anything is rendered, the files it writes, and the checks before publishing. Each used to copy the skeleton.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from ..render.facecache import FaceCache
from ..render.faces import FaceJob, build_job
from .common import MARKER, DeckFaces, discard, export_folder, load_deck, publish_folder, render_deck, staging_folder

__all__ = ["DeckChoice", "Exported", "Target", "run_target"]


@dataclass(frozen=True)
class DeckChoice:
    """The options every export takes to choose its deck (the command line's deck options)."""

    game: str | None = None
    selection: str | None = None
    players: int | None = None
    locale: str | None = None
    packs: list[Path] = field(default_factory=list)
    jobs: int = 1
    """Processes to lay faces out in."""
    face_cache: Path | None = None
    """A face cache (``cardworks build``'s): faces found there are not laid out again, new ones go in."""


class Target(Protocol):
    """What one export writes. ``kind`` is ``export.json``'s ``export``; ``prefix`` names the default folder
    ``build/export/<prefix>-<game>-<deck>-<locale>``."""

    kind: str
    prefix: str

    def check(self, job: FaceJob) -> None:
        """Refuse the deck before anything is rendered (UsageError), or return."""

    def write(self, faces: DeckFaces, staging: Path, out: Path, label: str) -> dict[str, Any]:
        """Write the target's files into ``staging`` (published as ``out``); the fields it adds to ``export.json``."""

    def verify(self, staging: Path, out: Path) -> Any:
        """Check the written folder before it is published (raise to leave ``out`` as it was); what it returns is
        kept as ``Exported.verified``."""


@dataclass
class Exported:
    """A published export: its folder, the faces it was made from, its ``export.json`` and what ``verify`` said."""

    folder: Path
    faces: DeckFaces
    record: dict[str, Any]
    label: str
    """``<game>-<deck>-<locale>``: the stem of the files and of the default folder."""
    verified: Any = None


def run_target(cards_root: Path, target: Target, chosen: DeckChoice, out: Path | None = None) -> Exported:
    """Run ``target`` on the deck ``chosen``: written into ``out`` (default under ``build/export/``), replaced
    whole only when every step succeeded; on any failure the staging folder is removed and ``out`` is untouched."""
    folder = export_folder(out) if out is not None else None  # before anything else: a folder a killed export
    # hid is put back and its leftovers go; a symbolic link is followed (the folder it names is replaced)
    db, deck, locale = load_deck(cards_root, chosen.game, chosen.selection, chosen.players, chosen.locale,
                                 chosen.packs)
    job = build_job(db, deck, locale)
    target.check(job)
    label = f"{db.game_doc.id}-{deck.label}-{locale}"
    out = out or Path("build") / "export" / f"{target.prefix}-{label}"
    folder = folder or export_folder(out)
    staging = staging_folder(folder)
    try:
        faces = render_deck(db, deck, locale, chosen.jobs, job,
                            FaceCache(chosen.face_cache) if chosen.face_cache else None)
        own = target.write(faces, staging, out, label)
        record = {"export": target.kind, "game": db.game_doc.id, "deck": deck.label, "locale": locale,
                  "designs": len(deck.cards), "cards": deck.physical_cards, **own}
        (staging / MARKER).write_text(json.dumps(record, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        verified = target.verify(staging, out)
        publish_folder(staging, folder)
    except BaseException:
        discard(staging)
        raise
    return Exported(out, faces, record, label, verified)
