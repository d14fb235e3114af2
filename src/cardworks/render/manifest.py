"""``build/manifest.json``: one record per output file, for tools and tests to find outputs."""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path, PurePosixPath
from typing import Any

from ..errors import DataError
from ..fileio import MAX_ASSET_BYTES, UnsafeFile, file_digest, read_limited, write_bytes_atomic
from ..loading.database import display_path, unsafe_entry
from ..problems import Problem
from .transaction import Produce, active, file_sha256, produced_temp


@dataclass(frozen=True)
class OutputRecord:
    """One output file."""

    game: str
    locale: str | None
    kind: str
    """``cards``, ``cards-print-shop``, ``card-png``, ``calibration``, ``cut-svg`` and ``cut-dxf`` (the cut files of
    print-and-cut sheets) …"""
    path: str
    """Relative to the build folder, ``/``-separated."""
    pages: int
    sha256: str
    input_hash: str
    """Hash of everything the file was made from; equal hash, no rebuild."""
    selection: str | None = None
    players: int | None = None
    paper: str | None = None
    overflow: list[str] = field(default_factory=list)
    """Cards whose text did not fit even at the smallest size."""
    overflow_parts: dict[str, list[str]] = field(default_factory=dict)
    """Card → the parts that did not fit (``name``, ``stats``, ``rules``, ``flavour``)."""
    small_type: dict[str, dict[str, list[float]]] = field(default_factory=dict)
    """Card → its parts printed below the smallest type allowed: part → [printed size, minimum], in points
    (see :mod:`.legibility`)."""
    edition: str | None = None
    """For card files: ``fact`` or ``playtest`` (see :mod:`.marks`)."""
    contents: list[dict[str, Any]] = field(default_factory=list)
    """Card sheets: what the box holds against what the kit prints, one row per component (``kit.ContentRow``)."""
    contents_pages: int = 0
    """Card sheets: pages the contents takes at the start of the file (with its blank page for duplex); the
    sheets begin after them."""
    fallbacks: list[dict[str, str]] = field(default_factory=list)
    """Strings printed from another locale (``--allow-fallback``): ``string`` (record id / field, or ``label KEY``)
    and ``used``, the locale whose text was printed; each string once."""
    jpeg_quality: int | None = None
    """Card files: the JPEG quality their art was re-encoded at (``--jpeg-quality``); None: lossless art."""


def write_output(out_dir: Path, relative: str, data: bytes) -> str:
    """Write one output (staged by the build's transaction when one is open); return its sha256."""
    transaction = active(out_dir)
    if transaction is not None:
        return transaction.write(relative, data)
    write_bytes_atomic(out_dir / relative, data)
    return hashlib.sha256(data).hexdigest()


def write_output_file(out_dir: Path, relative: str, produce: Produce) -> tuple[str, Path]:
    """Write one output that ``produce`` saves to a file (staged by the build's transaction when one is open), so
    a large PDF never sits in memory; return its sha256 and the file to read it back from."""
    transaction = active(out_dir)
    if transaction is not None:
        return transaction.write_file(relative, produce)
    path = out_dir / relative
    tmp = produced_temp(path.parent, path.name, produce)
    try:
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return file_sha256(path), path


def hash_files(digest: "hashlib._Hash", paths: list[Path], root: Path, read: dict[Path, bytes] | None = None) -> None:
    """Feed each file's path (relative to ``root``) and the digest of its bytes (``fileio.file_digest``) into
    ``digest``, in path order. ``read`` keeps the digests of files read before in the same build, so that tasks
    hashing the same folders read them once."""
    for path in sorted(paths):
        unsafe = unsafe_entry(root, path)
        if unsafe is not None:  # validation reports these; a file swapped in since is refused here too
            raise DataError(f"{display_path(path)}: [{unsafe[0]}] {unsafe[1]}",
                            [Problem(display_path(path), "", *unsafe)])
        if read is not None and path in read:
            data = read[path]
        else:
            data = file_digest(path, _status(path), lambda path=path: read_limited(path, MAX_ASSET_BYTES))
            if read is not None:
                read[path] = data
        digest.update(str(path.relative_to(root)).encode() + b"\0" + data + b"\0")


def _status(path: Path) -> os.stat_result | None:
    """The file's status, None when it cannot be had (``read_limited`` then says why, as for any bad file)."""
    try:
        return os.stat(path)
    except OSError:
        return None


_FIELD_TYPES = {f.name: f.type for f in fields(OutputRecord)}


def _record(raw: Any) -> OutputRecord | None:
    """One manifest record, or None when it is not one (a hand-edited or damaged manifest)."""
    if not isinstance(raw, dict) or set(raw) - set(_FIELD_TYPES):
        return None
    text = (str,)
    expected = {"game": text, "kind": text, "path": text, "sha256": text, "input_hash": text, "pages": (int,),
                "locale": (str, type(None)), "selection": (str, type(None)), "players": (int, type(None)),
                "paper": (str, type(None)), "overflow": (list,), "overflow_parts": (dict,),
                "edition": (str, type(None)), "contents": (list,), "contents_pages": (int,),
                "fallbacks": (list,), "jpeg_quality": (int, type(None))}
    for name, kinds in expected.items():
        if name in raw and (not isinstance(raw[name], kinds) or isinstance(raw[name], bool)):
            return None
    if not all(isinstance(row, dict) for row in raw.get("contents", [])):
        return None
    if not all(isinstance(entry, dict) and set(entry) == {"string", "used"}
               and all(isinstance(v, str) for v in entry.values()) for entry in raw.get("fallbacks", [])):
        return None
    if not all(isinstance(card, str) for card in raw.get("overflow", [])):
        return None
    if not all(isinstance(parts, list) and all(isinstance(p, str) for p in parts)
               for parts in raw.get("overflow_parts", {}).values()):
        return None
    path = PurePosixPath(raw.get("path", ""))
    if not path.parts or path.is_absolute() or ".." in path.parts:
        return None
    try:
        return OutputRecord(**raw)
    except TypeError:  # a required field is missing
        return None


def read_manifest(out_dir: Path) -> list[OutputRecord]:
    """Records of the previous build; records that are not well formed are left out (they are rebuilt)."""
    path = out_dir / "manifest.json"
    try:
        data = json.loads(read_limited(path))
    except (UnsafeFile, ValueError, RecursionError):  # RecursionError: JSON nested thousands deep
        return []
    outputs = data.get("outputs") if isinstance(data, dict) else None
    if not isinstance(outputs, list):
        return []
    return [record for record in map(_record, outputs) if record is not None]


def overflow_from_manifest(build_dir: Path, game: str) -> dict[str, list[str]]:
    """Cards whose text overflowed in the last build, per locale (empty when there is no build)."""
    found: dict[str, set[str]] = {}
    for record in read_manifest(build_dir):
        if record.game == game and record.locale:
            found.setdefault(record.locale, set()).update(record.overflow)
    return {locale: sorted(cards) for locale, cards in found.items()}


def write_manifest(out_dir: Path, records: list[OutputRecord]) -> Path:
    """Write the manifest, records sorted by path: published with the build's outputs when a transaction is open."""
    path = out_dir / "manifest.json"
    body = {"outputs": [asdict(r) for r in sorted(records, key=lambda r: r.path)]}
    data = (json.dumps(body, indent=2, ensure_ascii=False) + "\n").encode("utf-8")
    transaction = active(out_dir)
    if transaction is not None:
        return transaction.publish(data)
    write_bytes_atomic(path, data)
    return path


def still_valid(out_dir: Path, record: OutputRecord) -> bool:
    """True when the file a record names is there, a regular file, with the recorded content."""
    path = out_dir / record.path
    try:
        return not path.is_symlink() and hashlib.sha256(read_limited(path, 1 << 31)).hexdigest() == record.sha256
    except UnsafeFile:
        return False
