"""Ids: how they are minted and how they are compared."""

from __future__ import annotations

import re
import unicodedata

SLUG = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
_NON_ALNUM = re.compile(r"[^a-z0-9]+")


def slugify(name: str) -> str:
    """Mint an id from a card's original name.

    >>> slugify("Batalla d'Almansa")
    'batalla-d-almansa'
    >>> slugify("cabeça d'alls")
    'cabeca-d-alls'
    """
    text = name.replace("l·l", "ll").replace("L·L", "LL").replace("l.l", "ll")
    text = unicodedata.normalize("NFKD", text)
    text = "".join(ch for ch in text if not unicodedata.combining(ch)).lower()
    return _NON_ALNUM.sub("-", text).strip("-")


def is_slug(value: str) -> bool:
    """True for a lowercase ASCII slug such as ``el-capita-moro``."""
    return bool(SLUG.match(value))


def fold(value: str) -> str:
    """The form under which two ids count as the same: NFC, then case-folded."""
    return unicodedata.normalize("NFC", value).casefold()
