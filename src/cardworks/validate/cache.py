"""Validation verdicts kept between builds, keyed by every byte validation may read.

A build validates its games first; a rebuild that changed nothing validation reads (another locale, other
sheet options, an output deleted) would do it again for nothing. The verdict (every problem, in order, and the completeness figures) is a function of the
game's files, the shipped templates and layouts, this code, the installed libraries and where the command is
run from (messages show paths relative to it), so the build keeps the last clean verdict under a key made of
all of them and reuses it while the key is the same. Any changed byte is a miss: the game is validated again.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import stat
import sys
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from ..loading.overlay import overlay_key
from ..fileio import MAX_ASSET_BYTES, file_digest, read_text_limited, write_text_atomic
from ..loading.database import game_folders
from ..problems import Problem
from ..resources import data_dir, package_dir

if TYPE_CHECKING:
    from ..loading.database import Database
    from .report import Report

FORMAT = 2
"""Bump when a stored verdict's form changes: older entries are then misses."""
RULES_FORMAT = 1
"""The same for the game rules' part (:class:`RulesVerdicts`), and for the view it is keyed by."""


def hash_tree(digest: "hashlib._Hash", root: Path, skip: Callable[[str], bool] | None = None,
              label: str | None = None) -> None:
    """Every entry under ``root`` (links not followed, ``__pycache__`` left out, and files whose path ``skip``
    accepts): its relative path and type; a regular file's bytes (only its size when it is over the asset limit,
    which validation reports by size); a link's text; what could not be read, the error (validation reports
    it). A FIFO or device is never opened. ``label`` names the tree in the hash instead of its path (a folder
    moved elsewhere then hashes the same)."""
    digest.update(f"\0tree {root if label is None else label}\0".encode())
    if not root.exists():
        digest.update(b"missing\0")
        return

    def unreadable(exc: OSError) -> None:
        digest.update(f"{exc.filename}\0error {exc.errno}\0".encode())

    for folder, dirnames, filenames in os.walk(root, onerror=unreadable):
        dirnames[:] = sorted(name for name in dirnames if name != "__pycache__")
        for name in sorted(filenames) + dirnames:
            path = os.path.join(folder, name)
            if skip is not None and skip(path):
                continue
            digest.update(f"{os.path.relpath(path, root)}\0".encode())
            try:
                info = os.lstat(path)
                digest.update(f"{stat.S_IFMT(info.st_mode)}\0".encode())
                if stat.S_ISLNK(info.st_mode):
                    digest.update(os.readlink(path).encode() + b"\0")
                elif stat.S_ISREG(info.st_mode) and info.st_size <= MAX_ASSET_BYTES:
                    digest.update(file_digest(path, info, partial(_read, path)) + b"\0")
                elif not stat.S_ISDIR(info.st_mode):
                    digest.update(f"{info.st_size}\0".encode())
            except OSError as exc:
                digest.update(f"error {exc.errno}\0".encode())


def _read(path: str) -> bytes:
    with open(path, "rb") as handle:
        return handle.read()


def _installed() -> list[str]:
    """The distributions installed where Python imports from (``name-version.dist-info``): a library upgraded
    (pydantic's messages, the language detector) changes the key."""
    found = []
    for entry in sys.path:
        try:
            found += [f"{entry}/{name}" for name in os.listdir(entry or ".") if name.endswith((".dist-info", ".egg-info"))]
        except OSError:
            continue
    return sorted(found)


def verdict_key(cards_root: Path, packs: list[Path] | None, game: str | None) -> str:
    """Hash of everything the verdict of ``validate(cards_root, packs, game)`` depends on."""
    digest = hashlib.sha256(f"cardworks-validation {FORMAT} {os.getcwd()}\0".encode())
    digest.update(json.dumps([str(cards_root), str(cards_root.resolve()), game,
                              [[str(p), str(p.resolve())] for p in packs or []]]).encode())
    folders = game_folders(cards_root)
    digest.update(json.dumps([str(f) for f in folders]).encode())
    for folder in folders:
        if packs or game is None or folder.name == game:
            hash_tree(digest, folder)
    for pack in packs or []:
        hash_tree(digest, pack)
    digest.update(code_key().encode())
    digest.update(overlay_key().encode())  # the owner's facts merged into the game (--facts)
    return digest.hexdigest()


def code_key() -> str:
    """Hash of the program a verdict comes from: Python, the installed libraries, this package's files and the
    shipped templates and layouts."""
    digest = hashlib.sha256(f"{sys.version}\0{json.dumps(_installed())}\0".encode())
    package = package_dir()
    hash_tree(digest, package)
    for name in ("templates", "layouts"):
        shipped = data_dir(name)
        if package not in shipped.parents:  # an editable install's checkout folders
            hash_tree(digest, shipped)
    return digest.hexdigest()


def _roots(cards_root: Path, packs: list[Path] | None) -> list[str]:
    """The absolute folders a problem may name (the working folder, the database, the packs, the shipped
    templates and code), longest first; all of them are in the key, so a kept verdict is read back with the
    same ones."""
    found = {os.getcwd(), str(cards_root), str(cards_root.resolve()), str(package_dir()), str(data_dir("templates")),
             str(data_dir("layouts"))}
    found |= {str(p) for pack in packs or [] for p in (pack, pack.resolve())}
    return sorted((r for r in found if os.path.isabs(r) and len(r) > 1), key=lambda r: (-len(r), r))


def portable(text: str, roots: list[str]) -> list[str | int]:
    """``text`` as pieces, each root in it replaced by its number: the entry names no folder of this machine."""
    parts: list[str | int] = [text]
    for number, root in enumerate(roots):
        split: list[str | int] = []
        for part in parts:
            if isinstance(part, int):
                split.append(part)
                continue
            for i, piece in enumerate(part.split(root)):
                split += ([number] if i else []) + ([piece] if piece else [])
        parts = split
    return parts


def local(parts: list[str | int], roots: list[str]) -> str:
    return "".join(roots[part] if isinstance(part, int) else part for part in parts)


def _stored(report: Report, roots: list[str]) -> dict:
    def problem(p: Problem) -> dict:
        return {name: portable(value, roots) for name, value in dataclasses.asdict(p).items()}

    def completeness(c) -> dict:  # noqa: ANN001 - a SetCompleteness
        return {**dataclasses.asdict(c), "file": portable(c.file, roots)}

    return {"items": [problem(p) for p in report.items],
            "completeness": {game: [completeness(c) for c in sets] for game, sets in report.completeness.items()},
            "assumed": report.assumed, "files": report.files,
            "pack_roots": [portable(str(p), roots) for p in report.pack_roots]}


def validate(cards_root: Path, packs: list[Path] | None, game: str | None,
             rules: RulesVerdicts | None = None) -> Report:
    """:func:`.runner.validate`, imported when a verdict is made: a kept one imports none of the checks."""
    from .runner import validate as run

    return run(cards_root, packs, game, rules)


def _report(stored: dict, roots: list[str]) -> Report:
    from .check_totals import SetCompleteness
    from .report import Report

    def completeness(raw: dict) -> SetCompleteness:
        return SetCompleteness(**{**raw, "file": local(raw["file"], roots),
                                  "by_type": {k: tuple(v) for k, v in raw["by_type"].items()}})

    return Report(items=[Problem(**{k: local(v, roots) for k, v in raw.items()}) for raw in stored["items"]],
                  completeness={game: [completeness(s) for s in sets] for game, sets in stored["completeness"].items()},
                  assumed=stored["assumed"], files=stored["files"],
                  pack_roots=[Path(local(p, roots)) for p in stored["pack_roots"]])


def _entry(folder: Path, cards_root: Path, packs: list[Path] | None, game: str | None) -> Path:
    """One entry per question asked (the latest verdict), so the folder does not grow with every edit."""
    asked = json.dumps([str(cards_root.resolve()), game, [str(p.resolve()) for p in packs or []]])
    return folder / f"{hashlib.sha256(asked.encode()).hexdigest()[:32]}.json"


def view_key(view: Database, code: str) -> str:
    """Hash of what the game's own checks can read (:mod:`.rules_view`): ``code`` (:func:`code_key`), each data
    file of ``view`` as parsed (kind, path, display name, data) and the bytes of every other file of its folders
    but translations (a plugin never reads the data files' bytes)."""
    digest = hashlib.sha256(f"cardworks-rules-view {RULES_FORMAT} {code}\0".encode())
    for bundle in view.bundles:
        digest.update(json.dumps([str(bundle.root), bundle.is_pack, [p.text() for p in bundle.problems]]).encode())
        for f in bundle.files:
            digest.update(json.dumps([f.kind.name, str(f.path), f.display, f.data], ensure_ascii=False,
                                     sort_keys=True, default=repr).encode() + b"\0")
        shown = {str(f.path) for f in bundle.files}
        hash_tree(digest, bundle.root, skip=lambda path, root=bundle.root: path in shown or _translation(path, root))
    return digest.hexdigest()


def _translation(path: str, root: Path) -> bool:
    """A translation file (``i18n/<locale>.json``): not in the view, so nothing the game's own checks read."""
    parts = Path(os.path.relpath(path, root)).parts
    return len(parts) == 2 and parts[0] == "i18n" and parts[1].endswith(".json")


class RulesVerdicts:
    """The game's own checks' problems on a view (:mod:`.rules_view`), kept in ``folder`` under
    :func:`view_key`, their folders in ``roots`` replaced by numbers (an entry names no folder of this machine).
    :meth:`known` answers a view seen before; :meth:`remember` notes a new verdict, which :meth:`keep` writes
    once the build that asked succeeded."""

    def __init__(self, folder: Path, roots: list[str], code: str) -> None:
        self.folder, self.roots, self.code = folder, roots, code
        self.new: dict[Path, dict] = {}
        self.keys: dict[int, str] = {}
        """The key of each view asked about (by ``id``), made once."""

    def _entry(self, view: Database) -> Path:
        asked = json.dumps([str(bundle.root.resolve()) for bundle in view.bundles])
        return self.folder / f"rules-{hashlib.sha256(asked.encode()).hexdigest()[:32]}.json"

    def known(self, view: Database) -> list[Problem] | None:
        """The problems kept for ``view``, or None (then :meth:`remember` what the checks find)."""
        key = self.keys[id(view)] = view_key(view, self.code)
        try:
            stored = json.loads(read_text_limited(self._entry(view)))
            if stored.get("format") == RULES_FORMAT and stored.get("key") == key:
                return [Problem(**{k: local(v, self.roots) for k, v in raw.items()}) for raw in stored["problems"]]
        except (OSError, ValueError, KeyError, TypeError, RecursionError):  # none yet, damaged or unsafe: checked again
            pass
        return None

    def remember(self, view: Database, problems: list[Problem]) -> None:
        self.new[self._entry(view)] = {
            "format": RULES_FORMAT, "key": self.keys.get(id(view)) or view_key(view, self.code),
            "problems": [{k: portable(v, self.roots) for k, v in dataclasses.asdict(p).items()} for p in problems]}

    def keep(self) -> None:
        """Write the verdicts remembered (where the folder cannot be written, they are not kept)."""
        for entry, stored in self.new.items():
            try:
                write_text_atomic(entry, json.dumps(stored, ensure_ascii=False))
            except OSError:
                pass
        self.new = {}


class Verdicts:
    """The verdict on ``validate(cards_root, packs, game)`` kept in ``folder``: :meth:`report` reuses it while
    nothing it depends on changed; :meth:`keep` stores a new one, called once the build that asked succeeded
    (a failed build writes nothing, not even this)."""

    def __init__(self, folder: Path, cards_root: Path, packs: list[Path] | None, game: str | None) -> None:
        self.asked = (cards_root, packs, game)
        self.folder = folder
        self.entry = _entry(folder, cards_root, packs, game)
        self.new: dict | None = None
        self.rules: RulesVerdicts | None = None

    def report(self) -> Report:
        key = verdict_key(*self.asked)
        try:
            stored = json.loads(read_text_limited(self.entry))  # never a FIFO waited on, nor a huge file read
            if stored.get("key") == key and stored.get("format") == FORMAT:
                return _report(stored["report"], _roots(*self.asked[:2]))
        except (OSError, ValueError, KeyError, TypeError, RecursionError):  # none yet, damaged or unsafe: validated again
            pass
        self.rules = RulesVerdicts(self.folder, _roots(*self.asked[:2]), code_key())
        report = validate(*self.asked, self.rules)
        # Only a verdict without errors, and only when the files were the same after validation as before it
        # (an edit saved meanwhile is validated next time).
        if not report.errors and verdict_key(*self.asked) == key:
            self.new = {"format": FORMAT, "key": key, "report": _stored(report, _roots(*self.asked[:2]))}
        return report

    def keep(self) -> None:
        """Store the verdict :meth:`report` made, if any, and its game rules' part (:mod:`.rules_view`). Where the folder cannot be written (a read-only
        output folder) it is not kept, and the next build validates: a build that changes nothing there must
        still succeed."""
        if self.new is None:  # nor the game rules' part: kept with the verdict, under the same conditions
            return
        if self.rules is not None:
            self.rules.keep()
        try:
            write_text_atomic(self.entry, json.dumps(self.new, ensure_ascii=False))
        except OSError:
            pass
        self.new = None


def cached_validate(cards_root: Path, packs: list[Path] | None, game: str | None, folder: Path) -> Report:
    """``validate(cards_root, packs, game)``, reused from ``folder`` when nothing it depends on changed, and
    kept there at once (see :class:`Verdicts`)."""
    verdicts = Verdicts(folder, cards_root, packs, game)
    report = verdicts.report()
    verdicts.keep()
    return report
