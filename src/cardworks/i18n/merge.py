"""Three-way merge of an import: the value exported, the value in the file, the value stored now.

Exports (PO, XLIFF, sheets) record per entry a *base hash*: a short hash of the
value they exported. An import then applies an entry only when the file's value
differs from that base (the translator or designer changed it), so a file never
reverts what another import wrote after it was exported. When the stored value
has changed too, and to something else than the file holds, the entry is a
conflict: nobody can know which one is meant, so the whole import is refused.
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any, Literal

BASE_LABEL = "cardworks-base"
"""Names the base hash in a PO ``#.`` comment, an XLIFF ``<note from=…>`` and a sheet's base column or sheet."""
BASE_PATTERN = re.compile(r"^[0-9a-f]{12}$")

LEGACY_WARNING = ("the file holds no base hashes (it was exported before cardworks recorded them), so it cannot be "
                  "merged safely: every value in it that differs from the database overwrites it, including values "
                  "changed since the export; export the file again to merge")

Decision = Literal["apply", "keep", "same", "conflict"]


def value_hash(value: Any) -> str:
    """The base hash of a value: 12 hex digits of the sha256 of its canonical JSON (None: nothing exported)."""
    canonical = json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()[:12]


def decide(base: str, file_value: Any, stored_value: Any) -> Decision:
    """What an import does with one entry, given its recorded base hash.

    ``keep``: the file did not change the entry (the stored value stays, whatever it is now);
    ``apply``: the file changed it and the store did not; ``same``: both made the same change;
    ``conflict``: both changed it, differently.
    """
    file_hash = value_hash(file_value)
    if file_hash == base:
        return "keep"
    stored_hash = value_hash(stored_value)
    if stored_hash == base:
        return "apply"
    if stored_hash == file_hash:
        return "same"
    return "conflict"


def shown(value: Any) -> str:
    """A value for a conflict message: text quoted, lists joined, long texts cut."""
    if value is None:
        return "nothing"
    if isinstance(value, list):
        value = ", ".join(str(v) for v in value)
    text = repr(value)
    return text if len(text) <= 120 else text[:117] + "…'"


def conflict_message(what: str, stored: Any, file_value: Any, base: str) -> str:
    """``what: database now has X, file has Y, exported Z`` (Z is the base hash: the export keeps no copy)."""
    return (f"{what}: changed in the database since the file was exported and differently in the file: database now "
            f"has {shown(stored)}, file has {shown(file_value)}, exported the value with base hash {base}; "
            "export again and redo this edit, or make the database hold the file's value first")


def check_base(text: str | None) -> str | None:
    """``text`` stripped when it is a well-formed base hash, else None."""
    if text is None:
        return None
    text = text.strip()
    return text if BASE_PATTERN.match(text) else None
