"""Where the print-shop profiles are and which there are: the data files alone, read without pydantic.

The command line lists the profiles in its help and its choices from here, so starting ``cardworks`` does not
load the profile models; ``profiles.py`` reads each file whole.
"""

from __future__ import annotations

from importlib import resources
from importlib.resources.abc import Traversable


def profile_folder() -> Traversable:
    """The shipped ``export/profiles/`` folder (package data)."""
    return resources.files(__package__) / "profiles"


def profile_names() -> list[str]:
    """Ids of the shipped profiles (their file names without ``.json``), sorted."""
    return sorted(entry.name.removesuffix(".json") for entry in profile_folder().iterdir() if entry.name.endswith(".json"))
