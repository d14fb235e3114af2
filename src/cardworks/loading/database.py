"""Discover and parse every data file of a game folder or pack.

A game folder is ``<cards>/<game>/`` with a ``game.json``; a pack is any
folder with a ``pack.json`` that names the game it extends. Files are found by
their place in the layout (see :mod:`cardworks.models.files`), read with
:func:`read_json` and validated strictly against their model.
"""

from __future__ import annotations

import errno
import os
import stat
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from ..errors import UsageError
from ..fileio import MAX_ASSET_BYTES, file_type
from ..journal import is_temporary, settle
from ..models.base import Document
from ..models.files import FileKind, classify
from ..problems import Problem
from .jsonfile import read_json
from .paths import is_inside
from .schema_errors import schema_problems


SCHEMA_FOLDER = "schema"
"""A game folder's own JSON Schemas (generated from its declared card fields) live in ``schema/`` at its root;
the loader reads no data there."""


def display_path(path: Path) -> str:
    """A path as shown in messages: relative to the working folder when inside it."""
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)


@dataclass
class LoadedFile:
    """One data file: where it is, its kind, and its parsed document (None if unusable)."""

    kind: FileKind
    path: Path
    display: str
    data: Any = None
    doc: Document | None = None


@dataclass
class Bundle:
    """The data files of one game folder or one pack."""

    root: Path
    is_pack: bool
    files: list[LoadedFile] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    overlay: Path | None = None
    """The owner's facts file merged into this game (``--facts``), if any: see :mod:`.overlay`."""

    @property
    def complete(self) -> bool:
        """True when every file parsed and validated, so cross-file checks are meaningful."""
        return all(f.doc is not None for f in self.files)

    def docs(self, kind: str) -> list[tuple[LoadedFile, Any]]:
        """Parsed documents of one kind, with their files, in path order."""
        return [(f, f.doc) for f in self.files if f.kind.name == kind and f.doc is not None]

    @property
    def label(self) -> str:
        return display_path(self.root)


@dataclass
class Database:
    """A game and the packs validated with it."""

    game: Bundle
    packs: list[Bundle] = field(default_factory=list)

    @property
    def bundles(self) -> list[Bundle]:
        return [self.game, *self.packs]

    def docs(self, kind: str) -> list[tuple[LoadedFile, Any]]:
        return [item for bundle in self.bundles for item in bundle.docs(kind)]

    @property
    def game_doc(self) -> Any:
        found = self.game.docs("game")
        return found[0][1] if found else None

    @property
    def pack_doc(self) -> Any:
        """The ``pack.json`` of the first pack (the subject of a pack command), or None."""
        found = self.packs[0].docs("pack") if self.packs else []
        return found[0][1] if found else None

    @property
    def output_id(self) -> str:
        """Folder name of this database's outputs: the pack's id for a pack, else the game's."""
        pack = self.pack_doc
        return pack.id if pack is not None else self.game_doc.id

    @property
    def roots(self) -> list[Path]:
        """The game folder and every pack folder: where its data, art and templates may be read."""
        return [bundle.root for bundle in self.bundles]


def _parse(loaded: LoadedFile, problems: list[Problem]) -> None:
    data, found = read_json(loaded.path, loaded.display)
    problems.extend(found)
    if data is None:
        return
    loaded.data = data
    if not isinstance(data, dict):
        problems.append(Problem(loaded.display, "", "wrong-type",
                                f"a {loaded.kind.name} file holds a JSON object, found {type(data).__name__}"))
        return
    named = data.get("$schema")
    if not isinstance(named, str):
        problems.append(Problem(loaded.display, "/$schema", "schema-ref",
                                f"the file must name its schema: \"$schema\": \".../schema/{loaded.kind.schema_file}\""))
    elif named.rsplit("/", 1)[-1] != loaded.kind.schema_file:
        problems.append(Problem(loaded.display, "/$schema", "schema-ref",
                                f"a file at this place is a {loaded.kind.name} file; its $schema must end in "
                                f"{loaded.kind.schema_file!r}, found {named!r}"))
    try:
        loaded.doc = loaded.kind.model.model_validate(data)
    except ValidationError as exc:
        problems.extend(schema_problems(exc, data, loaded.display))
    if any(p.file == loaded.display and p.severity == "error" for p in found):
        loaded.doc = None  # duplicate keys: the parsed object silently lost a value


def unsafe_entry(root: Path, path: Path) -> tuple[str, str] | None:
    """(code, message) when ``path`` is not a regular file inside ``root``: a symbolic link leading out
    or nowhere, a FIFO, a socket or a device, or a file over the size limit. None when it is safe to read."""
    try:
        info = path.stat()
        if path.is_symlink() and not is_inside(root, path):
            return "path-escape", "symbolic link to a file outside the game or pack; it is not read"
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return "symlink-loop", "symbolic link loop; it leads nowhere"
        return "file-unreadable", f"cannot read the file: {exc.strerror}"
    if stat.S_ISDIR(info.st_mode):
        return None
    if not stat.S_ISREG(info.st_mode):
        return "not-a-regular-file", f"this is a {file_type(info.st_mode)}, not a regular file; it is not read"
    if info.st_size > MAX_ASSET_BYTES:
        return "file-too-large", f"file is {info.st_size:,} bytes; the limit is {MAX_ASSET_BYTES:,} bytes"
    return None


def _settled(root: Path, temporaries: list[Path]) -> None:
    """An import interrupted in ``root`` finished or rolled back (:func:`cardworks.journal.settle`), said once."""
    for line in settle(root, temporaries):
        print(f"cardworks: {display_path(root)}: {line}", file=sys.stderr, flush=True)


def _discover(root: Path, is_pack: bool) -> Bundle:
    bundle = Bundle(root=root, is_pack=is_pack)
    _settled(root, [])  # an import's journal first: finishing it may write files the walk then reads
    temporaries = []
    for folder, dirnames, filenames in os.walk(root):
        base = Path(folder)
        dirnames.sort()
        for name in list(dirnames):
            unsafe = unsafe_entry(root, base / name)
            if unsafe is not None or (base / name).is_symlink() and not is_inside(root, base / name):
                code, message = unsafe or ("path-escape", "")
                if code == "path-escape":
                    message = "symbolic link to a folder outside the game or pack; it is not read"
                bundle.problems.append(Problem(display_path(base / name), "", code, message))
                dirnames.remove(name)
        for name in sorted(filenames):
            path = base / name
            if is_temporary(name):
                temporaries.append(path)
                continue
            display = display_path(path)
            unsafe = unsafe_entry(root, path)
            if unsafe is not None:  # every file the project may read, not only data files
                bundle.problems.append(Problem(display, "", *unsafe))
                continue
            if not name.endswith(".json"):
                continue
            relative = path.relative_to(root).as_posix()
            if not is_pack and relative.startswith(SCHEMA_FOLDER + "/"):
                continue  # the game's own JSON Schemas, for editors (docs/your-own-game.md): no data
            kind = classify(relative)
            if kind is None:
                bundle.problems.append(Problem(display, "", "unknown-file", "this file has no place in the data "
                                               "layout (docs/data-layout.md) and is ignored", "warning"))
                continue
            if kind.name == ("game" if is_pack else "pack"):
                where = "a pack" if is_pack else "a game folder"
                bundle.problems.append(Problem(display, "", "misplaced-file", f"a {kind.name} file does not belong in {where}"))
                continue
            bundle.files.append(LoadedFile(kind=kind, path=path, display=display))
    if temporaries:
        _settled(root, temporaries)
    for loaded in bundle.files:
        _parse(loaded, bundle.problems)
    return bundle


def load_game(folder: Path) -> Bundle:
    """Load a game folder (it must hold ``game.json``), merged with the owner's facts in use (``--facts``)."""
    from .overlay import merge_owner_facts
    bundle = _discover(folder, is_pack=False)
    merge_owner_facts(bundle)
    return bundle


def load_pack(folder: Path) -> Bundle:
    """Load a pack folder (it must hold ``pack.json``)."""
    return _discover(folder, is_pack=True)


def load_database(game_folder: Path, pack_folders: list[Path] | None = None) -> Database:
    """Load a game and the packs to validate with it."""
    return Database(game=load_game(game_folder), packs=[load_pack(p) for p in pack_folders or []])


def game_folders(cards_root: Path) -> list[Path]:
    """Folders under ``cards_root`` that hold a ``game.json``, sorted; ``cards_root`` alone when it holds one
    itself (a designer's own game folder, which can be anywhere: ``--cards my-game``)."""
    if not cards_root.is_dir():
        raise UsageError(f"card database folder {display_path(cards_root)!r} does not exist")
    if is_game_folder(cards_root):
        return [cards_root.resolve()]  # resolved: '--cards .' names its game by the folder's own name
    return sorted(p.parent for p in cards_root.glob("*/game.json"))


def is_game_folder(folder: Path) -> bool:
    """True when ``folder`` is itself one game's folder (it holds ``game.json``), not a database of games."""
    return (folder / "game.json").is_file()
