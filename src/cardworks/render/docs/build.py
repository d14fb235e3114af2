"""Building each game's rulebooks, FAQ indexes and printable pieces per locale, cached and in parallel."""

from __future__ import annotations

import hashlib
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...loading.database import Database, load_game
from ..jinja import templates_dir
from ..manifest import OutputRecord, still_valid, write_output
from ..printshop import save_pdf


@dataclass(frozen=True)
class DocTask:
    """One document to build (picklable, for worker processes)."""

    game_root: str
    game: str
    locale: str
    kind: str
    """``rulebook`` or ``faq``."""
    selection: str
    allow_fallback: bool
    proof: bool

    @property
    def path(self) -> str:
        name = f"rulebook-{self.selection}" if self.kind == "rulebook" else "faq"
        return f"{self.game}/{self.locale}/{name}{'-proof' if self.proof else ''}.pdf"

    @property
    def record_selection(self) -> str | None:
        return self.selection if self.kind == "rulebook" else None

    @property
    def paper(self) -> str:
        return "a4"

    def render(self) -> tuple[bytes, int]:
        return render_task(self)


def doc_tasks(db: Database, locales: list[str], selection: str, allow_fallback: bool, proof: bool) -> list[DocTask]:
    """The documents of one game, per locale: a rulebook for the selection where the game has rulebook
    sources in that locale (in any locale when fallbacks are allowed), and an FAQ index when it has rulings."""
    rules = db.game.root / "rules"
    if not rules.is_dir():
        return []
    root, game = str(db.game.root), db.game_doc.id
    from ...i18n.pseudo import PSEUDO_LOCALE

    has_rulings = any(doc.rulings for _, doc in db.docs("rulings"))
    tasks = []
    for locale in locales:
        if locale == PSEUDO_LOCALE:
            continue
        if allow_fallback or (rules / locale).is_dir():
            tasks.append(DocTask(root, game, locale, "rulebook", selection, allow_fallback, proof))
        if has_rulings:
            tasks.append(DocTask(root, game, locale, "faq", selection, allow_fallback, proof))
    return tasks


def task_hash(task: Any) -> str:
    """Hash of everything a document is made from."""
    from ..build import hash_files

    digest = hashlib.sha256(repr(task).encode())
    package = Path(__file__).resolve().parents[2]  # FAQ verdicts and score sheets come from the engine and games
    for folder in (Path(task.game_root), templates_dir(), package / "engine", package / "games"):
        hash_files(digest, [p for p in folder.rglob("*") if p.is_file()], folder)
    return digest.hexdigest()


def render_task(task: DocTask) -> tuple[bytes, int]:
    """Render one document; returns its PDF bytes and page count."""
    import io

    import pikepdf

    from .documents import faq_pdf, render_pdf, rulebook_html

    db = Database(game=load_game(Path(task.game_root)))
    if task.kind == "rulebook":
        html = rulebook_html(db, task.locale, task.selection, task.allow_fallback, task.proof)
        data = render_pdf(html, db.game.root)
    else:
        data = faq_pdf(db, task.locale, task.allow_fallback, task.proof)
    pdf = pikepdf.open(io.BytesIO(data))
    return save_pdf(pdf), len(pdf.pages)


def _render(task: Any) -> tuple[bytes, int]:
    return task.render()


def build_documents(tasks: list[Any], out: Path, kept: dict[str, OutputRecord], jobs: int) -> list[tuple[Any, OutputRecord, bool]]:
    """Build (or reuse) every document or piece (anything with ``path``, ``kind``, ``game_root`` and
    ``render()``); returns each task with its record and whether it was rendered."""
    keys = {task: task_hash(task) for task in tasks}
    results = []
    todo = []
    for task in tasks:
        previous = kept.get(task.path)
        if previous is not None and previous.input_hash == keys[task] and still_valid(out, previous):
            results.append((task, previous, False))
        else:
            todo.append(task)
    if jobs > 1 and len(todo) > 1:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            rendered = list(pool.map(_render, todo))
    else:
        rendered = [_render(task) for task in todo]
    for task, (data, pages) in zip(todo, rendered):
        record = OutputRecord(game=task.game, locale=task.locale, kind=task.kind, path=task.path, pages=pages,
                              sha256=write_output(out, task.path, data), input_hash=keys[task],
                              selection=task.record_selection, paper=task.paper)
        results.append((task, record, True))
    return results
