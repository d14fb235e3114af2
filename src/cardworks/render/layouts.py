"""Finding and reading the sheet layout a build asks for (``--layout NAME``).

A pack's or game folder's own ``layouts/NAME.json`` comes before the shipped one of that name. A name is a
slug, never a path, so a layout cannot be read from outside the pack or the shipped folder.
"""

from __future__ import annotations

import re
from pathlib import Path

from pydantic import ValidationError

from ..errors import DataError, UsageError
from ..loading.database import display_path
from ..loading.jsonfile import read_json
from ..loading.schema_errors import schema_problems
from ..models.layout import LayoutFile
from ..problems import Problem
from ..resources import data_dir, shipped_layouts

NAME = re.compile(r"^[a-z0-9][a-z0-9-]{0,63}$")


def layout_path(name: str, roots: list[Path]) -> Path:
    """The file of layout ``name``: the first ``<root>/layouts/<name>.json`` of ``roots``, else the shipped one."""
    if not NAME.match(name):
        raise UsageError(f"--layout takes a layout name (lowercase letters, digits and '-'), not {name!r}")
    for root in roots:
        candidate = root / "layouts" / f"{name}.json"
        if candidate.is_file():
            return candidate
    shipped = data_dir("layouts") / f"{name}.json"
    if shipped.is_file():
        return shipped
    raise UsageError(f"no layout {name!r}: the shipped layouts are {', '.join(shipped_layouts())}, and a pack may "
                     "bring its own as layouts/<name>.json")


def read_layout(path: Path) -> tuple[LayoutFile, str]:
    """The layout file at ``path`` and its display name; DataError with ``file:pointer`` problems when it is
    not a valid layout file."""
    display = display_path(path)
    data, problems = read_json(path, display)
    if data is not None and not problems:
        try:
            return LayoutFile.model_validate(data), display
        except ValidationError as exc:
            problems = schema_problems(exc, data, display)
    raise DataError(f"the layout {display} cannot be used", problems or [Problem(display, "", "layout", "unreadable")])


def load_layout(name: str, roots: list[Path]) -> tuple[LayoutFile, str]:
    """Layout ``name`` as the build finds it (see :func:`layout_path`)."""
    return read_layout(layout_path(name, roots))
