"""Building each game's rulebooks, FAQ indexes and printable pieces per locale, cached and in parallel."""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Callable
from concurrent.futures import as_completed
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...loading.database import Database, load_game
from ..jinja import templates_dir
from ..manifest import OutputRecord, still_valid, write_output
from ..workers import BuildWorkers
from .texts import fallen_back


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
    paper: str = "a4"
    """The page size (``--paper``): every document prints on the paper the cards do."""

    @property
    def path(self) -> str:
        name = f"rulebook-{self.selection}" if self.kind == "rulebook" else "faq"
        return f"{self.game}/{self.locale}/{name}{'-proof' if self.proof else ''}.pdf"

    @property
    def record_selection(self) -> str | None:
        return self.selection if self.kind == "rulebook" else None

    def render(self, made: DocHtml | None = None) -> tuple[bytes, int, list[str]]:
        """Lay the document out from ``made`` (its HTML, made once by the build); without it, make it here."""
        return render_task(self, made)

    def html(self, db: Database) -> DocHtml:
        """The document's HTML, with the images each section asks for and the strings taken from another
        locale. Made once per build (in the main process, which keys the document by it) and handed to the
        worker that lays it out, so no rulebook is generated twice and no proof FAQ runs its scenarios twice."""
        from .documents import faq_html, rulebook_html

        asked_by: dict[str, str] = {}
        fell_back: list[str] = []
        if self.kind == "rulebook":
            html = rulebook_html(db, self.locale, self.selection, self.allow_fallback, self.proof, asked_by, fell_back,
                                 self.paper)
        else:
            html = faq_html(db, self.locale, self.allow_fallback, self.proof, fell_back, self.paper)
        return DocHtml(html, asked_by, fell_back)

    def input_key(self, made: DocHtml, seen: dict[Path, str]) -> str:
        """Hash of what the document prints: its HTML ``made`` and the files it names (:mod:`.inputs`)."""
        from .inputs import html_key

        head = f"{self.kind} {self.locale} {self.allow_fallback} {self.proof}"
        return html_key(f"{head}\n{made.html}", Path(self.game_root), seen)


@dataclass(frozen=True)
class DocHtml:
    """A document's generated HTML and what came with it: the image each section line asks for (to name it
    when the fetcher refuses it) and the strings printed from another locale."""

    html: str
    asked_by: dict[str, str]
    fell_back: list[str]


def doc_tasks(db: Database, locales: list[str], selection: str | list[str], allow_fallback: bool,
              proof: bool, paper: str = "a4") -> list[DocTask]:
    """The documents of one game, per locale: a rulebook for each selection (one, or a list: a rulebook per
    box) where the game has rulebook sources in that locale (in any locale when fallbacks are allowed), and
    an FAQ index when it has rulings; on ``paper``."""
    selections = [selection] if isinstance(selection, str) else selection
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
            tasks += [DocTask(root, game, locale, "rulebook", chosen, allow_fallback, proof, paper) for chosen in selections]
        if has_rulings:
            tasks.append(DocTask(root, game, locale, "faq", selections[0], allow_fallback, proof, paper))
    return tasks


def _shown_by(task: Any, root: Path, path: Path, source_locale: str) -> bool:
    """False for files a document of ``task.locale`` cannot show: other locales' translations and rulebook text
    (unless fallbacks are allowed; the source locale's always counts), the card-face templates."""
    parts = path.relative_to(root).parts
    if parts[:1] == ("cards",) and root == templates_dir():
        return False
    if getattr(task, "allow_fallback", False) or len(parts) < 2:
        return True
    if parts[0] == "i18n":
        return parts[1] == f"{task.locale}.json"
    if parts[0] == "rules" and len(parts) > 2:
        return parts[1] in (task.locale, source_locale)
    return True


def task_hash(task: Any, seen: dict[Any, Any] | None = None, db: Database | None = None) -> str:
    """Hash of everything a piece may be made from: the game's data in its locale, the templates, the engine.
    (Rulebooks and FAQ indexes are keyed by what they print instead: ``DocTask.input_key``.) ``seen`` keeps
    the folders listed and files read for the tasks of one build. A task that draws from a view of its game
    (``drawn_from``, given its game ``db`` loaded) is keyed by the view's data files as parsed, and the bytes
    of the folder's other files."""
    import json

    from ...loading.paths import read_text_inside
    from ..manifest import hash_files

    digest = hashlib.sha256(_portable_repr(task).encode())
    package = Path(__file__).resolve().parents[2]  # FAQ verdicts and score sheets come from the engine and games
    try:
        source = json.loads(read_text_inside(Path(task.game_root), Path(task.game_root) / "game.json")).get("source_locale", "")
    except (OSError, ValueError):
        source = ""
    seen = {} if seen is None else seen
    read = seen.setdefault("bytes", {})
    parsed: dict[Path, bytes] = {}
    if db is not None and hasattr(task, "drawn_from"):
        if ("view", task.game_root) not in seen:  # the same view for every piece of the game
            root = Path(task.game_root)
            seen[("view", task.game_root)] = {
                f.path: json.dumps([str(f.path.relative_to(root)), f.data], ensure_ascii=False, sort_keys=True,
                                   default=repr).encode() + b"\0"
                for f in task.drawn_from(db).game.files if f.path.is_relative_to(root)}
        parsed = seen[("view", task.game_root)]
        for path in sorted(parsed):
            if _shown_by(task, Path(task.game_root), path, source):
                digest.update(parsed[path])
    for folder in (Path(task.game_root), templates_dir(), package / "engine", package / "games"):
        if ("files", folder) not in seen:
            seen[("files", folder)] = [p for p in folder.rglob("*") if p.is_file()]
        shown = [p for p in seen[("files", folder)] if p not in parsed and _shown_by(task, folder, p, source)]
        hash_files(digest, shown, folder, read)
    return digest.hexdigest()


def _portable_repr(task: Any) -> str:
    """``repr(task)`` without the game folder's absolute path (its files are hashed relative to it): a database
    moved or copied elsewhere is the same input, and a rebuild from there rewrites nothing."""
    if dataclasses.is_dataclass(task) and hasattr(task, "game_root"):
        return repr(dataclasses.replace(task, game_root=""))
    return repr(task)


def render_task(task: DocTask, made: DocHtml | None = None) -> tuple[bytes, int, list[str]]:
    """Lay one document out from its HTML ``made`` (made here when not given); returns its PDF bytes, page
    count and the strings taken from another locale."""
    import io

    import pikepdf

    from ..facepdf import save_pdf  # pikepdf: only where a document is laid out (``validate`` makes HTML only)
    from .documents import render_pdf

    if made is None:
        made = task.html(Database(game=load_game(Path(task.game_root))))
    name = "rulebook" if task.kind == "rulebook" else "FAQ index"
    data = render_pdf(made.html, Path(task.game_root), made.asked_by, f"the {task.game} {task.locale} {name}")
    pdf = pikepdf.open(io.BytesIO(data))
    return save_pdf(pdf), len(pdf.pages), list(made.fell_back)


DOCUMENT_INPUTS = ".cache/documents.json"
"""Each document's inputs key (:func:`inputs_key`) beside the key of what it printed, from the last build: when
the inputs are the same, the document is the same, and its HTML is not made again only to be keyed."""


def inputs_key(task: DocTask, trees: dict[str, str]) -> str:
    """Hash of everything a document is made from: its options, every file of its game's folder (data, sources,
    translations), the program with its templates and layouts, and the owner's facts merged in. Coarser than
    what it prints (any edit to the game changes it), but made without generating the document. ``trees``
    keeps, for one build, each game folder's hash and the program's (read once: 25 documents, one program)."""
    from ...validate.cache import code_key, hash_tree, overlay_key

    if "" not in trees:
        trees[""] = f"{code_key()}\0{overlay_key()}"
    if task.game_root not in trees:
        digest = hashlib.sha256()
        hash_tree(digest, Path(task.game_root), label="game")  # a moved database is the same input
        trees[task.game_root] = digest.hexdigest()
    text = f"documents 1\0{_portable_repr(task)}\0{trees[task.game_root]}\0{trees['']}"
    return hashlib.sha256(text.encode()).hexdigest()


def _read_inputs(out: Path) -> dict[str, list[str]]:
    """The last build's ``{path: [inputs key, printed key]}``; nothing when missing or damaged (then every
    document is made again and keyed by what it prints, as without it)."""
    from ...loading.jsonfile import read_json

    if not (out / DOCUMENT_INPUTS).is_file():
        return {}
    data, problems = read_json(out / DOCUMENT_INPUTS, DOCUMENT_INPUTS)
    if problems or not isinstance(data, dict):
        return {}
    return {path: pair for path, pair in data.items()
            if isinstance(pair, list) and len(pair) == 2 and all(isinstance(k, str) for k in pair)}


def _keys(tasks: list[Any], games: dict[str, Database], kept: dict[str, OutputRecord] | None = None,
          known: dict[str, list[str]] | None = None) -> tuple[dict[Any, str], dict[Any, DocHtml], dict[Any, str]]:
    """Each task's input key (what a document prints, else every file a piece may read), each document's HTML,
    which its worker lays out, and each document's inputs key. A document whose inputs key and printed key
    match the last build's (``known``, ``kept``) keeps its key without its HTML being made. ``games`` holds
    each game loaded so far, by folder; more are added."""
    seen: dict[Path, str] = {}
    listed: dict[Any, Any] = {}
    keys: dict[Any, str] = {}
    made: dict[Any, DocHtml] = {}
    inputs: dict[Any, str] = {}
    trees: dict[str, str] = {}
    for task in tasks:
        if isinstance(task, DocTask):
            inputs[task] = inputs_key(task, trees)
            before, record = (known or {}).get(task.path), (kept or {}).get(task.path)
            if before is not None and record is not None and before == [inputs[task], record.input_hash]:
                keys[task] = record.input_hash  # nothing it is made from changed: what it prints did not
                continue
            made[task] = _document_html(task, games)
            keys[task] = task.input_key(made[task], seen)
        else:
            if hasattr(task, "drawn_from") and task.game_root not in games:
                games[task.game_root] = Database(game=load_game(Path(task.game_root)))
            keys[task] = task_hash(task, listed, games.get(task.game_root))
    return keys, made, inputs


def _document_html(task: DocTask, games: dict[str, Database]) -> DocHtml:
    if task.game_root not in games:
        games[task.game_root] = Database(game=load_game(Path(task.game_root)))
    return task.html(games[task.game_root])


LAYOUT_CACHE = ".cache/layouts"
"""Pieces' pages laid out before, by the hash of their HTML and files (:func:`..piecepdf.layout_cache`)."""


def _render(task: Any, layouts: Path | None = None, made: DocHtml | None = None, cached_only: bool = False,
            db: Database | None = None) -> tuple[bytes, int, float, list[str]]:
    """Lay ``task`` out: a document from its HTML ``made``, a piece from ``db`` (its game, loaded here when
    not given)."""
    import time

    from ..piecepdf import layout_cache
    from ...collector import collected_after

    start = time.perf_counter()
    if db is None and made is None:
        from ..workers import FORKED_GAMES

        db = FORKED_GAMES.get(task.game_root)
    with layout_cache(layouts, cached_only), collected_after():
        if made is not None:
            data, pages, fell_back = task.render(made)
        else:
            data, pages, fell_back = task.render(db) if db is not None else task.render()
    return data, pages, time.perf_counter() - start, fell_back


def _cached_pieces(built_before: list[Any], layouts: Path, finished: Callable[[str, float], None] | None,
                   games: dict[str, Database]) -> dict[Any, tuple[bytes, int, float, list[str]]]:
    """Of the pieces built before and to build again, those whose every page is in the layout cache, drawn
    here: after an edit that changed none of their pages (one card's rules text), workers would cost more to
    start than the pieces cost to draw. (A piece never built before goes to the workers untried.)"""
    from ..piecepdf import NotLaidOut

    done: dict[Any, tuple[bytes, int, float, list[str]]] = {}
    if not layouts.is_dir():
        return done
    for task in built_before:  # one load of each game for all its pieces
        if isinstance(task, DocTask):  # keyed by what it prints: to do means to lay out
            continue
        if task.game_root not in games:
            games[task.game_root] = Database(game=load_game(Path(task.game_root)))
        try:
            done[task] = _render(task, layouts, cached_only=True, db=games[task.game_root])
        except NotLaidOut:
            continue
        if finished:
            finished(task.path, done[task][2])
    return done


def build_documents(tasks: list[Any], out: Path, kept: dict[str, OutputRecord], jobs: int,
                    finished: Callable[[str, float], None] | None = None,
                    games: dict[str, Database] | None = None, workers: Any = None) -> list[tuple[Any, OutputRecord, bool]]:
    """Build (or reuse) every document or piece (anything with ``path``, ``kind``, ``game_root`` and
    ``render()``); returns each task with its record and whether it was rendered. ``finished(path, seconds)``
    is called as each one is done, in the order they finish. ``games``: the games the caller has loaded, by
    folder (``str(db.game.root)``), read here instead of loading them again. ``workers``: the build's
    :class:`..workers.BuildWorkers`, whose pool lays them out (else a pool of their own)."""
    games = dict(games or {})
    known = _read_inputs(out)
    keys, made, inputs = _keys(tasks, games, kept, known)
    layouts = out / LAYOUT_CACHE
    results = []
    todo = []
    built_before = []
    for task in tasks:
        previous = kept.get(task.path)
        if previous is not None and previous.input_hash == keys[task] and still_valid(out, previous):
            results.append((task, previous, False))
        else:
            todo.append(task)
            if previous is not None:
                built_before.append(task)
            if isinstance(task, DocTask) and task not in made:  # kept by its inputs, but its file is gone
                made[task] = _document_html(task, games)
    done: dict[Any, tuple[bytes, int, float, list[str]]] = {}
    if jobs > 1 and len(todo) > 1:
        done = _cached_pieces(built_before, layouts, finished, games)
        todo_elsewhere = [task for task in todo if task not in done]
    else:
        todo_elsewhere = todo
    if jobs > 1 and len(todo_elsewhere) > 1:
        with ExitStack() as stack:
            pool = (workers or stack.enter_context(BuildWorkers(jobs, games))).pool()
            futures = {pool.submit(_render, task, layouts, made.get(task)): task for task in todo_elsewhere}
            for future in as_completed(futures):
                done[futures[future]] = future.result()
                if finished:
                    finished(futures[future].path, done[futures[future]][2])
    else:
        for task in todo_elsewhere:
            done[task] = _render(task, layouts, made.get(task))
            if finished:
                finished(task.path, done[task][2])
    for task in todo:
        data, pages, _, fell_back = done[task]
        record = OutputRecord(game=task.game, locale=task.locale, kind=task.kind, path=task.path, pages=pages,
                              sha256=write_output(out, task.path, data), input_hash=keys[task],
                              selection=task.record_selection, paper=task.paper, fallbacks=fallen_back(fell_back),
                              edition=getattr(task, "record_edition", None))
        results.append((task, record, True))
    _write_inputs(out, {**known, **{task.path: [inputs[task], keys[task]] for task in tasks if task in inputs}})
    return results


def _write_inputs(out: Path, pairs: dict[str, list[str]]) -> None:
    """Keep each document's inputs key beside its printed key for the next build (a cache: a build that cannot
    write it still succeeds, and the next one makes the documents' HTML to key them)."""
    import json

    from ...fileio import write_text_atomic

    text = json.dumps(pairs, indent=1, sort_keys=True) + "\n"
    try:
        if (out / DOCUMENT_INPUTS).is_file() and (out / DOCUMENT_INPUTS).read_text(encoding="utf-8") == text:
            return  # unchanged: a rebuild that changes nothing writes nothing
        (out / DOCUMENT_INPUTS).parent.mkdir(parents=True, exist_ok=True)
        write_text_atomic(out / DOCUMENT_INPUTS, text)
    except (OSError, UnicodeDecodeError):
        pass
