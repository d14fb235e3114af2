"""Where the shipped templates, fonts and database are, found through ``importlib.resources``.

An installed wheel carries them inside the package (``cardworks/data/templates``,
``cardworks/data/cards``, ``cardworks/fonts``), so ``pip install .`` works from
any folder. An editable install of a checkout has no ``data/`` folder: the
checkout's own ``templates/`` and ``cards/`` beside ``src/`` are used instead.
"""

from __future__ import annotations

from functools import lru_cache
from importlib.resources import files
from pathlib import Path


@lru_cache(maxsize=1)
def package_dir() -> Path:
    """The installed ``cardworks`` package folder (a real folder: wheels are installed unzipped). Found once per
    process: a build asks for it tens of thousands of times, and ``files`` costs tens of microseconds a call."""
    return Path(str(files("cardworks")))


def data_dir(name: str) -> Path:
    """The shipped folder ``name`` (``templates``, ``cards`` or ``layouts``): packaged in a wheel, else the checkout's."""
    packaged = package_dir() / "data" / name
    if packaged.is_dir():
        return packaged
    return package_dir().parent.parent / name  # editable install: <checkout>/src/cardworks -> <checkout>/<name>


def shipped_layouts() -> list[str]:
    """The names of the shipped sheet layouts, read from their folder, so that a new layout file is offered by
    ``--layout``'s help and checked against the docs at once."""
    return sorted(path.stem for path in data_dir("layouts").glob("*.json"))


def fonts_dir() -> Path:
    """The bundled fonts (DejaVu), package data in every install."""
    return package_dir() / "fonts"
