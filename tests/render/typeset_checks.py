"""Checks of printed typography on text read back from PDFs, shared by the document and face tests."""

from __future__ import annotations

import re
from collections.abc import Iterable

LINE_END_HYPHEN = re.compile(r"(\S*)[-‐\u00ad]\n(\S*)")


def split_names(text: str, names: Iterable[str]) -> list[tuple[str, str]]:
    """Names of ``names`` that ``text`` (lines as extracted) cuts at a line ending in a hyphen, whether the
    hyphen is a hyphenation's or the name's own: (name, the line end)."""
    plain = text.replace("’", "'")
    wanted = sorted({n.casefold().replace("’", "'") for n in names}, key=len, reverse=True)
    found = []
    for match in LINE_END_HYPHEN.finditer(plain):
        before = plain[max(0, match.start() - 80):match.start()] + match.group(1)
        after = match.group(2) + plain[match.end():match.end() + 80]
        for joined in (before + after, before + "-" + after):
            flat = joined.replace("\n", " ").casefold()
            for name in wanted:
                if any(m.start() < len(before) < m.end() for m in re.finditer(re.escape(name), flat)):
                    found.append((name, match.group(0)))
    return found


def straight_quotes(text: str) -> list[str]:
    """Each straight ``'`` or ``"`` in ``text`` with a little context."""
    return [text[max(0, i - 20):i + 20].replace("\n", " ") for i, char in enumerate(text) if char in "'\""]
