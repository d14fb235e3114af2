"""cardworks: a card-data pipeline and print-and-play generator for card games.

The public API: load and validate a card database, list its cards, mint ids.

Its names are imported on first use (:pep:`562`): ``import cardworks``, which every ``cardworks`` command and
``cardworks --help`` starts with, then costs no pydantic models, and a command imports only what it uses.
"""

import importlib as _importlib
import sys as _sys
import types as _types
import typing as _typing

if _typing.TYPE_CHECKING:
    from .catalog import CardRow, list_cards
    from .errors import CardworksError, DataError, UsageError
    from .ids import slugify
    from .loading import Database, load_database
    from .problems import Problem
    from .validate import Report, validate

_WHERE = {
    "CardRow": "catalog",
    "CardworksError": "errors",
    "DataError": "errors",
    "Database": "loading",
    "Problem": "problems",
    "Report": "validate.runner",
    "UsageError": "errors",
    "list_cards": "catalog",
    "load_database": "loading",
    "slugify": "ids",
    "validate": "validate.runner",
}
"""Each public name and the module it comes from."""

__all__ = ["CardRow", "CardworksError", "DataError", "Database", "Problem", "Report", "UsageError", "list_cards",
           "load_database", "slugify", "validate"]


def __getattr__(name: str) -> _typing.Any:
    if name not in _WHERE:
        raise AttributeError(f"module 'cardworks' has no attribute {name!r}")
    value = getattr(_importlib.import_module(f".{_WHERE[name]}", __name__), name)
    if name != "validate":
        globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_WHERE))


class _Package(_types.ModuleType):
    """``cardworks.validate`` is the function, as it always was, though ``cardworks/validate/`` is also a
    subpackage: importing it makes the import system bind the subpackage to that name, which is refused here
    (the subpackage stays in ``sys.modules``); any other value bound to it is an error."""

    @property
    def validate(self) -> _typing.Any:
        from .validate.runner import validate

        return validate

    @validate.setter
    def validate(self, value: _typing.Any) -> None:
        if value is not _sys.modules.get(f"{__name__}.validate"):
            raise AttributeError("cardworks.validate is the validation function; it cannot be rebound")


_sys.modules[__name__].__class__ = _Package
