"""What ``build`` would refuse, found by ``validate``: the same checks, run without laying anything out.

A build stops on a card string missing in a locale it builds (``faces.build_job``) and on a rulebook or FAQ
string missing (``docs.documents``). ``validate`` runs those very functions for every locale a build of the
game (or pack) would make, so what it passes, the build builds: in the locales asked for (``--locale``; when
none is, those a build without ``--locale`` makes) what is missing is an error, in the other locales a
warning (it stops only the builds that ask for them).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict
from pathlib import Path

from ..errors import DataError
from ..i18n.locales import known_locale, resolve_locale
from ..loading.database import Database, game_folders, load_game
from ..loading.packs import open_packs
from ..problems import Problem


def _locales(db: Database) -> list[str]:
    """The locales a build of ``db`` makes without ``--locale`` (a pack's: the game's source locale and those
    it translates)."""
    game = db.game_doc
    if db.packs:
        translated = {doc.locale for b in db.packs for _, doc in b.docs("translations")}
        return [loc for loc in game.locales if loc == game.source_locale or loc in translated]
    return list(game.locales)


def refusals(db: Database, locale: str) -> list[Problem]:
    """What a build of ``db`` in ``locale`` refuses for want of a text: every card of every set (optional
    ones included), and for a game its rulebooks and FAQ index."""
    from .deck import build_deck  # the renderer's own functions, imported only when the cache cannot answer
    from .docs.build import doc_tasks
    from .faces import build_job

    found: list[Problem] = []
    try:
        build_job(db, build_deck(db, None, optional=("all",)), locale)
    except DataError as exc:
        found += exc.problems
    if not db.packs:  # a pack's build prints no documents
        selections = [s.id for s in db.game_doc.selections] or [build_deck(db).selection]
        for task in doc_tasks(db, [locale], selections, False, False):
            try:
                task.html(db)
            except DataError as exc:
                found += exc.problems
    return list(dict.fromkeys(found))


def unbuildable(cards_root: Path, packs: list[Path], asked: list[str]) -> list[Problem]:
    """What the builds of the games under ``cards_root`` (or of ``packs``) would refuse: errors in the locales
    ``asked`` (tags, as ``--locale`` takes them; none: the locales a build without ``--locale`` makes),
    warnings in the other locales they build."""
    databases = open_packs(cards_root, packs) if packs else \
        [Database(game=load_game(folder)) for folder in game_folders(cards_root)]
    problems: list[Problem] = []
    for db in databases:
        if db.game_doc is None:
            continue
        # a pack's build resolves every tag asked (an unknown one stops it); a build of every game skips a game
        # without the locale
        found = [(resolve_locale if packs else known_locale)(db.game_doc, tag) for tag in asked]
        wanted = {locale for locale in found if locale is not None} if asked else set(_locales(db))
        for locale in dict.fromkeys([*_locales(db), *sorted(wanted)]):
            severity = "error" if locale in wanted else "warning"
            note = "" if locale in wanted else f" (only a build with --locale {locale} stops on it)"
            problems += [Problem(p.file, p.location, p.code, p.message + note, severity) for p in refusals(db, locale)]
    return problems


CACHE_TABLE = "buildable.json"
"""``validate``'s answers of :func:`unbuildable` kept between runs in the user's cache folder, by the validation key
of every byte they depend on (data, code, templates) and the locales asked: generating every document only to
find a missing string costs more than the rest of ``validate``. A build never reads it: a wrong entry could only
make ``validate`` miss what the build itself then refuses loudly."""
KEPT = 32
"""Answers kept (the most recent ones): one per database, pack set and locale choice a user validates."""


def cached_unbuildable(cards_root: Path, packs: list[Path], asked: list[str]) -> list[Problem]:
    """:func:`unbuildable`, answered from the cache when nothing it depends on changed since it was last asked."""
    from ..fileio import read_cache_table, write_cache_table
    from ..validate.cache import verdict_key

    key = hashlib.sha256(json.dumps([verdict_key(cards_root, packs, None), asked]).encode()).hexdigest()
    table = read_cache_table(CACHE_TABLE)
    table = table if isinstance(table, dict) else {}
    kept = table.get(key)
    if isinstance(kept, list):
        try:
            return [Problem(**entry) for entry in kept]
        except TypeError:  # an entry of another shape: asked again
            pass
    found = unbuildable(cards_root, packs, asked)
    fresh = {k: v for k, v in table.items() if k != key and isinstance(v, list)}
    fresh = dict(list(fresh.items())[-(KEPT - 1):])
    fresh[key] = [asdict(problem) for problem in found]  # Problem's own fields, read back by Problem(**entry)
    write_cache_table(CACHE_TABLE, fresh)
    return found
