"""No two modules of one name in the same layer or in neighbouring layers (``render/printshop.py`` beside
``export/printshop.py`` was one): a reader who meets ``printshop`` should not have to ask which. Games are left
out: every game is a plugin of the same shape, so its modules share their names with the other games' on
purpose."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

from test_layers import LAYERS, PACKAGE, RANK


def clashes(package: Path, ranks: dict[str, int]) -> list[str]:
    """``name: top/a.py, top/b.py`` for each module name held by two top-level packages at most one layer apart."""
    where: dict[str, list[Path]] = defaultdict(list)
    for path in package.rglob("*.py"):
        top = path.relative_to(package).parts[0]
        if path.name != "__init__.py" and top != "games" and top in ranks:
            where[path.name].append(path.relative_to(package))
    found = []
    for name, paths in sorted(where.items()):
        for i, a in enumerate(paths):
            for b in paths[i + 1:]:
                if a.parts[0] != b.parts[0] and abs(ranks[a.parts[0]] - ranks[b.parts[0]]) <= 1:
                    found.append(f"{name}: {a.as_posix()}, {b.as_posix()}")
    return found


def test_no_module_name_is_shared_by_neighbouring_layers() -> None:
    assert len(LAYERS) > 5 and {"render", "export"} <= set(RANK)
    assert clashes(PACKAGE, RANK) == []


def test_a_shared_name_in_neighbouring_layers_is_found(tmp_path: Path) -> None:
    for module in ("render/printshop.py", "export/printshop.py", "engine/printshop.py", "games/a/printshop.py"):
        (tmp_path / module).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / module).write_text("", encoding="utf-8")
    assert clashes(tmp_path, RANK) == ["printshop.py: render/printshop.py, export/printshop.py"] or \
        clashes(tmp_path, RANK) == ["printshop.py: export/printshop.py, render/printshop.py"]
