"""Fixtures of the serve tests: a temporary copy of the shipped Fallera database and of the example pack, for the preview server to watch."""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from cardworks.serve import Preview, ServeOptions

REPO = Path(__file__).resolve().parents[2]


@dataclass
class Workspace:
    cards_root: Path
    pack: Path

    @property
    def pack_set(self) -> Path:
        return self.pack / "sets" / "example.json"

    def read(self, path: Path) -> Any:
        return json.loads(path.read_text(encoding="utf-8"))

    def write(self, path: Path, data: Any) -> None:
        """Write as an editor does: a new file renamed over the old one."""
        temporary = path.with_name(path.name + ".tmp~")
        temporary.write_text(data if isinstance(data, str) else json.dumps(data, indent=2, ensure_ascii=False) + "\n",
                             encoding="utf-8")
        temporary.replace(path)


@pytest.fixture
def workspace(tmp_path: Path) -> Workspace:
    cards_root = tmp_path / "cards"
    shutil.copytree(REPO / "cards" / "fallera", cards_root / "fallera")
    shutil.copytree(REPO / "examples" / "fallera-pack", tmp_path / "pack")
    return Workspace(cards_root, tmp_path / "pack")


@pytest.fixture
def pack_preview(workspace: Workspace) -> Preview:
    """The example pack's two cards, with the game they extend."""
    return Preview(ServeOptions(workspace.cards_root, (workspace.pack,)))
