"""Validation of the card database and of expansion packs.

The names below are imported on first use (:pep:`562`): a build that reuses its kept verdict
(:mod:`.cache`) imports none of the checks."""

import importlib as _importlib
import typing as _typing

if _typing.TYPE_CHECKING:
    from ..loading.database import game_folders
    from .report import Report
    from .runner import check_database, validate

_WHERE = {"Report": ".report", "check_database": ".runner", "game_folders": "..loading.database", "validate": ".runner"}
"""Each public name and the module it comes from."""

__all__ = ["Report", "check_database", "game_folders", "validate"]


def __getattr__(name: str) -> _typing.Any:
    if name not in _WHERE:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(_importlib.import_module(_WHERE[name], __name__), name)
    globals()[name] = value
    return value
