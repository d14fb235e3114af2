"""Labels that carry a number: the singular for one, the plural for a range or a list.

A generated "line 46-47" reads as a slip in every language; the labels come in pairs (``line`` and ``lines``)
and :func:`counted` picks the one that agrees with what it carries. ``validate`` (``label-plural``) checks that
every locale's label file has both forms of each pair.
"""

from __future__ import annotations

import re
from collections.abc import Callable

PAIRS = {"line": "lines"}
"""Singular label → plural label, for every label printed before a number or a range."""

_SEVERAL = re.compile(r"\d\s*[-–,;]\s*\d|\d\s+(?:and|i|y|et|en)\s+\d")


def is_several(numbers: str) -> bool:
    """True when ``numbers`` is a range or a list (``46-47``, ``5 and 26``), not one number."""
    return bool(_SEVERAL.search(numbers))


def counted(label: Callable[[str], object], singular: str, numbers: str) -> str:
    """``label(singular)`` or its plural, whichever agrees with ``numbers``, followed by them (``lines 46–47``)."""
    key = PAIRS[singular] if is_several(numbers) else singular
    return f"{label(key)} {numbers}"
