"""``build/manifest.json``: one record per output file, for tools and tests to find outputs."""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, field
from pathlib import Path

from ..fileio import write_bytes_atomic, write_text_atomic


@dataclass(frozen=True)
class OutputRecord:
    """One output file."""

    game: str
    locale: str | None
    kind: str
    """``cards``, ``cards-print-shop``, ``card-png``, ``calibration``."""
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
    """Cards whose rules text did not fit its box even at the smallest size."""


def write_output(out_dir: Path, relative: str, data: bytes) -> str:
    """Write one output atomically; return its sha256."""
    write_bytes_atomic(out_dir / relative, data)
    return hashlib.sha256(data).hexdigest()


def read_manifest(out_dir: Path) -> list[OutputRecord]:
    """Records of the previous build, or none when there is no readable manifest."""
    path = out_dir / "manifest.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return [OutputRecord(**record) for record in data["outputs"]]
    except (OSError, ValueError, KeyError, TypeError):
        return []


def write_manifest(out_dir: Path, records: list[OutputRecord]) -> Path:
    """Write the manifest atomically, records sorted by path."""
    path = out_dir / "manifest.json"
    body = {"outputs": [asdict(r) for r in sorted(records, key=lambda r: r.path)]}
    write_text_atomic(path, json.dumps(body, indent=2, ensure_ascii=False) + "\n")
    return path


def still_valid(out_dir: Path, record: OutputRecord) -> bool:
    """True when the file a record names is there with the recorded content."""
    path = out_dir / record.path
    return path.is_file() and hashlib.sha256(path.read_bytes()).hexdigest() == record.sha256
