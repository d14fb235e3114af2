"""Building the rulebook and FAQ index of each game and locale, cached and in parallel."""

from __future__ import annotations

import hashlib
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

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


def doc_tasks(db: Database, locales: list[str], selection: str, allow_fallback: bool, proof: bool) -> list[DocTask]:
    """The documents of one game: a rulebook for the selection and an FAQ index, per locale."""
    if not (db.game.root / "rules").is_dir() or not (templates_dir() / "docs" / "rulebook.html.j2").is_file():
        return []
    root, game = str(db.game.root), db.game_doc.id
    from ...i18n.pseudo import PSEUDO_LOCALE

    return [DocTask(root, game, locale, kind, selection, allow_fallback, proof)
            for locale in locales if locale != PSEUDO_LOCALE for kind in ("rulebook", "faq")]


def task_hash(task: DocTask) -> str:
    """Hash of everything a document is made from."""
    from ..build import hash_files

    digest = hashlib.sha256(repr(task).encode())
    for folder in (Path(task.game_root), templates_dir()):
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


def build_documents(tasks: list[DocTask], out: Path, kept: dict[str, OutputRecord], jobs: int) -> list[tuple[DocTask, OutputRecord, bool]]:
    """Build (or reuse) every document; returns each task with its record and whether it was rendered."""
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
            rendered = list(pool.map(render_task, todo))
    else:
        rendered = [render_task(task) for task in todo]
    for task, (data, pages) in zip(todo, rendered):
        record = OutputRecord(game=task.game, locale=task.locale, kind=task.kind, path=task.path, pages=pages,
                              sha256=write_output(out, task.path, data), input_hash=keys[task],
                              selection=task.selection if task.kind == "rulebook" else None)
        results.append((task, record, True))
    return results
